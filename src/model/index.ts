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
