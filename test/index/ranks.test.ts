/**
 * What the query store's encoder keeps from one encode to the next (the watch encodes it after each
 * edit): a ranking of names that must order names exactly as a fresh one, new names included, and
 * the sections made from the names alone, reused when the names are the same, byte for byte.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { encodeStore, nameRanks } from '../../src/graph/store.js';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

/** Whether `rank` orders `names` as localeCompare does, equal names sharing a rank. */
function agrees(names: string[], rank: ArrayLike<number>): string | undefined {
  for (let a = 0; a < names.length; a++) {
    for (let b = 0; b < names.length; b++) {
      const want = Math.sign(names[a].localeCompare(names[b]));
      const got = Math.sign(rank[a] - rank[b]);
      if (want !== got) return `${names[a]} vs ${names[b]}: localeCompare ${want}, ranks ${got}`;
    }
  }
  return undefined;
}

describe('nameRanks', () => {
  it('orders names as localeCompare, whether the last ranking is reused or not', () => {
    let seed = 9;
    const pick = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const word = () => Array.from({ length: 1 + pick(4) }, () => 'aAbB._(*)'[pick(9)]).join('');
    const base = Array.from({ length: 200 }, word);
    assert.equal(agrees(base, nameRanks(base)), undefined, 'a fresh ranking');
    for (let round = 0; round < 5; round++) {
      // Some names gone, some new (several between the same neighbours, some equal in locale order).
      const names = [...base.filter(() => pick(4) > 0), ...Array.from({ length: 30 }, word), 'b.(*a)', 'B.(*A)', 'b.(*a)x'];
      assert.equal(agrees(names, nameRanks(names)), undefined, `round ${round}`);
    }
  });
});

describe('encodeStore, again', () => {
  it('writes what a first encode writes when it reuses the sections of the same names', () => {
    const graph = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-enc-'), fresh: true }).graph;
    // The same names, other edges: lines and confidences moved (what an edit of bodies does).
    const edited: Graph = { ...graph, edges: graph.edges.map((e, i) => (i % 7 === 0 ? { ...e, line: e.line + 1, confidence: 0.5 } : e)) };
    const other: Graph = { ...graph, symbols: graph.symbols.slice(1) };
    const first = encodeStore(graph, 'k');
    const again = encodeStore(edited, 'k');
    encodeStore(other, 'k');
    const fresh = encodeStore(edited, 'k');
    assert.notDeepEqual(again, first, 'the edit shows');
    assert.ok(again.equals(fresh), 'reused sections give the bytes a fresh encode gives');
  });
});

describe('encodeStore, records kept', () => {
  it('copies the records the last encode wrote and gives the bytes records made anew give', () => {
    const graph = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-rec-'), fresh: true }).graph;
    const s = graph.symbols;
    assert.ok(s.length > 40, 'enough records to cut into runs');
    // What a resolution in part passes: most records the same objects, some made again in place (a
    // package's record), some changed, some gone, some new, and a run moved.
    const later = [
      { ...s[0] },
      ...s.slice(1, 10),
      { ...s[10], doc: 'a doc made up for the test, "quoted" and ünïcode' },
      ...s.slice(12, 20),
      { ...s[20], id: `${s[20].id}Added`, name: `${s[20].name}Added` },
      ...s.slice(30, 40),
      ...s.slice(20, 30),
      ...s.slice(40),
    ];
    const edited: Graph = { ...graph, symbols: later };
    encodeStore(graph, 'k');
    const again = encodeStore(edited, 'k');
    const fresh = encodeStore(structuredClone(edited), 'k');
    assert.ok(again.equals(fresh), 'runs copied from the last encode give the bytes of records written anew');
    // And back: the first graph's records, after the edited ones.
    encodeStore(edited, 'k');
    assert.ok(encodeStore(graph, 'k').equals(encodeStore(structuredClone(graph), 'k')));
  });
});

describe('encodeStore, names kept', () => {
  it('takes the bytes, hashes and last names of names the last encode had, and gives a plain encode’s bytes', () => {
    const graph = buildIndex({ root: resolve('test/fixtures/go/kubelike'), ctx: defaultBuildContext(), cacheDir: tempDir('ka-names-'), fresh: true }).graph;
    const e = graph.edges;
    // Names that come (a new callee, in the middle of the names) and go (a symbol and its edges).
    const gone = graph.symbols[5].id;
    const edited: Graph = {
      ...graph,
      symbols: graph.symbols.filter((s) => s.id !== gone),
      edges: [...e.slice(0, 7), { ...e[7], callee: 'example.com/new.(*Thing).Method' }, ...e.slice(8)].filter((x) => x.caller !== gone && x.callee !== gone),
    };
    // A graph that shares no name with the others: an encode after it makes every name anew.
    const rename = (id: string) => `elsewhere/${id}`;
    const unrelated: Graph = { ...graph, symbols: graph.symbols.map((s) => ({ ...s, id: rename(s.id) })), edges: e.map((x) => ({ ...x, caller: rename(x.caller), callee: rename(x.callee) })) };
    for (const [from, to, what] of [[graph, edited, 'names added and removed'], [edited, graph, 'and back']] as const) {
      encodeStore(unrelated, 'k');
      const plain = encodeStore(to, 'k');
      encodeStore(from, 'k');
      assert.ok(encodeStore(to, 'k').equals(plain), what);
    }
  });
});
