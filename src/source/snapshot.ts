/**
 * The source stage without reading the tree again. A scan (openTree + computeScope) reads the header
 * of every Go file in the checkout; the build after it reads and hashes every file in scope. Kept with
 * the stat each path had before it was read, that work is reused for every path whose stat is still the
 * same: size, mtime, ctime and inode.
 *
 * - Nothing structural changed (go.mod and every folder as they were, each changed file's header
 *   giving the record it gave): the scope is the snapshot's, and only the changed files are read. No
 *   folder is listed, and only the scope's records are decoded.
 * - Only named files changed (a watch's events name them), some of them new, gone or with another
 *   header: the snapshot's whole tree is decoded, those files are put in or taken out, and the scope is
 *   computed again. No folder is listed.
 * - Otherwise the tree is walked again, and only the headers of files whose stat moved are read.
 *
 * A stat taken in the same clock tick as a later write would hide it. As git does with its index, a
 * path whose recorded mtime or ctime falls within RACY_MS of the scan's start is not trusted: its
 * file is read again (its folder is listed again).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { BuildContext, Diagnostic } from '../model/index.js';
import { sameContext } from './context.js';
import { computeScope, namespace, SCOPE_CODES } from './scope.js';
import { importPathOf, isGoFileName, openTree, readGoFile, rescanFile, statNow, type Stat, type WalkCache } from './tree.js';
import type { GoFile, Scope, SourcePackage, SourceTree } from './types.js';

/** Bumped when what a scan records, or how, changes. */
const SNAPSHOT_FORMAT = 3;

/** How close to a scan's start a recorded time must be for the path to be read again. Coarse file systems tick in seconds. */
export const RACY_MS = 2000;

/**
 * What a scan keeps for the next one, as it is kept on disk and read: every string once, records as
 * integer columns, paths relative to the root. As objects, v1.28's tree was 7.2 MB and took 170 ms to
 * read; this is about 2 MB, and a scan that reuses it decodes only the records of the scope.
 */
export interface SourceSnapshot {
  format: number;
  root: string;
  ctx: BuildContext;
  scope: Scope;
  modulePath: string;
  goVersion?: string;
  scanStart: number;
  /** Every string of the records once, '\0'-joined: one string to read, split once. */
  strings: string;
  /** Per package: import path, dir, origin (ORIGINS index, -1 none), first file, file count. */
  packages: Int32Array;
  /** Per file: path, package name, constraint, invalid (string or -1), active, first import, import count. */
  files: Int32Array;
  imports: Int32Array;
  sizes: Float64Array;
  /** The walk's diagnostics, then the scope's. */
  diagnostics: Diagnostic[];
  /** The scope's packages, as indices into `packages`. */
  scoped: Int32Array;
  /**
   * The scan's paths relative to the root ('' for the root), as strings, in the order of `stats`. They
   * are the table's first strings, in this order (scanPaths[i] is i), so the first scanPaths.length
   * strings of `strings`, as they are, are the paths to stat.
   */
  scanPaths: Int32Array;
  /** Four numbers per scan path (see Stat). */
  stats: Float64Array;
  /**
   * With the default scope: the scan paths whose stats decide what a scan gives, as ascending indices
   * (see watchedPaths). A scan not told which paths changed stats these alone, and every path only
   * when one of them moved in a way it cannot take as it is (a folder, go.mod, a header).
   */
  watched?: Int32Array;
  /** The scope's structure (see SourceScan.structure). */
  structure?: string;
  /** The content hash the build took of each file in scope, in the scope's order, '\n'-joined ('' when it was not read). */
  hashes: string;
}

const ORIGINS = ['module', 'staging', 'vendor'] as const;
const PACKAGE_COLUMNS = 5;
const FILE_COLUMNS = 7;

/**
 * The stats of many paths at once, four numbers per path as Stat (the index stage passes the C
 * version): `count` paths relative to `root`, '\0'-joined in `rels` ('' being the root itself).
 */
export type StatMany = (root: string, rels: string, count: number) => ArrayLike<number>;

export interface SourceScan {
  root: string;
  modulePath: string;
  /** The scope's packages, sorted by import path. */
  packages: SourcePackage[];
  /** The walk's diagnostics, then the scope's. */
  diagnostics: Diagnostic[];
  /**
   * How much of the earlier snapshot was reused: 'tree' (no folder listed), 'files' (no folder listed;
   * named files that came, went or changed their headers were put into the snapshot's tree), 'headers'
   * (a walk), 'none'.
   */
  reused: 'tree' | 'files' | 'headers' | 'none';
  /** Whether the snapshot to keep differs from the earlier one (a stat moved, a walk ran). */
  changed: boolean;
  /**
   * The stats this scan recorded for the scope: of its k-th file (in the order of `packages`' files)
   * and of the folder of its p-th package; undefined where it saw none.
   */
  scopeStats(): { file(k: number): Stat | undefined; dir(p: number): Stat | undefined };
  /** Per file of the scope, in order: the earlier build's content hash when the file's stat has not moved since. */
  knownHashes(): (string | undefined)[];
  /** What to keep for the next scan, with the content hash of each file of the scope, in order ('' when unread); undefined when it cannot be kept. */
  snapshot(hashes: string[]): SourceSnapshot | undefined;
  /**
   * The hash of what the scope is made of: its packages' import paths, in order, and their files' paths,
   * whether each is in the build, and build constraints (see scopeStructure). A scan that took the
   * snapshot's tree gives the snapshot's, with no hashing.
   */
  structure(): string;
}

