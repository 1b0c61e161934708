/**
 * The graph file's delta: what a process that writes the graph after each edit (the watch) keeps in
 * the index state instead of writing the graph file, while it is small. Packing the graph took 52-85
 * ms per edit on v1.28's default scope and writing the file (27 MB) 25-108 ms, in one watch; an edit
 * changes a few hundred of its 290,000 records.
 *
 * For each table (edges, symbols, unresolved sites), the delta holds the graph's records as runs of
 * the graph file's rows and rows of its own, made as packGraph makes them, in the file's string
 * numbering; the strings the file does not have are the delta's, numbered after the file's. It holds
 * the rest of the graph (counts, goroutines, channels, diagnostics) whole. The runs are found by
 * identity (see runsOf) against the graph the file holds, which the writer keeps. packDeltaBytes
 * makes the bytes of a graph file holding the graph back from the file's and the delta, without
 * decoding the file's strings: its string table with the delta's appended, the columns laid out from
 * the runs. The same records as the graph written whole, its strings numbered otherwise.
 */
import { serialize } from 'node:v8';
import { appendedStrings, EDGE_LINE, EDGE_W, layoutPacked, openPacked, placesOf, restOf, rowMakers, runsOf, SYM_LINES, SYM_W, UNRES_LINE, UNRES_W, type PackedGraph } from './pack.js';
import { asBytes } from './sections.js';
import { scratch } from './scratch.js';
import type { Edge, Graph, SymbolRecord, UnresolvedSite } from '../model/index.js';

/** One table's records: `runs` pairs of (a row of the graph file's table, or -1 for the delta's next rows; how many). */
interface TableDelta {
  runs: Int32Array;
  rows: Int32Array;
}

export interface PackDelta {
  /** The label of the graph file the delta applies to, and how many strings its table has. */
  base: string;
  baseStrings: number;
  /** The strings the file does not have: string ids from baseStrings on. */
  strings: string[];
  edges: TableDelta;
  symbols: TableDelta;
  unresolved: TableDelta;
  rest: PackedGraph['rest'];
}

/**
 * The graph file as the state on disk says it is. A delta is made from the graph the file holds and the
 * graph given alone: whatever the state had beside the file (a delta, moves) is left out.
 */
export interface PackOnDisk {
  /** The graph file's own label. */
  base?: string;
  /** The label of the graph the state says the folder holds (the file's, with a delta or moves). */
  holds?: string;
  /** Whether the state keeps line moves for it (a process that finds its graph stored then does not take the file as a base). */
  moves: boolean;
}

/** The most rows of its own (over the three tables) a delta keeps: past them the graph file is written whole. */
export const PACK_DELTA_MAX_ROWS = 20_000;

/** The graph file the deltas go with: its label, the graph it holds, its string table. */
interface Kept {
  file: string;
  base: string;
  graph: Graph;
  /** How many strings the file's table has, and each one's id. */
  count: number;
  ids: Map<string, number>;
  /**
   * Each table's records by their places in the graph (see runsOf), made with the file and kept for
   * every delta: an edit's records made again (a thousand edges for a call added to a method of
   * `kubelet.go`) were each looked for among the 4,096 after the last run's end, 10-15 ms of each
   * edit's delta on v1.28.
   */
  places: { edges: Map<Edge, number>; symbols: Map<SymbolRecord, number>; unresolved: Map<UnresolvedSite, number> };
}

let kept: Kept | undefined;

/**
 * For a process that writes the graph file `file` again and again: graph `g` as a delta over the graph the file holds, or undefined when the file is to be written whole (then call
 * packWritten). A delta is made only when the file on disk is the one this process wrote last (see
 * packWritten), and it keeps at most PACK_DELTA_MAX_ROWS rows of its own.
 */
export function packDelta(file: string, g: Graph, disk: PackOnDisk): PackDelta | undefined {
  const k = kept;
  kept = undefined;
  if (!k || k.file !== file || disk.base !== k.base) return undefined;
  const ids = k.ids;
  const added: string[] = [];
  const addedIds = new Map<string, number>();
  const make = rowMakers({
    id(s) {
      if (s === undefined) return -1;
      let i = ids.get(s) ?? addedIds.get(s);
      if (i === undefined) {
        i = k.count + added.length;
        added.push(s);
        addedIds.set(s, i);
      }
      return i;
    },
  });
  let rows = 0;
  const table = <T>(items: readonly T[], base: readonly T[], places: Map<T, number>, width: number, row: (x: T, rows: Int32Array, o: number) => void): TableDelta | undefined => {
    const runs: number[] = [];
    const made: number[] = [];
    runsOf(items, base, (i) => {
      if (runs.length > 0 && runs[runs.length - 2] === -1) runs[runs.length - 1]++;
      else runs.push(-1, 1);
      made.push(i);
    }, (_i, j, n) => runs.push(j, n), places);
    rows += made.length;
    if (rows > PACK_DELTA_MAX_ROWS) return undefined;
    const out = new Int32Array(made.length * width);
    made.forEach((i, m) => row(items[i], out, m * width));
    return { runs: Int32Array.from(runs), rows: out };
  };
  const { places, graph: base } = k;
  const edges = table(g.edges, base.edges, places.edges, EDGE_W, make.edge);
  const symbols = edges && table(g.symbols, base.symbols, places.symbols, SYM_W, make.symbol);
  const unresolved = symbols && table(g.unresolved, base.unresolved, places.unresolved, UNRES_W, make.unresolved);
  if (!edges || !symbols || !unresolved) return undefined;
  kept = k;
  return { base: k.base, baseStrings: k.count, strings: added, edges, symbols, unresolved, rest: restOf(g) };
}

