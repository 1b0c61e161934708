/**
 * The program: packages, files, types, functions and values of the whole scope, keyed by import path
 * and name (pass 1: declarations only). Built from plain FileFacts; nothing here is syntax.
 */
import type { Diagnostic } from '../model/index.js';
import type { FileFacts, FuncFacts, TypeFacts, ValueFacts } from '../parse/index.js';

export interface PkgInfo {
  path: string;
  name: string;
  files: FileInfo[];
  types: Map<string, TypeInfo>;
  funcs: Map<string, FuncInfo>;
  values: Map<string, ValueInfo>;
}

export interface FileInfo {
  facts: FileFacts;
  pkg: PkgInfo;
  /** Import name in this file → import path ('.' imports are listed under `dot`). */
  imports: Map<string, string>;
  dot: string[];
  active: boolean;
  constraint?: string;
}

export interface TypeInfo {
  id: string;
  pkg: PkgInfo;
  file: FileInfo;
  facts: TypeFacts;
  methods: Map<string, FuncInfo>;
}

export interface FuncInfo {
  id: string;
  pkg: PkgInfo;
  file: FileInfo;
  facts: FuncFacts;
  parent?: FuncInfo;
  /** Other build variants of the same ID (inactive files). */
  variants?: FuncInfo[];
  /**
   * The function's place in a session's order of functions (rankAt), valid while rankOf is that order's
   * stamp: written by rankIn (resolve/session.ts) on every function of an order at once.
   */
  rankOf?: number;
  rankAt?: number;
}

export interface ValueInfo {
  id: string;
  pkg: PkgInfo;
  file: FileInfo;
  facts: ValueFacts;
}

export interface Program {
  packages: Map<string, PkgInfo>;
  /**
   * Every function, method and closure by ID (active variant), in the order in which the packages'
   * files first declare the IDs: the order the graph lists edges in. A session may put new IDs at the
   * end and leave the order to be made again when it is next read (see `unsettled`): read the map in
   * order through funcsInOrder, never by iterating it.
   */
  funcs: Map<string, FuncInfo>;
  /** Per-file package initializers beyond the first (they share the ID `pkg.init`). */
  inits: FuncInfo[];
  types: TypeInfo[];
  /** Puts `funcs` in its order again; set by a session that added IDs out of order, run once by funcsInOrder. */
  unsettled?: () => void;
}

/** The program's functions by ID, in its order (see Program.funcs). */
export function funcsInOrder(program: Program): IterableIterator<FuncInfo> {
  const settle = program.unsettled;
  if (settle) {
    program.unsettled = undefined;
    settle();
  }
  return program.funcs.values();
}

export interface PackageInput {
  importPath: string;
  files: { facts: FileFacts; active: boolean; constraint?: string }[];
}

/** Default name of an imported package when its declaration is not in scope: the last path element. */
export function defaultImportName(path: string): string {
  const parts = path.split('/');
  let last = parts[parts.length - 1];
  if (/^v\d+$/.test(last) && parts.length > 1) last = parts[parts.length - 2];
  last = last.replace(/^go-/, '').replace(/\.v\d+$/, '').replace(/[.-]/g, '_');
  return last;
}

export function buildProgram(inputs: PackageInput[]): Program {
  const packages = new Map<string, PkgInfo>();
  for (const input of inputs) {
    const active = input.files.filter((f) => f.active && f.facts.pkg);
    const name = mostCommon(active.map((f) => f.facts.pkg)) ?? defaultImportName(input.importPath);
    packages.set(input.importPath, { path: input.importPath, name, files: [], types: new Map(), funcs: new Map(), values: new Map() });
  }
  const program: Program = { packages, funcs: new Map(), types: [], inits: [] };
  // Types replaced by an active variant leave the list at the end (one pass, not a search per type).
  const replaced = new Set<TypeInfo>();
  for (const input of inputs) {
    const pkg = packages.get(input.importPath)!;
    for (const f of input.files) {
      if (f.active && f.facts.pkg && f.facts.pkg !== pkg.name && !f.facts.pkg.endsWith('_test')) continue;
      const file: FileInfo = { facts: f.facts, pkg, ...importsOf(f.facts, program), active: f.active, constraint: f.constraint };
      pkg.files.push(file);
      declare(program, pkg, file, replaced);
    }
  }
  if (replaced.size) program.types = program.types.filter((t) => !replaced.has(t));
  for (const pkg of packages.values()) {
    for (const fn of pkg.funcs.values()) {
      const recv = fn.facts.recv;
      if (fn.facts.kind === 'method' && recv) pkg.types.get(recv.type)?.methods.set(fn.facts.name, fn);
    }
  }
  return program;
}

