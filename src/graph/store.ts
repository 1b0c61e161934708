/**
 * The query store: the graph laid out for one-shot commands. `callers X` must answer in a fraction of a
 * second, so a command reads one binary file and decodes only what it touches: the node names (one
 * string split once), the adjacency of the nodes it visits (CSR arrays, already sorted the way views
 * print them) and the records of the symbols it shows (one JSON slice each).
 *
 * Layout: 'KAQ7' (bumped with each format change), a u32 header length, a JSON header naming each
 * section's [offset, length] in bytes and the graph the store holds, then the sections, each 8-byte
 * aligned so typed arrays can view the buffer without copying. Which files the graph stands for is not
 * in the store but beside it (index/stored.ts), so that a build that keeps the graph leaves it alone.
 */
import type { Edge, EdgeKind, EdgeMode, Graph, SymbolRecord } from '../model/index.js';
import { lastName, replacesRecord, symbolName } from './lookup.js';
import { EDGE_W, firstUse, packGraph, spareFor, SYM_W, textRuns, type KeptText, type PackedGraph, type Spare } from './pack.js';
import type { FileMove } from './remap.js';
import { Mover, movedRecords, type MovableRecords } from './mover.js';
import type { SymbolFields } from '../resolve/index.js';
import { align8, asBytes, layoutSections, openSections, viewAs, type OpenedSections } from './sections.js';
import type { Overlay } from './delta.js';
import { scratch, zeroed } from './scratch.js';

const MAGIC = 'KAQ7';
const KINDS: EdgeKind[] = ['static', 'interface', 'method-value', 'func-value', 'closure'];
const MODES: EdgeMode[] = ['call', 'go', 'defer', 'ref'];
const REF = MODES.indexOf('ref');
/** Ints per edge in the adjacency arrays: other end, kind*8+mode, file, line, how, confidence×1000. */
const W = 6;

/** The goroutine starts and channel operations the store keeps (see GraphStore.concurrency). */
export type StoredConcurrency = Pick<Graph, 'goroutines' | 'channels'>;

interface Header {
  v: 1;
  /** Which graph the store holds: the key of what resolution read to make it (the build's ResolveInputs key). */
  graph: string;
  nodes: number;
  symbols: number;
  stats: Record<string, number>;
  sections: Record<string, [number, number]>;
}

/** Callers are listed by name then line; callees likely-first (confidence), then name, then line. */
export function compareCallers(a: Edge, b: Edge): number {
  return a.caller.localeCompare(b.caller) || a.line - b.line;
}
export function compareCallees(a: Edge, b: Edge): number {
  return b.confidence - a.confidence || a.callee.localeCompare(b.callee) || a.line - b.line;
}

/**
 * Serializes a graph into the store's bytes, labelled `graph` (what identifies it: see Header). Which
 * files it was made from and their stats are kept beside it (see index/stored.ts), so that a build
 * that keeps the graph does not write the store again.
 */
export function encodeStore(g: Graph, graph: string): Buffer {
  return Buffer.concat(encodeStoreParts(g, graph));
}

/**
 * encodeStore's bytes as the pieces to write one after another, not copied into one buffer. They are
 * made from the packed graph (packGraph's, passed when the caller has it): its strings are interned
 * already, so nodes, files and hows are numbered by array lookups, not string maps. Without `keep`,
 * nothing is kept for the next encode (the records' JSON, the names' sections and ranking).
 */
export function encodeStoreParts(g: Graph, graph: string, packed: PackedGraph = packGraph(g), opts: { keep?: boolean; recycle?: boolean } = { keep: true }): Buffer[] {
  // With `recycle` (and `keep`), the arrays are the last encode's memory (see scratch.ts).
  const recycle = opts.keep !== false && opts.recycle === true;
  const S = packed.strings;
  const E = packed.edges;
  const Y = packed.symbols;
  // One record per ID, the active build variant's, as the symbol table picks it (replacesRecord), in
  // the order the IDs first appear.
  const pick = scratch(Int32Array, 'store.pick', S.length, recycle).fill(-1);
  const order: number[] = [];
  for (let i = 0, o = 0; o < Y.length; i++, o += SYM_W) {
    const id = Y[o];
    const prev = pick[id];
    if (prev < 0) order.push(id);
    if (prev < 0 || replacesRecord(Y[prev * SYM_W + 10] === 1, Y[o + 10] === 1)) pick[id] = i;
  }
  const symbols = order.map((id) => g.symbols[pick[id]]);
  // Node numbers: the symbols' IDs, then each edge's caller and callee, in order of first appearance.
  const { id: node, list: names } = firstUse(S, 'store.nodes', recycle);
  for (const id of order) node(id);
  const count = E.length / EDGE_W;
  const from = scratch(Int32Array, 'store.from', count, recycle);
  const to = scratch(Int32Array, 'store.to', count, recycle);
  for (let k = 0, o = 0; k < count; k++, o += EDGE_W) {
    from[k] = node(E[o]);
    to[k] = node(E[o + 1]);
  }
  // Each edge's kind*8+mode, from the few strings that name kinds and modes: each string's place in
  // KINDS or MODES looked up once (-2: not looked up yet).
  const kindCodes = scratch(Int32Array, 'store.kinds', S.length, recycle).fill(-2);
  const modeCodes = scratch(Int32Array, 'store.modes', S.length, recycle).fill(-2);
  const code = (sid: number, list: readonly string[], codes: Int32Array) => (codes[sid] !== -2 ? codes[sid] : (codes[sid] = list.indexOf(S[sid])));
  const kindMode = scratch(Int32Array, 'store.kindMode', count, recycle);
  for (let k = 0, o = 0; k < count; k++, o += EDGE_W) kindMode[k] = code(E[o + 2], KINDS, kindCodes) * 8 + code(E[o + 3], MODES, modeCodes);
  // The file and how strings, numbered in the order the adjacency arrays first use them.
  const { id: string, list: strings } = firstUse(S, 'store.strings', recycle);
  // Names ranked once in locale order, so the sorts below order by integers, not strings, and still
  // give the order compareCallers/compareCallees give (names that compare equal share a rank).
  const named = nameSections(names, symbols.length, recycle);
  const rank = named.rank;
  /**
   * The edges grouped by node `group[k]` (the start of each group in `start`), each group in the order
   * of `keys` (least significant first), equal keys in edge order: what sorting each group by a
   * comparator gives, as one counting-sort pass per key over all the edges.
   */
  const adjacency = (slot: string, group: Int32Array, other: Int32Array, keys: ((key: Int32Array) => void)[]) => {
    let order = scratch(Int32Array, 'store.order', count, recycle);
    let spare = scratch(Int32Array, 'store.orderSpare', count, recycle);
    for (let k = 0; k < count; k++) order[k] = k;
    const key = scratch(Int32Array, 'store.key', count, recycle);
    for (const fillKey of keys) {
      fillKey(key);
      stablePass(order, spare, key, recycle);
      [order, spare] = [spare, order];
    }
    const start = zeroed(Uint32Array, `store.${slot}Start`, names.length + 1, recycle);
    for (let k = 0; k < count; k++) start[group[k] + 1]++;
    for (let i = 0; i < names.length; i++) start[i + 1] += start[i];
    const fill = scratch(Uint32Array, 'store.fill', names.length, recycle);
    fill.set(start.subarray(0, names.length));
    const ids = spare;
    for (let j = 0; j < count; j++) {
      const k = order[j];
      ids[fill[group[k]]++] = k;
    }
    const data = scratch(Int32Array, `store.${slot}Data`, count * W, recycle);
    for (let j = 0; j < count; j++) {
      const k = ids[j];
      const e = k * EDGE_W;
      const o = j * W;
      data[o] = other[k];
      data[o + 1] = kindMode[k];
      data[o + 2] = string(E[e + 4]);
      data[o + 3] = E[e + 5];
      data[o + 4] = string(E[e + 6]);
      data[o + 5] = E[e + 7];
    }
    return { start, data };
  };
  // The confidence as packed (×1000, rounded) orders callees as the edges' own do: the resolver gives
  // confidences in hundredths.
  // Each key fills its value for every edge (one loop per key, not a call per edge).
  const line = (key: Int32Array) => {
    for (let k = 0; k < count; k++) key[k] = E[k * EDGE_W + 5];
  };
  const rankOf = (node: Int32Array) => (key: Int32Array) => {
    for (let k = 0; k < count; k++) key[k] = rank[node[k]];
  };
  const likelyFirst = (key: Int32Array) => {
    for (let k = 0; k < count; k++) key[k] = -E[k * EDGE_W + 7];
  };
  // Callees: likely first (the highest confidence), then by name, then by line.
  const out = adjacency('out', from, to, [line, rankOf(to), likelyFirst]);
  // Callers: by name, then by line.
  const inn = adjacency('in', to, from, [line, rankOf(from)]);
  const { json, jsonStart } = symbolRecords(symbols, recycle);
  const search = searchTexts(symbols, recycle);
  // What a path search walks: each out-edge's target alone, complemented (~n) for a reference edge,
  // a sixth of outData's bytes.
  const outTargets = scratch(Int32Array, 'store.outTargets', count, recycle);
  for (let j = 0; j < count; j++) outTargets[j] = (out.data[j * W + 1] & 7) === REF ? ~out.data[j * W] : out.data[j * W];
  const sections: [string, Buffer][] = [
    ...named.sections,
    ['symbolJson', json],
    ['symbolStart', asBytes(jsonStart)],
    ['searchText', search.bytes],
    ['searchStart', asBytes(search.start)],
    ['outStart', asBytes(out.start)],
    ['outData', asBytes(out.data)],
    ['outTargets', asBytes(outTargets)],
    ['inStart', asBytes(inn.start)],
    ['inData', asBytes(inn.data)],
    // The file and how strings are a section of their own, read only when an edge is printed: the
    // header, parsed by every query, stays a few hundred bytes.
    ['strings', Buffer.from(JSON.stringify(strings))],
    // The goroutine starts and channel operations, for `goroutines` and `channels` (see concurrency).
    ['goroutines', Buffer.from(JSON.stringify(g.goroutines))],
    ['channels', Buffer.from(JSON.stringify(g.channels))],
  ];
  // A process that encodes once (no watch) keeps nothing for a next encode.
  if (!opts.keep) lastRecords = spareRecords = lastSearch = spareSearch = lastNamed = spareNames = ranked = undefined;
  return layout({ v: 1, graph, nodes: names.length, symbols: symbols.length, stats: g.stats, sections: {} }, sections);
}

