/**
 * Call edges, goroutine starts and channel holders of two trees, compared after mapping renamed IDs
 * of the older tree to their new names (so a rename is not also a pile of edge changes). Closures are
 * folded into the named function around them: their numbers shift whenever a literal is added above.
 */
import type { Graph } from '../model/index.js';
import { isRuledOut } from '../graph/queries.js';
import { packageOf } from '../notes/index.js';
import type { ChannelChange, EdgeChange, GoroutineChange } from './types.js';

const CLOSURE = /\.func\d+(\.\d+)*$/;

/** Maps a closure ID to the named function that encloses it (other IDs map to themselves). */
export function folder(graph: Graph): (id: string) => string {
  const parent = new Map<string, string>();
  for (const s of graph.symbols) if (s.kind === 'closure' && s.parent) parent.set(s.id, s.parent);
  return (id) => {
    let cur = id;
    for (let i = 0; i < 64 && parent.has(cur); i++) cur = parent.get(cur)!;
    while (CLOSURE.test(cur)) cur = cur.replace(CLOSURE, '');
    return cur;
  };
}

/** Fakes and mocks: their edges follow test scaffolding, not the kubelet's behaviour. */
export function isFake(id: string): boolean {
  const pkg = packageOf(id);
  if (pkg.split('/').some((p) => /^(fake.*|.*fakes?|testing|testutils?|mock.*|.*mocks?)$/i.test(p))) return true;
  const local = id.slice(pkg.length + 1).replace(/^\(\*?/, '');
  return /^(Fake|fake|Mock|mock)/.test(local);
}

export interface Side {
  graph: Graph;
  fold: (id: string) => string;
  /** Where a (folded) function is defined, when the index knows it. */
  place: (id: string) => { pkg: string; file: string } | undefined;
}

type Want = (pkg: string) => boolean;

interface Keyed { pkg: string; file: string; line?: number; count: number }

export function compareEdges(from: Side, to: Side, renames: Map<string, string>, want: Want): EdgeChange[] {
  const collect = (side: Side, rename: (id: string) => string) => {
    const m = new Map<string, Keyed & { caller: string; callee: string }>();
    for (const e of side.graph.edges) {
      // Candidates that flow analysis ruled out are hidden everywhere else too.
      if (isRuledOut(e)) continue;
      const caller0 = side.fold(e.caller);
      const caller = rename(caller0);
      const callee = rename(side.fold(e.callee));
      if (caller === callee || isFake(caller) || isFake(callee)) continue;
      const at = side.place(caller0) ?? { pkg: packageOf(caller0), file: e.file };
      if (!want(at.pkg)) continue;
      const key = `${caller}\t${callee}`;
      if (!m.has(key)) m.set(key, { caller, callee, pkg: at.pkg, file: at.file, count: 1 });
    }
    return m;
  };
  const before = collect(from, (id) => renames.get(id) ?? id);
  const after = collect(to, (id) => id);
  const out: EdgeChange[] = [];
  for (const [k, v] of after) if (!before.has(k)) out.push({ caller: v.caller, callee: v.callee, change: 'added', pkg: v.pkg, file: v.file });
  for (const [k, v] of before) if (!after.has(k)) out.push({ caller: v.caller, callee: v.callee, change: 'removed', pkg: v.pkg, file: v.file });
  return out.sort((x, y) => x.caller.localeCompare(y.caller) || x.callee.localeCompare(y.callee) || x.change.localeCompare(y.change));
}

export function compareGoroutines(from: Side, to: Side, renames: Map<string, string>, want: Want): GoroutineChange[] {
  const collect = (side: Side, rename: (id: string) => string) => {
    const m = new Map<string, Keyed & Omit<GoroutineChange, 'change' | 'count' | 'pkg' | 'file' | 'line'>>();
    const ruledOut = new Set(side.graph.edges.filter((e) => e.mode === 'go' && isRuledOut(e)).map((e) => `${e.caller}@${e.line}>${e.callee}`));
    for (const g of side.graph.goroutines) {
      if (ruledOut.has(`${g.starter}@${g.line}>${g.target}`)) continue;
      const starter0 = side.fold(g.starter);
      const starter = rename(starter0);
      const top = side.fold(g.target);
      const target = top === g.target ? rename(top) : `${rename(top)}.func*`;
      if (isFake(starter)) continue;
      const at = side.place(starter0) ?? { pkg: packageOf(starter0), file: g.file };
      if (!want(at.pkg)) continue;
      const key = [starter, target, g.via, g.period ?? ''].join('\t');
      const prev = m.get(key);
      if (prev) prev.count++;
      else m.set(key, { starter, target, via: g.via, ...(g.period ? { period: g.period } : {}), pkg: at.pkg, file: g.file, line: g.line, count: 1 });
    }
    return m;
  };
  const before = collect(from, (id) => renames.get(id) ?? id);
  const after = collect(to, (id) => id);
  const out: GoroutineChange[] = [];
  const emit = (v: Keyed & Omit<GoroutineChange, 'change' | 'count' | 'pkg' | 'file' | 'line'>, change: 'added' | 'removed', count: number) => {
    out.push({ starter: v.starter, target: v.target, via: v.via, ...(v.period ? { period: v.period } : {}), change, count, pkg: v.pkg, file: v.file, line: v.line ?? 0 });
  };
  for (const [k, v] of after) {
    const n = v.count - (before.get(k)?.count ?? 0);
    if (n > 0) emit(v, 'added', n);
  }
  for (const [k, v] of before) {
    const n = v.count - (after.get(k)?.count ?? 0);
    if (n > 0) emit(v, 'removed', n);
  }
  return out.sort((x, y) => x.starter.localeCompare(y.starter) || x.target.localeCompare(y.target) || x.change.localeCompare(y.change));
}

export function compareChannels(from: Side, to: Side, renames: Map<string, string>, want: Want): ChannelChange[] {
  const collect = (side: Side, rename: (id: string) => string) => {
    const m = new Map<string, { pkg: string; holder: string; users: Set<string>; files: Set<string> }>();
    for (const c of side.graph.channels) {
      const fn0 = side.fold(c.fn);
      if (isFake(fn0) || isFake(c.channel)) continue;
      const pkg = side.place(fn0)?.pkg ?? packageOf(fn0);
      if (!want(pkg)) continue;
      const key = `${pkg}\t${c.channel}`;
      let v = m.get(key);
      if (!v) m.set(key, (v = { pkg, holder: c.channel, users: new Set(), files: new Set() }));
      v.users.add(rename(fn0));
      v.files.add(c.file);
    }
    return m;
  };
  const before = collect(from, (id) => renames.get(id) ?? id);
  const after = collect(to, (id) => id);
  const out: ChannelChange[] = [];
  const emit = (v: { pkg: string; holder: string; users: Set<string>; files: Set<string> }, change: 'added' | 'removed') =>
    out.push({ holder: v.holder, change, pkg: v.pkg, users: [...v.users].sort(), files: [...v.files].sort() });
  for (const [k, v] of after) if (!before.has(k)) emit(v, 'added');
  for (const [k, v] of before) if (!after.has(k)) emit(v, 'removed');
  return out.sort((x, y) => x.pkg.localeCompare(y.pkg) || x.holder.localeCompare(y.holder) || x.change.localeCompare(y.change));
}
