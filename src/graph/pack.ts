/**
 * A compact on-disk form of the graph: one string table and columns of integers. Hundreds of
 * thousands of small objects are slow to (de)serialize; typed arrays and a string table are not.
 */
import { deserialize, serialize } from 'node:v8';
import { asBytes, ByteWriter, layoutSections, openSections, viewAs } from './sections.js';
import { scratch, zeroed } from './scratch.js';
import type { Edge, EdgeKind, EdgeMode, Graph, SymbolKind, SymbolRecord, UnresolvedSite } from '../model/index.js';

/** The packing's version: a packed graph is read only by the version that wrote it. */
export const PACK_VERSION = 4;

export interface PackedGraph {
  v: typeof PACK_VERSION;
  strings: string[];
  edges: Int32Array;
  symbols: Int32Array;
  unresolved: Int32Array;
  rest: Pick<Graph, 'root' | 'modulePath' | 'context' | 'channels' | 'goroutines' | 'diagnostics' | 'stats'>;
}

export const EDGE_W = 8;
export const SYM_W = 14;
export const UNRES_W = 5;

/** Where each column holds a file and its lines (for remapPackedBytes, and the files table of encodePacked). */
export const EDGE_LINE = { width: EDGE_W, file: 4, line: 5 };
export const SYM_LINES = { width: SYM_W, file: 4, lines: [5, 6] };
/** Where a symbol row holds its ID, package, doc and fingerprint (string ids; -1 for none). */
export const SYM_FIELDS = { id: 0, pkg: 2, doc: 7, fingerprint: 8 };
export const UNRES_LINE = { width: UNRES_W, file: 1, line: 2 };

/** What gives each string its id in a string table (-1 for none). */
export interface Interner {
  id(s: string | undefined): number;
}

/** Interns strings: each distinct string gets the next index. */
export class Strings implements Interner {
  list: string[] = [];
  private map = new Map<string, number>();
  id(s: string | undefined): number {
    if (s === undefined) return -1;
    let i = this.map.get(s);
    if (i === undefined) {
      i = this.list.length;
      this.list.push(s);
      this.map.set(s, i);
    }
    return i;
  }
}

/**
 * s.id with a memo of one: the rows come in runs (a caller's edges one after another, a file's symbols
 * one after another), so a column often holds the string of the row before, most often the same
 * string object, which compares at once. The ids are those s.id gives.
 */
function column(s: Interner): (x: string | undefined) => number {
  let last: string | undefined;
  let lastId = -1;
  return (x) => (x === last ? lastId : (lastId = s.id((last = x))));
}

/**
 * Each type record's fields and methods as the packed graph keeps them (one JSON string), kept while
 * the record lives: a process that packs again and again (the watch) passes the same records for the
 * files an edit did not change.
 */
const extraOf = new WeakMap<SymbolRecord, string>();

function extraJson(x: SymbolRecord): string | undefined {
  if (!x.typeKind && !x.fields && !x.methods) return undefined;
  let json = extraOf.get(x);
  if (json === undefined) extraOf.set(x, (json = JSON.stringify({ t: x.typeKind, f: x.fields, m: x.methods })));
  return json;
}

/** Which columns of each table hold string ids, in the order packGraph interns them. */
const EDGE_STRINGS = [0, 1, 2, 3, 4, 6];
const SYM_STRINGS = [0, 1, 2, 3, 4, 7, 8, 9, 11, 12, 13];
const UNRES_STRINGS = [0, 1, 3, 4];

/**
 * What the last packGraph kept for the next: its strings, numbered for good (ids only added), and each
 * table's records with their rows in those numbers. A process that packs again and again (the watch)
 * passes the same records, in runs, for what an edit did not change: their rows are copied.
 */
let kept: KeptPack | undefined;
/** The pack kept before `kept`, when the last pack recycled: its rows' memory is the next pack's. */
let spare: Rows | undefined;

/** A pack's rows, by table. */
interface Rows {
  edges: Int32Array;
  symbols: Int32Array;
  unresolved: Int32Array;
}

interface KeptPack {
  strings: Strings;
  edges: Kept<Edge>;
  symbols: Kept<SymbolRecord>;
  unresolved: Kept<UnresolvedSite>;
}

