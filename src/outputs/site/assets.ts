/** Copies the site's own script and style, and the browser builds of Cytoscape, its dagre layout and MiniSearch. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteWriter } from './writer.js';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The assets live in src/outputs/site/assets; the compiled module runs from dist/src/outputs/site. */
function assetDir(): string {
  for (const c of [join(here, 'assets'), join(here, '..', '..', '..', '..', 'src', 'outputs', 'site', 'assets')]) {
    if (existsSync(join(c, 'site.js'))) return c;
  }
  throw new Error(`site assets not found next to ${here}`);
}

function vendor(pkg: string, file: string): Buffer {
  const main = require.resolve(pkg);
  // The package root is the folder named after it above its main file (dist/ may hold its own package.json).
  const marker = `${sep}node_modules${sep}${pkg}${sep}`;
  const root = main.slice(0, main.lastIndexOf(marker) + marker.length);
  return readFileSync(join(root, file));
}

export function copyAssets(w: SiteWriter): void {
  const dir = assetDir();
  for (const f of ['site.js', 'site.css', 'symbol.js']) w.write(`assets/${f}`, readFileSync(join(dir, f)));
  w.write('vendor/cytoscape.min.js', vendor('cytoscape', 'dist/cytoscape.min.js'));
  w.write('vendor/cytoscape-dagre.min.js', vendor('cytoscape-dagre', 'dist/cytoscape-dagre.min.js'));
  w.write('vendor/minisearch.js', vendor('minisearch', 'dist/umd/index.js'));
}