/**
 * One pass of a counting sort: `order`'s items (edge numbers) into `into`, by `key[item]` ascending,
 * items of equal keys in the order `order` has them (so passes least significant key first sort by all).
 */
function stablePass(order: Int32Array, into: Int32Array, key: Int32Array, recycle: boolean): void {
  const n = order.length;
  if (n === 0) return;
  let lo = key[0];
  let hi = key[0];
  for (let k = 1; k < n; k++) {
    const v = key[k];
    if (v < lo) lo = v;
    else if (v > hi) hi = v;
  }
  const at = zeroed(Uint32Array, 'store.buckets', hi - lo + 1, recycle);
  for (let k = 0; k < n; k++) at[key[k] - lo]++;
  for (let b = 0, sum = 0; b < at.length; b++) {
    const c = at[b];
    at[b] = sum;
    sum += c;
  }
  for (let j = 0; j < n; j++) {
    const k = order[j];
    into[at[key[k] - lo]++] = k;
  }
}

/** The last encode's records and their JSON bytes (see symbolRecords), and the encode's before when recycling. */
let lastRecords: KeptText<SymbolRecord> | undefined;
let spareRecords: Spare | undefined;

/**
 * The records' JSON, one after another, and where each starts (one more entry: the end). A process
 * that encodes the store again and again (the watch) passes the same record objects for the files an
 * edit did not change, in runs in the same order: each run of records the last encode wrote is copied
 * from its bytes at once, and only the others are made into JSON (see textRuns).
 */
function symbolRecords(symbols: SymbolRecord[], recycle: boolean): { json: Buffer; jsonStart: Uint32Array } {
  const last = lastRecords;
  lastRecords = textRuns(symbols, last, (i) => JSON.stringify(symbols[i]), symbols.length * 512, {}, recycle ? spareRecords : undefined);
  spareRecords = recycle ? last ?? spareFor(lastRecords) : undefined;
  return { json: lastRecords.bytes, jsonStart: lastRecords.start };
}

/** The last encode's search texts (see searchTexts), and the encode's before when recycling. */
let lastSearch: KeptText<SymbolRecord> | undefined;
let spareSearch: Spare | undefined;

/**
 * What a search looks in for a symbol (see GraphStore.symbolsHolding): its ID, its name where the ID
 * does not hold it, and its doc, each lower cased as the search lowers them (toLowerCase) and ended
 * by a newline. A text found in it is in one of the three, or runs across a newline.
 */
function searchText(s: SymbolRecord): string {
  const id = s.id.toLowerCase();
  const name = s.name.toLowerCase();
  const text = id.includes(name) ? `${id}\n` : `${id}\n${name}\n`;
  return s.doc ? `${text}${s.doc.toLowerCase()}\n` : text;
}

/** The symbols' search texts one after another, and where each starts (one more entry: the end), made as symbolRecords makes their JSON. */
function searchTexts(symbols: SymbolRecord[], recycle: boolean): KeptText<SymbolRecord> {
  const last = lastSearch;
  lastSearch = textRuns(symbols, last, (i) => searchText(symbols[i]), symbols.length * 128, {}, recycle ? spareSearch : undefined);
  spareSearch = recycle ? last ?? spareFor(lastSearch) : undefined;
  return lastSearch;
}

/** The sections made from the node names alone, and their ranks, kept for the next encode with the same names (see nameSections). */
let lastNamed: NamedSections | undefined;
/** The names' text before lastNamed's, when recycling: nothing uses it any more. */
let spareNames: Spare | undefined;

interface NamedSections {
  symbols: number;
  /** Each name's rank (see nameRanks). */
  rank: Int32Array;
  /** Each name's rank in the full ranking numbered `ranking` (-1: not in it; see rankNames). */
  was: Int32Array;
  ranking: number;
  sections: [string, Buffer][];
  /** The names, each followed by a newline (the names section is this without the last one), and where each starts. */
  text: KeptText<string>;
  /** Each name's hash, and its last name's number (see lastNameId). */
  hashes: Uint32Array;
  lastIds: Int32Array;
}