/**
 * The graph file `file` was written whole with graph `g` (labelled `label`), its strings `strings` (the
 * packed graph's): the base of the next deltas. A process that found its graph stored (see warmIndex)
 * passes what the file holds, when the state on disk has nothing beside it (`disk`).
 */
export function packWritten(file: string, g: Graph, label: string, strings: readonly string[], disk?: PackOnDisk): void {
  kept = undefined;
  if (disk && (disk.base !== label || disk.holds !== label || disk.moves)) return;
  // The ids and the records' places are made here, in the build that wrote the file (or the watch's
  // warm start), not in the first edit after it.
  const ids = new Map<string, number>();
  for (let i = 0; i < strings.length; i++) ids.set(strings[i], i);
  kept = { file, base: label, graph: g, count: strings.length, ids, places: { edges: placesOf(g.edges), symbols: placesOf(g.symbols), unresolved: placesOf(g.unresolved) } };
}

/** Forgets the graph file the deltas go with. */
export function forgetPackDeltaBase(): void {
  kept = undefined;
}

/**
 * The bytes of a graph file holding the graph the delta stands for (as pieces to write or join), made
 * from the bytes of the graph file it applies to. With `recycle`, its columns are made in memory kept
 * for the next call (see scratch.ts): the caller is done with the pieces before it calls again. Throws
 * when they do not go together.
 */
export function packDeltaBytes(base: Buffer, d: PackDelta, recycle = false): Buffer[] {
  const p = openPacked(base);
  const count = p.section('stringEnds').length / 4;
  if (count !== d.baseStrings) throw new Error(`the graph delta is for a string table of ${d.baseStrings} strings, the graph file has ${count}`);
  const table = (from: Int32Array, t: TableDelta, width: number, slot: string): Int32Array => {
    let n = 0;
    for (let r = 1; r < t.runs.length; r += 2) n += t.runs[r];
    const out = scratch(Int32Array, slot, n * width, recycle);
    let at = 0;
    let mine = 0;
    for (let r = 0; r < t.runs.length; r += 2) {
      const j = t.runs[r];
      const count = t.runs[r + 1] * width;
      if (j >= 0) {
        if (j * width + count > from.length) throw new Error('the graph delta runs past its graph file');
        out.set(from.subarray(j * width, j * width + count), at);
      } else {
        out.set(t.rows.subarray(mine, mine + count), at);
        mine += count;
      }
      at += count;
    }
    return out;
  };
  const edges = table(p.column('edges'), d.edges, EDGE_W, 'delta.edges');
  const symbols = table(p.column('symbols'), d.symbols, SYM_W, 'delta.symbols');
  const unresolved = table(p.column('unresolved'), d.unresolved, UNRES_W, 'delta.unresolved');
  // The files table (what moving a file's lines looks up) with the delta's new file strings.
  const files = JSON.parse(p.section('files').toString('utf8')) as [string, number][];
  const seen = new Set<number>();
  for (const [rows, width, at] of [[d.edges.rows, EDGE_W, EDGE_LINE.file], [d.symbols.rows, SYM_W, SYM_LINES.file], [d.unresolved.rows, UNRES_W, UNRES_LINE.file]] as const) {
    for (let o = at; o < rows.length; o += width) {
      const id = rows[o];
      if (id >= d.baseStrings && !seen.has(id)) {
        seen.add(id);
        files.push([d.strings[id - d.baseStrings], id]);
      }
    }
  }
  const strings = appendedStrings(p, d.strings);
  return layoutPacked([
    ['stringText', strings.stringText],
    ['stringEnds', strings.stringEnds],
    ['stringBytes', strings.stringBytes],
    ['files', Buffer.from(JSON.stringify(files))],
    ['edges', asBytes(edges)],
    ['symbols', asBytes(symbols)],
    ['unresolved', asBytes(unresolved)],
    ['rest', serialize(d.rest)],
  ]);
}
