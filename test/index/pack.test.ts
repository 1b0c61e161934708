/**
 * packGraph keeps its strings and rows from one pack to the next (the watch packs after each edit):
 * whatever was packed before, a graph must pack to what a plain packing of it gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { encodePacked, packGraph, SYM_W, type PackedGraph } from '../../src/graph/pack.js';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

/** The packing written the plain way, as a test oracle: one string table, each string numbered on first use. */
function plainPack(g: Graph): Pick<PackedGraph, 'strings' | 'edges' | 'symbols' | 'unresolved'> {
  const list: string[] = [];
  const ids = new Map<string, number>();
  const id = (x: string | undefined) => {
    if (x === undefined) return -1;
    let i = ids.get(x);
    if (i === undefined) ids.set(x, (i = list.push(x) - 1));
    return i;
  };
  const edges = Int32Array.from(g.edges.flatMap((e) => [id(e.caller), id(e.callee), id(e.kind), id(e.mode), id(e.file), e.line, id(e.how), Math.round(e.confidence * 1000)]));
  const symbols = Int32Array.from(
    g.symbols.flatMap((x) => {
      const extra = x.typeKind || x.fields || x.methods ? JSON.stringify({ t: x.typeKind, f: x.fields, m: x.methods }) : undefined;
      return [id(x.id), id(x.kind), id(x.pkg), id(x.name), id(x.file), x.line, x.endLine, id(x.doc), id(x.fingerprint), id(x.signature), x.active ? 1 : 0, id(x.constraint), id(x.parent), id(extra)];
    }),
  );
  const unresolved = Int32Array.from(g.unresolved.flatMap((u) => [id(u.caller), id(u.file), u.line, id(u.callee), id(u.reason)]));
  return { strings: list, edges, symbols, unresolved };
}

function same(g: Graph, what: string): void {
  const p = packGraph(g, { keep: true });
  const want = plainPack(g);
  assert.deepEqual(p.strings, want.strings, `${what}: strings`);
  assert.deepEqual(p.edges, want.edges, `${what}: edges`);
  assert.deepEqual(p.symbols, want.symbols, `${what}: symbols`);
  assert.deepEqual(p.unresolved, want.unresolved, `${what}: unresolved`);
}

describe('packGraph, again and again', () => {
  it('packs each graph as a plain packing does, runs of the last pack copied or not', () => {
    const g = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-pack-'), fresh: true }).graph;
    assert.ok(g.edges.length > 40 && g.symbols.length > 40 && g.unresolved.length > 0, 'enough rows to cut into runs');
    same(g, 'first');
    same(g, 'the same graph again');
    // An edit's graph: most records the same objects, some made again in place, some changed, gone,
    // new or moved, with strings no other row uses.
    const e = g.edges;
    const edited: Graph = {
      ...g,
      edges: [{ ...e[0] }, ...e.slice(1, 10), { ...e[10], callee: 'example.com/new.Callee', how: 'a new how' }, ...e.slice(12, 20), ...e.slice(30, 40), ...e.slice(20, 30), ...e.slice(40)],
      symbols: [{ ...g.symbols[0] }, ...g.symbols.slice(2, 15), { ...g.symbols[15], doc: 'a doc only this record has' }, ...g.symbols.slice(16)],
      unresolved: g.unresolved.slice(1),
    };
    same(edited, 'edited');
    same(g, 'back');
    same(structuredClone(edited), 'all records new');
    same({ ...g, edges: [], symbols: g.symbols.slice(0, 3), unresolved: [] }, 'nearly empty');
    same(edited, 'edited again');
    assert.ok(packGraph(g).symbols.length === g.symbols.length * SYM_W);
    same(edited, 'after a pack that keeps nothing');
  });

  it('takes records no longer near their last place', () => {
    const g = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-pack-'), fresh: true }).graph;
    // Many copies of the edges, so that the first run's records sit far past the last run's end.
    const many = Array.from({ length: 200 }, () => g.edges.map((x) => ({ ...x }))).flat();
    const big: Graph = { ...g, edges: many };
    same(big, 'many');
    same({ ...g, edges: [...many.slice(many.length - 50), ...many.slice(0, many.length - 50)] }, 'rotated');
  });
});

describe('encodePacked, again and again', () => {
  it('writes the bytes a first encode writes, the string text copied in runs or not', () => {
    const g = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-pack-'), fresh: true }).graph;
    const bytes = (p: PackedGraph, keep: boolean) => Buffer.concat(encodePacked(p, { keep }));
    const first = packGraph(g);
    // Strings dropped, added (one not ASCII, which makes the byte ends differ from the ends) and moved.
    const s = first.strings;
    const other: PackedGraph = { ...first, strings: [...s.slice(0, 5), 'ünïcode, two bytes a letter', ...s.slice(7, 20), ...s.slice(30), ...s.slice(20, 30)] };
    // The plain bytes first: an encode that does not keep drops what the last one kept.
    const plain = new Map([first, other].map((p) => [p, bytes(p, false)]));
    for (const [p, what] of [[first, 'first'], [first, 'again'], [other, 'edited'], [first, 'back'], [other, 'edited again']] as const) {
      assert.ok(bytes(p, true).equals(plain.get(p)!), what);
    }
  });
});