/**
 * The sections the node names decide (the names, their hash table, the symbols grouped by last name)
 * and the names' ranks. An edit of function bodies leaves the names as they were (the same symbols,
 * the same callers and callees): a process that encodes the store again and again (the watch) then
 * takes them as the last encode made them. When a few names came or went, the runs of names the last
 * encode had (see textRuns) take their bytes, hashes and last names from it.
 */
function nameSections(names: string[], symbols: number, recycle: boolean): NamedSections {
  const last = lastNamed;
  if (last && last.symbols === symbols && last.text.items.length === names.length && last.text.items.every((n, i) => n === names[i])) return last;
  if (!last) lastNameIds = { ids: new Map(), hashes: [], names: [] };
  const hashes = new Uint32Array(names.length);
  const lastIds = new Int32Array(names.length);
  // Each name's place in the last full ranking where the last encode had the name under that
  // ranking (see rankNames), else -2.
  const known = new Int32Array(names.length).fill(-2);
  const knownValid = last !== undefined && last.ranking === ranking;
  const text = textRuns(names, last?.text, (i) => names[i] + '\n', names.length * 80, {
    made: (i) => {
      hashes[i] = hash(names[i]);
      lastIds[i] = lastNameId(lastName(names[i]));
    },
    run: (i, j, n) => {
      hashes.set(last!.hashes.subarray(j, j + n), i);
      lastIds.set(last!.lastIds.subarray(j, j + n), i);
      if (knownValid) known.set(last!.was.subarray(j, j + n), i);
    },
  }, recycle ? spareNames : undefined);
  spareNames = recycle ? last?.text ?? spareFor(text) : undefined;
  const { rank, was } = rankNames(names, known);
  // The names section has no newline after the last name; its end is given as if it had (one past).
  const { bytes, start } = text;
  if (names.length === 0) start[0] = 1;
  const idHash = hashTable(names.length, (i) => hashes[i]);
  // The symbols grouped by last name, the groups in the order their names first appear: each symbol's
  // group numbered by its last name's number (see lastNameId), then laid out by a counting sort.
  const groupOf = new Int32Array(lastNameIds.hashes.length).fill(-1);
  const groupIds: number[] = [];
  const group = new Int32Array(symbols);
  for (let i = 0; i < symbols; i++) {
    const id = lastIds[i];
    let g = groupOf[id];
    if (g < 0) {
      g = groupOf[id] = groupIds.length;
      groupIds.push(id);
    }
    group[i] = g;
  }
  const groupStart = new Uint32Array(groupIds.length + 1);
  for (let i = 0; i < symbols; i++) groupStart[group[i] + 1]++;
  for (let g = 0; g < groupIds.length; g++) groupStart[g + 1] += groupStart[g];
  const fill = groupStart.slice(0, groupIds.length);
  const groupNodes = new Int32Array(symbols);
  for (let i = 0; i < symbols; i++) groupNodes[fill[group[i]]++] = i;
  const lastHash = hashTable(groupIds.length, (gi) => lastNameIds.hashes[groupIds[gi]]);
  // Each group's last name, ended by a newline, and where each starts (one more entry: the end): a
  // mistyped name's suggestions measure these, not every ID (see GraphStore.symbolIdsByLastName).
  const lastNames = groupIds.map((id) => lastNameIds.names[id]);
  const lastStart = new Uint32Array(groupIds.length + 1);
  for (let g = 0; g < lastNames.length; g++) lastStart[g + 1] = lastStart[g] + Buffer.byteLength(lastNames[g]) + 1;
  const sections: [string, Buffer][] = [
    ['names', bytes.subarray(0, Math.max(0, bytes.length - 1))],
    ['namesStart', asBytes(start)],
    ['idHash', asBytes(idHash)],
    ['lastHash', asBytes(lastHash)],
    ['groupStart', asBytes(groupStart)],
    ['groupNodes', asBytes(groupNodes)],
    ['lastNames', Buffer.from(lastNames.length ? `${lastNames.join('\n')}\n` : '')],
    ['lastStart', asBytes(lastStart)],
  ];
  lastNamed = { symbols, rank, was, ranking, sections, text, hashes, lastIds };
  return lastNamed;
}

/**
 * The last names met by the encodes of this process, each numbered once, with its hash: the names'
 * last names are numbers, copied in runs with the names, and grouped through an array, not a map of
 * strings. Made again with the encoder's kept state (see nameSections).
 */
let lastNameIds: { ids: Map<string, number>; hashes: number[]; names: string[] } = { ids: new Map(), hashes: [], names: [] };

function lastNameId(name: string): number {
  let id = lastNameIds.ids.get(name);
  if (id === undefined) {
    id = lastNameIds.hashes.length;
    lastNameIds.ids.set(name, id);
    lastNameIds.hashes.push(hash(name));
    lastNameIds.names.push(name);
  }
  return id;
}

/** The last full ranking of names (see nameRanks): the names in order, and each name's rank. */
let ranked: { sorted: string[]; rank: Map<string, number> } | undefined;
/** How many full rankings were made: which one `ranked` is. */
let ranking = 0;

/** Past this many names not in the last ranking, the names are ranked again from scratch. */
const RANK_AGAIN = 4096;

/**
 * Each name's rank in locale order (String.prototype.localeCompare's), names that compare equal
 * sharing one, so that the sorts order by numbers: non-negative integers, some skipped, the keys of
 * a counting sort. One collator for the whole sort, several times faster than
 * localeCompare. The ranking is kept for the next call (the watch encodes again after each edit):
 * names it holds keep their order, a few new ones are placed between their neighbours, and many new
 * ones make it rank everything again.
 */
export function nameRanks(names: string[]): Int32Array {
  return rankNames(names).rank;
}

/**
 * nameRanks, with each name's rank in the last full ranking as well (`was`, -1 for a name it does not
 * hold), for the next call to take as `known` where it has the same names (-2 where it does not know).
 */
