/** What a reference port declaration mirrors in Go, as read from its `@go` JSDoc tags. */

/**
 * `module` is a file whose leading comment names the Go symbol the whole file stands for;
 * `interface` and `type` are type declarations that mirror Go structs, interfaces or named types.
 */
export type PortKind = 'function' | 'class' | 'method' | 'const' | 'interface' | 'type' | 'enum' | 'module';

export interface PortMapping {
  /** The folder under reference-impl/, e.g. `image-gc`. */
  manager: string;
  /** The declared name; methods are `Class.method`, a module mapping is the file's base name. */
  exportName: string;
  kind: PortKind;
  /** False for file-local helpers that still carry a `@go` tag. */
  exported: boolean;
  /** Relative to the repository root, with forward slashes. */
  file: string;
  /** 1-based, first line of the declaration itself (its JSDoc comes before). */
  line: number;
  endLine: number;
  /** Every `@go` ID on the declaration and inside it (for a class: its members too), without repeats. */
  goIds: string[];
  /** The text after `Simplified:` in the declaration's own JSDoc. */
  simplified?: string;
}
