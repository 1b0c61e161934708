/**
 * Plain records shared by every stage. Nothing here holds a tree-sitter node: these are what the parse
 * stage emits, what the cache stores and what the resolver and the views consume.
 */

/** Go's build context, as in go/build.Context. */
export interface BuildContext {
  goos: string;
  goarch: string;
  tags: string[];
  cgo: boolean;
  includeTests: boolean;
}

/** A problem in the user's content, attached to a place. */
export interface Diagnostic {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  file?: string;
  line?: number;
  hint?: string;
}

export interface Position {
  /** Path relative to the source root, with forward slashes. */
  file: string;
  line: number;
  endLine?: number;
}

export type SymbolKind = 'package' | 'func' | 'method' | 'closure' | 'type' | 'interface' | 'const' | 'var' | 'field';

export type EdgeKind = 'static' | 'interface' | 'method-value' | 'func-value' | 'closure';
export type EdgeMode = 'call' | 'go' | 'defer' | 'ref';

/** A declared Go symbol. IDs are Go's runtime/pprof names (as in a stack trace). */
export interface SymbolRecord {
  id: string;
  kind: SymbolKind;
  pkg: string;
  name: string;
  file: string;
  line: number;
  endLine: number;
  doc?: string;
  fingerprint: string;
  signature?: string;
  /** For a symbol defined in several build variants: whether this one is selected by the build context. */
  active: boolean;
  constraint?: string;
  /** Enclosing function of a closure. */
  parent?: string;
  /** For types: 'struct', 'interface' or another underlying kind; fields and methods by name. */
  typeKind?: string;
  fields?: { name: string; type: string; embedded: boolean }[];
  methods?: string[];
}

/** A call-graph edge and how it was found. */
export interface Edge {
  caller: string;
  callee: string;
  kind: EdgeKind;
  mode: EdgeMode;
  file: string;
  line: number;
  /** Which rule resolved it, e.g. 'pkg-func', 'receiver-method', 'field-chain', 'iface-cha'. */
  how: string;
  /** 1 for exact resolutions; below 1 for interface candidates, ordered by likelihood. */
  confidence: number;
}

export interface UnresolvedSite {
  caller: string;
  file: string;
  line: number;
  callee: string;
  reason: string;
}

export interface ChannelOpRecord {
  fn: string;
  op: 'send' | 'recv' | 'close' | 'range';
  /** The field or variable holding the channel, e.g. 'k8s.io/kubernetes/pkg/kubelet/pleg.GenericPLEG.eventChannel'. */
  channel: string;
  expr: string;
  file: string;
  line: number;
  select?: number;
  caseIndex?: number;
  /** Where the channel was made (`make@FILE:LINE`), or the runtime-fed channel it is (`time.Ticker.C`). */
  origins?: string[];
}

export interface GoroutineRecord {
  starter: string;
  target: string;
  via: string;
  period?: string;
  file: string;
  line: number;
}

/**
 * What may differ between graph `since` and a graph made after it, as its maker knows (a kept
 * resolution: see ResolveSession): the callers whose edges may have changed, the callees of edges that
 * may have gone, and the IDs whose symbol records may have changed. Each set may hold more than what
 * changed, never less; a writer that compares the two graphs itself finds no more.
 */
export interface GraphChanges {
  since: Graph;
  callers: ReadonlySet<string>;
  into: ReadonlySet<string>;
  records: ReadonlySet<string>;
  /**
   * The new graph's edges of caller `id`, in its order, as the maker has them at once (no pass over
   * the graph's edges); undefined when it cannot tell. Asked only before the maker changes again.
   */
  edgesOf?: (id: string) => readonly Edge[] | undefined;
  /** The new graph's records of the IDs in `records`, each ID's in its order (an ID it lacks has none); undefined when the maker cannot tell. */
  recordsOf?: () => ReadonlyMap<string, readonly SymbolRecord[]> | undefined;
}

export interface Graph {
  root: string;
  modulePath: string;
  context: BuildContext;
  symbols: SymbolRecord[];
  edges: Edge[];
  unresolved: UnresolvedSite[];
  channels: ChannelOpRecord[];
  goroutines: GoroutineRecord[];
  diagnostics: Diagnostic[];
  stats: Record<string, number>;
}
