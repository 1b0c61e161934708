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
  /** What the walk looked at, and when (set by openTree). */
  scan?: ScanRecord;
}

/**
 * Every path a walk stat'ed (go.mod, each folder before it was listed, each Go file before its header
 * was read), with that stat: four numbers per path in `stats` (see Stat in tree.ts). Taken before the
 * read, a stat that is still the same later shows the bytes read then are the bytes now, unless the
 * path changed in the same clock tick as its stat (see source/snapshot.ts).
 */
export interface ScanRecord {
  /** Date.now() when the walk began. */
  scanStart: number;
  paths: string[];
  stats: number[];
}

export type Scope = 'default' | 'all';

export interface ScopeResult {
  packages: SourcePackage[];
  diagnostics: Diagnostic[];
}
