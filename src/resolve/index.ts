/** Resolution: the program (declarations) → the call graph with channels, goroutines and symbols. */
import type { Edge, Graph, UnresolvedSite } from '../model/index.js';
import { funcsInOrder, type Program } from './program.js';
import { CallResolver } from './calls.js';
import { finishGraph, type ResolveMeta } from './finish.js';

export { buildProgram, factsDiagnostics, type Program, type PackageInput } from './program.js';
export { symbolFields, type SymbolFields } from './symbols.js';
export { ResolveSession, type FilesChange, type SessionUpdate } from './session.js';
export type { ResolveMeta } from './finish.js';

export function resolveProgram(program: Program, meta: ResolveMeta): Graph {
  const resolver = new CallResolver(program);
  const edges: Edge[] = [];
  const unresolved: UnresolvedSite[] = [];
  for (const fn of [...funcsInOrder(program), ...program.inits]) {
    if (!fn.file.active) continue;
    resolver.resolveFunction(fn, edges, unresolved);
  }
  return finishGraph(program, resolver, edges, unresolved, meta);
}
