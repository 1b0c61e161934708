/** A graph with one file's lines moved: what a file whose facts only moved (see positionShift) gives. */
import type { Diagnostic, Graph, SymbolRecord } from '../model/index.js';
import { Mover, movedRecords } from './mover.js';
import { deserialize, serialize } from 'node:v8';
import { appendedStrings, EDGE_LINE, layoutPacked, openPacked, packedStringsAt, SYM_FIELDS, SYM_LINES, SYM_W, UNRES_LINE, type PackedGraph } from './pack.js';
import { asBytes } from './sections.js';
import type { SymbolFields } from '../resolve/index.js';
import { symbolName } from './lookup.js';

/**
 * A package's own record names its first file at line 1 without standing there (see collectSymbols):
 * a build keeps it at line 1 whatever the file's lines did, so it is not moved. Before, a file with
 * nothing of its own at line 1 could not be moved at all.
 */
function isPackageRecord(s: SymbolRecord): boolean {
  return s.kind === 'package';
}

/** The package's own row in the symbols column: its ID is its package path (the same string id). */
function packageRow(a: Int32Array, o: number): boolean {
  return a[o + SYM_FIELDS.id] === a[o + SYM_FIELDS.pkg];
}

/** No row kept in place. */
function noRow(_a: Int32Array, _o: number): boolean {
  return false;
}

/**
 * Moves, in `a` (a column of rows `width` ints wide), the lines at `lineAts` of each row whose file is
 * `id` (a string id; undefined: the file is not in the graph), except rows `kept` says stay.
 */
function moveColumn(m: Mover, id: number | undefined, a: Int32Array, width: number, fileAt: number, lineAts: number[], kept = noRow): void {
  if (id === undefined) return;
  for (let o = 0; o < a.length; o += width) if (a[o + fileAt] === id && !kept(a, o)) for (const l of lineAts) a[o + l] = m.to(a[o + l]);
}

/**
 * `g` with every line of `file` mapped through `lines`: the places of its symbols, call sites,
 * unresolved sites, channel operations, goroutine starts and diagnostics, and the `make@FILE:LINE`
 * origins that name it from any file. Undefined when one of those lines is not in the map (the graph
 * holds a position the facts did not give, so it cannot be moved with confidence).
 */
export function remapLines(g: Graph, file: string, lines: ReadonlyMap<number, number>): Graph | undefined {
  const m = new Mover(file, lines);
  const graph: Graph = {
    ...g,
    symbols: g.symbols.map((s) => (s.file === file && !isPackageRecord(s) ? { ...s, line: m.to(s.line), endLine: m.to(s.endLine) } : s)),
    edges: g.edges.map((e) => (e.file === file ? { ...e, line: m.to(e.line) } : e)),
    unresolved: g.unresolved.map((u) => (u.file === file ? { ...u, line: m.to(u.line) } : u)),
    ...m.records(g),
  };
  return m.complete ? graph : undefined;
}

/** remapLines on the packed form, without unpacking it: the same lines move. */
export function remapPackedLines(p: PackedGraph, file: string, lines: ReadonlyMap<number, number>): PackedGraph | undefined {
  const m = new Mover(file, lines);
  const at = p.strings.indexOf(file);
  const id = at >= 0 ? at : undefined;
  const column = (a: Int32Array, width: number, fileAt: number, lineAts: number[], kept = noRow): Int32Array => {
    const out = a.slice();
    moveColumn(m, id, out, width, fileAt, lineAts, kept);
    return out;
  };
  const moved: PackedGraph = {
    ...p,
    edges: column(p.edges, EDGE_LINE.width, EDGE_LINE.file, [EDGE_LINE.line]),
    symbols: column(p.symbols, SYM_LINES.width, SYM_LINES.file, SYM_LINES.lines, packageRow),
    unresolved: column(p.unresolved, UNRES_LINE.width, UNRES_LINE.file, [UNRES_LINE.line]),
    rest: { ...p.rest, ...m.records(p.rest) },
  };
  return m.complete ? moved : undefined;
}

/**
 * A file whose facts moved (see factsShift): where each of its old lines went, and, when its
 * declarations' docs or fingerprints changed, what its symbol records take from its new facts.
 */
export type FileMove = [file: string, lines: ReadonlyMap<number, number>, fields?: SymbolFields];