export interface ScanOptions {
  /** What the last scan kept; without it the tree is walked and every header read. */
  previous?: SourceSnapshot;
  statMany?: StatMany;
  /** The racy window (default RACY_MS); tests that write files and scan at once pass 0. */
  racyMs?: number;
  /**
   * The only paths (relative to the root, with the platform's separators) that can have changed since
   * `previous` was taken, when the caller knows (a watch's events name them): only these are stat'd,
   * and every other path is taken as `previous` recorded it, even one it recorded in a racy tick (a
   * write after that would have been named). Named Go files that came or went, or whose header
   * changed, are taken into the snapshot's tree without a walk (reused 'files'); a named path the
   * scan cannot place that way makes it stat every path, as without the list.
   */
  only?: readonly string[];
}

export function scanSource(root: string, ctx: BuildContext, scope: Scope, opts: ScanOptions = {}): SourceScan {
  const { previous, statMany = statEach, racyMs = RACY_MS } = opts;
  const abs = path.resolve(root);
  const prev = previous && usable(previous, abs, ctx, scope) ? previous : undefined;
  if (!prev) return walked(openTree(abs, ctx), scope, ctx, 'none', undefined);
  const scanStart = Date.now();
  const strings = prev.strings.split('\0');
  const n = prev.scanPaths.length;
  const rels = strings.slice(0, n);
  const s = prev.stats;
  const named = opts.only && statNamed(abs, rels, opts.only, statMany);
  const racy = prev.scanStart - racyMs;
  const decoder = new Decoder(prev, strings);
  // A named path the snapshot does not have: a file that came, taken without statting every path.
  if (opts.only && !named) {
    const taken = namedFilesTaken(prev, decoder, strings, rels, opts.only, statMany, ctx, scope, racy);
    if (taken) return taken;
    return scanSource(root, ctx, scope, { ...opts, only: undefined });
  }
  if (!named && prev.watched) {
    const quick = watchedOnly(prev, decoder, rels, statMany, ctx, racy, scanStart);
    if (quick) return quick;
  }
  const all = named ? undefined : statMany(abs, prev.strings.slice(0, rels.reduce((end, r) => end + r.length + 1, 0) - 1), n);
  // Number k of path i's stat now: stat'd by this scan, or (paths the caller did not name) the recorded one.
  const now = all ? (i: number, k: number) => all[4 * i + k] : (i: number, k: number) => named!.get(i)?.[k] ?? s[4 * i + k];
  // 1 where the path's stat is the one recorded and was not taken in a racy tick (or, when the caller
  // named the paths that can have changed, where the path is not one of them).
  const trusted = new Uint8Array(rels.length);
  if (named) {
    trusted.fill(1);
    for (const [i, st] of named) trusted[i] = Number(asRecorded(s, i, st, 0, racy));
  } else {
    for (let i = 0; i < rels.length; i++) trusted[i] = Number(asRecorded(s, i, all!, 4 * i, racy));
  }
  const fast = reuseTree(prev, decoder, rels, now, trusted, ctx, scanStart);
  if (fast) return fast;
  // A named file that went, or whose header changed what the scope is made of. When that cannot be
  // taken, the snapshot's word for the other paths is not taken either: a walk that lends their
  // recorded stats and records would give a package that joins the scope as the snapshot had it.
  if (named) {
    const taken = namedFilesTaken(prev, decoder, strings, rels, opts.only!, statMany, ctx, scope, racy, named);
    return taken ?? scanSource(root, ctx, scope, { ...opts, only: undefined });
  }
  // go.mod (the first path) decides every import path: when it moved, no header is reused.
  const scanIndex = placesOf(rels, (r) => absOf(abs, r));
  const cache: WalkCache | undefined = trusted[0]
    ? {
      stat: (p) => {
        const i = scanIndex.get(p);
        return i === undefined ? undefined : [now(i, 0), now(i, 1), now(i, 2), now(i, 3)];
      },
      file: (p) => {
        const i = scanIndex.get(p);
        const f = i !== undefined && trusted[i] ? decoder.fileAt(i) : undefined;
        return f === undefined ? undefined : decoder.file(f);
      },
    }
    : undefined;
  return walked(openTree(abs, ctx, cache), scope, ctx, 'headers', { prev, rels, strings, trusted });
}

/**
 * The scan a walk would make when only the named Go files can have changed, files that came or went
 * among them, with no folder listed: the snapshot's whole tree is decoded, the named files' records are
 * put in or taken out (a new one read from its header), and the scope is computed again over it. Their
 * folders are stat'd anew for the next snapshot. Undefined (walk) when a named path is not a Go file
 * of a folder the snapshot walked, is a folder or go.mod that moved, or has a header that cannot be
 * read or is broken (its diagnostic has a place in the walk's order); when a header read now imports
 * a package of the module the tree does not have (a folder made since); and when a package that
 * joins the scope has a folder or file whose stat moved (outside the scope, no one names changes).
 */
