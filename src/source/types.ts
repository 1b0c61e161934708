import type { BuildContext, Diagnostic } from '../model/index.js';

/** Where a package lives: the module's own dirs, staging/src (published as k8s.io/*), or vendor/. */
export type PackageOrigin = 'module' | 'staging' | 'vendor';

export interface GoFile {
  /** Relative to the source root, forward slashes, e.g. 'pkg/kubelet/kubelet.go'. */
  path: string;
  /** Absolute path to read. */
  abs: string;
  /** Import path of the package the file belongs to. */
  importPath: string;
  /** Relative dir of the package ('' for the root). */
  packageDir: string;
  /** True when the build context selects this file (name suffixes, build constraints, tests, cgo). */
  active: boolean;
  /** The //go:build expression, or the legacy // +build lines converted to that syntax. */
  constraint?: string;
  size: number;
  /** Name from the package clause, when one was found. */
  packageName?: string;
  /** Import paths of the file's import declarations, in source order, without duplicates (set by openTree). */
  imports?: string[];
  /** Why the file can never build (broken header); such files are inactive in every context. */
  invalid?: string;
}

export interface SourcePackage {
  importPath: string;
  dir: string;
  /** Every Go file of the dir, including the inactive variants, sorted by name. */
  files: GoFile[];
  /** Set by openTree; records built by hand fall back to the dir layout. */
  origin?: PackageOrigin;
}

export interface SourceTree {
  root: string;
  modulePath: string;
  goVersion?: string;
  /** Keyed by import path: every package found (module, staging and vendor). */
  packages: Map<string, SourcePackage>;
  diagnostics: Diagnostic[];
  /** The context the `active` flags were computed with (set by openTree). */
  context?: BuildContext;
}

export type Scope = 'default' | 'all';

export interface ScopeResult {
  packages: SourcePackage[];
  diagnostics: Diagnostic[];
}