/**
 * remapPackedLines for several files, on a packed graph's bytes (see encodePacked): the line columns
 * are moved in place, in `bytes` itself, and the object records decoded and moved; the string table,
 * the larger part of the bytes, is kept as it is. A move with fields also gives its file's symbols
 * their new docs and fingerprints (new strings are appended to the table). The new bytes as pieces to
 * write (slices of `bytes` among them), and the moved records. Undefined when a line is not in its
 * file's map or a symbol has no fields, and `bytes` may then be part moved; throws on bytes that are
 * not a packed graph. A private copy or map of the graph file is what to pass: only the changed pages
 * of a map are copied.
 */
export function remapPackedBytes(bytes: Buffer, moves: FileMove[]): { parts: Buffer[]; rest: PackedGraph['rest'] } | undefined {
  const p = openPacked(bytes);
  const ids = new Map(JSON.parse(p.section('files').toString('utf8')) as [string, number][]);
  const edges = p.column('edges');
  const symbols = p.column('symbols');
  const unresolved = p.column('unresolved');
  for (const [file, lines] of moves) {
    const m = new Mover(file, lines);
    const id = ids.get(file);
    moveColumn(m, id, edges, EDGE_LINE.width, EDGE_LINE.file, [EDGE_LINE.line]);
    moveColumn(m, id, symbols, SYM_LINES.width, SYM_LINES.file, SYM_LINES.lines, packageRow);
    moveColumn(m, id, unresolved, UNRES_LINE.width, UNRES_LINE.file, [UNRES_LINE.line]);
    if (!m.complete) return undefined;
  }
  const rest = movedRecords(deserialize(p.section('rest')) as PackedGraph['rest'], moves);
  if (!rest) return undefined;
  const moved: Record<string, Buffer | Buffer[]> = { edges: asBytes(edges), symbols: asBytes(symbols), unresolved: asBytes(unresolved), rest: serialize(rest) };
  if (moves.some((move) => move[2])) {
    const strings = refieldSymbols(p, symbols, ids, moves);
    if (!strings) return undefined;
    Object.assign(moved, strings);
  }
  return { parts: layoutPacked(p.names.map((name): [string, Buffer | Buffer[]] => [name, moved[name] ?? p.section(name)])), rest };
}

/** The three tables whose rows hold lines, as a packed graph lays them out. */
export type LineTable = 'edges' | 'symbols' | 'unresolved';

/**
 * A packed graph as movesFit reads it: the string id of a file it names, each table's rows handed
 * over in pieces of whole rows (in order; a caller may read them from disk piece by piece), and the
 * records it keeps as objects.
 */
export interface PackedLines {
  fileId(file: string): number | undefined;
  rows(table: LineTable, visit: (rows: Int32Array) => void): void;
  rest: PackedGraph['rest'];
  /** The string with this id (what a symbol row's name is made of). */
  string(id: number): string | undefined;
}

/**
 * Whether every line the graph holds in each move's file has a place in the move's map, and each
 * symbol of a move with fields has its fields: the tests remapPackedBytes makes as it moves the lines
 * (and refieldSymbols as it gives the fields), made here without moving or copying anything, one pass
 * over each table for all the moves.
 */
export function movesFit(g: PackedLines, moves: readonly FileMove[]): boolean {
  const byId = new Map<number, ReadonlyMap<number, number>>();
  const fieldsOf = new Map<number, { fields: SymbolFields; taken: Map<string, number> }>();
  for (const [file, lines, fields] of moves) {
    const id = g.fileId(file);
    if (id !== undefined) byId.set(id, lines);
    if (id !== undefined && fields) fieldsOf.set(id, { fields, taken: new Map() });
  }
  let fits = true;
  // A symbol row takes the next fields listed under its name (as refieldSymbols gives them).
  const hasFields = (a: Int32Array, o: number): boolean => {
    const f = fieldsOf.get(a[o + SYM_LINES.file]);
    if (!f || packageRow(a, o)) return true;
    const name = symbolName(g.string(a[o + SYM_FIELDS.id])!, g.string(a[o + SYM_FIELDS.pkg])!);
    const k = f.taken.get(name) ?? 0;
    f.taken.set(name, k + 1);
    return f.fields.get(name)?.[k] !== undefined;
  };
  // Most often one file moves: its id is compared, with no lookup per row.
  const only = byId.size === 1 ? [...byId.keys()][0] : undefined;
  const pass = (table: LineTable, width: number, fileAt: number, lineAts: readonly number[], kept: (a: Int32Array, o: number) => boolean, also?: (a: Int32Array, o: number) => boolean) => {
    g.rows(table, (a) => {
      for (let o = 0; fits && o < a.length; o += width) {
        const f = a[o + fileAt];
        if (only !== undefined ? f !== only : !byId.has(f)) continue;
        const lines = byId.get(f)!;
        if (also && !also(a, o)) fits = false;
        if (kept(a, o)) continue;
        for (const l of lineAts) if (!lines.has(a[o + l])) fits = false;
      }
    });
  };
  if (byId.size > 0) {
    pass('edges', EDGE_LINE.width, EDGE_LINE.file, [EDGE_LINE.line], noRow);
    pass('symbols', SYM_LINES.width, SYM_LINES.file, SYM_LINES.lines, packageRow, fieldsOf.size > 0 ? hasFields : undefined);
    pass('unresolved', UNRES_LINE.width, UNRES_LINE.file, [UNRES_LINE.line], noRow);
  }
  for (const [file, lines] of moves) {
    if (!fits) break;
    const m = new Mover(file, lines);
    m.records(g.rest);
    fits = m.complete;
  }
  return fits;
}

