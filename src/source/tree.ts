import fs from 'node:fs';
import path from 'node:path';
import type { BuildContext, Diagnostic } from '../model/index.js';
import { SourceError } from './errors.js';
import { parseGoMod } from './gomod.js';
import { scanHeader, type GoHeader } from './header.js';
import { factsFromHeader, isActive } from './match.js';
import type { GoFile, PackageOrigin, ScanRecord, SourcePackage, SourceTree } from './types.js';

const KUBERNETES_MODULE = 'k8s.io/kubernetes';
const NO_SOURCE_HINT = 'pass --source DIR (or set KUBELET_ATLAS_SOURCE) to a Kubernetes checkout, or leave both unset to clone v1.28.0';

/**
 * Walks a Kubernetes checkout and lists every Go package with its files and their build status.
 * Throws SourceError when the folder is not a usable checkout; problems inside it become diagnostics.
 */
export function openTree(root: string, ctx: BuildContext, cache?: WalkCache): SourceTree {
  const abs = path.resolve(root);
  const scanStart = Date.now();
  const scan: ScanRecord = { scanStart, paths: [], stats: [] };
  const goMod = path.join(abs, 'go.mod');
  // The stat before the read, as for every path the scan records (see ScanRecord).
  scan.paths.push(goMod);
  scan.stats.push(...(cache?.stat(goMod) ?? statNow(goMod)));
  const mod = readModule(abs);
  const diagnostics: Diagnostic[] = [];
  if (!isDir(path.join(abs, 'pkg', 'kubelet'))) {
    diagnostics.push({
      severity: 'warning', code: 'source.no-kubelet',
      message: `${abs} has no pkg/kubelet directory; the default scope will be empty`,
    });
  }
  const walker = new Walker(abs, mod.modulePath, ctx, diagnostics, scan, cache);
  walker.run();
  const tree: SourceTree = {
    root: abs, modulePath: mod.modulePath, packages: walker.packages, diagnostics, context: { ...ctx, tags: [...ctx.tags] }, scan,
  };
  if (mod.goVersion !== undefined) tree.goVersion = mod.goVersion;
  return tree;
}

function readModule(abs: string): { modulePath: string; goVersion?: string } {
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw new SourceError('source.missing', `${abs} does not exist`, NO_SOURCE_HINT);
  }
  if (!st.isDirectory()) throw new SourceError('source.not-directory', `${abs} is not a directory`, NO_SOURCE_HINT);
  let text: string;
  try {
    text = fs.readFileSync(path.join(abs, 'go.mod'), 'utf8');
  } catch {
    const empty = safeReaddir(abs)?.length === 0;
    throw new SourceError(
      empty ? 'source.empty' : 'source.not-kubernetes',
      empty ? `${abs} is empty, not a Kubernetes checkout` : `${abs} is not a Kubernetes checkout: no go.mod`,
      NO_SOURCE_HINT,
    );
  }
  const mod = parseGoMod(text);
  if (mod.modulePath === undefined) {
    throw new SourceError('source.bad-gomod', `${abs}/go.mod has no module line`, NO_SOURCE_HINT);
  }
  if (mod.modulePath !== KUBERNETES_MODULE && !isDir(path.join(abs, 'pkg', 'kubelet'))) {
    throw new SourceError(
      'source.not-kubernetes',
      `${abs} is not a Kubernetes checkout: go.mod declares module ${mod.modulePath} and there is no pkg/kubelet`,
      NO_SOURCE_HINT,
    );
  }
  return mod.goVersion === undefined ? { modulePath: mod.modulePath } : { modulePath: mod.modulePath, goVersion: mod.goVersion };
}

/** A path's stat as the scan keeps it: size (-1 for a folder, -2 when stat fails, -3 for anything else not a file), mtime and ctime in ms, inode. */
export type Stat = [size: number, mtimeMs: number, ctimeMs: number, ino: number];

/** What an earlier scan lends a walk (see source/snapshot.ts). */
export interface WalkCache {
  /** The stat of `abs` taken before this walk began, for the paths the earlier scan recorded. */
  stat(abs: string): Stat | undefined;
  /** The earlier scan's record of a Go file whose stat was `stat` then and is now: its header need not be read again. */
  file(abs: string, stat: Stat): GoFile | undefined;
}

export function statNow(abs: string): Stat {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(abs, { throwIfNoEntry: false });
  } catch {
    st = undefined;
  }
  return st ? [st.isDirectory() ? -1 : st.isFile() ? st.size : -3, st.mtimeMs, st.ctimeMs, st.ino] : [-2, 0, 0, 0];
}

/** How much of each file is read first; nearly every Go file's header and imports fit. */
const HEAD_BYTES = 8192;
/** How much of that block is decoded first. */
const FIRST_DECODE = 2048;

interface PendingLink { rel: string; abs: string; parentReal: string }