interface Kept<T> {
  items: readonly T[];
  rows: Int32Array;
}

/**
 * The rows of `items`, `width` ints each, in the kept numbering: runs of records the last pack had
 * copied from its rows, the others made by `make`; written over `old`'s memory when it has the room
 * (rows nothing uses any more). Every int of a row is written.
 */
function keptRows<T extends object>(items: readonly T[], width: number, last: Kept<T> | undefined, make: (x: T, rows: Int32Array, o: number) => void, old?: Int32Array): Int32Array {
  const n = items.length * width;
  const rows = old && old.buffer.byteLength >= n * 4 ? new Int32Array(old.buffer, 0, n) : new Int32Array(n);
  runsOf(items, last?.items, (i) => make(items[i], rows, i * width), (i, j, n) => rows.set(last!.rows.subarray(j * width, (j + n) * width), i * width));
  return rows;
}

/**
 * `items` cut into runs of the same objects, in the same order, as in `last` (the records an encode
 * made the last time): `run(i, j, n)` for items[i..i+n) being last[j..j+n), `made(i)` for an item not
 * found in `last`. Used by encoders that a process calls again and again (the watch), to copy what
 * they made for the records an edit did not change. A caller that passes the same `last` again and
 * again gives `places`, the map of its records to their places, which it keeps (see placesOf): a
 * record not found where the last run ended is looked up there, not looked for near it.
 */
export function runsOf<T>(items: readonly T[], last: readonly T[] | undefined, made: (i: number) => void, run: (i: number, j: number, n: number) => void, places?: Map<T, number>): void {
  let at: Map<T, number> | undefined;
  let next = 0;
  let searches = 0;
  for (let i = 0; i < items.length; ) {
    let j = last && last[next] === items[i] ? next : undefined;
    // One record made again where the last one was (a package's record is made on each resolution):
    // made, and the run goes on after it.
    const replaced = last && j === undefined && i + 1 < items.length && last[next + 1] === items[i + 1];
    if (last && j === undefined && !replaced) j = findKept(items[i], last, next, places ?? (searches++ < NEAR_SEARCHES ? undefined : (at ??= placesOf(last))));
    if (j === undefined) {
      made(i);
      i++;
      if (replaced) next++;
      continue;
    }
    let n = 1;
    while (i + n < items.length && j + n < last!.length && last![j + n] === items[i + n]) n++;
    run(i, j, n);
    i += n;
    next = j + n;
  }
}

/** Each record of `items` by its place (see runsOf). */
export function placesOf<T>(items: readonly T[]): Map<T, number> {
  const at = new Map<T, number>();
  for (let k = 0; k < items.length; k++) at.set(items[k], k);
  return at;
}

/** How far past the last run's end a record is looked for among the last pack's, before a map of them all is made. */
const NEAR = 4096;
const NEAR_SEARCHES = 4096;

/**
 * Where `x` was in the last pack's records: looked for in the NEAR records after `from` (an edit's new
 * records are few, and the old records they replace sit just after the last run), or in `at` once
 * NEAR_SEARCHES searches were made.
 */
function findKept<T>(x: T, items: readonly T[], from: number, at: Map<T, number> | undefined): number | undefined {
  if (at) return at.get(x);
  const end = Math.min(items.length, from + NEAR);
  for (let k = from; k < end; k++) if (items[k] === x) return k;
  return undefined;
}

/** Texts of records laid end to end, as textRuns makes them: the records, the bytes, where each text starts (one more entry: the end). */
export interface KeptText<T> {
  items: readonly T[];
  bytes: Buffer;
  start: Uint32Array;
  /** The memory `bytes` were written in, theirs alone (see ByteWriter.memory): a later textRuns' spare. */
  memory?: Buffer;
}

/** Memory for textRuns to write a text in: a kept text nothing uses any more, or new memory (see spareFor). */
export type Spare = Pick<KeptText<unknown>, 'memory' | 'start'>;

/**
 * New memory for a text like `text`, to be written in two encodes later. An encoder's first recycling
 * encode has no text before its last to give: making the memory with it, in the build, keeps its
 * allocation (and the full collection that much memory outside the heap brings on, see scratch.ts)
 * out of the first edit after the build.
 */