function namedFilesTaken(prev: SourceSnapshot, decoder: Decoder, strings: string[], rels: string[], only: readonly string[], statMany: StatMany, ctx: BuildContext, scope: Scope, racy: number, named?: Map<number, number[]>): SourceScan | undefined {
  if (only.length === 0 || only.includes('')) return undefined;
  const root = prev.root;
  const scanStart = Date.now();
  // Stat'd by statNamed when every named path is a scan path.
  const fresh = named ? only.flatMap((p) => named.get(rels.indexOf(p))!) : statMany(root, only.join('\0'), only.length);
  const s = prev.stats;
  const packages = new Map<string, SourcePackage>();
  const byDir = new Map<string, SourcePackage>();
  for (let p = 0; p < prev.packages.length / PACKAGE_COLUMNS; p++) {
    const pkg = decoder.package(p);
    packages.set(pkg.importPath, pkg);
    byDir.set(pkg.dir, pkg);
  }
  const trusted = new Uint8Array(rels.length).fill(1);
  const stats = new Map<number, Stat>();
  const went = new Set<string>();
  const came: [rel: string, stat: Stat][] = [];
  const folders = new Set<string>();
  // The records read from the files' headers now: of the files that came, and of those that changed.
  const readAgain: GoFile[] = [];
  for (let k = 0; k < only.length; k++) {
    const rel = only[k];
    const st: Stat = [fresh[4 * k], fresh[4 * k + 1], fresh[4 * k + 2], fresh[4 * k + 3]];
    const i = rels.indexOf(rel);
    if (i < 0) {
      // Named, not there, and never seen: nothing came.
      if (st[0] === -2) continue;
      if (st[0] < 0 || !isGoFileName(path.basename(rel)) || rels.indexOf(path.dirname(rel) === '.' ? '' : path.dirname(rel)) < 0) return undefined;
      came.push([rel, st]);
      continue;
    }
    if (asRecorded(s, i, st, 0, racy)) continue;
    const f = decoder.fileAt(i);
    if (f === undefined || (st[0] < 0 && st[0] !== -2)) return undefined;
    trusted[i] = 0;
    const old = decoder.file(f);
    const pkg = packages.get(old.importPath);
    if (!pkg) return undefined;
    const at = pkg.files.findIndex((x) => x.path === old.path);
    if (st[0] === -2) {
      went.add(rel);
      pkg.files.splice(at, 1);
      if (pkg.files.length === 0) packages.delete(pkg.importPath);
      folders.add(pkg.dir);
      continue;
    }
    const record = rescanFile(old, ctx);
    if (!record || record.invalid !== undefined) return undefined;
    pkg.files[at] = record;
    readAgain.push(record);
    stats.set(i, st);
  }
  // Nothing came, went or moved (a path named and gone before it was seen): the snapshot's scan, as it is.
  if (came.length === 0 && went.size === 0 && stats.size === 0) return reuseTree(prev, decoder, rels, (i, k) => s[4 * i + k], trusted, ctx, scanStart);
  for (const [rel] of came) {
    const slashed = rel.split(path.sep).join('/');
    const dir = slashed.includes('/') ? slashed.slice(0, slashed.lastIndexOf('/')) : '';
    let pkg = byDir.get(dir);
    if (pkg && !packages.has(pkg.importPath)) packages.set(pkg.importPath, pkg);
    if (!pkg) {
      const { importPath, origin } = importPathOf(dir, prev.modulePath);
      // Another folder gives that import path (vendor and staging): which one wins is the walk's order.
      if (packages.has(importPath)) return undefined;
      pkg = { importPath, dir, files: [], origin };
      packages.set(importPath, pkg);
    }
    const file = readGoFile(slashed, absOf(root, rel), pkg.importPath, dir, ctx);
    if (!file || file.invalid !== undefined) return undefined;
    readAgain.push(file);
    const name = path.basename(rel);
    const at = pkg.files.findIndex((x) => path.basename(x.path) > name);
    pkg.files.splice(at < 0 ? pkg.files.length : at, 0, file);
    folders.add(dir);
  }
  // The scan paths as a walk would record them: the went files out, the came ones in, the folders of both stat'd now.
  const folderAt = [...folders].map((d) => rels.indexOf(d.split('/').join(path.sep)));
  if (folderAt.some((i) => i < 0)) return undefined;
  const folderStats = folderAt.length > 0 ? statMany(root, folderAt.map((i) => rels[i]).join('\0'), folderAt.length) : [];
  folderAt.forEach((i, k) => stats.set(i, [folderStats[4 * k], folderStats[4 * k + 1], folderStats[4 * k + 2], folderStats[4 * k + 3]]));
  const nextRels: string[] = [];
  const nextStats = new Float64Array(4 * (rels.length - went.size + came.length));
  let o = 0;
  const push = (rel: string, st: ArrayLike<number>, from = 0) => {
    nextRels.push(rel);
    for (let k = 0; k < 4; k++) nextStats[o++] = st[from + k];
  };
  for (let i = 0; i < rels.length; i++) {
    if (went.has(rels[i])) continue;
    const st = stats.get(i);
    if (st) push(rels[i], st);
    else push(rels[i], s, 4 * i);
  }
  for (const [rel, st] of came) push(rel, st);
  const recorded: Recorded = { scanStart, rels: nextRels, stats: nextStats };
  const tree: SourceTree = {
    root, modulePath: prev.modulePath, packages, context: { ...ctx, tags: [...ctx.tags] },
    // The walk's diagnostics: the scope's are made again, and those of files that went go with them.
    diagnostics: prev.diagnostics.filter((d) => !SCOPE_CODES.has(d.code) && !(d.file !== undefined && went.has(d.file.split('/').join(path.sep)))),
  };
  if (prev.goVersion !== undefined) tree.goVersion = prev.goVersion;
  // An import of the module's or staging's the tree does not have may be a folder made since the
  // snapshot: only a walk would find it (a watch is told of no folder).
  const own = namespace(tree);
  for (const file of readAgain) {
    if (file.active && (file.imports ?? []).some((imp) => own(imp) && !packages.has(imp))) return undefined;
  }
  const scoped = computeScope(tree, scope, ctx);
  if (!scopeJoinersAsRecorded(prev, strings, rels, scoped.packages, statMany, racy, (p) => (typeof p === 'number' ? stats.has(p) : came.some(([rel]) => rel === p)))) return undefined;
  return walked(tree, scope, ctx, 'files', { prev, rels, strings, trusted }, scoped, recorded);
}

