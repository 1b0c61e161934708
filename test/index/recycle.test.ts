/**
 * The encoders of the graph file and the query store, recycling (as the watch calls them after each
 * edit): each encode is made in the memory of the ones before it, and must give, edit after edit, the
 * bytes a plain encode of the same graph gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { encodePacked, packGraph, unpackGraph } from '../../src/graph/pack.js';
import { encodeStoreParts } from '../../src/graph/store.js';
import { forgetDeltaBase } from '../../src/graph/delta.js';
import { forgetPackDeltaBase } from '../../src/graph/pack-delta.js';
import { buildIndex, type IndexOptions } from '../../src/index/build.js';
import { PackMemo } from '../../src/index/cache.js';
import { indexDir, STORE_FILE } from '../../src/index/stored.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

/** The graph file's and the store's bytes, encoded keeping nothing. */
function plain(g: Graph): { graph: Buffer; store: Buffer } {
  return { graph: Buffer.concat(encodePacked(packGraph(g))), store: Buffer.concat(encodeStoreParts(g, 'k', packGraph(g), { keep: false })) };
}

/** The part of a store's parts that holds the symbols' JSON. */
function jsonPart(parts: Buffer[]): Buffer {
  const part = parts.find((b) => b.subarray(0, 6).toString() === '{"id":');
  assert.ok(part, 'a part holds the records');
  return part;
}

/**
 * A copy of the fixture tree, built once by a process that keeps its resolution (a memo, as the
 * watch has), with the file the tests edit and its text.
 */
function builtOnce(): { root: string; loc: IndexOptions; kubelet: string; original: string } {
  const root = tempDir('ka-recycle-tree-');
  cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
  const loc: IndexOptions = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-recycle-cache-'), workers: 0, memo: new PackMemo() };
  buildIndex(loc);
  const kubelet = join(root, 'pkg/kubelet/kubelet.go');
  return { root, loc, kubelet, original: readFileSync(kubelet, 'utf8') };
}