/** The names a file's imports bind (each package's own name when it has no alias), and its dot imports. */
export function importsOf(facts: FileFacts, program: Program): Pick<FileInfo, 'imports' | 'dot'> {
  const out: Pick<FileInfo, 'imports' | 'dot'> = { imports: new Map(), dot: [] };
  for (const imp of facts.imports) {
    if (imp.alias === '_') continue;
    if (imp.alias === '.') out.dot.push(imp.path);
    else out.imports.set(imp.alias ?? program.packages.get(imp.path)?.name ?? defaultImportName(imp.path), imp.path);
  }
  return out;
}

function declare(program: Program, pkg: PkgInfo, file: FileInfo, replaced: Set<TypeInfo>): void {
  const prefix = pkg.path;
  const infos: FuncInfo[] = [];
  for (const facts of file.facts.funcs) {
    const info: FuncInfo = { id: `${prefix}.${facts.local}`, pkg, file, facts };
    infos.push(info);
  }
  file.facts.funcs.forEach((facts, i) => {
    const info = infos[i];
    if (facts.parent !== undefined) info.parent = infos[facts.parent];
    // The package initializer appears once per file: merge into one node.
    const existing = pkg.funcs.get(facts.local);
    if (existing && facts.local === 'init') {
      if (file.active) program.inits.push(info);
      return;
    }
    if (!existing || (!existing.file.active && file.active)) {
      if (existing) info.variants = [...(existing.variants ?? []), existing];
      pkg.funcs.set(facts.local, info);
      // Generic functions are also found by their plain name.
      if (facts.kind === 'func' && facts.local.endsWith('[...]')) pkg.funcs.set(facts.name, info);
      if (file.active || !program.funcs.has(info.id)) program.funcs.set(info.id, info);
    } else {
      // In place: copying the list for each new variant was quadratic (x/sys declares some funcs per GOOS/GOARCH).
      (existing.variants ??= []).push(info);
    }
  });
  for (const facts of file.facts.types) {
    const existing = pkg.types.get(facts.name);
    if (existing && (existing.file.active || !file.active)) continue;
    const info: TypeInfo = { id: `${prefix}.${facts.name}`, pkg, file, facts, methods: existing?.methods ?? new Map() };
    pkg.types.set(facts.name, info);
    if (existing) replaced.add(existing);
    program.types.push(info);
  }
  declareValues(pkg, file);
}

/**
 * The file's package values set in `pkg.values` where its build variant takes them (a value of an
 * active file over one of an inactive file; else the first declared): for each, the record `kept`
 * gives, or a new one. A session lists a package's values again through it (see session.ts).
 */
export function declareValues(pkg: PkgInfo, file: FileInfo, kept?: (facts: ValueFacts) => ValueInfo | undefined): void {
  for (const facts of file.facts.values) {
    const existing = pkg.values.get(facts.name);
    if (existing && (existing.file.active || !file.active)) continue;
    pkg.values.set(facts.name, kept?.(facts) ?? { id: `${pkg.path}.${facts.name}`, pkg, file, facts });
  }
}

function mostCommon(names: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const n of names) if (!n.endsWith('_test')) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best: string | undefined;
  for (const [n, c] of counts) if (!best || c > counts.get(best)!) best = n;
  return best;
}

/** The diagnostics the extraction left in the files' facts, as the graph lists them (syntax errors of files outside the build left out). */
export function factsDiagnostics(inputs: PackageInput[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const input of inputs) {
    for (const f of input.files) {
      for (const d of f.facts.diagnostics) {
        if (!f.active && d.code === 'syntax') continue;
        out.push({ severity: d.code === 'syntax' || d.code === 'read' || d.code === 'extract' ? 'error' : 'warning', code: d.code, message: d.message, file: f.facts.path, line: d.line });
      }
    }
  }
  return out;
}