class Walker {
  readonly packages = new Map<string, SourcePackage>();
  /** Real paths of the dirs walked so far: a second visit means a duplicate or a loop. */
  private readonly seen = new Set<string>();
  /** Symlinked dirs wait until every real dir is walked, so real paths (staging) beat links (vendor). */
  private readonly links: PendingLink[] = [];
  private readonly buf = Buffer.allocUnsafe(HEAD_BYTES);
  private stagingReal = '';

  constructor(
    private readonly root: string,
    private readonly modulePath: string,
    private readonly ctx: BuildContext,
    private readonly diagnostics: Diagnostic[],
    private readonly scan: ScanRecord,
    private readonly cache: WalkCache | undefined,
  ) {}

  /** Records the stat of `abs` (taken now, or lent by the cache): always before the path is read. */
  private record(abs: string): Stat {
    const st = this.cache?.stat(abs) ?? statNow(abs);
    this.scan.paths.push(abs);
    this.scan.stats.push(...st);
    return st;
  }

  run(): void {
    const rootReal = fs.realpathSync(this.root);
    this.stagingReal = path.join(rootReal, 'staging') + path.sep;
    this.walk('', rootReal);
    for (let i = 0; i < this.links.length; i++) this.followLink(this.links[i] as PendingLink);
  }

  private walk(rel: string, real: string): void {
    this.seen.add(real);
    const absDir = rel === '' ? this.root : path.join(this.root, rel);
    this.record(absDir);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absDir, { withFileTypes: true });
    } catch (err) {
      this.unreadable(rel === '' ? '.' : rel, err);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (rel === '') entries.sort((a, b) => Number(a.name === 'vendor') - Number(b.name === 'vendor'));

    const goNames: string[] = [];
    const subdirs: string[] = [];
    for (const e of entries) {
      const name = e.name;
      const childRel = rel === '' ? name : `${rel}/${name}`;
      if (e.isDirectory()) {
        if (!skipDir(name, rel)) subdirs.push(name);
      } else if (e.isSymbolicLink()) {
        this.symlink(name, childRel, real, goNames);
      } else if (e.isFile() && isGoFileName(name)) {
        goNames.push(name);
      }
    }
    if (goNames.length > 0) this.addPackage(rel, goNames);
    for (const name of subdirs) this.walk(rel === '' ? name : `${rel}/${name}`, path.join(real, name));
  }

  private symlink(name: string, childRel: string, parentReal: string, goNames: string[]): void {
    const wantFile = isGoFileName(name);
    const parentRel = childRel.includes('/') ? childRel.slice(0, childRel.lastIndexOf('/')) : '';
    if (!wantFile && skipDir(name, parentRel)) return;
    const abs = path.join(this.root, childRel);
    // Recorded too: a link to nothing stays so only while the path it names is missing.
    const [size] = this.record(abs);
    if (size === -2) {
      this.diagnostics.push({ severity: 'info', code: 'source.broken-symlink', message: `${childRel} is a symlink to nothing; skipped`, file: childRel });
      return;
    }
    if (size === -1) {
      if (!skipDir(name, parentRel)) this.links.push({ rel: childRel, abs, parentReal });
    } else if (wantFile && size >= 0) {
      goNames.push(name);
    }
  }

  private followLink(link: PendingLink): void {
    let target: string;
    try {
      target = fs.realpathSync(link.abs);
    } catch (err) {
      this.unreadable(link.rel, err);
      return;
    }
    if (!this.seen.has(target)) {
      this.walk(link.rel, target);
      return;
    }
    if (link.parentReal === target || link.parentReal.startsWith(target + path.sep)) {
      this.diagnostics.push({
        severity: 'warning', code: 'source.symlink-loop',
        message: `${link.rel} links back to its own ancestor ${target}; not followed`, file: link.rel,
      });
      return;
    }
    // vendor/k8s.io/* → staging/src/k8s.io/* is how older trees are laid out: the staging copy is indexed.
    if (link.rel.startsWith('vendor/') && target.startsWith(this.stagingReal)) return;
    this.diagnostics.push({
      severity: 'info', code: 'source.duplicate-dir',
      message: `${link.rel} is a symlink to ${target}, which is already indexed under its real path; skipped`, file: link.rel,
    });
  }

  private addPackage(dir: string, names: string[]): void {
    const { importPath, origin } = importPathOf(dir, this.modulePath);
    const existing = this.packages.get(importPath);
    if (existing !== undefined) {
      this.diagnostics.push({
        severity: 'info', code: 'source.duplicate-package',
        message: `${dir} and ${existing.dir} both provide ${importPath}; keeping ${existing.dir}`, file: dir,
      });
      return;
    }
    const files: GoFile[] = [];
    for (const name of names) {
      const file = this.readFile(dir, name, importPath);
      if (file !== undefined) files.push(file);
    }
    if (files.length > 0) this.packages.set(importPath, { importPath, dir, files, origin });
  }

  private readFile(dir: string, name: string, importPath: string): GoFile | undefined {
    const rel = dir === '' ? name : `${dir}/${name}`;
    const abs = path.join(this.root, rel);
    const st = this.record(abs);
    let file = this.cache?.file(abs, st);
    if (file === undefined) {
      let size: number;
      let header: GoHeader;
      try {
        ({ size, header } = this.readHeader(abs));
      } catch (err) {
        this.unreadable(rel, err);
        return undefined;
      }
      file = fileRecord(rel, abs, importPath, dir, size, header, this.ctx);
    }
    if (file.invalid !== undefined) {
      this.diagnostics.push({ severity: 'warning', code: 'source.bad-header', message: `${rel}: ${file.invalid}; treated as inactive`, file: rel });
    }
    return file;
  }

  /**
   * Scans as little of the file as will do: first DECODE_STEPS of the block already read (most headers
   * are a licence, a package clause and imports), then the whole block, then the whole file. Decoding
   * less keeps the garbage collector out of the walk's profile.
   */
  private readHeader(abs: string): { size: number; header: GoHeader } {
    return readHeader(abs, this.buf);
  }

  private unreadable(rel: string, err: unknown): void {
    const reason = err instanceof Error && 'code' in err ? String((err as NodeJS.ErrnoException).code) : String(err);
    this.diagnostics.push({
      severity: 'warning', code: 'source.unreadable', message: `cannot read ${rel} (${reason}); skipped`, file: rel,
      hint: 'check the permissions of the file or directory',
    });
  }
}

