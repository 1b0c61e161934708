/**
 * Builds the diff report from two graphs: symbol classes, edges, goroutines and channels, grouped
 * per package and per topic (most-changed first), and the consumers that go stale.
 */
import type { Graph } from '../model/index.js';
import { SymbolTable } from '../graph/lookup.js';
import { packageOf, treeSource, type ReadSource } from '../notes/index.js';
import { compareChannels, compareEdges, compareGoroutines, folder, isFake, type Side } from './edges.js';
import { compareSymbols, symbolsById, type SymbolDiff } from './symbols.js';
import { topicScopes, type LockAnchors, type TopicDef } from './topics.js';
import type { Consumer } from './consumers.js';
import type { ChangeSet, ChannelChange, Counts, DiffReport, EdgeChange, GoroutineChange, PackageDiff, StaleItem, SymbolChange, TopicDiff, TopicScope } from './types.js';

export interface DiffInput {
  from: Graph;
  to: Graph;
  fromLabel: string;
  toLabel: string;
  readFrom?: ReadSource;
  readTo?: ReadSource;
  topics?: TopicDef[];
  lock?: LockAnchors;
  consumers?: Consumer[];
  /** Limit the report to one topic. */
  topic?: string;
  /** Compare every indexed package, not only cmd/kubelet and pkg/kubelet. */
  allPackages?: boolean;
  notes?: string[];
}

const FUNCS = new Set(['func', 'method']);
const TYPES = new Set(['type', 'interface']);
const SHOWN = new Set(['added', 'removed', 'renamed', 'moved', 'changed']);

export class UnknownTopicError extends Error {
  constructor(readonly topic: string, readonly known: string[]) {
    super(`unknown topic '${topic}'`);
    this.name = 'UnknownTopicError';
  }
}

export function diffGraphs(input: DiffInput): DiffReport {
  const { from, to } = input;
  const readFrom = input.readFrom ?? treeSource(from.root);
  const readTo = input.readTo ?? treeSource(to.root);
  const mod = to.modulePath;
  const kubelet = (pkg: string) => [`${mod}/pkg/kubelet`, `${mod}/cmd/kubelet`].some((p) => pkg === p || pkg.startsWith(`${p}/`));
  const want = (pkg: string) => !isFake(`${pkg}.x`) && (input.allPackages || kubelet(pkg));

  const sd = compareSymbols(from, to, readFrom, readTo);
  const side = (graph: Graph): Side => {
    const syms = symbolsById(graph);
    const fold = folder(graph);
    return { graph, fold, place: (id) => { const s = syms.get(id); return s ? { pkg: s.pkg, file: s.file } : undefined; } };
  };
  const a = side(from);
  const b = side(to);
  // For call edges a case-only successor (`relist` → `Relist`) counts as the same function, so the
  // edge lists show what its calls did, not every call twice.
  const same = new Map(sd.renames);
  for (const c of sd.byId.values()) if (c.successor) same.set(c.id, c.successor);
  const edges = compareEdges(a, b, same, want);
  const goroutines = compareGoroutines(a, b, same, want);
  const channels = compareChannels(a, b, same, want);
  const changes = [...sd.byId.values()].filter((c) => want(c.pkg) || want(packageOf(c.id)));

  const all: Items = { changes, edges, goroutines, channels };
  const notes = [...(input.notes ?? [])];

  let topics: TopicDiff[] = [];
  let topicFilter: TopicScope[] | undefined;
  if (input.topics?.length) {
    const packages = new Set([...from.symbols, ...to.symbols].map((s) => s.pkg).filter((p) => !isFake(`${p}.x`)));
    const scopes = topicScopes({ topics: input.topics, lock: input.lock, modulePath: mod, packages, from: new SymbolTable(from.symbols), to: new SymbolTable(to.symbols) });
    let defs = input.topics;
    if (input.topic !== undefined) {
      defs = defs.filter((t) => t.id === input.topic);
      if (!defs.length) throw new UnknownTopicError(input.topic, input.topics.map((t) => t.id));
      topicFilter = scopes.get(input.topic) ?? [];
    }
    topics = defs.map((t) => {
      const s = scopes.get(t.id) ?? [];
      return { id: t.id, title: t.title, scopes: s, ...changeSet(select(all, s), sd) };
    });
    topics.sort((x, y) => y.counts.churn - x.counts.churn || score(y.counts) - score(x.counts) || x.id.localeCompare(y.id));
  } else if (input.topic !== undefined) {
    throw new UnknownTopicError(input.topic, []);
  }

  const scoped = topicFilter ? select(all, topicFilter) : all;
  const pkgs = [...new Set([...scoped.changes.filter((c) => c.class !== 'same' && c.class !== 'shifted').map((c) => c.pkg), ...scoped.edges.map((e) => e.pkg), ...scoped.goroutines.map((g) => g.pkg), ...scoped.channels.map((c) => c.pkg)])];
  const packages: PackageDiff[] = pkgs.map((pkg) => ({ pkg, ...changeSet(select(scoped, [{ pkg }]), sd) }))
    .filter((p) => score(p.counts) > 0)
    .sort((x, y) => y.counts.churn - x.counts.churn || score(y.counts) - score(x.counts) || x.pkg.localeCompare(y.pkg));

  const stale: StaleItem[] = [];
  const newInTo: StaleItem[] = [];
  let untracked = 0;
  for (const c of input.consumers ?? []) {
    const ch = sd.byId.get(c.id);
    if (!ch) {
      untracked++;
      continue;
    }
    if (topicFilter && !select({ changes: [ch], edges: [], goroutines: [], channels: [] }, topicFilter).changes.length) continue;
    const item: StaleItem = { consumer: c.consumer, id: c.id, class: ch.class, detail: detail(sd.measure(ch)), at: c.at };
    if (ch.class === 'changed' || ch.class === 'removed' || ch.class === 'renamed') stale.push(item);
    else if (ch.class === 'added') newInTo.push(item);
  }
  if (untracked) notes.push(`${untracked} annotation, note or port IDs name symbols the diff does not compare (vars, consts, fields) or that neither tree has.`);
  const order = { annotation: 0, note: 1, port: 2 };
  const byConsumer = (x: StaleItem, y: StaleItem) => order[x.consumer] - order[y.consumer] || x.id.localeCompare(y.id);

  const count = (g: Graph) => ({ symbols: g.symbols.length, functions: g.symbols.filter((s) => FUNCS.has(s.kind)).length });
  const ctx = to.context;
  return {
    from: { label: input.fromLabel, root: from.root, ...count(from) },
    to: { label: input.toLabel, root: to.root, ...count(to) },
    module: mod,
    context: `${ctx.goos}/${ctx.goarch}${ctx.tags.length ? ` tags ${ctx.tags.join(',')}` : ''}`,
    totals: changeSet(scoped, sd).counts,
    topics,
    packages,
    stale: stale.sort(byConsumer),
    newInTo: newInTo.sort(byConsumer),
    notes,
  };
}