export function spareFor(text: KeptText<unknown>): Spare {
  return { memory: Buffer.allocUnsafeSlow(text.bytes.length + (1 << 20)), start: new Uint32Array(text.start.length) };
}

/**
 * The UTF-8 texts of `items` (`text(i)` for item i) laid end to end, with where each starts: runs of
 * the records `last` had (see runsOf) are copied from its bytes, the others written. `capacity` is
 * the first size of the buffer when there is no `last`; `also` carries a caller's own values per item
 * along the same runs. `spare`, a text made before `last` that nothing uses any more, gives its memory
 * to write in (see scratch.ts).
 */
export function textRuns<T>(items: readonly T[], last: KeptText<T> | undefined, text: (i: number) => string, capacity: number, also: { made?(i: number): void; run?(i: number, j: number, n: number): void } = {}, spare?: Spare): KeptText<T> {
  const out = new ByteWriter(last ? last.bytes.length + (1 << 20) : capacity, spare?.memory);
  const n = items.length + 1;
  const start = spare && spare.start.buffer.byteLength >= n * 4 ? new Uint32Array(spare.start.buffer, 0, n) : new Uint32Array(n);
  runsOf(
    items,
    last?.items,
    (i) => {
      start[i] = out.length;
      out.write(text(i));
      also.made?.(i);
    },
    (i, j, n) => {
      const shift = out.length - last!.start[j];
      for (let k = 0; k < n; k++) start[i + k] = last!.start[j + k] + shift;
      out.writeBytes(last!.bytes.subarray(last!.start[j], last!.start[j + n]));
      also.run?.(i, j, n);
    },
  );
  start[items.length] = out.length;
  return { items, bytes: out.bytes(), start, memory: out.memory() };
}

/** How a table's rows are made: each record's ints written at `o` in `rows`, its strings interned in `s`. */
export interface RowMakers {
  edge(e: Edge, rows: Int32Array, o: number): void;
  symbol(x: SymbolRecord, rows: Int32Array, o: number): void;
  unresolved(u: UnresolvedSite, rows: Int32Array, o: number): void;
}

/** The rows of each table as packGraph lays them out, their strings interned in `s` (see column). */
export function rowMakers(s: Interner): RowMakers {
  const [caller, callee, kind, mode, file, how] = [column(s), column(s), column(s), column(s), column(s), column(s)];
  const [symKind, pkg, symFile, constraint, parent] = [column(s), column(s), column(s), column(s), column(s)];
  return {
    edge(e, rows, o) {
      rows[o] = caller(e.caller);
      rows[o + 1] = callee(e.callee);
      rows[o + 2] = kind(e.kind);
      rows[o + 3] = mode(e.mode);
      rows[o + 4] = file(e.file);
      rows[o + 5] = e.line;
      rows[o + 6] = how(e.how);
      rows[o + 7] = Math.round(e.confidence * 1000);
    },
    symbol(x, rows, o) {
      rows[o] = s.id(x.id);
      rows[o + 1] = symKind(x.kind);
      rows[o + 2] = pkg(x.pkg);
      rows[o + 3] = s.id(x.name);
      rows[o + 4] = symFile(x.file);
      rows[o + 5] = x.line;
      rows[o + 6] = x.endLine;
      rows[o + 7] = s.id(x.doc);
      rows[o + 8] = s.id(x.fingerprint);
      rows[o + 9] = s.id(x.signature);
      rows[o + 10] = x.active ? 1 : 0;
      rows[o + 11] = constraint(x.constraint);
      rows[o + 12] = parent(x.parent);
      const extra = extraJson(x);
      rows[o + 13] = extra === undefined ? -1 : s.id(extra);
    },
    unresolved(u, rows, o) {
      rows[o] = s.id(u.caller);
      rows[o + 1] = s.id(u.file);
      rows[o + 2] = u.line;
      rows[o + 3] = s.id(u.callee);
      rows[o + 4] = s.id(u.reason);
    },
  };
}

