/** A graph with one file's lines moved: what a file whose facts only moved (see positionShift) gives. */
import type { ChannelOpRecord, Diagnostic, Graph, GoroutineRecord } from '../model/index.js';
import { EDGE_LINE, SYM_LINES, UNRES_LINE, type PackedGraph } from './pack.js';

/** Maps lines of one file, noting any line the map does not know. */
class Mover {
  complete = true;
  readonly origin: string;

  constructor(readonly file: string, private readonly lines: ReadonlyMap<number, number>) {
    this.origin = `make@${file}:`;
  }

  to(n: number): number {
    const m = this.lines.get(n);
    if (m === undefined) this.complete = false;
    return m ?? n;
  }

  /** Channel operations, goroutine starts and diagnostics: the records both forms of the graph keep as objects. */
  records(g: { channels: ChannelOpRecord[]; goroutines: GoroutineRecord[]; diagnostics: Diagnostic[] }) {
    const { file, origin } = this;
    const moveOrigin = (o: string): string => (o.startsWith(origin) ? origin + this.to(Number(o.slice(origin.length))) : o);
    return {
      channels: g.channels.map((c) => {
        const moved = c.file === file ? { ...c, line: this.to(c.line) } : c;
        return c.origins?.some((o) => o.startsWith(origin)) ? { ...moved, origins: c.origins.map(moveOrigin) } : moved;
      }),
      goroutines: g.goroutines.map((r) => (r.file === file ? { ...r, line: this.to(r.line) } : r)),
      diagnostics: g.diagnostics.map((d) => (d.file === file && d.line !== undefined ? { ...d, line: this.to(d.line) } : d)),
    };
  }
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
    symbols: g.symbols.map((s) => (s.file === file ? { ...s, line: m.to(s.line), endLine: m.to(s.endLine) } : s)),
    edges: g.edges.map((e) => (e.file === file ? { ...e, line: m.to(e.line) } : e)),
    unresolved: g.unresolved.map((u) => (u.file === file ? { ...u, line: m.to(u.line) } : u)),
    ...m.records(g),
  };
  return m.complete ? graph : undefined;
}

/** remapLines on the packed form, without unpacking it: the same lines move. */
export function remapPackedLines(p: PackedGraph, file: string, lines: ReadonlyMap<number, number>): PackedGraph | undefined {
  const m = new Mover(file, lines);
  const id = p.strings.indexOf(file);
  const column = (a: Int32Array, width: number, fileAt: number, lineAts: number[]): Int32Array => {
    const out = a.slice();
    if (id >= 0) for (let o = 0; o < out.length; o += width) if (out[o + fileAt] === id) for (const l of lineAts) out[o + l] = m.to(out[o + l]);
    return out;
  };
  const moved: PackedGraph = {
    ...p,
    edges: column(p.edges, EDGE_LINE.width, EDGE_LINE.file, [EDGE_LINE.line]),
    symbols: column(p.symbols, SYM_LINES.width, SYM_LINES.file, SYM_LINES.lines),
    unresolved: column(p.unresolved, UNRES_LINE.width, UNRES_LINE.file, [UNRES_LINE.line]),
    rest: { ...p.rest, ...m.records(p.rest) },
  };
  return m.complete ? moved : undefined;
}