/**
 * The scan when only the snapshot's watched paths (see SourceSnapshot.watched) are stat'd: every other
 * path is taken as recorded, as no change there can change what the scan gives. Undefined (every path
 * is stat'd) when a watched folder or go.mod moved, or a watched file's header gives another record.
 */
function watchedOnly(prev: SourceSnapshot, decoder: Decoder, rels: string[], statMany: StatMany, ctx: BuildContext, racy: number, scanStart: number): SourceScan | undefined {
  const watched = prev.watched!;
  const fresh = statMany(prev.root, Array.from(watched, (i) => rels[i]).join('\0'), watched.length);
  // Where each scan path's stat is in `fresh` (-1: not stat'd).
  const slot = new Int32Array(rels.length).fill(-1);
  const trusted = new Uint8Array(rels.length).fill(1);
  for (let k = 0; k < watched.length; k++) {
    slot[watched[k]] = k;
    trusted[watched[k]] = Number(asRecorded(prev.stats, watched[k], fresh, 4 * k, racy));
  }
  const s = prev.stats;
  const now = (i: number, k: number) => (slot[i] >= 0 ? fresh[4 * slot[i] + k] : s[4 * i + k]);
  return reuseTree(prev, decoder, rels, now, trusted, ctx, scanStart, { slot, racy });
}

/**
 * With the default scope, the scan paths whose stats decide what a scan gives, as ascending indices
 * among the `count` scan paths (`scanAt` gives a path's; undefined for 'all', where every package counts): go.mod and the root; each scope
 * package's folder and files; and for each import of the scope's active files that the scope leaves
 * out, the folder and files of the package the tree has for it (one with no active files), and the
 * deepest folder the scan has on the way to each place such a package could come to be (module,
 * staging, vendor: a folder made below moves that folder's mtime). No other path can change the
 * scope, its files, or its diagnostics (see scanDiagnostics).
 */
function watchedPaths(tree: SourceTree, scoped: SourcePackage[], count: number, scanAt: (rel: string) => number | undefined, scope: Scope): Int32Array | undefined {
  if (scope !== 'default') return undefined;
  const at = (slashed: string) => scanAt(slashed.split('/').join(path.sep));
  const mark = new Uint8Array(count);
  const add = (slashed: string) => {
    const i = at(slashed);
    if (i !== undefined) mark[i] = 1;
    return i !== undefined;
  };
  mark[0] = 1;
  add('');
  const chosen = new Set(scoped.map((p) => p.importPath));
  const addPackage = (p: SourcePackage) => {
    add(p.dir);
    for (const f of p.files) add(f.path);
  };
  const left = new Set<string>();
  for (const p of scoped) {
    addPackage(p);
    for (const f of p.files) if (f.active) for (const imp of f.imports ?? []) if (!chosen.has(imp)) left.add(imp);
  }
  const mod = tree.modulePath;
  for (const imp of left) {
    const target = tree.packages.get(imp);
    if (target && (target.origin ?? importPathOf(target.dir, mod).origin) !== 'vendor') addPackage(target);
    const places = [`staging/src/${imp}`, `vendor/${imp}`];
    if (imp === mod) places.push('');
    else if (imp.startsWith(`${mod}/`)) places.push(imp.slice(mod.length + 1));
    for (let place of places) {
      while (!add(place) && place !== '') place = place.includes('/') ? place.slice(0, place.lastIndexOf('/')) : '';
    }
  }
  const out: number[] = [];
  for (let i = 0; i < mark.length; i++) if (mark[i]) out.push(i);
  return Int32Array.from(out);
}