/**
 * The graph as a string table and integer columns. The strings are numbered in the order the rows
 * first use them (edges, then symbols, then unresolved sites; each row's string columns left to
 * right), so the same graph always packs to the same bytes, whatever was packed before it. With
 * `keep`, what the pack made is kept for the next one (see kept); else nothing is. With `recycle`
 * (and `keep`), the columns are written over the last pack's (see scratch.ts): the caller is done with
 * the packed graph before it packs again.
 */
export function packGraph(g: Graph, opts: { keep?: boolean; recycle?: boolean } = {}): PackedGraph {
  const last = kept;
  const recycle = opts.keep && opts.recycle;
  const old = recycle ? spare : undefined;
  const s = last?.strings ?? new Strings();
  const make = rowMakers(s);
  const edges = keptRows(g.edges, EDGE_W, last?.edges, make.edge, old?.edges);
  const symbols = keptRows(g.symbols, SYM_W, last?.symbols, make.symbol, old?.symbols);
  const unresolved = keptRows(g.unresolved, UNRES_W, last?.unresolved, make.unresolved, old?.unresolved);
  // Kept for the next pack when asked (a process that packs again and again), unless the strings no
  // longer in use outnumber those in use.
  const out = renumber(s.list, [[edges, EDGE_W, EDGE_STRINGS], [symbols, SYM_W, SYM_STRINGS], [unresolved, UNRES_W, UNRES_STRINGS]], recycle);
  // The rows of the last pack are read no more: their memory is the next recycling pack's (new memory
  // when there was none, see spareFor).
  spare = !recycle ? undefined : last ? { edges: last.edges.rows, symbols: last.symbols.rows, unresolved: last.unresolved.rows } : { edges: new Int32Array(edges.length), symbols: new Int32Array(symbols.length), unresolved: new Int32Array(unresolved.length) };
  kept = !opts.keep || s.list.length > 2 * out.strings.length + 4096 ? undefined : { strings: s, edges: { items: g.edges, rows: edges }, symbols: { items: g.symbols, rows: symbols }, unresolved: { items: g.unresolved, rows: unresolved } };
  return { v: PACK_VERSION, strings: out.strings, edges: out.tables[0], symbols: out.tables[1], unresolved: out.tables[2], rest: restOf(g) };
}

/** What a packed graph keeps of a graph besides its three tables (as node:v8 serializes it). */
export function restOf(g: Graph): PackedGraph['rest'] {
  const { root, modulePath, context, channels, goroutines, diagnostics, stats } = g;
  return { root, modulePath, context, channels, goroutines, diagnostics, stats };
}

/**
 * Tables in kept numbering renumbered, strings in the order the rows first use them (see packGraph):
 * copies of the tables (in recycled memory with `recycle`), and the strings they use.
 */
function renumber(list: readonly string[], tables: [rows: Int32Array, width: number, columns: number[]][], recycle?: boolean): { strings: string[]; tables: Int32Array[] } {
  const { id, list: strings } = firstUse(list, 'pack.firstUse', recycle);
  const out = tables.map(([rows, width, columns], k) => {
    const copy = scratch(Int32Array, `pack.table${k}`, rows.length, recycle);
    copy.set(rows);
    for (let o = 0; o < copy.length; o += width) {
      for (const c of columns) if (copy[o + c] >= 0) copy[o + c] = id(copy[o + c]);
    }
    return copy;
  });
  return { strings, tables: out };
}

/**
 * Numbers for some of the strings `S`, in the order `id` is first asked for them; `list` holds them in
 * that order. With `recycle`, its table is slot `slot`'s memory (see scratch.ts).
 */
export function firstUse(S: readonly string[], slot = '', recycle?: boolean): { id: (sid: number) => number; list: string[] } {
  const number = scratch(Int32Array, slot, S.length, recycle).fill(-1);
  const list: string[] = [];
  const id = (sid: number): number => {
    let n = number[sid];
    if (n < 0) {
      n = number[sid] = list.length;
      list.push(S[sid]);
    }
    return n;
  };
  return { id, list };
}

