/**
 * The query store's delta (graph/delta.ts): a store read through the deltas written after it answers
 * every query as a store written whole for the same graph does, edit after edit; and the watch's
 * builds write deltas while they are small, which one-shot queries then read.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { DELTA_MAX_BYTES, forgetDeltaBase, moveDeltaLines, readDelta, storeDelta, type StoreDelta } from '../../src/graph/delta.js';
import type { FileMove } from '../../src/graph/remap.js';
import { bufferBytes, encodeStore, GraphStore } from '../../src/graph/index.js';
import { packGraph, summarizeGraph, unpackGraph, type GraphSummary } from '../../src/graph/pack.js';
import { buildIndex, storedConcurrency, warmIndex, type IndexOptions, type IndexResult } from '../../src/index/build.js';
import { PackMemo } from '../../src/index/cache.js';
import { openStore, readFreshness, indexDir } from '../../src/index/stored.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Edge, Graph, SymbolRecord } from '../../src/model/index.js';
import { graphIds, storeAnswers } from '../helpers/store-answers.js';
import { keptTree, forgetDeltaBases } from '../helpers/kept-tree.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');

/**
 * `built` is the graph a fresh build of `root` makes, the store answers as one written whole for it,
 * and a one-shot build on the same cache reads it too. `summary`: the build's, whose unresolved sites
 * by reason (kept as updates go, see ResolveSession.unresolvedReasons) are the fresh graph's.
 */
function sameAsFresh(built: Graph, what: string, root: string, loc: IndexOptions, fresh: () => Graph, summary?: GraphSummary): void {
  const want = fresh();
  assert.deepEqual(unpackGraph(packGraph(built)), unpackGraph(packGraph(want)), `${what}: the graph a fresh build makes`);
  if (summary) {
    assert.deepEqual(summary.unresolvedByReason, summarizeGraph(want).unresolvedByReason, `${what}: the unresolved sites by reason`);
    assert.equal(summary.unresolved, want.unresolved.length, `${what}: the unresolved sites`);
  }
  const store = openStore(loc);
  assert.ok(store, `${what}: the store answers`);
  const ids = graphIds(want).filter((id) => /kubelet/.test(id));
  assert.deepEqual(storeAnswers(store, ids), storeAnswers(new GraphStore(bufferBytes(encodeStore(want, 'whole'))), ids), `${what}: the store`);
  // The store's own goroutines and channels, with its moves, or its delta's (as JSON keeps them: the records' undefined fields left out).
  const own = store.concurrency();
  assert.deepEqual(own && { goroutines: own.goroutines, channels: own.channels }, JSON.parse(JSON.stringify({ goroutines: want.goroutines, channels: want.channels })), `${what}: the goroutines and channels the store keeps`);
  store.close();
  const read = buildIndex({ root, ctx: loc.ctx, cacheDir: loc.cacheDir });
  // Read before the graph: from the state's delta, or the graph file's section, with its moves (see IndexResult.concurrency).
  const concurrency = { goroutines: want.goroutines, channels: want.channels };
  assert.deepEqual(read.concurrency, concurrency, `${what}: the goroutines and channels a one-shot command reads`);
  assert.deepEqual(storedConcurrency(indexDir(loc), readFreshness(indexDir(loc))!.graph), concurrency, `${what}: the goroutines and channels a query reads`);
  assert.deepEqual(unpackGraph(packGraph(read.graph)), unpackGraph(packGraph(want)), `${what}: the graph a one-shot command reads`);
}