/**
 * The diagnostics a scan gives (the walk's, then the scope's). With the default scope, those naming a
 * path outside the scope's folders are left out: a symlink or a broken header elsewhere in the checkout
 * says nothing of the kubelet's code, and a scan that stats only the watched paths would not see them
 * come or go (see watchedPaths).
 */
function scanDiagnostics(all: Diagnostic[], packages: SourcePackage[], scope: Scope): Diagnostic[] {
  if (scope !== 'default' || all.every((d) => d.file === undefined)) return all;
  const dirs = new Set(packages.map((p) => p.dir));
  return all.filter((d) => d.file === undefined || dirs.has(d.file.includes('/') ? d.file.slice(0, d.file.lastIndexOf('/')) : ''));
}

/**
 * Whether the folders and files of each package that joined the scope still have the stats the
 * snapshot recorded (outside the scope, no folder is watched: their changes are named by no one).
 */
function scopeJoinersAsRecorded(prev: SourceSnapshot, strings: string[], rels: string[], packages: SourcePackage[], statMany: StatMany, racy: number, takenNow: (at: number | string) => boolean): boolean {
  const was = new Set(Array.from(prev.scoped, (p) => strings[prev.packages[p * PACKAGE_COLUMNS]]));
  const joined = packages.filter((p) => !was.has(p.importPath));
  if (joined.length === 0) return true;
  const at = placesOf(rels);
  // Each path but those stat'd by this scan (the named files, their folders).
  const paths = joined.flatMap((p) => [p.dir, ...p.files.map((f) => f.path)].map((x) => x.split('/').join(path.sep))).filter((p) => !takenNow(p) && !takenNow(at.get(p) ?? -1));
  const index = paths.map((p) => at.get(p) ?? -1);
  if (index.some((i) => i < 0)) return false;
  if (paths.length === 0) return true;
  const now = statMany(prev.root, paths.join('\0'), paths.length);
  return index.every((i, k) => asRecorded(prev.stats, i, now, 4 * k, racy));
}

/**
 * Whether scan path `i`'s recorded stat (four numbers per path in `recorded`) is the stat at `at` in
 * `now`, and was not taken in a racy tick (see RACY_MS).
 */
function asRecorded(recorded: ArrayLike<number>, i: number, now: ArrayLike<number>, at: number, racy: number): boolean {
  const o = 4 * i;
  return recorded[o] === now[at] && recorded[o + 1] === now[at + 1] && recorded[o + 2] === now[at + 2] && recorded[o + 3] === now[at + 3] && recorded[o + 1] < racy && recorded[o + 2] < racy;
}

/**
 * The stats of the paths `only`, by their index among the scan paths `rels` (the other paths are taken
 * as recorded: no copy of the recorded stats is made, 0.4 MB on v1.28); undefined when one of them is
 * not a scan path.
 */
function statNamed(root: string, rels: string[], only: readonly string[], statMany: StatMany): Map<number, number[]> | undefined {
  const at: number[] = [];
  for (const p of only) {
    const i = p === '' ? -1 : rels.indexOf(p);
    if (i < 0) return undefined;
    at.push(i);
  }
  const fresh = at.length > 0 ? statMany(root, only.join('\0'), only.length) : [];
  return new Map(at.map((i, k) => [i, [fresh[4 * k], fresh[4 * k + 1], fresh[4 * k + 2], fresh[4 * k + 3]]]));
}

/**
 * A snapshot of this root, context and scope. Every path whose state a walk acted on has its stat in
 * it: a folder or file that could not be read comes back with a new ctime (chmod), a link to nothing
 * with its target's stat.
 */
function usable(prev: SourceSnapshot, root: string, ctx: BuildContext, scope: Scope): boolean {
  return prev.format === SNAPSHOT_FORMAT && prev.root === root && prev.scope === scope && sameContext(prev.ctx, ctx) && pathsFirst(prev.scanPaths);
}

/** Whether the scan paths are the string table's first strings, in order (see SourceSnapshot.scanPaths). */
function pathsFirst(scanPaths: Int32Array): boolean {
  for (let i = 0; i < scanPaths.length; i++) if (scanPaths[i] !== i) return false;
  return scanPaths.length > 0;
}

function absOf(root: string, rel: string): string {
  return rel === '' ? root : root + path.sep + rel;
}

/** Records of a snapshot made into objects, one at a time. */
class Decoder {
  constructor(
    private readonly snap: SourceSnapshot,
    private readonly str: string[],
    /** Sizes that differ from the snapshot's, by file. */
    private readonly sizes?: ReadonlyMap<number, number>,
  ) {}

