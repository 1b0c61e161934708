/** Records of a version diff between two indexed Kubernetes trees. Plain data, so `--json` is just these. */
import type { SymbolKind } from '../model/index.js';

/**
 * What happened to one symbol ID between the trees: `same` (same body, file and line), `shifted`
 * (same body and file, other line: code above it changed), `moved` (same body, other file),
 * `changed` (other body), `renamed` (ID gone, the same body under a new ID), `added`, `removed`.
 */
export type SymbolClass = 'same' | 'shifted' | 'moved' | 'changed' | 'renamed' | 'added' | 'removed';

export interface Where {
  file: string;
  line: number;
  endLine: number;
}

export interface SymbolChange {
  /** The ID in `from` (for added symbols, the ID in `to`). */
  id: string;
  kind: SymbolKind;
  class: SymbolClass;
  /** Package the change is filed under: the `to` side's, except for removed symbols. */
  pkg: string;
  from?: Where;
  to?: Where;
  /** For renamed: the new ID. */
  newId?: string;
  /** For renamed: matched by identical fingerprint, or by the body with its own names blanked. */
  renamedBy?: 'fingerprint' | 'shape';
  /** For changed: how many body lines differ. For added/removed: lines of the body. */
  differ?: number;
  of?: number;
  lines?: number;
  /** For removed: an added ID that differs only in letter case (`relist` → `Relist`), and how much the bodies differ. */
  successor?: string;
  successorChange?: { differ: number; of: number };
}

export interface EdgeChange {
  /** Closures are folded into the named function that encloses them. */
  caller: string;
  callee: string;
  change: 'added' | 'removed';
  /** Package and file of the caller, in the tree where the edge exists. */
  pkg: string;
  file: string;
}

export interface GoroutineChange {
  starter: string;
  /** Target, closures written `Outer.func*`. */
  target: string;
  via: string;
  period?: string;
  change: 'added' | 'removed';
  /** How many such starts appeared or disappeared. */
  count: number;
  pkg: string;
  file: string;
  line: number;
}

export interface ChannelChange {
  /** The field or variable holding the channel. */
  holder: string;
  change: 'added' | 'removed';
  pkg: string;
  /** Functions of the package that use it, and their files, in the tree where it is used. */
  users: string[];
  files: string[];
}

export interface Counts {
  added: number;
  removed: number;
  renamed: number;
  moved: number;
  changed: number;
  /** Changed body lines + lines of added and removed functions: the ranking measure. */
  churn: number;
  edgesAdded: number;
  edgesRemoved: number;
  goroutinesAdded: number;
  goroutinesRemoved: number;
  channelsAdded: number;
  channelsRemoved: number;
  typesChanged: number;
}

export interface ChangeSet {
  counts: Counts;
  /** Functions and methods (closures are part of their enclosing function's body). */
  functions: SymbolChange[];
  types: SymbolChange[];
  edges: EdgeChange[];
  goroutines: GoroutineChange[];
  channels: ChannelChange[];
}

export interface PackageDiff extends ChangeSet {
  pkg: string;
}

export interface TopicScope {
  pkg: string;
  /**
   * Set when several topics share the package: the files that hold only this topic's entries, and
   * the symbols this topic anchors. Without them the whole package counts.
   */
  files?: string[];
  symbols?: string[];
}

export interface TopicDiff extends ChangeSet {
  id: string;
  title: string;
  scopes: TopicScope[];
}

export type ConsumerKind = 'annotation' | 'note' | 'port';

/** An annotation anchor, note or reference-port tag whose symbol did not survive unchanged. */
export interface StaleItem {
  consumer: ConsumerKind;
  id: string;
  class: SymbolClass | 'unknown';
  detail: string;
  /** Where the consumer refers to it (file:line). */
  at: string[];
}

export interface TreeInfo {
  label: string;
  root: string;
  symbols: number;
  functions: number;
}

export interface DiffReport {
  from: TreeInfo;
  to: TreeInfo;
  /** Module path of the trees (k8s.io/kubernetes). */
  module: string;
  context: string;
  totals: Counts;
  topics: TopicDiff[];
  packages: PackageDiff[];
  stale: StaleItem[];
  /** Consumers whose symbol exists only in `to` (new code, nothing to go stale in `from`). */
  newInTo: StaleItem[];
  notes: string[];
}