function rankNames(names: string[], known?: Int32Array): { rank: Int32Array; was: Int32Array } {
  const collator = new Intl.Collator();
  const rank = new Int32Array(names.length);
  // One lookup per name not known already.
  const was = new Int32Array(names.length);
  let missing = names.length;
  if (ranked) {
    missing = 0;
    for (let i = 0; i < names.length; i++) {
      const r = known && known[i] !== -2 ? known[i] : (ranked.rank.get(names[i]) ?? -1);
      if (r < 0) missing++;
      was[i] = r;
    }
  }
  if (!ranked || missing > RANK_AGAIN) {
    const order = names.map((_, i) => i).sort((a, b) => collator.compare(names[a], names[b]));
    order.forEach((n, k) => {
      rank[n] = k > 0 && collator.compare(names[order[k - 1]], names[n]) === 0 ? rank[order[k - 1]] : k;
    });
    ranked = { sorted: order.map((n) => names[n]), rank: new Map(names.map((n, i) => [n, rank[i]])) };
    ranking++;
    return { rank, was: rank };
  }
  const { sorted, rank: ranks } = ranked;
  // The new names in order, each with the place of the first ranked name not before it.
  const fresh = [...new Set(names.filter((_, i) => was[i] < 0))].sort((a, b) => collator.compare(a, b));
  const place = (n: string) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (collator.compare(sorted[mid], n) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const extra = new Map<string, number>();
  for (let i = 0; i < fresh.length; ) {
    const at = place(fresh[i]);
    let j = i;
    while (j < fresh.length && place(fresh[j]) === at) j++;
    // fresh[i..j) go between sorted[at - 1] and sorted[at], spread out in order; a name equal to
    // sorted[at] (or to the one before it in the group) shares that rank.
    const before = at > 0 ? ranks.get(sorted[at - 1])! : -1;
    const after = at < sorted.length ? ranks.get(sorted[at])! : sorted.length;
    for (let k = i; k < j; k++) {
      const n = fresh[k];
      if (at < sorted.length && collator.compare(sorted[at], n) === 0) extra.set(n, after);
      else if (k > i && collator.compare(fresh[k - 1], n) === 0) extra.set(n, extra.get(fresh[k - 1])!);
      else extra.set(n, before + ((after - before) * (k - i + 1)) / (j - i + 1));
    }
    i = j;
  }
  // The ranks as integers again, for the counting sorts: an old rank r moves up by the number of new
  // in-between ranks below it, and the k-th of those (from 0) becomes the rank below it plus k + 1.
  const between = [...new Set(extra.values())].filter((v) => !Number.isInteger(v)).sort((a, b) => a - b);
  const below = new Int32Array(sorted.length);
  for (let r = 0, j = 0; r < below.length; r++) {
    while (j < between.length && between[j] < r) j++;
    below[r] = j;
  }
  const placed = new Map(between.map((v, k) => [v, Math.floor(v) + k + 1]));
  for (let i = 0; i < names.length; i++) {
    const v = was[i] >= 0 ? was[i] : extra.get(names[i])!;
    rank[i] = Number.isInteger(v) ? v + below[v] : placed.get(v)!;
  }
  return { rank, was };
}

/** The header (its `sections` filled in here) and the sections, in order, as the store's bytes (see layoutSections). */
function layout(header: Header, sections: [string, Buffer | Buffer[]][]): Buffer[] {
  return layoutSections(MAGIC, header, sections);
}

/**
 * The header and sections of `bytes`, if they are a store of this format holding the graph `from` (the
 * one a caller knows about); else undefined. Throws on a header that is not JSON.
 */
function storeSections(bytes: Buffer, from: string): OpenedSections<Header> | undefined {
  const opened = openSections<Header>(bytes, MAGIC, 'query store');
  return opened?.header.graph === from ? opened : undefined;
}

/**
 * The store with one file's lines moved (see remapLines), labelled `to` (see Header), made from the
 * old store's bytes without the graph: the lines of the file's edges are changed in the adjacency
 * arrays, the records of its symbols are rewritten, every other section is copied. The order of each
 * adjacency list stays as written: a caller's edges all sit in its own file, and moving lines in order
 * keeps their order. Undefined when `old` is not the store of the graph `from` or a line is not in the map.
 */
export function moveStoreLines(old: Buffer, from: string, to: string, file: string, lines: ReadonlyMap<number, number>): Buffer | undefined {
  const parts = moveStoreLinesParts(old, from, to, [[file, lines]]);
  return parts && Buffer.concat(parts);
}

/**
 * moveStoreLines for several files at once, as the pieces to write one after another (slices of `old`
 * among them). The records of the moved files' symbols are found by searching the records section for
 * each file's `"file":` key, and only those are parsed and written again; a move with fields gives them
 * their new docs and fingerprints too (see remapPackedBytes), and their search texts. The goroutine
 * starts and channel operations are moved as well. The edge lines are moved in place, in `old`
 * itself, which may be part moved when the answer is undefined: a private copy or map of the store
 * is what to pass (only the changed pages of a map are copied).
 */
export function moveStoreLinesParts(old: Buffer, from: string, graph: string, moves: FileMove[]): Buffer[] | undefined {
  try {
    const read = storeSections(old, from);
    if (!read) return undefined;
    const { header, section } = read;
    const to = (lines: ReadonlyMap<number, number>, n: number): number => {
      const m = lines.get(n);
      if (m === undefined) throw new Error(`line ${n} has no new place`);
      return m;
    };
    const strings = JSON.parse(section('strings').toString('utf8')) as string[];
    // For each string id, the moved file's lines when the string is one of the moved files.
    const linesOf = new Array<ReadonlyMap<number, number> | undefined>(strings.length);
    for (const [file, lines] of moves) {
      const id = strings.indexOf(file);
      if (id >= 0) linesOf[id] = lines;
    }
    // In place, in `old` (see above).
    const moveData = (name: string): Buffer => {
      const data = viewAs(Int32Array, section(name));
      for (let o = 0; o < data.length; o += W) {
        const lines = linesOf[data[o + 2]];
        if (lines) data[o + 3] = to(lines, data[o + 3]);
      }
      return asBytes(data);
    };
    const starts = viewAs(Uint32Array, section('symbolStart'));
    const records = section('symbolJson');
    // The records holding a moved file's key, by index: the last record starting at or before each hit.
    const hits = new Set<number>();
    const movedLines = new Map(moves.map(([file, lines]) => [file, lines]));
    const movedFields = new Map(moves.map(([file, , fields]) => [file, fields]));
    for (const [file] of moves) {
      const marker = Buffer.from(`"file":${JSON.stringify(file)}`);
      for (let at = records.indexOf(marker); at >= 0;) {
        const lo = lastAtOrBefore(starts, header.symbols - 1, at);
        hits.add(lo);
        at = records.indexOf(marker, starts[lo + 1]);
      }
    }
    // Each moved record again, by index, and its search text where its move gave it new fields.
    const again: [number, Buffer][] = [];
    const searchAgain: [number, Buffer][] = [];
    for (const i of [...hits].sort((a, b) => a - b)) {
      const rec = JSON.parse(records.toString('utf8', starts[i], starts[i + 1])) as SymbolRecord;
      // The key met inside another field (a doc quoting it): the record's own file decides.
      const lines = movedLines.get(rec.file);
      // The package's own record stays at line 1 (see remapLines).
      if (!lines || rec.id === rec.pkg) continue;
      const fields = movedFields.get(rec.file);
      const moved = movedRecord(rec, (n) => to(lines, n), fields);
      again.push([i, Buffer.from(JSON.stringify(moved))]);
      if (fields) searchAgain.push([i, Buffer.from(searchText(moved))]);
    }
    const json = respliced(records, starts, again);
    const replaced = new Map<string, Buffer | Buffer[]>([
      ['outData', moveData('outData')],
      ['inData', moveData('inData')],
      ['symbolJson', json.parts],
      ['symbolStart', asBytes(json.start)],
    ]);
    // The goroutine starts and channel operations of the moved files at their new lines.
    const goroutines = JSON.parse(section('goroutines').toString('utf8')) as StoredConcurrency['goroutines'];
    const channels = JSON.parse(section('channels').toString('utf8')) as StoredConcurrency['channels'];
    const moved = movedRecords({ goroutines, channels, diagnostics: [] }, moves);
    if (!moved) return undefined;
    replaced.set('goroutines', Buffer.from(JSON.stringify(moved.goroutines))).set('channels', Buffer.from(JSON.stringify(moved.channels)));
    if (searchAgain.length) {
      const search = respliced(section('searchText'), viewAs(Uint32Array, section('searchStart')), searchAgain);
      replaced.set('searchText', search.parts).set('searchStart', asBytes(search.start));
    }
    const sections = Object.entries(header.sections)
      .sort((a, b) => a[1][0] - b[1][0])
      .map(([name]): [string, Buffer | Buffer[]] => [name, replaced.get(name) ?? section(name)]);
    return layout({ ...header, graph, sections: {} }, sections);
  } catch {
    return undefined;
  }
}

/**
 * Texts laid end to end (`bytes`, each starting at `starts[i]`, one more entry: the end) with the
 * texts of some items replaced (`again`, by item, in ascending order): the pieces to write (slices
 * of `bytes` between the new texts) and where each text starts now.
 */
function respliced(bytes: Buffer, starts: Uint32Array, again: [number, Buffer][]): { parts: Buffer[]; start: Uint32Array } {
  const n = starts.length - 1;
  const parts: Buffer[] = [];
  const start = new Uint32Array(n + 1);
  let done = 0;
  let delta = 0;
  let next = 0;
  for (const [i, text] of again) {
    for (; next <= i; next++) start[next] = starts[next] + delta;
    parts.push(bytes.subarray(done, starts[i]), text);
    done = starts[i + 1];
    delta += text.length - (starts[i + 1] - starts[i]);
  }
  for (; next <= n; next++) start[next] = starts[next] + delta;
  parts.push(bytes.subarray(done));
  return { parts, start };
}

/** A symbol record of a moved file at its new lines (`to` maps them), with its new doc and fingerprint when the move has fields. */
function movedRecord(rec: SymbolRecord, to: (n: number) => number, fields: SymbolFields | undefined): SymbolRecord {
  const placed = { ...rec, line: to(rec.line), endLine: to(rec.endLine) };
  return fields ? refielded(placed, fields) : placed;
}

/** movedRecord for a reader: a record its move has no fields for (the build checked there are none such) keeps its own. */
/** A record of a moved file as a query reads it: its lines moved (those the map lacks stay), its fields taken when they fit. */
export function movedRecordOr(rec: SymbolRecord, lines: ReadonlyMap<number, number>, fields: SymbolFields | undefined): SymbolRecord {
  const to = (n: number) => lines.get(n) ?? n;
  try {
    return movedRecord(rec, to, fields);
  } catch {
    return movedRecord(rec, to, undefined);
  }
}

/** A piece of a section read through one buffer (see GraphStore.pieces). */
interface Piece {
  view: Buffer;
  base: number;
  keep: number;
}

/** The bytes a scan of the records' JSON reads at a time, when they are not mapped (see GraphStore.pieces). */
const SCAN_CHUNK = 1 << 20;

/** Whether bytes `from` to `to` of `b` hold one past ASCII. */
function beyondAscii(b: Buffer, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (b[k] >= 128) return true;
  return false;
}

/** The last index in [0, hi] whose value in the ascending `starts` is at most `at` (0 when none is). */
function lastAtOrBefore(starts: ArrayLike<number>, hi: number, at: number): number {
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A store record with the doc and fingerprint its file's new facts give it: the first listed under its
 * name (the store keeps the first record of an ID). The keys stay in the order collectSymbols writes
 * them, a doc just before the fingerprint, so the record reads as a fresh build writes it.
 */
function refielded(rec: SymbolRecord, fields: SymbolFields): SymbolRecord {
  const f = fields.get(symbolName(rec.id, rec.pkg))?.[0];
  if (!f) throw new Error(`no fields for ${rec.id}`);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (k === 'doc') continue;
    if (k === 'fingerprint') {
      if (f.doc !== undefined) out.doc = f.doc;
      out.fingerprint = f.fingerprint;
    } else {
      out[k] = v;
    }
  }
  return out as unknown as SymbolRecord;
}

/** FNV-1a over UTF-16 code units: the same in the writer and the reader, both JavaScript. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An open-addressing table (linear probing) of n items, at most half full; empty slots hold -1. */
function hashTable(n: number, hashOf: (i: number) => number): Int32Array {
  let size = 16;
  while (size < n * 2) size *= 2;
  const t = new Int32Array(size).fill(-1);
  for (let i = 0; i < n; i++) {
    let h = hashOf(i) & (size - 1);
    while (t[h] >= 0) h = (h + 1) & (size - 1);
    t[h] = i;
  }
  return t;
}


/** Reads byte ranges of the store: from a whole buffer, or from an open file on demand. */
export interface StoreBytes {
  read(offset: number, length: number): Buffer;
  /** Reading a whole section costs no copy (a map of it): the store reads sections whole, not in slices or pieces. */
  sections?: boolean;
  /** Reads `target.length` bytes at `offset` into `target` (fewer at the end): how many. Without it, read's bytes are copied. */
  readInto?(target: Buffer, offset: number): number;
  /** Releases what backs the bytes (an open file); reads after it fail. */
  close?(): void;
}

export function bufferBytes(buf: Buffer): StoreBytes {
  return { read: (o, n) => buf.subarray(o, o + n) };
}

/**
 * A read-only view over the store's bytes. Nothing is read or decoded until asked for: a lookup
 * probes a hash table and decodes one name, an adjacency list reads one slice. Past a few dozen
 * lookups (a path search) whole sections are read once instead.
 */
export class GraphStore {
  private readonly header: Header;
  private readonly base: number;
  private names?: string[];
  private strings?: string[];
  /** Names decoded so far, back to their node index. */
  private seen = new Map<string, number>();
  private ops = 0;
  private records = new Map<number, SymbolRecord>();
  private nameCache = new Map<number, string>();
  private cache = new Map<string, Buffer>();
  /** Files whose lines moved since the store was written (see moveLines), by name. */
  private moved?: Map<string, { lines: ReadonlyMap<number, number>; fields?: SymbolFields }>;
  /** What changed since the store was written (see applyDelta). */
  private delta?: Overlay;
  /** The delta's records, parsed, by ID. */
  private deltaRecords = new Map<string, SymbolRecord>();
  /** The delta's callers' edges sorted as callees lists, by caller; its callees' merged lists of callers, by callee. */
  private deltaLists = { out: new Map<string, Edge[]>(), in: new Map<string, Edge[]>() };
  /** Numbers past the store's own, for the IDs only the delta has, in the order they were asked for. */
  private extra = new Map<string, number>();

  constructor(private readonly bytes: StoreBytes) {
    const head = bytes.read(0, 8);
    if (head.length < 8 || head.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a kubelet-atlas query store');
    const len = head.readUInt32LE(4);
    this.header = JSON.parse(bytes.read(8, len).toString('utf8')) as Header;
    this.base = align8(8 + len);
  }

  /** Releases the file behind the store, if any: sections not read yet can no longer be. */
  close(): void {
    this.bytes.close?.();
  }

  /**
   * Reads the store as if the moves' lines had been moved in it (see moveStoreLinesParts, which writes
   * them in): a build whose edits only moved lines leaves the store as it is and keeps the moves beside
   * it (see index/stored.ts). Call before reading anything; a line a move does not know stays where it is.
   */
  moveLines(moves: readonly FileMove[]): void {
    if (moves.length === 0) return;
    this.moved = new Map(moves.map(([file, lines, fields]) => [file, { lines, fields }]));
    this.records.clear();
  }

  /**
   * Reads the store as the graph the delta describes (see graph/delta.ts): the delta's records, edges
   * and stats in place of the store's. Call before reading anything. Moves (moveLines) apply to what
   * the store itself holds, not to the delta, which is written with the lines as they are.
   */
  applyDelta(delta: Overlay): void {
    this.delta = delta;
  }

  /**
   * The graph's goroutine starts and channel operations, the store's or, when it carries them, its
   * delta's, with the moves' lines moved (see StoreDelta.concurrency), each list read when it is first
   * asked for. Undefined in a store without them, or with a delta that does not say (written before
   * deltas carried them): the caller reads them from the graph file. A line a move does not know stays
   * where it is, as in the store's other records (see moveLines).
   */
  concurrency(): StoredConcurrency | undefined {
    // The delta's lists, each parsed when read (see readDelta).
    const carried = this.delta?.concurrency();
    if (carried === undefined && this.delta) return undefined;
    if (!carried && !this.header.sections.goroutines) return undefined;
    const read = <K extends keyof StoredConcurrency>(name: K): StoredConcurrency[K] => {
      const list = carried ? carried[name] : (JSON.parse(this.section(name).toString('utf8')) as StoredConcurrency[K]);
      let records: MovableRecords = { goroutines: [], channels: [], diagnostics: [], [name]: list };
      for (const [file, m] of this.moved ?? []) records = new Mover(file, m.lines).records(records);
      return records[name] as StoredConcurrency[K];
    };
    let goroutines: StoredConcurrency['goroutines'] | undefined;
    let channels: StoredConcurrency['channels'] | undefined;
    return {
      get goroutines() {
        return (goroutines ??= read('goroutines'));
      },
      get channels() {
        return (channels ??= read('channels'));
      },
    };
  }

  /** Which graph the store file holds (see Header): with a delta or moves, the graph they apply to. */
  get graph(): string {
    return this.header.graph;
  }

  get stats(): Record<string, number> {
    return this.delta?.stats ?? this.header.stats;
  }

  private range(name: string): [number, number] {
    const s = this.header.sections[name];
    if (!s) throw new Error(`query store has no section ${name}`);
    return [this.base + s[0], s[1]];
  }

  /** A whole section, read once. */
  private section(name: string): Buffer {
    let b = this.cache.get(name);
    if (!b) {
      const [o, n] = this.range(name);
      b = this.bytes.read(o, n);
      this.cache.set(name, b);
    }
    return b;
  }

  /** `n` bytes at `at` within a section: from the section if it was read whole, else from the file. */
  private slice(name: string, at: number, n: number): Buffer {
    const whole = this.cache.get(name) ?? (this.bytes.sections ? this.section(name) : undefined);
    if (whole) return whole.subarray(at, at + n);
    const [o] = this.range(name);
    return this.bytes.read(o + at, n);
  }

  private int(name: string, i: number): number {
    return this.slice(name, i * 4, 4).readInt32LE(0);
  }

  /**
   * Past a few dozen small reads (a call tree), the offset tables it walks (a third of a megabyte each)
   * are read whole, so that each name or adjacency list costs one read instead of two; past some
   * hundreds (a path search), the names and adjacency lists are read whole too.
   */
  private count(dir?: 'in' | 'out'): void {
    const ops = ++this.ops;
    if (ops >= 32) {
      this.section('namesStart');
      if (dir) this.section(`${dir}Start`);
    }
    if (ops < 500) return;
    this.section('names');
    if (dir) this.section(`${dir}Data`);
  }

  /** Every node name of the store itself: symbols first (in store order), then call targets that are not symbols (a delta's are not among them). */
  nodeNames(): string[] {
    return (this.names ??= this.header.nodes ? this.section('names').toString('utf8').split('\n') : []);
  }

  private name(i: number): string {
    if (this.names) return this.names[i];
    let n = this.nameCache.get(i);
    if (n === undefined) {
      this.count();
      const b = this.slice('namesStart', i * 4, 8);
      const from = b.readUInt32LE(0);
      n = this.slice('names', from, b.readUInt32LE(4) - from - 1).toString('utf8');
      this.nameCache.set(i, n);
      this.seen.set(n, i);
    }
    return n;
  }

  /** The store's own number for `id` (its hash table probed), whatever a delta says. */
  private baseNode(id: string): number | undefined {
    const known = this.seen.get(id);
    if (known !== undefined) return known;
    this.count();
    const size = this.range('idHash')[1] / 4;
    for (let h = hash(id) & (size - 1); ; h = (h + 1) & (size - 1)) {
      const i = this.int('idHash', h);
      if (i < 0) return undefined;
      if (this.name(i) === id) return i;
    }
  }

  /**
   * The node number of `id`: the store's, or for an ID only a delta has, a number past the store's.
   * (Only a path search asks, and an ID a delta took out of the graph has no edges left to walk.)
   */
  private nodeOf(id: string): number | undefined {
    const i = this.baseNode(id);
    const d = this.delta;
    if (i !== undefined || !d || !(d.out.has(id) || d.byCallee.has(id) || d.records.has(id))) return i;
    let n = this.extra.get(id);
    if (n === undefined) this.extra.set(id, (n = this.header.nodes + this.extra.size));
    return n;
  }

  /** Whether the store itself has a record for `id`. */
  private baseSymbol(id: string): boolean {
    const i = this.baseNode(id);
    return i !== undefined && i < this.header.symbols;
  }

  /** The unique symbol IDs (the active variant's record stands for each); with a delta, the store's first, then the delta's new ones. */
  symbolIds(): string[] {
    return this.throughDelta(this.nodeNames().slice(0, this.header.symbols));
  }

  /** IDs of the store's own symbols as a delta has them: without those it took out, then its new ones `wanted` takes. */
  private throughDelta(own: string[], wanted: (id: string) => boolean = () => true): string[] {
    const d = this.delta;
    if (!d) return own;
    const ids = own.filter((id) => d.records.get(id) !== null);
    for (const id of this.newSymbols()) if (wanted(id)) ids.push(id);
    return ids;
  }

  /** The IDs a delta has records for that the store itself has none for. */
  private newSymbols(): string[] {
    const out: string[] = [];
    for (const [id, rec] of this.delta?.records ?? []) if (rec !== null && !this.baseSymbol(id)) out.push(id);
    return out;
  }

  /** Symbol IDs whose last element is `name`, from the stored name index. */
  withLastName(name: string): string[] {
    return this.throughDelta(this.ownWithLastName(name), (id) => lastName(id) === name);
  }

  /**
   * The IDs symbolIds gives whose last name `keep` takes, in the same order, `keep` asked once for each
   * distinct last name whose length is in [min, max] (others are not taken). The store's last names
   * are a section of their own, one per group of symbols (see nameSections): a mistyped symbol's
   * suggestions measure the tens of thousands of distinct last names, and decode only the IDs of the
   * groups taken.
   */
  symbolIdsByLastName(keep: (last: string) => boolean, min = 0, max = Infinity): string[] {
    const answers = new Map<string, boolean>();
    const ok = (last: string): boolean => {
      let a = answers.get(last);
      if (a === undefined) answers.set(last, (a = last.length >= min && last.length <= max && keep(last)));
      return a;
    };
    const n = this.header.symbols;
    const own: string[] = [];
    if (this.names) {
      for (let i = 0; i < n; i++) if (ok(lastName(this.names[i]))) own.push(this.names[i]);
    } else if (n > 0) {
      const text = this.section('lastNames');
      const starts = viewAs(Uint32Array, this.section('lastStart'));
      const groupStart = viewAs(Uint32Array, this.section('groupStart'));
      const groupNodes = viewAs(Int32Array, this.section('groupNodes'));
      const taken: number[] = [];
      for (let g = 0; g + 1 < starts.length; g++) {
        const from = starts[g];
        const to = starts[g + 1] - 1;
        // A last name has at most as many characters as bytes, as many when it is ASCII.
        if (to - from < min || (to - from > max && !beyondAscii(text, from, to))) continue;
        if (!ok(text.toString('utf8', from, to))) continue;
        for (let k = groupStart[g]; k < groupStart[g + 1]; k++) taken.push(groupNodes[k]);
      }
      taken.sort((x, y) => x - y);
      for (const i of taken) own.push(this.name(i));
    }
    return this.throughDelta(own, (id) => ok(lastName(id)));
  }

  private ownWithLastName(name: string): string[] {
    const size = this.range('lastHash')[1] / 4;
    for (let h = hash(name) & (size - 1); ; h = (h + 1) & (size - 1)) {
      const g = this.int('lastHash', h);
      if (g < 0) return [];
      const b = this.slice('groupStart', g * 4, 8);
      const from = b.readUInt32LE(0);
      const to = b.readUInt32LE(4);
      const nodes = this.slice('groupNodes', from * 4, (to - from) * 4);
      const ids: string[] = [];
      for (let k = 0; k < to - from; k++) ids.push(this.name(nodes.readInt32LE(k * 4)));
      if (lastName(ids[0]) === name) return ids;
    }
  }

  get(id: string): SymbolRecord | undefined {
    const d = this.delta;
    if (d?.records.has(id)) return this.deltaRecord(id);
    const i = this.baseNode(id);
    if (i === undefined || i >= this.header.symbols) return undefined;
    return this.record(i);
  }

  /** The delta's record for `id` (undefined: it has none now). */
  private deltaRecord(id: string): SymbolRecord | undefined {
    let r = this.deltaRecords.get(id);
    if (!r) {
      const json = this.delta!.records.get(id);
      if (!json) return undefined;
      r = JSON.parse(json) as SymbolRecord;
      this.deltaRecords.set(id, r);
    }
    return r;
  }

  private record(i: number): SymbolRecord {
    let r = this.records.get(i);
    if (!r) {
      const b = this.slice('symbolStart', i * 4, 8);
      const from = b.readUInt32LE(0);
      this.records.set(i, (r = this.parsedRecord(this.slice('symbolJson', from, b.readUInt32LE(4) - from).toString('utf8'))));
    }
    return r;
  }

  /** A record of the store from its JSON, its lines moved as moveLines asked. */
  private parsedRecord(json: string): SymbolRecord {
    const r = JSON.parse(json) as SymbolRecord;
    const move = this.moved?.get(r.file);
    // The package's own record stays at line 1 (see remapLines).
    return move && r.id !== r.pkg ? movedRecordOr(r, move.lines, move.fields) : r;
  }

  /**
   * Parses every record of the store not parsed yet, reading their JSON `chunk` bytes at a time
   * through one buffer (see pieces), not into a buffer of its whole size, unless it was read whole
   * before.
   */
  private parseAllRecords(chunk = SCAN_CHUNK): void {
    if (this.records.size >= this.header.symbols || this.cache.has('symbolJson')) return;
    for (const [i, r] of this.eachRecord(chunk)) this.records.set(i, r);
  }

  /**
   * Each record of the store with its index, in store order, read as parseAllRecords reads them but
   * not kept (those parsed before are given as they are): a search that reads every record once keeps
   * only its hits, and V8's young generation takes the rest.
   */
  private *eachRecord(chunk = SCAN_CHUNK): Generator<[number, SymbolRecord]> {
    const n = this.header.symbols;
    if (n === 0) return;
    const starts = viewAs(Uint32Array, this.section('symbolStart'));
    let i = 0;
    for (const piece of this.pieces('symbolJson', chunk)) {
      const { view, base } = piece;
      const end = base + view.length;
      const parsed: [number, SymbolRecord][] = [];
      for (; i < n && starts[i + 1] <= end; i++) parsed.push([i, this.records.get(i) ?? this.parsedRecord(view.toString('utf8', starts[i] - base, starts[i + 1] - base))]);
      // Given once the piece is done with: its buffer is the next piece's.
      yield* parsed;
      if (i >= n) return;
      piece.keep = end - starts[i];
    }
  }

  /** Every symbol's record: the store's in its order (with a delta, as the delta has them), then the delta's new ones. `chunk`: see parseAllRecords. */
  *allSymbols(chunk = SCAN_CHUNK): IterableIterator<SymbolRecord> {
    this.parseAllRecords(chunk);
    const d = this.delta;
    if (!d) {
      for (let i = 0; i < this.header.symbols; i++) yield this.record(i);
      return;
    }
    const names = this.nodeNames();
    for (let i = 0; i < this.header.symbols; i++) {
      const id = names[i];
      if (!d.records.has(id)) yield this.record(i);
      else {
        const r = this.deltaRecord(id);
        if (r) yield r;
      }
    }
    for (const id of this.newSymbols()) yield this.deltaRecord(id)!;
  }

  /**
   * allSymbols, but only the records that may hold `text` (lower case) in their ID, name or doc, lower
   * cased: what a search reads. The store's own records are those whose search text (see searchText)
   * holds it (see recordsHolding); a delta's records are all given. Every record allSymbols gives
   * whose ID, name or doc holds `text` is among them. Without a cut (moves that give records new
   * docs, or more than a quarter of the records holding the text): allSymbols, its records not kept
   * when there is no delta (see eachRecord). `chunk`: see parseAllRecords.
   */
  *symbolsHolding(text: string, chunk = SCAN_CHUNK): IterableIterator<SymbolRecord> {
    const fields = [...(this.moved?.values() ?? [])].some((m) => m.fields);
    const hits = fields ? undefined : this.recordsHolding(text);
    if (!hits) {
      if (this.delta) yield* this.allSymbols(chunk);
      else for (const [, r] of this.eachRecord(chunk)) yield r;
      return;
    }
    const d = this.delta;
    const names = d ? this.nodeNames() : undefined;
    for (const i of hits) if (!d || !d.records.has(names![i])) yield this.record(i);
    if (d) {
      for (const [id, rec] of d.records) {
        if (rec === null) continue;
        const r = this.deltaRecord(id);
        if (r) yield r;
      }
    }
  }

  /**
   * The store's records whose search text holds `text`, in store order; undefined when more than a
   * quarter of them do (reading every record once then costs less than parsing them one by one).
   * The search texts are a section of their own, a quarter of the records' JSON in bytes and lower
   * cased when written, so a search scans them in place with indexOf: no key of the JSON to tell
   * from a value, no letters to fold. After a hit, the scan goes on from the next record's start.
   */
  private recordsHolding(text: string): number[] | undefined {
    const n = this.header.symbols;
    const texts = this.section('searchText');
    const starts = viewAs(Uint32Array, this.section('searchStart'));
    const needle = Buffer.from(text, 'utf8');
    const most = n >> 2;
    const found: number[] = [];
    for (let at = texts.indexOf(needle); at >= 0 && n > 0; ) {
      const i = lastAtOrBefore(starts, n - 1, at);
      if (found.push(i) > most) return undefined;
      at = texts.indexOf(needle, starts[i + 1]);
    }
    return found;
  }

  /**
   * Section `name` from its start in pieces of `chunk` bytes (and what the last kept), read through one
   * buffer, each piece's bytes overwritten by the next's: `view`, the bytes from the section's offset
   * `base`. The reader sets the piece's `keep` to how many bytes of its end begin the next piece
   * (none unless set), and stops by leaving the loop.
   */
  private *pieces(name: string, chunk: number): Generator<Piece> {
    const [o, total] = this.range(name);
    if (this.bytes.sections && total > 0) {
      yield { view: this.section(name), base: 0, keep: 0 };
      return;
    }
    const whole = this.cache.get(name);
    const size = Math.max(1, chunk);
    // Room for what a piece's end keeps for the next (a few bytes, a line) before it must grow.
    let buf = Buffer.allocUnsafe(size + 512);
    let base = 0;
    let carry = 0;
    while (base + carry < total) {
      if (buf.length < carry + size) buf = Buffer.concat([buf.subarray(0, carry)], carry + size + 512);
      const at = base + carry;
      const len = Math.min(size, total - at);
      const target = buf.subarray(carry, carry + len);
      const got = whole ? whole.copy(target, 0, at, at + len) : this.bytes.readInto ? this.bytes.readInto(target, o + at) : this.bytes.read(o + at, len).copy(target);
      if (got === 0) return;
      const filled = carry + got;
      const piece: Piece = { view: buf.subarray(0, filled), base, keep: 0 };
      yield piece;
      carry = Math.max(0, Math.min(piece.keep, filled));
      buf.copy(buf, 0, filled - carry, filled);
      base += filled - carry;
    }
  }

  callees(id: string): Edge[] {
    const mine = this.delta?.out.get(id);
    if (!mine) return this.adjacent(id, 'out');
    let list = this.deltaLists.out.get(id);
    if (!list) this.deltaLists.out.set(id, (list = [...mine].sort(compareCallees)));
    return [...list];
  }

  /**
   * With a delta, a callee's callers whose edges changed are the delta's: the store's list without
   * them, merged with their edges now (both sorted as compareCallers sorts; the sort is stable, so
   * one caller's edges at one line keep the graph's order, as in the store).
   */
  callers(id: string): Edge[] {
    const d = this.delta;
    if (!d?.into.has(id)) return this.adjacent(id, 'in');
    let list = this.deltaLists.in.get(id);
    if (!list) {
      const own = this.adjacent(id, 'in').filter((e) => !d.out.has(e.caller));
      const added = [...(d.byCallee.get(id) ?? [])].sort(compareCallers);
      list = [];
      let a = 0;
      let b = 0;
      while (a < own.length || b < added.length) list.push(b >= added.length || (a < own.length && compareCallers(own[a], added[b]) <= 0) ? own[a++] : added[b++]);
      this.deltaLists.in.set(id, list);
    }
    return [...list];
  }

  /** A whole section as 32-bit integers (copied only if the bytes are not 4-byte aligned). */
  private int32s(name: string): Int32Array {
    return viewAs(Int32Array, this.section(name));
  }

  /**
   * The same shortest path GraphView.path finds (breadth first, calls before references, likely
   * targets first), walked over the integer arrays; only the edges of the answer become records. With
   * a delta, a caller of the delta goes by its list (see callees), and the IDs only the delta has are
   * numbered past the store's nodes.
   */
  path(from: string, to: string, maxNodes = 500000): Edge[] | undefined {
    const s = this.nodeOf(from);
    const t = this.nodeOf(to);
    if (s === undefined || t === undefined) return undefined;
    const d = this.delta;
    const mine = new Map<number, Edge[]>();
    for (const caller of d?.out.keys() ?? []) {
      const n = this.nodeOf(caller);
      if (n !== undefined) mine.set(n, this.callees(caller));
    }
    const own = this.header.nodes;
    // Every number the delta's IDs can take is below this.
    const size = own + (d ? d.out.size + d.byCallee.size + d.records.size : 0);
    const start = this.int32s('outStart');
    const targets = this.int32s('outTargets');
    // How each node was reached: from `parent`, by edge `via` of the store's or `viaEdge` of the delta's.
    const parent = new Int32Array(size);
    const via = new Int32Array(size);
    const viaEdge = new Map<number, Edge>();
    const seen = new Uint8Array(size);
    seen[s] = 1;
    let count = 1;
    let frontier = [s];
    const unwind = (): Edge[] => {
      const out: Edge[] = [];
      // Only the answer's edges are read and named, not every edge of their callers.
      for (let c = t; c !== s; c = parent[c]) out.unshift(viaEdge.get(c) ?? this.edge(this.slice('outData', via[c] * W * 4, W * 4), 0, 'out', this.name(parent[c])));
      return out;
    };
    while (frontier.length && count < maxNodes) {
      const next: number[] = [];
      for (const n of frontier) {
        const list = mine.get(n);
        // Calls first, then references (~target), so a path prefers calls at equal length.
        for (let pass = 0; pass < 2; pass++) {
          if (list) {
            for (const e of list) {
              if ((e.mode === 'ref') !== (pass === 1)) continue;
              const c = this.nodeOf(e.callee)!;
              if (seen[c]) continue;
              seen[c] = 1;
              count++;
              parent[c] = n;
              viaEdge.set(c, e);
              if (c === t) return unwind();
              next.push(c);
            }
          } else if (n < own) {
            for (let k = start[n]; k < start[n + 1]; k++) {
              const x = targets[k];
              if ((x < 0) !== (pass === 1)) continue;
              const c = x < 0 ? ~x : x;
              if (seen[c]) continue;
              seen[c] = 1;
              count++;
              parent[c] = n;
              via[c] = k;
              if (c === t) return unwind();
              next.push(c);
            }
          }
        }
      }
      frontier = next;
    }
    return undefined;
  }

  /** The store's own list of `id`'s edges in direction `dir`. */
  private adjacent(id: string, dir: 'in' | 'out'): Edge[] {
    const i = this.baseNode(id);
    if (i === undefined) return [];
    const startName = dir === 'out' ? 'outStart' : 'inStart';
    const dataName = dir === 'out' ? 'outData' : 'inData';
    this.count(dir);
    const b = this.slice(startName, i * 4, 8);
    const from = b.readUInt32LE(0);
    const count = b.readUInt32LE(4) - from;
    const data = this.slice(dataName, from * W * 4, count * W * 4);
    const list: Edge[] = [];
    for (let k = 0; k < count; k++) list.push(this.edge(data, k, dir, id));
    return list;
  }

  /** The k-th edge record in `data` (an adjacency slice), seen from node `id` in direction `dir`. */
  private edge(data: Buffer, k: number, dir: 'in' | 'out', id: string): Edge {
    const S = (this.strings ??= JSON.parse(this.section('strings').toString('utf8')) as string[]);
    const at = (n: number) => data.readInt32LE((k * W + n) * 4);
    const other = this.name(at(0));
    const km = at(1);
    const file = S[at(2)];
    const line = at(3);
    const move = this.moved?.get(file);
    return {
      caller: dir === 'out' ? id : other,
      callee: dir === 'out' ? other : id,
      kind: KINDS[km >> 3],
      mode: MODES[km & 7],
      file,
      line: move ? (move.lines.get(line) ?? line) : line,
      how: S[at(4)],
      confidence: at(5) / 1000,
    };
  }
}
