/** Graph queries over the stored graph: callers, callees to a depth, shortest path, text search. */
import type { Edge, Graph, SymbolRecord } from '../model/index.js';
import { compareCallees, compareCallers } from './store.js';
import { byCodeUnits } from './lookup.js';

/** Where a view gets each node's edges: an in-memory graph, or the on-disk query store. */
export interface Adjacency {
  callees(id: string): Edge[];
  callers(id: string): Edge[];
  /** The same answer as GraphView.path, when the source can search faster itself. */
  path?(from: string, to: string, maxNodes?: number): Edge[] | undefined;
}

export class GraphView {
  private out = new Map<string, Edge[]>();
  private in = new Map<string, Edge[]>();
  private sorted = new Set<Edge[]>();
  private readonly stored?: Adjacency;

  constructor(source: Graph | Adjacency) {
    if ('edges' in source) {
      for (const e of source.edges) {
        push(this.out, e.caller, e);
        push(this.in, e.callee, e);
      }
    } else this.stored = source;
  }

  /** Likely targets first; each list is sorted the first time it is asked for. */
  callees(id: string): Edge[] {
    return this.list(this.out, id, 'callees', compareCallees);
  }

  callers(id: string): Edge[] {
    return this.list(this.in, id, 'callers', compareCallers);
  }

  private list(map: Map<string, Edge[]>, id: string, side: 'callers' | 'callees', compare: (a: Edge, b: Edge) => number): Edge[] {
    let list = map.get(id);
    if (!list && this.stored) {
      // The store keeps each list sorted already.
      list = this.stored[side](id);
      map.set(id, list);
      this.sorted.add(list);
    }
    if (!list) return [];
    if (!this.sorted.has(list)) {
      list.sort(compare);
      this.sorted.add(list);
    }
    return list;
  }

  /** The call tree under `id`, breadth-limited by depth, each node visited once. */
  calleeTree(id: string, depth: number): CallTree {
    const seen = new Set<string>([id]);
    const build = (node: string, d: number): CallTree => {
      const children: { edge: Edge; tree: CallTree }[] = [];
      if (d < depth) {
        for (const e of this.callees(node)) {
          if (seen.has(e.callee)) {
            children.push({ edge: e, tree: { id: e.callee, children: [], repeated: true } });
            continue;
          }
          seen.add(e.callee);
          children.push({ edge: e, tree: build(e.callee, d + 1) });
        }
      }
      return { id: node, children };
    };
    return build(id, 0);
  }

  /** Shortest path by edge count; calls are preferred over references when both exist. */
  path(from: string, to: string, maxNodes = 500000): Edge[] | undefined {
    if (this.stored?.path) return this.stored.path(from, to, maxNodes);
    const prev = new Map<string, Edge | null>([[from, null]]);
    let frontier = [from];
    while (frontier.length && prev.size < maxNodes) {
      const next: string[] = [];
      for (const n of frontier) {
        const edges = [...this.callees(n)].sort((a, b) => Number(a.mode === 'ref') - Number(b.mode === 'ref') || b.confidence - a.confidence);
        for (const e of edges) {
          if (prev.has(e.callee)) continue;
          prev.set(e.callee, e);
          if (e.callee === to) return unwind(prev, to);
          next.push(e.callee);
        }
      }
      frontier = next;
    }
    return undefined;
  }

  search(text: string, symbols: Iterable<SymbolRecord>, limit = 50): SymbolRecord[] {
    const q = text.toLowerCase();
    const hits: { s: SymbolRecord; score: number }[] = [];
    for (const s of symbols) {
      const id = s.id.toLowerCase();
      const name = s.name.toLowerCase();
      let score = -1;
      if (name === q) score = 0;
      else if (name.startsWith(q)) score = 1;
      else if (id.includes(q)) score = 2;
      else if (s.doc?.toLowerCase().includes(q)) score = 3;
      if (score >= 0) hits.push({ s, score });
    }
    // Best first: by score, the kubelet's own before its dependencies, shorter IDs, then by ID. The
    // first three as one number, so that only the hits that can be among the first `limit` (those
    // whose number is at most the limit-th smallest) are sorted with the comparison of IDs: a short
    // text matches most symbols (86,868 on v1.28), and their sort was most of the command's time.
    const keys = new Float64Array(hits.length);
    hits.forEach((h, i) => (keys[i] = (h.score * 2 + (h.s.id.includes('/pkg/kubelet') ? 0 : 1)) * 2 ** 32 + h.s.id.length));
    const bound = hits.length > limit ? keys.slice().sort()[limit - 1] : Infinity;
    const best = hits.filter((_, i) => keys[i] <= bound);
    best.sort((a, b) => a.score - b.score || Number(b.s.id.includes('/pkg/kubelet')) - Number(a.s.id.includes('/pkg/kubelet')) || a.s.id.length - b.s.id.length || byCodeUnits(a.s.id, b.s.id));
    return best.slice(0, limit).map((h) => h.s);
  }
}

export interface CallTree {
  id: string;
  children: { edge: Edge; tree: CallTree }[];
  repeated?: boolean;
}

function unwind(prev: Map<string, Edge | null>, to: string): Edge[] {
  const out: Edge[] = [];
  let cur = prev.get(to);
  while (cur) {
    out.unshift(cur);
    cur = prev.get(cur.caller);
  }
  return out;
}

function push<K, V>(map: Map<K, V[]>, key: K, v: V): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}

/** Interface candidates that flow or rapid type analysis ruled out (stored, hidden by default). */
export function isRuledOut(e: Edge): boolean {
  return e.how === 'iface-ruled-out-by-flow' || e.how === 'iface-never-created';
}

/** The TSV the evaluation scores: CALLER, CALLEE, static|dynamic, FILE:LINE. References are left out unless asked. */
export function edgesToTsv(graph: Graph, withRefs = false, allCandidates = false): string {
  const lines: string[] = [];
  for (const e of graph.edges) {
    if (e.mode === 'ref' && !withRefs) continue;
    if (!allCandidates && isRuledOut(e)) continue;
    const kind = e.kind === 'static' || e.kind === 'closure' ? 'static' : 'dynamic';
    lines.push(`${e.caller}\t${e.callee}\t${kind}\t${e.file}:${e.line}`);
  }
  return lines.join('\n') + (lines.length ? '\n' : '');
}