  /** File `f` of the snapshot, in its package `pkg` (found when not given). */
  file(f: number, pkg = this.packageOf(f)): GoFile {
    const { str } = this;
    const { files, packages, imports: ids } = this.snap;
    const o = f * FILE_COLUMNS;
    const rel = str[files[o]];
    const imports: string[] = [];
    for (let k = files[o + 5], end = k + files[o + 6]; k < end; k++) imports.push(str[ids[k]]);
    const file: GoFile = {
      path: rel, abs: absOf(this.snap.root, rel), importPath: str[packages[pkg * PACKAGE_COLUMNS]], packageDir: str[packages[pkg * PACKAGE_COLUMNS + 1]],
      active: files[o + 4] === 1, size: this.sizes?.get(f) ?? this.snap.sizes[f], imports,
    };
    if (files[o + 2] >= 0) file.constraint = str[files[o + 2]];
    if (files[o + 1] >= 0) file.packageName = str[files[o + 1]];
    if (files[o + 3] >= 0) file.invalid = str[files[o + 3]];
    return file;
  }

  package(p: number): SourcePackage {
    const { str } = this;
    const { packages } = this.snap;
    const o = p * PACKAGE_COLUMNS;
    const files: GoFile[] = [];
    for (let f = packages[o + 3], end = f + packages[o + 4]; f < end; f++) files.push(this.file(f, p));
    const pkg: SourcePackage = { importPath: str[packages[o]], dir: str[packages[o + 1]], files };
    if (packages[o + 2] >= 0) pkg.origin = ORIGINS[packages[o + 2]];
    return pkg;
  }

  /** This decoder with the sizes of some files (the changed ones) other than the snapshot's. */
  withSizes(sizes: ReadonlyMap<number, number>): Decoder {
    return new Decoder(this.snap, this.str, sizes);
  }

  /** The index of the file whose path is scan path `i`, if the snapshot has its record (see SourceSnapshot.scanPaths). */
  fileAt(i: number): number | undefined {
    if (!this.byScanPath) {
      const { files, scanPaths } = this.snap;
      this.byScanPath = new Int32Array(scanPaths.length).fill(-1);
      for (let f = 0, o = 0; o < files.length; f++, o += FILE_COLUMNS) if (files[o] < scanPaths.length) this.byScanPath[files[o]] = f;
    }
    const f = this.byScanPath[i] ?? -1;
    return f < 0 ? undefined : f;
  }

  private byScanPath?: Int32Array;

  /** Each file's package, made on first use: a walk asks for hundreds of files, each once. */
  private packages?: Int32Array;

  private packageOf(f: number): number {
    if (!this.packages) {
      const { packages, files } = this.snap;
      this.packages = new Int32Array(files.length / FILE_COLUMNS).fill(-1);
      for (let o = 0; o < packages.length; o += PACKAGE_COLUMNS) this.packages.fill(o / PACKAGE_COLUMNS, packages[o + 3], packages[o + 3] + packages[o + 4]);
    }
    const p = this.packages[f] ?? -1;
    if (p < 0) throw new Error(`snapshot: file ${f} is in no package`);
    return p;
  }
}

/**
 * When no folder and not go.mod moved, and each Go file whose stat moved still gives the record it
 * gave (package, constraint, imports: all a scope is made of), the snapshot's scope is the scope a
 * walk would find. The next snapshot is this one with those files' stats and sizes moved.
 * `statted`, when the scan stat'd only some paths (see watchedOnly): where each path's stat is in
 * what it stat'd (-1: not stat'd), and the racy bound the scan judged by.
 */
function reuseTree(prev: SourceSnapshot, decoder: Decoder, rels: string[], now: (i: number, k: number) => number, trusted: Uint8Array, ctx: BuildContext, scanStart: number, statted?: { slot: Int32Array; racy: number }): SourceScan | undefined {
  const n = rels.length;
  const moved: [scanAt: number, file: number, size: number][] = [];
  for (let i = 0; i < rels.length; i++) {
    if (trusted[i]) continue;
    const f = decoder.fileAt(i);
    // A folder, go.mod, or a file the walk could not read.
    if (f === undefined || now(i, 0) < 0) return undefined;
    const old = decoder.file(f);
    const record = rescanFile(old, ctx);
    if (!record || !sameRecord(old, record)) return undefined;
    moved.push([i, f, record.size]);
  }
  // The moved paths' stats and files' sizes, over the snapshot's (copied with them only for a snapshot to keep).
  const movedStats = new Map<number, Stat>(moved.map(([i]) => [i, [now(i, 0), now(i, 1), now(i, 2), now(i, 3)]]));
  const movedSizes = new Map<number, number>(moved.map(([, f, size]) => [f, size]));
  const next = moved.length > 0 ? decoder.withSizes(movedSizes) : decoder;
  const statOf = (i: number | undefined) => (i !== undefined && movedStats.get(i)) || statAt(prev.stats, i);
  const packages = Array.from(prev.scoped, (p) => next.package(p));
  const hashes = prev.hashes.split('\n');
  // The scan index of each file of the scope, in order, and of each scope package's folder (-1 where
  // there is none): a path's string is its scan path's (see SourceSnapshot.scanPaths).
  let scopeAt: { files: Int32Array; dirs: Int32Array } | undefined;
  const scanIndices = () => {
    if (scopeAt) return scopeAt;
    const files: number[] = [];
    const dirs: number[] = [];
    for (const p of prev.scoped) {
      const o = p * PACKAGE_COLUMNS;
      dirs.push(prev.packages[o + 1] < n ? prev.packages[o + 1] : -1);
      for (let f = prev.packages[o + 3], end = f + prev.packages[o + 4]; f < end; f++) files.push(prev.files[f * FILE_COLUMNS] < n ? prev.files[f * FILE_COLUMNS] : -1);
    }
    return (scopeAt = { files: Int32Array.from(files), dirs: Int32Array.from(dirs) });
  };
  return {
    root: prev.root,
    modulePath: prev.modulePath,
    packages,
    diagnostics: scanDiagnostics(prev.diagnostics, packages, prev.scope),
    reused: 'tree',
    changed: moved.length > 0,
    scopeStats: () => {
      const { files, dirs } = scanIndices();
      return { file: (k) => statOf(files[k]), dir: (p) => statOf(dirs[p]) };
    },
    knownHashes: () => Array.from(scanIndices().files, (at, k) => (hashes[k] && at >= 0 && trusted[at] ? hashes[k] : undefined)),
    structure: () => prev.structure ?? scopeStructure(packages),
    snapshot: (next) => {
      if (moved.length === 0) return { ...prev, hashes: next.join('\n') };
      const stats = Float64Array.from(prev.stats);
      const sizes = Float64Array.from(prev.sizes);
      for (const [i, stat] of movedStats) stats.set(stat, 4 * i);
      for (const [f, size] of movedSizes) sizes[f] = size;
      // The paths this scan did not stat keep their recorded stats under a later start: one recorded
      // in a racy tick of the earlier start is marked as never seen, so that the next scan that stats
      // it reads it again.
      if (statted) {
        for (let i = 0; i < n; i++) if (statted.slot[i] < 0 && !(stats[4 * i + 1] < statted.racy && stats[4 * i + 2] < statted.racy)) stats[4 * i] = NEVER_SEEN;
      }
      return { ...prev, scanStart, stats, sizes, hashes: next.join('\n') };
    },
  };
}

