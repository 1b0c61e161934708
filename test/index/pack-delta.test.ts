/**
 * The graph file's delta (graph/pack-delta.ts): the graph file with the delta kept in the state gives
 * the graph it stands for, edit after edit; the watch's builds keep it while it is small, and a later
 * process (one-shot commands, a build that moves lines, a warm start) reads the graph through it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { forgetPackDeltaBase, PACK_DELTA_MAX_ROWS, packDelta, packDeltaBytes, packWritten, type PackDelta } from '../../src/graph/pack-delta.js';
import { decodePacked, encodePacked, packGraph, unpackGraph } from '../../src/graph/pack.js';
import { buildIndex, indexDir, warmIndex, type IndexOptions } from '../../src/index/build.js';
import { PackMemo, readPack, writePack } from '../../src/index/cache.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { keptTree, forgetDeltaBases } from '../helpers/kept-tree.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');

/** A graph as its packing gives it back (the form every reader of the graph file sees). */
function normal(g: Graph): Graph {
  return unpackGraph(packGraph(g));
}

/** A delta of `g` over itself (for a file of `strings`). */
function packDeltaWith(g: Graph, strings: readonly string[]): PackDelta {
  packWritten('/nowhere/other.bin', g, 'X', strings);
  return packDelta('/nowhere/other.bin', g, { base: 'X', holds: 'X', moves: false })!;
}

describe('the graph file delta', () => {
  it('gives, with the graph file, the graph it stands for, edit after edit', () => {
    const g = buildIndex({ root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-pack-delta-'), fresh: true }).graph;
    const e = g.edges;
    const s = g.symbols;
    const one: Graph = {
      ...g,
      edges: [{ ...e[0], callee: 'example.com/new.Callee', how: 'a new how' }, ...e.slice(1, 10), ...e.slice(12)],
      symbols: [...s.slice(0, 3), { ...s[3], doc: 'a doc, ünïcode', line: 901 }, ...s.slice(4), { ...s[0], id: `${s[0].id}New`, fields: [{ name: 'x', type: 'int', embedded: false }] }],
      unresolved: [...g.unresolved.slice(1), { caller: e[0].caller, file: e[0].file, line: 3, callee: 'x.y', reason: 'a reason of its own' }],
      goroutines: g.goroutines.slice(1),
      stats: { ...g.stats, edges: 1 },
    };
    const two: Graph = { ...one, edges: [...one.edges.slice(5), ...e.slice(10, 12)], symbols: one.symbols.slice(2) };
    forgetPackDeltaBase();
    const file = '/nowhere/graph.bin';
    assert.equal(packDelta(file, g, { moves: false }), undefined, 'no delta before a graph file was written');
    const packed = packGraph(g);
    const base = Buffer.concat(encodePacked(packed));
    packWritten(file, g, 'L0', packed.strings);
    let holds = 'L0';
    for (const [next, label, what] of [[one, 'L1', 'an edit'], [two, 'L2', 'a second edit'], [g, 'L3', 'back to the first graph']] as const) {
      const d = packDelta(file, next, { base: 'L0', holds, moves: false });
      assert.ok(d, `${what}: a delta`);
      assert.equal(d.base, 'L0');
      holds = label;
      const read = decodePacked(Buffer.concat(packDeltaBytes(base, d)));
      assert.deepEqual(unpackGraph(read), normal(next), what);
      assert.equal(new Set(read.strings).size, read.strings.length, `${what}: each string once`);
      assert.ok(d.strings.every((x) => !packed.strings.includes(x)), `${what}: the delta's strings are the ones the file lacks`);
    }
    assert.ok(packDelta(file, one, { base: 'L0', holds: 'L2', moves: true }), 'whatever the state had beside the file');
    assert.equal(packDelta(file, one, { base: 'L9', holds: 'L9', moves: false }), undefined, 'another graph file');
    assert.equal(packDelta(file, one, { base: 'L0', holds: 'L0', moves: false }), undefined, 'none after a refusal: the file is written whole');
    packWritten(file, g, 'L0', packed.strings);
    const many: Graph = { ...g, edges: Array.from({ length: PACK_DELTA_MAX_ROWS + 1 }, (_, k) => ({ ...e[0], line: k })) };
    assert.equal(packDelta(file, many, { base: 'L0', holds: 'L0', moves: false }), undefined, 'too many rows of its own');
    assert.throws(() => packDeltaBytes(Buffer.concat(encodePacked(packGraph(one))), packDeltaWith(g, packed.strings)), /string table/);
    forgetPackDeltaBase();
  });

  it('is kept in the state by the watch, and read by later processes', () => {
    const { root, loc, fresh } = keptTree('ka-pack-delta');
    buildIndex(loc);
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const original = readFileSync(kubelet, 'utf8');
    const dir = indexDir(loc);
    const graphBytes = () => readFileSync(join(dir, 'graph.bin'));
    const state = () => readPack<{ delta?: unknown; moves?: unknown }>(join(dir, 'state.v8'));
    const first = graphBytes();
    const oneShot = () => buildIndex({ ...loc, memo: undefined });
    for (const [k, text] of [original + '\nfunc packAdded() { packOther() }\n\nfunc packOther() {}\n', original + '\nfunc packOther() {}\n'].entries()) {
      writeFileSync(kubelet, text);
      assert.ok(buildIndex(loc).incremental, `edit ${k}: resolved again in part`);
      assert.ok(state()?.delta, `edit ${k}: a delta in the state`);
      assert.ok(graphBytes().equals(first), `edit ${k}: the graph file is not written`);
      const read = oneShot();
      assert.equal(read.fromCache, true, `edit ${k}: a one-shot build takes the stored graph`);
      assert.deepEqual(normal(read.graph), normal(fresh()), `edit ${k}: the graph read through the delta`);
    }
    // Lines moved after a delta: kept as moves beside it, applied after it.
    writeFileSync(kubelet, '// a line put first\n' + original + '\nfunc packOther() {}\n');
    assert.equal(buildIndex(loc).cutOff, 'positions');
    assert.ok(state()?.delta && state()?.moves, 'the delta and the moves in the state');
    assert.deepEqual(normal(oneShot().graph), normal(fresh()), 'the graph read through the delta, then the moves');
    // A new process that finds the graph stored, delta and all: its first edit writes the graph file whole.
    forgetDeltaBases();
    const next: IndexOptions = { ...loc, memo: new PackMemo() };
    assert.equal(warmIndex(next), 'made');
    writeFileSync(kubelet, original);
    buildIndex(next);
    assert.equal(state()?.delta, undefined, 'written whole');
    assert.deepEqual(normal(oneShot().graph), normal(fresh()));
    // Its next edit is a delta again.
    writeFileSync(kubelet, original + '\nfunc packLast() {}\n');
    buildIndex(next);
    assert.ok(state()?.delta, 'a delta over the file it wrote');
    assert.deepEqual(normal(oneShot().graph), normal(fresh()));
    // A delta that does not go with the graph file (another string table): the graph cannot be read,
    // said with the file's name, and the next build resolves again.
    const st = readPack<Record<string, unknown> & { delta: { baseStrings: number } }>(join(dir, 'state.v8'))!;
    writePack(join(dir, 'state.v8'), { ...st, delta: { ...st.delta, baseStrings: st.delta.baseStrings + 1 } });
    const damaged = oneShot();
    assert.throws(() => damaged.graph, (err: Error) => err.message.includes('graph.bin') && /cannot be read.*run the command again/.test(err.message));
    assert.deepEqual(normal(oneShot().graph), normal(fresh()), 'resolved again');
    forgetDeltaBases();
  });
});