export function unpackGraph(p: PackedGraph): Graph {
  const S = p.strings;
  const str = (i: number) => (i < 0 ? undefined : S[i]);
  const edges: Edge[] = new Array(p.edges.length / EDGE_W);
  for (let i = 0; i < edges.length; i++) {
    const o = i * EDGE_W;
    const e = p.edges;
    edges[i] = { caller: S[e[o]], callee: S[e[o + 1]], kind: S[e[o + 2]] as EdgeKind, mode: S[e[o + 3]] as EdgeMode, file: S[e[o + 4]], line: e[o + 5], how: S[e[o + 6]], confidence: e[o + 7] / 1000 };
  }
  const symbols: SymbolRecord[] = new Array(p.symbols.length / SYM_W);
  for (let i = 0; i < symbols.length; i++) {
    const o = i * SYM_W;
    const y = p.symbols;
    const rec: SymbolRecord = {
      id: S[y[o]], kind: S[y[o + 1]] as SymbolKind, pkg: S[y[o + 2]], name: S[y[o + 3]], file: S[y[o + 4]], line: y[o + 5], endLine: y[o + 6],
      fingerprint: S[y[o + 8]], active: y[o + 10] === 1,
    };
    const doc = str(y[o + 7]);
    if (doc !== undefined) rec.doc = doc;
    const sig = str(y[o + 9]);
    if (sig !== undefined) rec.signature = sig;
    const c = str(y[o + 11]);
    if (c !== undefined) rec.constraint = c;
    const parent = str(y[o + 12]);
    if (parent !== undefined) rec.parent = parent;
    const extra = str(y[o + 13]);
    if (extra !== undefined) {
      const x = JSON.parse(extra) as { t?: string; f?: SymbolRecord['fields']; m?: string[] };
      if (x.t !== undefined) rec.typeKind = x.t;
      if (x.f !== undefined) rec.fields = x.f;
      if (x.m !== undefined) rec.methods = x.m;
    }
    symbols[i] = rec;
  }
  const unresolved: UnresolvedSite[] = new Array(p.unresolved.length / UNRES_W);
  for (let i = 0; i < unresolved.length; i++) {
    const o = i * UNRES_W;
    const u = p.unresolved;
    unresolved[i] = { caller: S[u[o]], file: S[u[o + 1]], line: u[o + 2], callee: S[u[o + 3]], reason: S[u[o + 4]] };
  }
  return { ...p.rest, edges, symbols, unresolved };
}

/**
 * What `index` reports of a graph, small enough to keep beside it: its counts, its diagnostics and its
 * unresolved call sites counted by reason. Taken from the packed graph, so a build that reuses a
 * stored graph reports it without decoding it.
 */
export interface GraphSummary {
  root: string;
  stats: Record<string, number>;
  diagnostics: Graph['diagnostics'];
  unresolved: number;
  /** Reason and count, most frequent first (ties by reason). */
  unresolvedByReason: [reason: string, count: number][];
}

