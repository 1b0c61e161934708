/** Resolution: the program (declarations) → the call graph with channels, goroutines and symbols. */
import type { BuildContext, Diagnostic, Edge, Graph, UnresolvedSite } from '../model/index.js';
import type { Program } from './program.js';
import { CallResolver } from './calls.js';
import { collectSymbols } from './symbols.js';
import { collectChannels, collectGoroutines } from './concurrency.js';

export { buildProgram, type Program, type PackageInput } from './program.js';
export { symbolFields, type SymbolFields } from './symbols.js';

export function resolveProgram(program: Program, meta: { root: string; modulePath: string; context: BuildContext; diagnostics: Diagnostic[] }): Graph {
  const resolver = new CallResolver(program);
  const edges: Edge[] = [];
  const unresolved: UnresolvedSite[] = [];
  for (const fn of [...program.funcs.values(), ...program.inits]) {
    if (!fn.file.active) continue;
    resolver.resolveFunction(fn, edges, unresolved);
  }
  const symbols = collectSymbols(program, resolver.types);
  const goroutines = collectGoroutines(program, resolver, edges);
  const channels = collectChannels(program, resolver, edges);
  const stats: Record<string, number> = {
    packages: program.packages.size,
    files: [...program.packages.values()].reduce((n, p) => n + p.files.length, 0),
    symbols: symbols.length,
    functions: symbols.filter((s) => s.kind === 'func' || s.kind === 'method' || s.kind === 'closure').length,
    edges: edges.length,
    unresolved: unresolved.length,
    goroutines: goroutines.length,
    channelOps: channels.length,
  };
  for (const e of edges) stats[`edges.${e.kind}`] = (stats[`edges.${e.kind}`] ?? 0) + 1;
  // Answers that a guard stopped (see Queries) may depend on the order of resolution: counted when any.
  if (resolver.queries.unsettled) stats['queries.unsettled'] = resolver.queries.unsettled;
  if (resolver.queries.cut) stats['queries.cut'] = resolver.queries.cut;
  return { root: meta.root, modulePath: meta.modulePath, context: meta.context, symbols, edges, unresolved, channels, goroutines, diagnostics: meta.diagnostics, stats };
}