function readHeader(abs: string, buf: Buffer): { size: number; header: GoHeader } {
  const fd = fs.openSync(abs, 'r');
  let n: number;
  let size: number;
  try {
    n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    size = n < HEAD_BYTES ? n : fs.fstatSync(fd).size;
  } finally {
    fs.closeSync(fd);
  }
  for (const step of [FIRST_DECODE, n]) {
    const partial = step < size;
    // Cut a prefix back to a line end so no character or token is split.
    const end = partial ? buf.lastIndexOf(10, Math.min(step, n) - 1) + 1 : n;
    const header = scanHeader(buf.toString('utf8', 0, end), partial);
    if (!header.needMore) return { size, header };
    if (step >= n) break;
  }
  return { size, header: scanHeader(fs.readFileSync(abs, 'utf8'), false) };
}

function fileRecord(rel: string, abs: string, importPath: string, dir: string, size: number, header: GoHeader, ctx: BuildContext): GoFile {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  const facts = factsFromHeader(name, header);
  const file: GoFile = { path: rel, abs, importPath, packageDir: dir, active: isActive(facts, ctx), size, imports: facts.imports };
  if (facts.constraint !== undefined) file.constraint = facts.constraint;
  if (header.packageName !== undefined) file.packageName = header.packageName;
  if (facts.invalid !== undefined) file.invalid = facts.invalid;
  return file;
}

/**
 * A Go file's record read again from its header, as a walk makes it, for a file already known to the
 * scan (`old`); undefined when it cannot be read.
 */
export function rescanFile(old: GoFile, ctx: BuildContext): GoFile | undefined {
  return readGoFile(old.path, old.abs, old.importPath, old.packageDir, ctx);
}

/**
 * The record a walk makes of the Go file `rel` (forward slashes) in the package `importPath` at `dir`;
 * undefined when it cannot be read.
 */
export function readGoFile(rel: string, abs: string, importPath: string, dir: string, ctx: BuildContext): GoFile | undefined {
  try {
    const { size, header } = readHeader(abs, Buffer.allocUnsafe(HEAD_BYTES));
    return fileRecord(rel, abs, importPath, dir, size, header, ctx);
  } catch {
    return undefined;
  }
}

/** go/build ignores dirs and files starting with '.' or '_', and testdata; nested vendor dirs mean nothing in module mode. */
function skipDir(name: string, parentRel: string): boolean {
  if (name.startsWith('.') || name.startsWith('_')) return true;
  if (name === 'testdata' || name === 'node_modules') return true;
  return name === 'vendor' && parentRel !== '';
}

export function isGoFileName(name: string): boolean {
  return name.endsWith('.go') && !name.startsWith('.') && !name.startsWith('_');
}

export function importPathOf(dir: string, modulePath: string): { importPath: string; origin: PackageOrigin } {
  if (dir.startsWith('staging/src/')) return { importPath: dir.slice('staging/src/'.length), origin: 'staging' };
  if (dir.startsWith('vendor/')) return { importPath: dir.slice('vendor/'.length), origin: 'vendor' };
  return { importPath: dir === '' ? modulePath : `${modulePath}/${dir}`, origin: 'module' };
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function safeReaddir(p: string): string[] | undefined {
  try {
    return fs.readdirSync(p);
  } catch {
    return undefined;
  }
}
