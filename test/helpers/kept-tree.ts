/**
 * A copy of a fixture tree as a process that builds again and again (the watch) works on it: for the
 * tests of the deltas that such a process writes beside the graph file and the query store.
 */
import { cpSync } from 'node:fs';
import { resolve } from 'node:path';
import { forgetDeltaBase } from '../../src/graph/delta.js';
import { forgetPackDeltaBase } from '../../src/graph/pack-delta.js';
import { buildIndex, type IndexOptions } from '../../src/index/build.js';
import { PackMemo } from '../../src/index/cache.js';
import type { Graph } from '../../src/model/index.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { tempDir } from './temp.js';

/** Forgets the bases of both deltas (the query store's and the graph file's): a process that starts anew has none. */
export function forgetDeltaBases(): void {
  forgetDeltaBase();
  forgetPackDeltaBase();
}

/**
 * A copy of the kubelike fixture (folders named after `name`) and the options of a process that keeps
 * its resolution between builds (a memo), with no delta base yet; `fresh()` builds the copy as it is
 * now from nothing, in a cache of its own.
 */
export function keptTree(name: string): { root: string; loc: IndexOptions; fresh: () => Graph } {
  const root = tempDir(`${name}-tree-`);
  cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
  const loc: IndexOptions = { root, ctx: defaultBuildContext(), cacheDir: tempDir(`${name}-cache-`), workers: 0, memo: new PackMemo() };
  forgetDeltaBases();
  const fresh = (): Graph => buildIndex({ root, ctx: loc.ctx, cacheDir: tempDir(`${name}-ref-`), workers: 0 }).graph;
  return { root, loc, fresh };
}
