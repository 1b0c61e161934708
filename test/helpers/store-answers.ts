/** What a query store answers, in a form to compare: stores that hold the same graph give the same. */
import assert from 'node:assert/strict';
import { lastName } from '../../src/graph/lookup.js';
import type { GraphStore } from '../../src/graph/index.js';
import type { Graph, SymbolRecord } from '../../src/model/index.js';

/** Texts a search may be given: names, parts of paths, a key of every record's JSON, one letter. */
const SEARCHES = ['kind', 'true', 'a', 'k', 'syncloop', 'pleg', '/pkg/kubelet.', 'relist'];

/** The records of `from` whose ID, name or doc holds `text` (lower case) once lower cased, by ID: what a search filters. */
function holdingText(from: Iterable<SymbolRecord>, text: string): string[] {
  const has = (s: string | undefined) => s !== undefined && s.toLowerCase().includes(text);
  return [...from].filter((r) => has(r.id) || has(r.name) || has(r.doc)).map((r) => r.id).sort();
}

/** Every answer `store` gives about `ids`, with paths between some of them (every seventh, eight at most). */
export function storeAnswers(store: GraphStore, ids: string[]): unknown {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const names = [...new Set(ids.map(lastName))];
  // The records a search reads hold every one that holds its text (see GraphStore.symbolsHolding).
  const texts = [...SEARCHES, ...names.slice(0, 6).map((n) => n.toLowerCase())];
  const search = texts.map((t) => holdingText(store.allSymbols(), t));
  texts.forEach((t, k) => assert.deepEqual(holdingText(store.symbolsHolding(t), t), search[k], `the records a search for '${t}' reads`));
  const some = ids.filter((_, k) => k % 7 === 0).slice(0, 8);
  // The goroutines and channels, as JSON keeps them (the records' undefined fields left out).
  const concurrency = store.concurrency();
  return {
    concurrency: concurrency ? JSON.parse(JSON.stringify({ goroutines: concurrency.goroutines, channels: concurrency.channels })) : null,
    stats: store.stats,
    symbolIds: store.symbolIds().sort(),
    all: [...store.allSymbols()].sort(byId),
    get: ids.map((id) => store.get(id) ?? null),
    callers: ids.map((id) => store.callers(id)),
    callees: ids.map((id) => store.callees(id)),
    lastNames: names.map((n) => store.withLastName(n).sort()),
    byLastName: store.symbolIdsByLastName((l) => l.length % 3 === 0, 4, 12).sort(),
    paths: some.flatMap((a) => some.map((b) => store.path(a, b) ?? null)),
    search,
  };
}

/** The IDs the graphs have (symbols and ends of edges), and one none has. */
export function graphIds(...graphs: Graph[]): string[] {
  const ids = new Set<string>();
  for (const g of graphs) {
    for (const s of g.symbols) ids.add(s.id);
    for (const e of g.edges) ids.add(e.caller).add(e.callee);
  }
  return [...ids, 'example.com/not.There'];
}