/** A recorded size no stat gives (see Stat): the path is not trusted until stat'd again. */
const NEVER_SEEN = -4;

/**
 * Each path's place in `rels` (keyed by `key` of it): set one by one, where a map made from a list of
 * pairs made one pair per path first (12,000 on v1.28: 3.5-7 ms against 1.4-2.2).
 */
function placesOf(rels: readonly string[], key?: (rel: string) => string): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < rels.length; i++) at.set(key ? key(rels[i]) : rels[i], i);
  return at;
}

function statAt(stats: ArrayLike<number>, i: number | undefined): Stat | undefined {
  return i === undefined || i < 0 ? undefined : [stats[4 * i], stats[4 * i + 1], stats[4 * i + 2], stats[4 * i + 3]];
}

function sameRecord(a: GoFile, b: GoFile): boolean {
  return a.packageName === b.packageName && a.constraint === b.constraint && a.invalid === b.invalid && a.active === b.active &&
    (a.imports ?? []).join('\n') === (b.imports ?? []).join('\n');
}

/** What a scan recorded, with its paths relative to the root ('' for the root). */
interface Recorded {
  scanStart: number;
  rels: string[];
  /** Four numbers per path (see Stat). */
  stats: ArrayLike<number>;
}

/** What openTree's walk recorded. */
function recordedBy(tree: SourceTree): Recorded {
  const scan = tree.scan!;
  const prefix = tree.root + path.sep;
  return { scanStart: scan.scanStart, rels: scan.paths.map((p) => (p === tree.root ? '' : p.startsWith(prefix) ? p.slice(prefix.length) : p)), stats: scan.stats };
}

/**
 * A scan over `tree` (walked, or the snapshot's tree with named files put in or taken out); `from` is
 * the snapshot whose hashes it may reuse, `recorded` what the scan recorded.
 */
function walked(tree: SourceTree, scope: Scope, ctx: BuildContext, reused: SourceScan['reused'], from: { prev: SourceSnapshot; rels: string[]; strings: string[]; trusted: Uint8Array } | undefined, scoped = computeScope(tree, scope, ctx), recorded = recordedBy(tree)): SourceScan {
  const { rels } = recorded;
  let structure: string | undefined;
  return {
    root: tree.root,
    modulePath: tree.modulePath,
    packages: scoped.packages,
    diagnostics: scanDiagnostics([...tree.diagnostics, ...scoped.diagnostics], scoped.packages, scope),
    reused,
    changed: true,
    scopeStats: () => {
      const index = placesOf(rels);
      const files = scoped.packages.flatMap((p) => p.files.map((f) => f.path));
      return { file: (k) => statAt(recorded.stats, index.get(files[k])), dir: (p) => statAt(recorded.stats, index.get(scoped.packages[p].dir)) };
    },
    knownHashes() {
      const out: (string | undefined)[] = [];
      if (!from) return scoped.packages.flatMap((p) => p.files.map(() => undefined));
      // The earlier snapshot's hashes by path, where that file's stat was trusted this time. A file's
      // path is its scan path's string (see SourceSnapshot.scanPaths): its ID is its scan index.
      const { prev, rels: prevRels, strings, trusted } = from;
      const prevHashes = prev.hashes.split('\n');
      const old = new Map<string, string>();
      let k = 0;
      for (const p of prev.scoped) {
        const o = p * PACKAGE_COLUMNS;
        for (let f = prev.packages[o + 3], end = f + prev.packages[o + 4]; f < end; f++, k++) {
          const at = prev.files[f * FILE_COLUMNS];
          if (prevHashes[k] && at < prevRels.length && trusted[at]) old.set(strings[at], prevHashes[k]);
        }
      }
      for (const p of scoped.packages) for (const f of p.files) out.push(old.get(f.path));
      return out;
    },
    snapshot: (hashes) => packTree(tree, scoped.packages, scoped.diagnostics, recorded, scope, ctx, hashes, structure),
    structure: () => (structure ??= scopeStructure(scoped.packages)),
  };
}

