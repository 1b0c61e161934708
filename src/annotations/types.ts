/**
 * Records of the annotations engine: what the loader reads out of `annotations/*.md`, what the lock
 * stores about each anchored symbol, and what a check reports. All plain data (mdast trees included),
 * so guides and tests can use them without the engine.
 */
import type { Root } from 'mdast';
import type { Diagnostic } from '../model/index.js';

export type AnchorWhere = 'heading' | 'paragraph' | 'list-item' | 'tour-step' | 'entry';

/** One `` `@symbol` `` in a topic, or one `entry:` item of its front matter. */
export interface Anchor {
  /** The symbol as written, without the `@`. */
  symbol: string;
  file: string;
  line: number;
  column: number;
  where: AnchorWhere;
  /** Headings enclosing the anchor, outermost first (a heading anchor is not in its own path). */
  path: string[];
}

/** The canonical H2 sections, in their required order; `tour` only in tour topics. */
export const SECTION_KEYS = ['what', 'where', 'loop', 'tour', 'key', 'defaults', 'talks', 'wrong', 'questions'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export interface Section {
  /** Heading text as Markdown (anchors keep their backticks). */
  heading: string;
  depth: number;
  line: number;
  /** For the canonical H2 headings, in any supported language. */
  key?: SectionKey;
  /** Anchors written in the heading itself: they anchor the whole section. */
  anchors: string[];
  /** The section's body up to the next heading of the same or a higher level. */
  content: Root;
  markdown: string;
}

export interface TourStep {
  index: number;
  symbol: string;
  line: number;
  content: Root;
  markdown: string;
}

export interface DefaultsRow {
  setting: string;
  default: string;
  flag: string;
  where: string;
  line: number;
}

export interface StudyQuestion {
  question: string;
  answer: string;
  line: number;
}

export interface Topic {
  id: string;
  file: string;
  lang: string;
  translationOf?: string;
  title: string;
  component: string;
  version: string;
  summary: string;
  order: number;
  /** The `entry:` items, as anchors with `where: 'entry'`. */
  entry: Anchor[];
  /** Every anchor of the topic, entry items first, then in document order. */
  anchors: Anchor[];
  /** The paragraphs between the H1 title and the first H2. */
  intro: Root;
  sections: Section[];
  tour: TourStep[];
  defaults: DefaultsRow[];
  questions: StudyQuestion[];
}

export interface AnnotationFile {
  /** Display path, e.g. `annotations/pleg.md`: it appears in diagnostics and in the lock. */
  path: string;
  text: string;
}

export interface LoadResult {
  topics: Topic[];
  diagnostics: Diagnostic[];
}

export interface ResolvedAnchor extends Anchor {
  id: string;
}

export interface ResolveResult {
  anchors: ResolvedAnchor[];
  diagnostics: Diagnostic[];
}

/** Where an anchor that uses a locked symbol is written. */
export interface LockAnchor {
  at: string;
  as: string;
}

export interface LockedSymbol {
  file: string;
  line: number;
  endLine: number;
  kind: string;
  fingerprint: string;
  /** Fingerprint with the symbol's own name blanked: equal bodies under another name match. */
  shape: string;
  /** lineHashes of the symbol's source lines line..endLine. */
  lines: string[];
  anchors: LockAnchor[];
}

export const LOCK_FORMAT = 1;

export interface AnnotationLock {
  format: number;
  version: string;
  goos: string;
  goarch: string;
  tags: string[];
  /** Every anchor as written → the symbol ID it resolved to. */
  queries: Record<string, string>;
  anchored: Record<string, LockedSymbol>;
  /** Further IDs that must be known without a tree (the reference ports' `@go` IDs). */
  symbols: string[];
}

/** Reads a Go source file by its path relative to the tree root; undefined when it cannot be read. */
export type ReadSource = (file: string) => string | undefined;

export type SymbolClass = 'fresh' | 'moved' | 'changed' | 'renamed' | 'orphaned';

export interface LineDiff {
  /** Lines (with tokens) not shared by the old and the new body. */
  differ: number;
  of: number;
  /** Ranges of changed lines in the new body, 1 = the declaration line. */
  ranges: [number, number][];
  /** The same ranges as file lines. */
  fileRanges: [number, number][];
  /** Lines only in the new body / only in the locked one. */
  added: number;
  removed: number;
}

export interface SymbolStatus {
  id: string;
  class: SymbolClass;
  locked: { file: string; line: number };
  now?: { id: string; file: string; line: number };
  diff?: LineDiff;
  suggestions?: string[];
  anchors: LockAnchor[];
  message: string;
}

export interface CheckSummary {
  topics: number;
  anchors: number;
  fresh: number;
  moved: number;
  changed: number;
  renamed: number;
  orphaned: number;
  unknown: number;
  ambiguous: number;
  stale: number;
  errors: number;
  warnings: number;
}

export interface CheckReport {
  mode: 'lock' | 'tree';
  lockVersion?: string;
  summary: CheckSummary;
  symbols: SymbolStatus[];
  diagnostics: Diagnostic[];
  ok: boolean;
}
