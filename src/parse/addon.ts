/**
 * Finds and loads one of the Node-API addons built from src/parse/native at install. Kept apart from
 * the parse stage's entry so the query path (index/stored.ts) can load the freshness check without
 * loading the parser.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The addon `name` (build/Release/NAME.node), or undefined when it was not built, fails to load or KUBELET_ATLAS_NATIVE=0. */
export function loadAddon<T>(name: string): T | undefined {
  if (process.env['KUBELET_ATLAS_NATIVE'] === '0') return undefined;
  const rel = join('src', 'parse', 'native', 'build', 'Release', `${name}.node`);
  // From dist/src/parse (compiled) or src/parse (sources), the package root is three or two levels up.
  for (const root of [join(here, '..', '..', '..'), join(here, '..', '..')]) {
    const file = join(root, rel);
    if (!existsSync(file)) continue;
    try {
      return createRequire(import.meta.url)(file) as T;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