/**
 * The hash of what a scope is made of (see SourceScan.structure): equal for scopes of the same
 * packages, files, build flags and constraints, in the same order.
 */
function scopeStructure(packages: SourcePackage[]): string {
  // One text: each package's import path and number of files, then each file's path, whether it is
  // active and its constraint (as JSON, when it has one), a NUL after each (no path holds one, and
  // JSON writes none). Made with no list per file: as JSON of nested lists it took twice as long (on
  // v1.28, 3.2-4.1 ms against 1.5-2.3 ms, warm), in each build that a file came to or went from.
  let text = '';
  for (const p of packages) {
    text += `${p.importPath}\0${p.files.length}\0`;
    for (const f of p.files) text += `${f.path}\0${f.active ? 1 : 0}${f.constraint === undefined ? '' : JSON.stringify(f.constraint)}\0`;
  }
  return createHash('sha1').update(text).digest('hex');
}

function packTree(tree: SourceTree, scopedPackages: SourcePackage[], scopeDiagnostics: Diagnostic[], { rels, stats, scanStart }: Recorded, scope: Scope, ctx: BuildContext, hashes: string[], structure?: string): SourceSnapshot | undefined {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const id = (x: string | undefined): number => {
    if (x === undefined) return -1;
    let i = ids.get(x);
    if (i === undefined) {
      i = strings.length;
      strings.push(x);
      ids.set(x, i);
    }
    return i;
  };
  // The scan paths first, in their order (see SourceSnapshot.scanPaths); they are distinct.
  const scanPaths = Int32Array.from(rels, id);
  if (!pathsFirst(scanPaths) && rels.length > 0) return undefined;
  const pkgs = [...tree.packages.values()];
  const packages = new Int32Array(pkgs.length * PACKAGE_COLUMNS);
  const nfiles = pkgs.reduce((n, p) => n + p.files.length, 0);
  const files = new Int32Array(nfiles * FILE_COLUMNS);
  const sizes = new Float64Array(nfiles);
  const imports: number[] = [];
  const pkgIndex = new Map<string, number>();
  let f = 0;
  pkgs.forEach((p, i) => {
    pkgIndex.set(p.importPath, i);
    packages.set([id(p.importPath), id(p.dir), p.origin === undefined ? -1 : ORIGINS.indexOf(p.origin), f, p.files.length], i * PACKAGE_COLUMNS);
    for (const file of p.files) {
      const from = imports.length;
      for (const imp of file.imports ?? []) imports.push(id(imp));
      files.set([id(file.path), id(file.packageName), id(file.constraint), id(file.invalid), Number(file.active), from, imports.length - from], f * FILE_COLUMNS);
      sizes[f++] = file.size;
    }
  });
  // The table is '\0'-joined; a string holding one (a header no Go file has) leaves this tree unkept.
  if (strings.some((x) => x.includes('\0'))) return undefined;
  const snap: SourceSnapshot = {
    format: SNAPSHOT_FORMAT, root: tree.root, ctx: { ...ctx, tags: [...ctx.tags] }, scope, modulePath: tree.modulePath, scanStart,
    strings: strings.join('\0'), packages, files, imports: Int32Array.from(imports), sizes, diagnostics: [...tree.diagnostics, ...scopeDiagnostics],
    scoped: Int32Array.from(scopedPackages, (p) => pkgIndex.get(p.importPath)!), scanPaths, stats: Float64Array.from(stats), hashes: hashes.join('\n'),
  };
  // A scan path's string is its index (see SourceSnapshot.scanPaths): the table's map finds it.
  const watched = watchedPaths(tree, scopedPackages, rels.length, (rel) => {
    const i = ids.get(rel);
    return i !== undefined && i < rels.length ? i : undefined;
  }, scope);
  if (watched) snap.watched = watched;
  snap.structure = structure ?? scopeStructure(scopedPackages);
  if (tree.goVersion !== undefined) snap.goVersion = tree.goVersion;
  return snap;
}

/** StatMany by one statSync per path (when the C version is not built). */
export function statEach(root: string, rels: string, count: number): number[] {
  const out: number[] = [];
  const paths = count === 0 ? [] : rels.split('\0');
  if (paths.length !== count) throw new Error(`statEach: ${paths.length} paths, not ${count}`);
  for (const p of paths) out.push(...statNow(absOf(root, p)));
  return out;
}
