/** The graph from a program's resolved edges: symbols, goroutines, channels and counts added. */
import type { BuildContext, ChannelOpRecord, Diagnostic, Edge, Graph, GoroutineRecord, SymbolRecord, UnresolvedSite } from '../model/index.js';
import type { Program } from './program.js';
import type { CallResolver } from './calls.js';
import { collectSymbols, functionCount } from './symbols.js';
import { collectChannels, collectGoroutines } from './concurrency.js';

export interface ResolveMeta {
  root: string;
  modulePath: string;
  context: BuildContext;
  diagnostics: Diagnostic[];
}

/**
 * `kept`, when given, has the parts a session keeps: the symbol records (see SymbolSlots) and how
 * many of them are functions, the goroutines the program starts, the edges counted by kind (in the
 * order the edges first have the kinds) and the channel records.
 */
export function finishGraph(program: Program, resolver: CallResolver, edges: Edge[], unresolved: UnresolvedSite[], meta: ResolveMeta, kept?: { symbols: SymbolRecord[]; functions: number; goroutines: GoroutineRecord[]; kinds: Map<string, number>; channels: ChannelOpRecord[] }): Graph {
  const symbols = kept ? kept.symbols : collectSymbols(program, resolver.types);
  const goroutines = kept ? kept.goroutines : collectGoroutines(program, resolver, edges);
  const channels = kept ? kept.channels : collectChannels(program, resolver);
  const stats: Record<string, number> = {
    packages: program.packages.size,
    files: [...program.packages.values()].reduce((n, p) => n + p.files.length, 0),
    symbols: symbols.length,
    functions: kept ? kept.functions : functionCount(symbols, 0, symbols.length),
    edges: edges.length,
    unresolved: unresolved.length,
    goroutines: goroutines.length,
    channelOps: channels.length,
  };
  const kinds = kept?.kinds ?? new Map<string, number>();
  if (!kept) for (const e of edges) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
  for (const [kind, n] of kinds) stats[`edges.${kind}`] = n;
  // Answers that a guard stopped (see Queries) may depend on the order of resolution: counted when any.
  if (resolver.queries.unsettled) stats['queries.unsettled'] = resolver.queries.unsettled;
  if (resolver.queries.cut) stats['queries.cut'] = resolver.queries.cut;
  return { root: meta.root, modulePath: meta.modulePath, context: meta.context, symbols, edges, unresolved, channels, goroutines, diagnostics: meta.diagnostics, stats };
}