interface Items {
  changes: SymbolChange[];
  edges: EdgeChange[];
  goroutines: GoroutineChange[];
  channels: ChannelChange[];
}

function inScope(scopes: TopicScope[], pkg: string, files: (string | undefined)[], ids: (string | undefined)[]): boolean {
  return scopes.some((s) => s.pkg === pkg && (
    (!s.files && !s.symbols) ||
    files.some((f) => f !== undefined && s.files?.includes(f)) ||
    ids.some((id) => id !== undefined && s.symbols?.includes(id))));
}

function select(items: Items, scopes: TopicScope[]): Items {
  return {
    changes: items.changes.filter((c) => inScope(scopes, c.pkg, [c.to?.file, c.from?.file], [c.id, c.newId]) || inScope(scopes, packageOf(c.id), [c.from?.file], [c.id])),
    edges: items.edges.filter((e) => inScope(scopes, e.pkg, [e.file], [e.caller])),
    goroutines: items.goroutines.filter((g) => inScope(scopes, g.pkg, [g.file], [g.starter])),
    channels: items.channels.filter((c) => inScope(scopes, c.pkg, c.files, c.users)),
  };
}

function changeSet(items: Items, sd: SymbolDiff): ChangeSet {
  const classOrder = ['changed', 'added', 'removed', 'renamed', 'moved'];
  const shown = items.changes.filter((c) => SHOWN.has(c.class)).map((c) => sd.measure(c));
  const functions = shown.filter((c) => FUNCS.has(c.kind)).sort((x, y) =>
    classOrder.indexOf(x.class) - classOrder.indexOf(y.class) || (y.differ ?? y.lines ?? 0) - (x.differ ?? x.lines ?? 0) || x.id.localeCompare(y.id));
  const types = shown.filter((c) => TYPES.has(c.kind)).sort((x, y) => classOrder.indexOf(x.class) - classOrder.indexOf(y.class) || x.id.localeCompare(y.id));
  const n = (cls: string) => functions.filter((c) => c.class === cls).length;
  const churn = functions.reduce((sum, c) => sum + (c.class === 'changed' ? c.differ ?? 0 : c.class === 'added' || c.class === 'removed' ? c.lines ?? 0 : 0), 0);
  const counts: Counts = {
    added: n('added'),
    removed: n('removed'),
    renamed: n('renamed'),
    moved: n('moved'),
    changed: n('changed'),
    churn,
    edgesAdded: items.edges.filter((e) => e.change === 'added').length,
    edgesRemoved: items.edges.filter((e) => e.change === 'removed').length,
    goroutinesAdded: items.goroutines.filter((g) => g.change === 'added').reduce((s, g) => s + g.count, 0),
    goroutinesRemoved: items.goroutines.filter((g) => g.change === 'removed').reduce((s, g) => s + g.count, 0),
    channelsAdded: items.channels.filter((c) => c.change === 'added').length,
    channelsRemoved: items.channels.filter((c) => c.change === 'removed').length,
    typesChanged: types.length,
  };
  return { counts, functions, types, edges: items.edges, goroutines: items.goroutines, channels: items.channels };
}

/** Every change counted once, for ties and for dropping packages with nothing to show. */
function score(c: Counts): number {
  return c.added + c.removed + c.renamed + c.moved + c.changed + c.edgesAdded + c.edgesRemoved + c.goroutinesAdded + c.goroutinesRemoved + c.channelsAdded + c.channelsRemoved + c.typesChanged;
}

export function detail(c: SymbolChange): string {
  switch (c.class) {
    case 'changed': return c.of !== undefined ? `${c.differ} of ${c.of} lines differ` : 'body differs';
    case 'renamed': return `now ${c.newId}`;
    case 'removed': return c.successor ? `not in the newer tree; probably now ${c.successor}` : 'not in the newer tree';
    case 'added': return 'not in the older tree';
    case 'moved': return `moved from ${c.from!.file} to ${c.to!.file}`;
    case 'shifted': return `same body, line ${c.from!.line} → ${c.to!.line}`;
    default: return 'unchanged';
  }
}