export function summarize(p: PackedGraph): GraphSummary {
  const counts = new Map<string, number>();
  for (let o = 4; o < p.unresolved.length; o += UNRES_W) {
    const reason = p.strings[p.unresolved[o]];
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return summaryOf(p.rest, p.unresolved.length / UNRES_W, counts);
}

/** The same summary, of a graph not packed; `reasons`: its unresolved sites counted by reason already. */
export function summarizeGraph(g: Graph, reasons?: ReadonlyMap<string, number>): GraphSummary {
  if (reasons) return summaryOf(g, g.unresolved.length, reasons);
  const counts = new Map<string, number>();
  for (const u of g.unresolved) counts.set(u.reason, (counts.get(u.reason) ?? 0) + 1);
  return summaryOf(g, g.unresolved.length, counts);
}

function summaryOf(rest: PackedGraph['rest'], unresolved: number, counts: ReadonlyMap<string, number>): GraphSummary {
  const unresolvedByReason = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { root: rest.root, stats: rest.stats, diagnostics: rest.diagnostics, unresolved, unresolvedByReason };
}

/**
 * A packed graph as bytes: 'KAP2', a u32 header length, a JSON header naming each section's [offset,
 * length], then the sections, each 8-byte aligned: the string table as one text and the end of each
 * string in it, the three integer columns as their raw bytes, and the few object records (node:v8).
 * Decoding views the columns where they lie and cuts the strings out of one decoded text. v1.28's
 * graph (248,000 strings, 15 MB of them): node:v8 took 136 ms to decode it, the table as JSON 160 ms.
 */
export const PACKED_MAGIC = 'KAP2';
const COLUMNS = ['edges', 'symbols', 'unresolved'] as const;

/** With `recycle` (and `keep`), the bytes are made in the memory of the last encode's (see scratch.ts). */
export function encodePacked(p: PackedGraph, opts: { keep?: boolean; recycle?: boolean } = {}): Buffer[] {
  const recycle = opts.keep === true && opts.recycle === true;
  const { text, ends, byteEnds } = stringText(p.strings, opts.keep === true, recycle);
  // The strings that name files, with their ids: what moving a file's lines looks up (see remapPackedBytes).
  const files: number[] = [];
  const seen = zeroed(Uint8Array, 'packed.seen', p.strings.length, recycle);
  for (const [col, width, at] of [[p.edges, EDGE_W, EDGE_LINE.file], [p.symbols, SYM_W, SYM_LINES.file], [p.unresolved, UNRES_W, UNRES_LINE.file]] as const) {
    for (let o = at; o < col.length; o += width) {
      const id = col[o];
      if (id >= 0 && seen[id] === 0) {
        seen[id] = 1;
        files.push(id);
      }
    }
  }
  return layoutPacked([
    ['stringText', text],
    ['stringEnds', asBytes(ends)],
    ['stringBytes', asBytes(byteEnds)],
    ['files', Buffer.from(JSON.stringify(files.map((i) => [p.strings[i], i])))],
    ...COLUMNS.map((c): [string, Buffer] => [c, asBytes(p[c])]),
    ['rest', serialize(p.rest)],
  ]);
}

/** The last string table encodePacked was asked to keep, with its text (see stringText), and the one before it when recycling. */
let lastText: KeptText<string> | undefined;
let spareText: Spare | undefined;

/**
 * The string table as one UTF-8 text, with each string's end in code units and in bytes. With `keep`,
 * the table and its text are kept for the next call: runs of the same strings (an edit adds or drops
 * a few) are then copied from the last text rather than encoded again (see textRuns).
 */
function stringText(strings: string[], keep: boolean, recycle: boolean): { text: Buffer; ends: Uint32Array; byteEnds: Uint32Array } {
  const ends = scratch(Uint32Array, 'packed.ends', strings.length, recycle);
  let end = 0;
  strings.forEach((x, i) => {
    ends[i] = end += x.length;
  });
  const last = keep ? lastText : undefined;
  if (last) {
    lastText = textRuns(strings, last, (i) => strings[i], 0, {}, recycle ? spareText : undefined);
    spareText = recycle ? last : undefined;
    return { text: lastText.bytes, ends, byteEnds: lastText.start.subarray(1) };
  }
  spareText = undefined;
  const text = Buffer.from(strings.join(''));
  // As many bytes as code units: every string is ASCII, and the byte ends are the ends.
  let byteEnds = ends;
  if (text.length !== end) {
    byteEnds = new Uint32Array(strings.length);
    let byteEnd = 0;
    strings.forEach((x, i) => {
      byteEnds[i] = byteEnd += Buffer.byteLength(x);
    });
  }
  if (!keep) {
    lastText = undefined;
    return { text, ends, byteEnds };
  }
  const start = new Uint32Array(strings.length + 1);
  start.set(byteEnds, 1);
  if (!recycle) {
    lastText = { items: strings, bytes: text, start };
    return { text, ends, byteEnds };
  }
  // To be written over later, the text is copied into memory of its own (Buffer.from may have taken
  // it from the pool that Buffers share), and memory for the encode after the next is made (spareFor).
  const memory = Buffer.allocUnsafeSlow(text.length + (1 << 20));
  text.copy(memory);
  lastText = { items: strings, bytes: memory.subarray(0, text.length), start, memory };
  spareText = spareFor(lastText);
  return { text: lastText.bytes, ends, byteEnds };
}

/** The sections, each 8-byte aligned after the header that names them, as the pieces to write (see layoutSections). */
export function layoutPacked(sections: [string, Buffer | Buffer[]][]): Buffer[] {
  const header: { v: number; sections: Record<string, [number, number]> } = { v: PACK_VERSION, sections: {} };
  return layoutSections(PACKED_MAGIC, header, sections);
}

/** A packed graph's bytes, its sections found but not decoded; throws on bytes that are not one of this version. */
export function openPacked(bytes: Buffer): { names: string[]; section(name: string): Buffer; column(name: string): Int32Array } {
  const p = openSections<{ v: number; sections: Record<string, [number, number]> }>(bytes, PACKED_MAGIC, 'packed graph');
  if (!p) throw new Error('not a packed graph');
  if (p.header.v !== PACK_VERSION) throw new Error(`packed graph version ${p.header.v}, not ${PACK_VERSION}`);
  // A file read whole is aligned: its columns are viewed where they lie.
  return { names: p.names, section: p.section, column: (name) => viewAs(Int32Array, p.section(name)) };
}

/**
 * The string table of an opened packed graph: how many strings, and string `i` (undefined for -1),
 * cut from the one decoded text. Throws when the text does not match its ends.
 */
export function packedStrings(p: ReturnType<typeof openPacked>): { count: number; get(i: number): string | undefined } {
  const text = p.section('stringText').toString('utf8');
  const ends = viewAs(Uint32Array, p.section('stringEnds'));
  // A string that is not well-formed UTF-16 would not come back the same length: no graph, then.
  if ((ends.length > 0 ? ends[ends.length - 1] : 0) !== text.length) throw new Error('packed graph: the string table does not match its ends');
  return { count: ends.length, get: (i) => (i < 0 ? undefined : text.slice(i === 0 ? 0 : ends[i - 1], ends[i])) };
}

/**
 * The same table read string by string from its bytes (through the byte ends), for a caller that
 * needs a few strings: the 15 MB text is not decoded. Throws when the bytes do not match their ends.
 */
export function packedStringsAt(p: ReturnType<typeof openPacked>): { count: number; get(i: number): string | undefined } {
  const text = p.section('stringText');
  const ends = viewAs(Uint32Array, p.section('stringBytes'));
  if ((ends.length > 0 ? ends[ends.length - 1] : 0) !== text.length || ends.length !== p.section('stringEnds').length / 4) throw new Error('packed graph: the string table does not match its ends');
  return { count: ends.length, get: (i) => (i < 0 ? undefined : text.toString('utf8', i === 0 ? 0 : ends[i - 1], ends[i])) };
}

/**
 * The string sections of an opened packed graph with `added` appended to its table (their ids from its
 * count on): the text as pieces, and each end column grown by the added strings' ends, in UTF-16 units
 * and in bytes.
 */
export function appendedStrings(p: ReturnType<typeof openPacked>, added: readonly string[]): { stringText: Buffer[]; stringEnds: Buffer; stringBytes: Buffer } {
  const grown = (name: string, size: (s: string) => number): Buffer => {
    const ends = viewAs(Uint32Array, p.section(name));
    const more = new Uint32Array(ends.length + added.length);
    more.set(ends);
    let end = ends.length > 0 ? ends[ends.length - 1] : 0;
    added.forEach((s, i) => (more[ends.length + i] = end += size(s)));
    return asBytes(more);
  };
  return {
    stringText: [p.section('stringText'), Buffer.from(added.join(''))],
    stringEnds: grown('stringEnds', (s) => s.length),
    stringBytes: grown('stringBytes', (s) => Buffer.byteLength(s)),
  };
}

/**
 * What a packed graph keeps besides its tables (goroutines, channels, diagnostics, counts), from its
 * bytes: the string table and the tables are not decoded. Throws as decodePacked does.
 */
export function packedRest(bytes: Buffer): PackedGraph['rest'] {
  return deserialize(openPacked(bytes).section('rest')) as PackedGraph['rest'];
}

/** What encodePacked wrote; throws on bytes that are not a packed graph of this version. */
export function decodePacked(bytes: Buffer): PackedGraph {
  const p = openPacked(bytes);
  const table = packedStrings(p);
  const strings = Array.from({ length: table.count }, (_, i) => table.get(i)!);
  return {
    v: PACK_VERSION,
    strings,
    edges: p.column('edges'),
    symbols: p.column('symbols'),
    unresolved: p.column('unresolved'),
    rest: deserialize(p.section('rest')) as PackedGraph['rest'],
  };
}

