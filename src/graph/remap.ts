/** A graph with one file's lines moved: what a file whose facts only moved (see positionShift) gives. */
import type { Graph } from '../model/index.js';

/**
 * `g` with every line of `file` mapped through `lines`: the places of its symbols, call sites,
 * unresolved sites, channel operations, goroutine starts and diagnostics, and the `make@FILE:LINE`
 * origins that name it from any file. Undefined when one of those lines is not in the map (the graph
 * holds a position the facts did not give, so it cannot be moved with confidence).
 */
export function remapLines(g: Graph, file: string, lines: ReadonlyMap<number, number>): Graph | undefined {
  let complete = true;
  const to = (n: number): number => {
    const m = lines.get(n);
    if (m === undefined) complete = false;
    return m ?? n;
  };
  const origin = `make@${file}:`;
  const moveOrigin = (o: string): string => (o.startsWith(origin) ? origin + to(Number(o.slice(origin.length))) : o);
  const graph: Graph = {
    ...g,
    symbols: g.symbols.map((s) => (s.file === file ? { ...s, line: to(s.line), endLine: to(s.endLine) } : s)),
    edges: g.edges.map((e) => (e.file === file ? { ...e, line: to(e.line) } : e)),
    unresolved: g.unresolved.map((u) => (u.file === file ? { ...u, line: to(u.line) } : u)),
    channels: g.channels.map((c) => {
      const moved = c.file === file ? { ...c, line: to(c.line) } : c;
      return c.origins?.some((o) => o.startsWith(origin)) ? { ...moved, origins: c.origins.map(moveOrigin) } : moved;
    }),
    goroutines: g.goroutines.map((r) => (r.file === file ? { ...r, line: to(r.line) } : r)),
    diagnostics: g.diagnostics.map((d) => (d.file === file && d.line !== undefined ? { ...d, line: to(d.line) } : d)),
  };
  return complete ? graph : undefined;
}
