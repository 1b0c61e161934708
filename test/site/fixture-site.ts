/** Builds the site from the Go fixtures, their topics, a malicious note and the repository's ports. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { SymbolTable } from '../../src/graph/index.js';
import { buildSite, loadExtras, type SiteResult } from '../../src/outputs/site/index.js';
import { tempDir } from '../helpers/temp.js';

export const GO_ROOT = resolve('test/fixtures/go/kubelike');

export interface FixtureSite {
  dir: string;
  result: SiteResult;
}

let built: FixtureSite | undefined;

export function fixtureSite(): FixtureSite {
  if (built) return built;
  const tmp = tempDir('ka-site-');
  const graph = buildIndex({ root: GO_ROOT, ctx: defaultBuildContext(), cacheDir: join(tmp, 'cache'), fresh: true }).graph;
  const extras = loadExtras({
    annotationsDir: resolve('test/fixtures/annotations'),
    notesDir: resolve('test/site/fixtures/notes'),
    portsRoot: resolve('.'),
  });
  const dir = join(tmp, 'site');
  const result = buildSite({
    graph,
    table: new SymbolTable(graph.symbols),
    outDir: dir,
    readSource: (f) => readFileSync(join(GO_ROOT, f), 'utf8'),
    version: 'v1.28.0',
    topics: extras.topics,
    ports: extras.ports,
    readPort: extras.readPort,
    notes: extras.notes,
  });
  built = { dir, result };
  return built;
}

/** Runs a JSONP data file and returns what it hands to KA.put. */
export function readData(dir: string, path: string): unknown {
  let value: unknown;
  const put = (_k: string, v: unknown) => {
    value = v;
  };
  new Function('KA', readFileSync(join(dir, path), 'utf8'))({ put });
  return value;
}
