/**
 * The query store's delta on a real tree: seeded random edits of `pkg/kubelet` files that change
 * facts, each built by one process that keeps its resolution (as the watch does). After each, the
 * store read through its delta must answer as a store written whole for the same graph does, about the
 * edited file's symbols, their callers and callees, and a few callees with thousands of callers; and a
 * one-shot build must read the graph built, through the graph file's delta. Some edits are followed by
 * a line put first in the file, then taken back (moves kept beside the deltas), some by one left for
 * the next edit to take; the graph after them all must be a full build's. Needs a Kubernetes
 * checkout in KUBELET_ATLAS_SOURCE (skipped without one); takes a few minutes.
 * KUBELET_ATLAS_SEED picks other edits.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { forgetDeltaBase } from '../../src/graph/delta.js';
import { bufferBytes, encodeStore, GraphStore } from '../../src/graph/index.js';
import { buildIndex, indexDir, openStore, type IndexOptions } from '../../src/index/build.js';
import { PackMemo, readPack } from '../../src/index/cache.js';
import { readFreshness } from '../../src/index/stored.js';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import { ownCopy, workingCopy } from '../../src/bench/working-copy.js';
import { packGraph, unpackGraph } from '../../src/graph/pack.js';
import type { Graph } from '../../src/model/index.js';
import { random } from '../helpers/random.js';
import { storeAnswers } from '../helpers/store-answers.js';
import { tempDir } from '../helpers/temp.js';

/** Edits that change what resolution makes: a call put in, a call taken out, a function added. */
const EDITS: ((lines: string[], pick: (n: number) => number, n: number) => boolean)[] = [
  (lines, pick) => {
    const at = lines.flatMap((l, i) => (/^\t+[a-z]\w*(\.\w+)*\(.*\)$/.test(l) && /^\t/.test(lines[i + 1] ?? '') ? [i] : []));
    if (at.length === 0) return false;
    lines.splice(at[pick(at.length)], 0, '\t_ = fmt.Errorf("kubelet-atlas %d", 1)');
    return true;
  },
  (lines, pick) => {
    const at = lines.flatMap((l, i) => (/^\t+[a-z]\w*(\.\w+)*\(.*\)$/.test(l) ? [i] : []));
    if (at.length === 0) return false;
    lines.splice(at[pick(at.length)], 1);
    return true;
  },
  (lines, _pick, n) => {
    lines.push(`func kubeletAtlasDelta${n}() { _ = fmt.Sprintf("%d", ${n}) }`, '');
    return true;
  },
];

describe('the query store delta on a Kubernetes tree', () => {
  const source = process.env['KUBELET_ATLAS_SOURCE'];
  const seed = Number(process.env['KUBELET_ATLAS_SEED'] ?? 2026);
  it(`answers as a store written whole after random edits of pkg/kubelet files (seed ${seed})`, (t) => {
    if (!source || !existsSync(join(source, 'pkg/kubelet'))) {
      t.skip('KUBELET_ATLAS_SOURCE is not set to a Kubernetes checkout');
      return;
    }
    const root = tempDir('ka-delta-real-');
    try {
      workingCopy(source, root, '');
      const ctx = defaultBuildContext();
      const loc: IndexOptions = { root, ctx, cacheDir: tempDir('ka-delta-real-cache-'), memo: new PackMemo() };
      const files = computeScope(openTree(root, ctx), 'default', ctx)
        .packages.flatMap((p) => p.files)
        .filter((f) => f.active && f.path.startsWith('pkg/kubelet/') && /"fmt"/.test(readFileSync(f.abs, 'utf8')));
      forgetDeltaBase();
      buildIndex(loc);
      const pick = random(seed);
      let deltas = 0;
      let moves = 0;
      let kept = 0;
      let last: Graph | undefined;
      const check = (graph: Graph, what: string, around: string) => {
        const mine = graph.symbols.filter((s) => s.file === around).map((s) => s.id);
        const near = graph.edges.filter((e) => e.file === around).flatMap((e) => [e.caller, e.callee]);
        const ids = [...new Set([...mine, ...near, 'fmt.Errorf', 'fmt.Sprintf', 'k8s.io/klog/v2.InfoS'])];
        const store = openStore(loc);
        assert.ok(store, `${what}: the store is fresh`);
        try {
          const whole = new GraphStore(bufferBytes(encodeStore(graph, 'whole')));
          const a = storeAnswers(store, ids) as Record<string, unknown>;
          const b = storeAnswers(whole, ids) as Record<string, unknown>;
          for (const k of Object.keys(b)) assert.deepEqual(a[k], b[k], `${what}: ${k}`);
        } finally {
          store.close();
        }
        // What a one-shot command reads of the graph: the graph file with the state's delta and moves.
        const read = buildIndex({ root, ctx, cacheDir: loc.cacheDir });
        assert.equal(read.fromCache, true, `${what}: the stored graph is taken`);
        assert.ok(isDeepStrictEqual(unpackGraph(packGraph(read.graph)), unpackGraph(packGraph(graph))), `${what}: the graph read differs from the one built`);
      };
      for (let trial = 0; trial < 9; trial++) {
        const file = files[pick(files.length)];
        const text = readFileSync(file.abs, 'utf8');
        const lines = text.split('\n');
        if (!EDITS[trial % EDITS.length](lines, pick, trial)) continue;
        ownCopy(file.abs);
        writeFileSync(file.abs, lines.join('\n'));
        const built = buildIndex(loc);
        const what = `trial ${trial}: ${file.path}`;
        if (!built.incremental) continue;
        const fresh = readFreshness(indexDir(loc));
        if (fresh?.moved?.delta) deltas++;
        check(built.graph, what, file.path);
        last = built.graph;
        // Lines moved in the edited file after it, left so: the next edit is taken with this file.
        if (trial % 3 === 2) {
          writeFileSync(file.abs, `// a line put first and left\n${lines.join('\n')}`);
          last = buildIndex(loc).graph;
          kept++;
        }
        // Lines moved in the edited file after it, then taken back: kept beside the deltas.
        if (trial % 3 === 1) {
          const edited = lines.join('\n');
          writeFileSync(file.abs, `// a line put first\n${edited}`);
          const moved = buildIndex(loc);
          assert.equal(moved.cutOff, 'positions', `${what}: a line put first`);
          if (readPack<{ delta?: unknown; moves?: unknown[] }>(join(indexDir(loc), 'state.v8'))?.delta && readFreshness(indexDir(loc))?.moved?.delta) moves++;
          check(moved.graph, `${what}, a line put first`, file.path);
          writeFileSync(file.abs, edited);
          check(buildIndex(loc).graph, `${what}, taken back`, file.path);
        }
      }
      // After them all, the graph is the one a resolution from nothing makes.
      assert.ok(last, 'an edit was built');
      const whole = buildIndex({ root, ctx, cacheDir: tempDir('ka-delta-real-ref-'), fresh: true }).graph;
      assert.ok(isDeepStrictEqual(unpackGraph(packGraph(last)), unpackGraph(packGraph(whole))), 'the graph after the edits differs from a full build\'s');
      t.diagnostic(`${deltas} edits kept as deltas, ${moves} line moves kept beside them, ${kept} left for the next edit`);
      assert.ok(deltas >= 3, `at least three edits kept as a delta (${deltas})`);
      assert.ok(moves >= 2, `at least two line moves kept beside deltas (${moves})`);
    } finally {
      forgetDeltaBase();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