describe('the encoders, recycling', () => {
  it('give the bytes of plain encodes, edit after edit, in the memory of the encodes before', () => {
    const g = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-recycle-'), fresh: true }).graph;
    const e = g.edges;
    const s = g.symbols;
    assert.ok(e.length > 40 && s.length > 40, 'enough records to cut into runs');
    // An edit: records changed, made again, gone and moved, a name that comes and one that goes.
    const gone = s[5].id;
    const edited: Graph = {
      ...g,
      edges: [{ ...e[0] }, ...e.slice(1, 10), { ...e[10], callee: 'example.com/new.Callee', how: 'a new how' }, ...e.slice(12, 20), ...e.slice(30, 40), ...e.slice(20, 30), ...e.slice(40)].filter((x) => x.caller !== gone && x.callee !== gone),
      symbols: [{ ...s[0] }, ...s.slice(1, 5), ...s.slice(6, 15), { ...s[15], doc: 'a doc only this record has, ünïcode' }, ...s.slice(16)],
      unresolved: g.unresolved.slice(1),
    };
    // Bigger than any before it: every slot and kept buffer has to grow.
    const big: Graph = { ...g, edges: Array.from({ length: 30 }, (_, k) => e.map((x) => ({ ...x, line: x.line + k }))).flat(), symbols: [...s, ...s.map((x) => ({ ...x, id: `${x.id}Copy`, doc: `${x.doc ?? ''} and longer` }))] };
    const steps: [Graph, string][] = [
      [g, 'first'],
      [edited, 'edited'],
      [g, 'back'],
      [edited, 'edited again'],
      [structuredClone(edited), 'every record new'],
      [big, 'bigger'],
      [g, 'smaller again'],
      [edited, 'edited after the bigger one'],
      [g, 'back once more'],
    ];
    const want = new Map(steps.map(([x]) => [x, plain(x)]));
    const made: { columns: ArrayBufferLike; json: ArrayBufferLike }[] = [];
    for (const [x, what] of steps) {
      const p = packGraph(x, { keep: true, recycle: true });
      const graph = encodePacked(p, { keep: true, recycle: true });
      assert.ok(Buffer.concat(graph).equals(want.get(x)!.graph), `${what}: the graph file`);
      const store = encodeStoreParts(x, 'k', p, { keep: true, recycle: true });
      assert.ok(Buffer.concat(store).equals(want.get(x)!.store), `${what}: the query store`);
      made.push({ columns: p.edges.buffer, json: jsonPart(store).buffer });
    }
    // The packed columns are written over the last pack's; the records' JSON, which the next encode
    // copies runs from, over the one before it.
    assert.equal(made[1].columns, made[0].columns, 'the columns of the second pack');
    assert.equal(made[2].json, made[0].json, 'the JSON of the third encode');
    assert.equal(made[3].json, made[1].json, 'the JSON of the fourth encode');
    assert.notEqual(made[3].json, made[2].json, 'not over the JSON the encode copies from');
    assert.equal(made[8].columns, made[7].columns, 'after growing, the grown columns');
  });

  it('keeps nothing to write over when not asked to', () => {
    const g = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-recycle-'), fresh: true }).graph;
    const first = packGraph(g, { keep: true });
    const store = encodeStoreParts(g, 'k', first, { keep: true });
    const second = packGraph(g, { keep: true });
    encodeStoreParts(g, 'k', second, { keep: true });
    const third = encodeStoreParts(g, 'k', packGraph(g, { keep: true }), { keep: true });
    assert.notEqual(second.edges.buffer, first.edges.buffer);
    assert.notEqual(jsonPart(third).buffer, jsonPart(store).buffer);
  });

  it('leave, after each edit of a process that keeps its resolution, the query store and graph a fresh build writes', () => {
    const { root, loc, kubelet, original } = builtOnce();
    const one = '\nfunc recycledOne() int { return len("one") }\n';
    const two = '\nfunc recycledTwo(n int) int { return n + recycledOne() }\n';
    const texts = [original + one, original, original + one + two, original + two.replace('recycledOne()', '1'), original + one];
    // Each edit built in the process (its resolution kept, its encoders recycling), and the index
    // folder kept as it left it; compared after, as a fresh build's encodes would drop what the
    // process's encoders keep.
    const kept: string[] = [];
    for (const [i, text] of texts.entries()) {
      writeFileSync(kubelet, text);
      // The store and the graph file are written whole, not as deltas (see delta.test, pack-delta.test).
      forgetDeltaBase();
      forgetPackDeltaBase();
      const built = buildIndex(loc);
      assert.ok(built.incremental, `edit ${i}: resolved again in part`);
      const copy = tempDir('ka-recycle-kept-');
      cpSync(loc.cacheDir!, copy, { recursive: true });
      kept.push(copy);
    }
    for (const [i, text] of texts.entries()) {
      writeFileSync(kubelet, text);
      const fresh: IndexOptions = { root, ctx: loc.ctx, cacheDir: tempDir('ka-recycle-cache-'), workers: 0 };
      const want = buildIndex(fresh).graph;
      const at = { ...fresh, cacheDir: kept[i] };
      assert.ok(readFileSync(join(indexDir(at), STORE_FILE)).equals(readFileSync(join(indexDir(fresh), STORE_FILE))), `edit ${i}: the query store`);
      const stored = buildIndex(at);
      assert.ok(stored.fromCache, `edit ${i}: the graph file is read`);
      assert.deepEqual(unpackGraph(packGraph(stored.graph)), unpackGraph(packGraph(want)), `edit ${i}: the graph file`);
    }
  });

  it('leave, after edits that only move lines, the graph a fresh build makes (the graph file read into recycled memory)', () => {
    const { root, loc, kubelet, original } = builtOnce();
    const top = `// a line put first\n${original}`;
    const lines = '// two lines\n// put first\n';
    // An error message edited: its function's fingerprint changes, and its records are made again.
    const at = /fmt\.Errorf\("/.exec(lines + original)!;
    const literal = (lines + original).slice(0, at.index + at[0].length) + 'edited: ' + (lines + original).slice(at.index + at[0].length);
    for (const [text, cutOff] of [[top, 'positions'], [original, 'positions'], [lines + original, 'positions'], [literal, 'records'], [`// one more\n${literal}`, 'positions']] as const) {
      writeFileSync(kubelet, text);
      const built = buildIndex(loc);
      assert.equal(built.cutOff, cutOff, text.slice(0, 40));
      const fresh = buildIndex({ root, ctx: loc.ctx, cacheDir: tempDir('ka-recycle-cache-'), workers: 0 });
      assert.deepEqual(unpackGraph(packGraph(built.graph)), unpackGraph(packGraph(fresh.graph)), `${cutOff}: the graph, its lines moved`);
    }
  });
});