describe('the query store delta', () => {
  it('is not made when the IDs it would name pass its limit (a graph whose records are all new), and the graph given is the next base', () => {
    const g = buildIndex({ root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-delta-'), fresh: true }).graph;
    const file = '/nowhere/query.bin';
    forgetDeltaBase();
    assert.equal(storeDelta(file, g, 'k0', { moves: false }), undefined);
    // Every edge and record made anew, with callers whose names alone pass the limit.
    const long = 'x'.repeat(Math.ceil(DELTA_MAX_BYTES / new Set(g.edges.map((e) => e.caller)).size) + 1);
    // Its stats hold a function, which node:v8 cannot serialize: the delta must not be made at all.
    const unserializable = (() => 0) as unknown as number;
    const anew: Graph = { ...g, edges: g.edges.map((e) => ({ ...e, caller: `${e.caller}${long}` })), symbols: g.symbols.map((x) => ({ ...x })), stats: { ...g.stats, probe: unserializable } };
    assert.equal(storeDelta(file, anew, 'k1', { base: 'k0', holds: 'k0', moves: false }), undefined, 'written whole');
    // The next edit is a delta over the graph written whole.
    const edge = anew.edges[7];
    const next: Graph = { ...anew, edges: anew.edges.map((e) => (e === edge ? { ...e, line: e.line + 1 } : e)), stats: g.stats };
    const bytes = storeDelta(file, next, 'k2', { base: 'k1', holds: 'k1', moves: false });
    assert.ok(bytes, 'a delta');
    assert.deepEqual([...readDelta(bytes).out.keys()], [edge.caller]);
  });

  it('answers as the store written whole does, edit after edit', () => {
    const g = buildIndex({ root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-delta-'), fresh: true }).graph;
    const e = g.edges;
    const s = g.symbols;
    assert.ok(e.length > 40 && s.length > 40, 'enough records to edit');
    const fn = s.find((x) => x.kind === 'func' || x.kind === 'method')!;
    const caller = e[3].caller;
    const gone = s.find((x) => x.id !== fn.id && x.id !== caller && e.some((y) => y.callee === x.id))!.id;
    const fresh: SymbolRecord = { ...fn, id: `${fn.pkg}.freshFunction`, name: 'freshFunction', line: 900, endLine: 910 };
    const newEdges: Edge[] = [
      { ...e[3], callee: fresh.id, line: 77 },
      { ...e[3], callee: 'example.com/outside.Helper', how: 'pkg-func', line: 78 },
      { ...e[3], callee: fresh.id, line: 77, mode: 'ref', kind: 'func-value' },
      { caller: fresh.id, callee: e[5].callee, kind: 'static', mode: 'go', file: fn.file, line: 905, how: 'pkg-func', confidence: 1 },
    ];
    // An edit: a function added with its edges, one symbol taken out with its edges, a record's doc
    // changed, an edge's target and confidence changed.
    const one: Graph = {
      ...g,
      edges: [...e.slice(0, 3), ...newEdges.slice(0, 2), e[3], ...e.slice(4, 9), { ...e[9], callee: e[10].callee, confidence: 0.5 }, ...e.slice(10), newEdges[2], newEdges[3]].filter((x) => x.caller !== gone && x.callee !== gone),
      symbols: [...s.slice(0, 4), { ...s[4], doc: 'a doc, ünïcode' }, ...s.slice(5), fresh].filter((x) => x.id !== gone),
      stats: { ...g.stats, edges: g.stats.edges + 1 },
    };
    // A second edit on top: the added function's edges change again, the taken symbol comes back.
    const two: Graph = { ...one, edges: [...one.edges.filter((x) => x.caller !== fresh.id), { ...newEdges[3], line: 906 }, ...e.filter((x) => x.caller === gone || x.callee === gone)], symbols: [...one.symbols, s.find((x) => x.id === gone)!] };
    const ids = graphIds(g, one, two);
    const file = '/nowhere/query.bin';
    forgetDeltaBase();
    assert.equal(storeDelta(file, g, 'k0', { moves: false }), undefined, 'the first store is written whole');
    const base = encodeStore(g, 'k0');
    let holds = 'k0';
    for (const [next, key, what] of [[one, 'k1', 'an edit'], [two, 'k2', 'a second edit'], [g, 'k3', 'back to the first graph'], [one, 'k4', 'the edit again']] as const) {
      const bytes = storeDelta(file, next, key, { base: 'k0', holds, moves: false });
      assert.ok(bytes, `${what}: a delta`);
      holds = key;
      const overlaid = new GraphStore(bufferBytes(base));
      overlaid.applyDelta(readDelta(bytes));
      const whole = new GraphStore(bufferBytes(encodeStore(next, key)));
      assert.deepEqual(storeAnswers(overlaid, ids), storeAnswers(whole, ids), what);
      if (next !== g) assert.notDeepEqual(storeAnswers(new GraphStore(bufferBytes(base)), ids), storeAnswers(whole, ids), `${what}: the store alone answers otherwise`);
      assert.deepEqual(overlaid.path(fresh.id, e[5].callee), whole.path(fresh.id, e[5].callee));
    }
    assert.equal(storeDelta(file, two, 'k5', { base: 'k9', holds: 'k9', moves: false }), undefined, 'another store file on disk than the one the deltas go with');
    assert.ok(storeDelta(file, one, 'k6', { base: 'k5', holds: 'k5', moves: true }), 'a delta over moves beside the store (it leaves them out)');
    forgetDeltaBase();
  });

  it('carries the goroutines and channels when they are not the base graph\'s records; the moves beside the store move them', () => {
    const g = buildIndex({ root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-delta-'), fresh: true }).graph;
    assert.ok(g.goroutines.length > 1 && g.channels.length > 1, 'the fixture starts goroutines and uses channels');
    const file = '/nowhere/query.bin';
    const disk = { base: 'k0', holds: 'k0', moves: false };
    forgetDeltaBase();
    assert.equal(storeDelta(file, g, 'k0', { moves: false }), undefined);
    const base = encodeStore(g, 'k0');
    const overlaid = (bytes: Buffer, shifts?: FileMove[]) => {
      const store = new GraphStore(bufferBytes(base));
      if (shifts) store.moveLines(shifts);
      store.applyDelta(readDelta(shifts ? moveDeltaLines(bytes, shifts) : bytes));
      return store.concurrency();
    };
    const asJson = (c: { goroutines: unknown; channels: unknown } | undefined) => c && JSON.parse(JSON.stringify({ goroutines: c.goroutines, channels: c.channels }));
    // An edge changed, the lists the base's: the store's sections answer.
    const edge = g.edges[7];
    const one: Graph = { ...g, edges: g.edges.map((e) => (e === edge ? { ...e, line: e.line + 1 } : e)) };
    const b1 = storeDelta(file, one, 'k1', disk)!;
    assert.equal((deserialize(b1) as StoreDelta).concurrency, null, 'null: the base\'s records');
    assert.deepEqual(asJson(overlaid(b1)), asJson(g));
    // A goroutine start moved and a channel operation gone: the delta carries both lists.
    const [go0] = g.goroutines;
    const two: Graph = { ...one, goroutines: [{ ...go0, line: go0.line + 3 }, ...g.goroutines.slice(1)], channels: g.channels.slice(1) };
    const b2 = storeDelta(file, two, 'k2', { ...disk, holds: 'k1' })!;
    const carried = (deserialize(b2) as StoreDelta).concurrency;
    assert.ok(carried?.goroutines instanceof Uint8Array && carried.channels instanceof Uint8Array, 'each list\'s bytes');
    assert.deepEqual(asJson(overlaid(b2)), asJson(two));
    assert.notDeepEqual(asJson(new GraphStore(bufferBytes(base)).concurrency()), asJson(two), 'the store alone answers otherwise');
    // Lines moved after the delta: the moves beside the store move its lists (moveDeltaLines leaves them).
    const lines = new Map([[go0.line + 3, go0.line + 5]]);
    const shifts: FileMove[] = [[go0.file, lines]];
    assert.deepEqual(readDelta(moveDeltaLines(b2, shifts)).concurrency(), readDelta(b2).concurrency(), 'the delta\'s lists left as they were');
    const moved = overlaid(b2, shifts)!;
    assert.equal(moved.goroutines[0].line, go0.line + 5, 'the delta\'s goroutine start moved');
    assert.deepEqual(asJson(moved)?.channels, asJson(two)?.channels);
    // The base's records with the moves: the store's sections, moved.
    const movedBase = overlaid(b1, [[go0.file, new Map([[go0.line, go0.line + 2]])]])!;
    assert.equal(movedBase.goroutines[0].line, go0.line + 2, 'the store\'s goroutine start moved');
    // Back to the base's records: null again.
    const b3 = storeDelta(file, g, 'k3', { ...disk, holds: 'k2' })!;
    assert.equal((deserialize(b3) as StoreDelta).concurrency, null);
    // A delta written before deltas carried them says nothing: the caller reads the graph file.
    const old = deserialize(b2) as StoreDelta;
    delete old.concurrency;
    assert.equal(overlaid(serialize(old)), undefined);
    // The lists are left out of the delta's limit: lists far past it still go in a delta.
    const many: Graph = { ...g, goroutines: Array.from({ length: Math.ceil((2 * DELTA_MAX_BYTES) / 40) }, (_, i) => ({ ...go0, line: i + 1 })) };
    const big = storeDelta(file, many, 'k4', { ...disk, holds: 'k3' });
    assert.ok(big && big.length > DELTA_MAX_BYTES, 'a delta past the limit, by its lists alone');
    assert.equal(overlaid(big)!.goroutines.length, many.goroutines.length);
    forgetDeltaBase();
  });

  it('follow an edit the kept resolution takes after edits that only moved lines, left in place', () => {
    const { root, loc, fresh } = keptTree('ka-delta-behind');
    buildIndex(loc);
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const pods = join(root, 'pkg/kubelet/kubelet_pods.go');
    const k0 = readFileSync(kubelet, 'utf8');
    const p0 = readFileSync(pods, 'utf8');
    const same = (built: IndexResult, what: string) => sameAsFresh(built.graph, what, root, loc, fresh, built.summary);
    // Lines moved in two files and left so; then an edit of one of them that changes facts.
    writeFileSync(kubelet, '// a line put first\n' + k0);
    writeFileSync(pods, '// a line put first\n\n' + p0);
    assert.equal(buildIndex(loc).cutOff, 'positions');
    writeFileSync(kubelet, '// a line put first\n' + k0 + '\nfunc behindAdded() { behindOther() }\n\nfunc behindOther() {}\n');
    const taken = buildIndex(loc);
    assert.ok(taken.incremental, 'resolved again in part, the files whose lines moved taken with it');
    same(taken, 'a function added after lines moved');
    // Lines moved again in the other file alone, then an edit of the first.
    writeFileSync(pods, p0);
    assert.equal(buildIndex(loc).cutOff, 'positions');
    writeFileSync(kubelet, k0);
    const back = buildIndex(loc);
    assert.ok(back.incremental, 'resolved again in part again');
    same(back, 'both back');
    forgetDeltaBases();
  });

  it('follow files that come and go, which the kept resolution takes', () => {
    const { root, loc, fresh } = keptTree('ka-delta-files');
    buildIndex(loc);
    const same = (built: IndexResult, what: string) => sameAsFresh(built.graph, what, root, loc, fresh, built.summary);
    const added = join(root, 'pkg/kubelet/atlas_added.go');
    writeFileSync(added, 'package kubelet\n\nimport "time"\n\nfunc atlasAdded(kl *Kubelet, d time.Duration) { kl.BirthCry() }\n');
    const came = buildIndex(loc);
    assert.ok(came.incremental, `a file that came: resolved again in part (not: ${came.refused})`);
    same(came, 'a file that came');
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const k0 = readFileSync(kubelet, 'utf8');
    // It goes while kubelet.go comes to call it: two files in one build.
    writeFileSync(kubelet, `${k0}\nfunc atlasCaller(kl *Kubelet) { atlasAdded(kl, 0) }\n`);
    rmSync(added);
    const went = buildIndex(loc);
    assert.ok(went.incremental, `a file that went: resolved again in part (not: ${went.refused})`);
    same(went, 'a file that went');
    writeFileSync(kubelet, k0);
    same(buildIndex(loc), 'back');
    forgetDeltaBases();
  });

  it('is written by the watch while it is small, and read by one-shot queries', () => {
    const { root, loc } = keptTree('ka-delta');
    buildIndex(loc);
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const original = readFileSync(kubelet, 'utf8');
    const dir = indexDir(loc);
    const storeBytes = () => readFileSync(join(dir, 'query.bin'));
    const first = storeBytes();
    for (const [k, text] of [original + '\nfunc deltaAdded() { deltaOther() }\n\nfunc deltaOther() {}\n', original + '\nfunc deltaOther() {}\n', original].entries()) {
      writeFileSync(kubelet, text);
      const r = buildIndex(loc);
      assert.ok(r.incremental, `edit ${k}: resolved again in part`);
      assert.ok(readFreshness(dir)?.moved?.delta, `edit ${k}: a delta beside the store`);
      assert.ok(storeBytes().equals(first), `edit ${k}: the store itself is not written`);
      const store = openStore(loc);
      assert.ok(store, `edit ${k}: the store answers`);
      const whole = new GraphStore(bufferBytes(encodeStore(r.graph, 'whole')));
      const ids = graphIds(r.graph).filter((id) => /kubelet/.test(id));
      assert.deepEqual(storeAnswers(store, ids), storeAnswers(whole, ids), `edit ${k}`);
      assert.equal(store.get('k8s.io/kubernetes/pkg/kubelet.deltaAdded')?.name, k === 0 ? 'deltaAdded' : undefined);
      store.close();
    }
    // Lines moved after a delta: kept beside the store, and the delta's own lines moved with them.
    const added = original + '\nfunc deltaAdded() { deltaOther() }\n\nfunc deltaOther() {}\n';
    writeFileSync(kubelet, added);
    buildIndex(loc);
    assert.ok(readFreshness(dir)?.moved?.delta, 'a delta again');
    const answersNow = (graph: Graph, what: string) => {
      const store = openStore(loc);
      assert.ok(store, `${what}: the store answers`);
      const ids = graphIds(graph).filter((id) => /kubelet/.test(id));
      assert.deepEqual(storeAnswers(store, ids), storeAnswers(new GraphStore(bufferBytes(encodeStore(graph, 'whole'))), ids), what);
      store.close();
    };
    for (const [text, cutOff, what] of [['// a line put first\n' + added, 'positions', 'a line put first'], ['// a line put first\n' + added.replace('func deltaOther', '// Its doc.\nfunc deltaOther'), 'records', 'a doc added'], [added, 'records', 'both taken back']] as const) {
      writeFileSync(kubelet, text);
      const moved = buildIndex(loc);
      assert.equal(moved.cutOff, cutOff, what);
      assert.ok(readFreshness(dir)?.moved?.delta && readFreshness(dir)?.moved?.moves, `${what}: the delta and the moves beside the store`);
      assert.ok(storeBytes().equals(first), `${what}: the store itself is not written`);
      answersNow(moved.graph, what);
    }
    // The resolution takes the next edit (the files are back to the facts it made its graph from): a
    // delta again, the moves left out.
    writeFileSync(kubelet, original + '\nfunc deltaAdded() {}\n');
    const after = buildIndex(loc);
    assert.ok(after.incremental, 'resolved again in part');
    assert.ok(readFreshness(dir)?.moved?.delta && !readFreshness(dir)?.moved?.moves, 'a delta, no moves');
    answersNow(after.graph, 'after the moves');
    // A new process that finds a delta beside the store writes the store whole at its first edit; one
    // that finds the store alone takes it as the base of its first delta.
    const newProcess = (): IndexOptions => {
      forgetDeltaBases();
      const next: IndexOptions = { ...loc, memo: new PackMemo() };
      assert.equal(warmIndex(next), 'made');
      return next;
    };
    let next = newProcess();
    writeFileSync(kubelet, original);
    buildIndex(next);
    assert.equal(readFreshness(dir)?.moved, undefined, 'the store written whole');
    assert.equal(openStore(loc)?.get('k8s.io/kubernetes/pkg/kubelet.deltaAdded'), undefined);
    next = newProcess();
    writeFileSync(kubelet, original + '\nfunc deltaAdded() {}\n');
    buildIndex(next);
    assert.ok(readFreshness(dir)?.moved?.delta, 'the first edit after a warm start is a delta');
    assert.equal(openStore(loc)?.get('k8s.io/kubernetes/pkg/kubelet.deltaAdded')?.name, 'deltaAdded');
    // A build that keeps no resolution writes the store whole, without the delta.
    forgetDeltaBase();
    writeFileSync(kubelet, original + '\n// a comment\n\nfunc deltaLast() {}\n');
    buildIndex({ ...loc, memo: undefined });
    assert.equal(readFreshness(dir)?.moved, undefined);
    assert.equal(openStore(loc)?.get('k8s.io/kubernetes/pkg/kubelet.deltaLast')?.name, 'deltaLast');
    assert.ok(DELTA_MAX_BYTES >= 1 << 16);
  });
});