/**
 * Gives the symbols of each move with fields their doc and fingerprint, in `symbols` (the column, in
 * place): a symbol takes the next fields listed under its name. Strings not in the table yet are
 * appended to it: the new string sections, or undefined when a symbol of such a file has no fields.
 */
function refieldSymbols(p: ReturnType<typeof openPacked>, symbols: Int32Array, ids: Map<string, number>, moves: FileMove[]): { stringText: Buffer[]; stringEnds: Buffer; stringBytes: Buffer } | undefined {
  const table = packedStringsAt(p);
  const added: string[] = [];
  const addedIds = new Map<string, number>();
  /** The string's id: the one it has when `now` (a string id) is it, else a new one. */
  const idOf = (s: string | undefined, now: number): number => {
    if (s === undefined) return -1;
    if (table.get(now) === s) return now;
    let i = addedIds.get(s);
    if (i === undefined) {
      i = table.count + added.length;
      added.push(s);
      addedIds.set(s, i);
    }
    return i;
  };
  for (const [file, , fields] of moves) {
    const fileId = ids.get(file);
    if (!fields || fileId === undefined) continue;
    const taken = new Map<string, number>();
    for (let o = 0; o < symbols.length; o += SYM_W) {
      if (symbols[o + SYM_LINES.file] !== fileId) continue;
      // The package's own record names its first file, and has no doc or fingerprint.
      if (packageRow(symbols, o)) continue;
      const name = symbolName(table.get(symbols[o + SYM_FIELDS.id])!, table.get(symbols[o + SYM_FIELDS.pkg])!);
      const k = taken.get(name) ?? 0;
      const f = fields.get(name)?.[k];
      if (!f) return undefined;
      taken.set(name, k + 1);
      symbols[o + SYM_FIELDS.doc] = idOf(f.doc, symbols[o + SYM_FIELDS.doc]);
      symbols[o + SYM_FIELDS.fingerprint] = idOf(f.fingerprint, symbols[o + SYM_FIELDS.fingerprint]);
    }
  }
  return appendedStrings(p, added);
}

/**
 * The moves that take a graph's lines where `first` and then `then` put them: what one move of the
 * graph's bytes to the newest lines gives. A file moved twice maps each line `first` knew through both
 * maps, and takes the newer fields if `then` has any. Undefined when a line `first` placed has no place
 * in `then` (the second edit's map is of the facts the first one made, which hold every such line, so
 * this means something else changed).
 */
export function composeMoves(first: readonly FileMove[], then: readonly FileMove[]): FileMove[] | undefined {
  const out = new Map<string, FileMove>(first.map((m) => [m[0], m]));
  for (const move of then) {
    const [file, lines, fields] = move;
    const before = out.get(file);
    if (!before) {
      out.set(file, move);
      continue;
    }
    const both = new Map<number, number>();
    for (const [from, via] of before[1]) {
      const to = lines.get(via);
      if (to === undefined) return undefined;
      both.set(from, to);
    }
    const f = fields ?? before[2];
    out.set(file, f ? [file, both, f] : [file, both]);
  }
  return [...out.values()];
}

/**
 * Diagnostics (a graph's, or its summary's) with the moves' lines moved; undefined when a diagnostic's
 * line in a moved file has no new place.
 */
export function moveDiagnostics(diagnostics: Diagnostic[], moves: readonly FileMove[]): Diagnostic[] | undefined {
  let out = diagnostics;
  for (const [file, lines] of moves) {
    const m = new Mover(file, lines);
    out = m.diagnostics(out);
    if (!m.complete) return undefined;
  }
  return out;
}

/** How many lines the moves map, over all their files: what an index keeps beside its graph until it is written again. */
export function movedLineCount(moves: readonly FileMove[]): number {
  let n = 0;
  for (const [, lines] of moves) n += lines.size;
  return n;
}
