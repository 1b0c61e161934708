/**
 * A compact on-disk form of the graph: one string table and columns of integers. Hundreds of
 * thousands of small objects are slow to (de)serialize; typed arrays and a string table are not.
 */
import { deserialize, serialize } from 'node:v8';
import { asBytes, layoutSections, openSections, viewAs } from './sections.js';
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
const UNRES_W = 5;

/** Where each column holds a file and its lines (for remapPackedBytes, and the files table of encodePacked). */
export const EDGE_LINE = { width: EDGE_W, file: 4, line: 5 };
export const SYM_LINES = { width: SYM_W, file: 4, lines: [5, 6] };
/** Where a symbol row holds its ID, package, doc and fingerprint (string ids; -1 for none). */
export const SYM_FIELDS = { id: 0, pkg: 2, doc: 7, fingerprint: 8 };
export const UNRES_LINE = { width: UNRES_W, file: 1, line: 2 };

/** Interns strings: each distinct string gets the next index. */
export class Strings {
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
function column(s: Strings): (x: string | undefined) => number {
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

export function packGraph(g: Graph): PackedGraph {
  const s = new Strings();
  const edges = new Int32Array(g.edges.length * EDGE_W);
  const [caller, callee, kind, mode, file, how] = [column(s), column(s), column(s), column(s), column(s), column(s)];
  g.edges.forEach((e, i) => {
    const o = i * EDGE_W;
    edges[o] = caller(e.caller);
    edges[o + 1] = callee(e.callee);
    edges[o + 2] = kind(e.kind);
    edges[o + 3] = mode(e.mode);
    edges[o + 4] = file(e.file);
    edges[o + 5] = e.line;
    edges[o + 6] = how(e.how);
    edges[o + 7] = Math.round(e.confidence * 1000);
  });
  const symbols = new Int32Array(g.symbols.length * SYM_W);
  const [symKind, pkg, symFile, constraint, parent] = [column(s), column(s), column(s), column(s), column(s)];
  g.symbols.forEach((x, i) => {
    const o = i * SYM_W;
    symbols[o] = s.id(x.id);
    symbols[o + 1] = symKind(x.kind);
    symbols[o + 2] = pkg(x.pkg);
    symbols[o + 3] = s.id(x.name);
    symbols[o + 4] = symFile(x.file);
    symbols[o + 5] = x.line;
    symbols[o + 6] = x.endLine;
    symbols[o + 7] = s.id(x.doc);
    symbols[o + 8] = s.id(x.fingerprint);
    symbols[o + 9] = s.id(x.signature);
    symbols[o + 10] = (x.active ? 1 : 0);
    symbols[o + 11] = constraint(x.constraint);
    symbols[o + 12] = parent(x.parent);
    const extra = extraJson(x);
    symbols[o + 13] = extra === undefined ? -1 : s.id(extra);
  });
  const unresolved = new Int32Array(g.unresolved.length * UNRES_W);
  g.unresolved.forEach((u, i) => {
    const o = i * UNRES_W;
    unresolved[o] = s.id(u.caller);
    unresolved[o + 1] = s.id(u.file);
    unresolved[o + 2] = u.line;
    unresolved[o + 3] = s.id(u.callee);
    unresolved[o + 4] = s.id(u.reason);
  });
  const { root, modulePath, context, channels, goroutines, diagnostics, stats } = g;
  return { v: PACK_VERSION, strings: s.list, edges, symbols, unresolved, rest: { root, modulePath, context, channels, goroutines, diagnostics, stats } };
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
  const unresolvedByReason = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { root: p.rest.root, stats: p.rest.stats, diagnostics: p.rest.diagnostics, unresolved: p.unresolved.length / UNRES_W, unresolvedByReason };
}

/**
 * A packed graph as bytes: 'KAP2', a u32 header length, a JSON header naming each section's [offset,
 * length], then the sections, each 8-byte aligned: the string table as one text and the end of each
 * string in it, the three integer columns as their raw bytes, and the few object records (node:v8).
 * Decoding views the columns where they lie and cuts the strings out of one decoded text. v1.28's
 * graph (248,000 strings, 15 MB of them): node:v8 took 136 ms to decode it, the table as JSON 160 ms.
 */
const PACKED_MAGIC = 'KAP2';
const COLUMNS = ['edges', 'symbols', 'unresolved'] as const;

export function encodePacked(p: PackedGraph): Buffer[] {
  const ends = new Uint32Array(p.strings.length);
  let end = 0;
  p.strings.forEach((x, i) => {
    ends[i] = end += x.length;
  });
  const text = Buffer.from(p.strings.join(''));
  // As many bytes as code units: every string is ASCII, and the byte ends are the ends.
  let byteEnds = ends;
  if (text.length !== end) {
    byteEnds = new Uint32Array(p.strings.length);
    let byteEnd = 0;
    p.strings.forEach((x, i) => {
      byteEnds[i] = byteEnd += Buffer.byteLength(x);
    });
  }
  // The strings that name files, with their ids: what moving a file's lines looks up (see remapPackedBytes).
  const files = new Set<number>();
  for (const [col, width, at] of [[p.edges, EDGE_W, EDGE_LINE.file], [p.symbols, SYM_W, SYM_LINES.file], [p.unresolved, UNRES_W, UNRES_LINE.file]] as const) {
    for (let o = at; o < col.length; o += width) files.add(col[o]);
  }
  return layoutPacked([
    ['stringText', text],
    ['stringEnds', asBytes(ends)],
    ['stringBytes', asBytes(byteEnds)],
    ['files', Buffer.from(JSON.stringify([...files].filter((i) => i >= 0).map((i) => [p.strings[i], i])))],
    ...COLUMNS.map((c): [string, Buffer] => [c, asBytes(p[c])]),
    ['rest', serialize(p.rest)],
  ]);
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

