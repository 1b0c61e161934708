/**
 * The light half of the index stage, for one-shot queries: find the query store written by the last
 * build and tell whether it still matches the tree, without loading the parser or the resolver.
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { BuildContext } from '../model/index.js';
// Types only: a query must not load the source stage.
import type { Stat, StatMany } from '../source/index.js';
import { GraphStore, type StoreBytes } from '../graph/store.js';
import { readDelta, type StoreOnDisk } from '../graph/delta.js';
import { asBytes, layoutSections, openSections, viewAs } from '../graph/sections.js';
import { cacheKey } from './key.js';
// The addon loader alone, not the parse stage's entry: a query must not load the parser.
import { loadAddon } from '../parse/addon.js';
import { rangeMapper } from './mapped.js';
import { deserialize, serialize } from 'node:v8';
import type { FileMove } from '../graph/remap.js';

export interface StoreLocation {
  root: string;
  ctx: BuildContext;
  scope?: string;
  cacheDir: string;
}

export function indexDir(opts: StoreLocation): string {
  const dir = join(opts.cacheDir, 'index');
  return join(dir, cacheKey(opts.root, opts.ctx, opts.scope ?? 'default', dir));
}

export const STORE_FILE = 'query.bin';

/**
 * Beside the query store: which files, with which sizes and mtimes, the graph it holds stands for, and
 * the stamp of their bytes. A build that keeps the graph (a comment edited, a checkout that moved
 * mtimes) rewrites this small file and leaves the store as it is.
 */
export const FRESH_FILE = 'query.fresh';

/** Each scanned Go file and package dir, with its size and mtime. */
export interface Manifest {
  paths: string[];
  sizes: ArrayLike<number>;
  mtimes: ArrayLike<number>;
  /** The paths as a manifest file holds them ('\n'-joined, UTF-8), when they were taken from one (see pathsOf). */
  pathBytes?: Uint8Array;
  /**
   * Set when the paths are those of a scope of this structure under this root (the root, a NUL, then
   * SourceScan.structure) with every file read: the next build over a scope of the same structure
   * under the same root takes them from the manifest file.
   */
  structure?: string;
}

const FRESH_MAGIC = 'KAM1';

interface FreshHeader {
  v: 1;
  /** The hash of every file's content hash (the build's stamp). */
  stamp: string;
  /** The graph the manifest goes with: the store's label (see GraphStore.graph), or the label of the store moved by `base`'s moves. */
  graph: string;
  /** Set when the store holds graph `base` and the moves or delta sections say what changed since (see StoreMoves). */
  base?: string;
  /** See Manifest.structure. */
  structure?: string;
  sections: Record<string, [number, number]>;
}

/**
 * What changed since the store was written, kept beside it so that it is not written again:
 * - lines moved: a build whose edits only moved lines (see movedGraph in build.ts) keeps them, and a
 *   query applies them as it reads (GraphStore.moveLines). `moves` is their serialized form (node:v8),
 *   kept as is between builds;
 * - or a delta (see graph/delta.ts), which a process that writes the store after each edit (the watch)
 *   writes while it is small, and a query reads the store through (GraphStore.applyDelta).
 */
export interface StoreMoves {
  /** The label of the store they apply to. */
  base: string;
  moves?: Buffer;
  delta?: Buffer;
}

/** The manifest file's bytes (see FRESH_FILE), as pieces to write: the layout of the store and the graph file. */
export function encodeFreshness(stamp: string, graph: string, manifest: Manifest, moved?: StoreMoves): Buffer[] {
  const header: FreshHeader = { v: 1, stamp, graph, ...(moved && { base: moved.base }), ...(manifest.structure !== undefined && { structure: manifest.structure }), sections: {} };
  return layoutSections(FRESH_MAGIC, header, [
    ['paths', pathsOf(manifest)],
    ['sizes', asBytes(new Float64Array(manifest.sizes))],
    ['mtimes', asBytes(new Float64Array(manifest.mtimes))],
    ...(moved?.moves ? [['moves', moved.moves] as [string, Buffer]] : []),
    ...(moved?.delta ? [['delta', moved.delta] as [string, Buffer]] : []),
  ]);
}

/** A manifest's paths as a manifest file holds them. */
function pathsOf(m: Manifest): Buffer {
  return m.pathBytes ? Buffer.from(m.pathBytes.buffer, m.pathBytes.byteOffset, m.pathBytes.byteLength) : Buffer.from(m.paths.join('\n'));
}

/** A manifest file's contents, its paths left as stored (UTF-8, one per line). */
export interface Freshness {
  stamp: string;
  graph: string;
  /** See Manifest.structure. */
  structure?: string;
  paths: Buffer;
  sizes: Float64Array;
  mtimes: Float64Array;
  /** The moves or delta still to apply to the store (see StoreMoves). */
  moved?: StoreMoves;
}

/**
 * The bytes each Freshness read from a manifest file came from (see rereadFreshness): kept aside, so
 * that a copy made with other parts is not taken for a reading of those bytes.
 */
const readFrom = new WeakMap<Freshness, Buffer>();

/** Whether `store` is the store the manifest goes with: the graph it names, or the base its moves apply to. */
function holds(store: GraphStore, f: Freshness): boolean {
  return f.moved ? f.moved.base === store.graph : f.graph === store.graph;
}

/** The manifest's moves, decoded (none when it has none). */
export function storeMoves(f: Freshness): FileMove[] {
  return f.moved?.moves ? (deserialize(f.moved.moves) as FileMove[]) : [];
}

/** The serialized form of moves, as a manifest keeps them. */
export function serializeMoves(moves: FileMove[]): Buffer {
  return serialize(moves);
}

/**
 * The manifest file in `dir`, or undefined when it is missing, damaged or of another format. Read, not
 * mapped: the manifest's arrays are views of its bytes, and a map would hold the file open for as long
 * as one of them lives (the watch keeps one with the base of its deltas), where the watch writes the
 * manifest into the copy it replaced when nobody holds that copy (see smallReuse in build.ts).
 */
export function readFreshness(dir: string, counted = true): Freshness | undefined {
  try {
    return freshnessOf(readFileSync(join(dir, FRESH_FILE)), counted);
  } catch {
    return undefined;
  }
}

/**
 * The manifest file in `dir` read again: `known` itself when the file still holds the bytes `known`
 * was read from (a command that found it matching the tree a moment before: its paths were counted
 * by that check, see freshnessOf), else as readFreshness reads it.
 */
export function rereadFreshness(dir: string, known: Freshness | undefined): Freshness | undefined {
  const was = known && readFrom.get(known);
  if (!was) return readFreshness(dir);
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, FRESH_FILE));
  } catch {
    return undefined;
  }
  return bytes.equals(was) ? known : freshnessOf(bytes, true);
}

/**
 * A manifest file's bytes as a Freshness, or undefined when they are damaged or of another format.
 * `counted` false: the paths are not counted against the arrays, a cost of a few milliseconds that the
 * C check makes anyway (it refuses paths and arrays that differ in length); see openStorePending.
 */
function freshnessOf(bytes: Buffer, counted: boolean): Freshness | undefined {
  const opened = openSections<FreshHeader>(bytes, FRESH_MAGIC, 'freshness manifest');
  if (!opened || opened.header.v !== 1) return undefined;
  const { header, section } = opened;
  const sizes = viewAs(Float64Array, section('sizes'));
  const mtimes = viewAs(Float64Array, section('mtimes'));
  const paths = section('paths');
  if (mtimes.length !== sizes.length) return undefined;
  if (counted) {
    let count = sizes.length === 0 ? 0 : 1;
    for (let at = paths.indexOf(10); at >= 0 && count > 0; at = paths.indexOf(10, at + 1)) count++;
    if (count !== sizes.length) return undefined;
  }
  const has = (name: string) => header.sections[name] !== undefined;
  if (header.base !== undefined && !has('moves') && !has('delta')) return undefined;
  const moved = header.base === undefined ? undefined : { base: header.base, ...(has('moves') && { moves: Buffer.from(section('moves')) }), ...(has('delta') && { delta: Buffer.from(section('delta')) }) };
  const f: Freshness = { stamp: header.stamp, graph: header.graph, ...(header.structure !== undefined && { structure: header.structure }), paths, sizes, mtimes, moved };
  readFrom.set(f, bytes);
  return f;
}

/**
 * Whether no path of the manifest file changed size or mtime (or went): by the C check when it is built
 * (and `native`), else one statSync per path. A folder's size (-1) is not compared.
 */
export function freshNow(f: Freshness, native = true): boolean {
  const check = native ? freshCheck() : undefined;
  if (check) {
    try {
      return check.firstStale(f.paths, f.sizes, f.mtimes) < 0;
    } catch {
      // Paths and arrays that differ in length: a damaged manifest.
      return false;
    }
  }
  const paths = manifestPaths(f);
  if (paths.length !== f.sizes.length) return false;
  for (let i = 0; i < paths.length; i++) {
    const st = statSync(paths[i], { throwIfNoEntry: false });
    if (!st || st.mtimeMs !== f.mtimes[i] || (f.sizes[i] >= 0 && st.size !== f.sizes[i])) return false;
  }
  return true;
}

/**
 * Starts the freshness check of a manifest: on the C check's threads when it is built, else now.
 * The answer (whether all paths match) comes from the function returned, which waits for the threads.
 */
function startCheck(m: Freshness): () => boolean {
  const check = freshCheck();
  if (!check) {
    const now = freshNow(m);
    return () => now;
  }
  let handle: object;
  try {
    handle = check.start(m.paths, m.sizes, m.mtimes);
  } catch {
    // Paths and arrays that differ in length: a damaged manifest.
    return () => false;
  }
  return () => check.finish(handle) < 0;
}

/** The manifest file beside the query store in `dir`, when it matches the tree (the store itself is not read); else undefined. */
export function freshManifestIn(dir: string): Freshness | undefined {
  const m = readFreshness(dir, false);
  return m !== undefined && freshNow(m) ? m : undefined;
}

/** Whether two readings of a manifest file say the same: graph, and what sameFreshness compares (stamp, structure, paths, sizes, mtimes). */
export function sameManifestFile(a: Freshness, b: Freshness): boolean {
  const { sizes, mtimes, structure } = b;
  const manifest: Manifest = {
    get paths() {
      return manifestPaths(b);
    },
    sizes, mtimes, structure, pathBytes: b.paths,
  };
  return a.graph === b.graph && sameFreshness(a, b.stamp, manifest);
}

// What a command needs to wait for a watch (see watch-mark.ts), from the query path's entry.
export { awaitWatch, WATCH_GRACE_MS } from './watch-mark.js';

/** The manifest's paths, one string each. */
export function manifestPaths(f: Freshness): string[] {
  return f.sizes.length === 0 ? [] : f.paths.toString('utf8').split('\n');
}

/** The stored graph for queries, if one exists and no Go file in scope changed size or mtime since. */
export function openStore(opts: StoreLocation): GraphStore | undefined {
  const pending = openStorePending(opts);
  return pending?.fresh() ? pending.store : undefined;
}

/**
 * The stored graph for queries with its freshness check still running (on threads of the C check):
 * a query can look up its answer meanwhile and ask fresh() before showing it. A stale store is closed
 * by fresh().
 */
export function openStorePending(opts: StoreLocation): { store: GraphStore; graph: string; fresh(): boolean } | undefined {
  const dir = indexDir(opts);
  // The check starts first, on the manifest as read, uncounted (the C check refuses a damaged one,
  // which is then stale): the store is read and moved while it runs.
  const m = readFreshness(dir, false);
  if (!m) return undefined;
  const finish = startCheck(m);
  const store = readStoreIn(dir);
  const stale = () => {
    store?.close();
    finish();
    return undefined;
  };
  // No store, or a manifest written for another graph (a build stopped between the two files): stale.
  if (!store || !holds(store, m)) return stale();
  if (m.moved) {
    try {
      store.moveLines(storeMoves(m));
      if (m.moved.delta) store.applyDelta(readDelta(m.moved.delta));
    } catch {
      return stale();
    }
  }
  let answer: boolean | undefined;
  return {
    store,
    // The graph the store holds, with the manifest's moves and delta (see holds).
    graph: m.graph,
    fresh() {
      if (answer === undefined) {
        answer = finish();
        if (!answer) store.close();
      }
      return answer;
    },
  };
}

/**
 * Which graph the query store in `dir` holds (undefined: no store of this format), and its manifest
 * file when that file goes with that graph. A store whose manifest has moves for it holds the graph
 * the manifest names (the store's own moved as the moves say).
 */
export function storeState(dir: string): { graph?: string; fresh?: Freshness } {
  // Read, not mapped: only its header is read, and a map lives on until the collector frees its view.
  // In a watch, 57 MB mapped a build counted as V8's external memory and brought on full collections
  // of its heap (a build of about 100 ms took up to a second).
  const store = readStoreIn(dir, 'read');
  store?.close();
  if (!store) return {};
  // Uncounted (see freshnessOf): nothing read of it here relies on its paths' count (its graph, its
  // moves or delta, and sameFreshness, which compares its paths and arrays with a manifest's).
  const m = readFreshness(dir, false);
  return m && holds(store, m) ? { graph: m.graph, fresh: m } : { graph: store.graph };
}

/** The query store in `dir` as a delta is written against (see graph/delta.ts). */
export function storeOnDisk(dir: string): StoreOnDisk {
  const { graph, fresh } = storeState(dir);
  return { base: fresh?.moved?.base ?? graph, holds: fresh ? graph : undefined, moves: fresh?.moved?.moves !== undefined };
}

/** Whether a manifest file holds this stamp and manifest. */
export function sameFreshness(f: Freshness, stamp: string, m: Manifest): boolean {
  const n = m.sizes.length;
  if (f.stamp !== stamp || f.structure !== m.structure || f.sizes.length !== n) return false;
  for (let i = 0; i < n; i++) if (f.sizes[i] !== m.sizes[i] || f.mtimes[i] !== m.mtimes[i]) return false;
  return m.pathBytes === f.paths || f.paths.equals(pathsOf(m));
}

/**
 * The query store in this format, fresh or not (its header only is read), from its file as sections
 * are asked for: each section of 64 KB or more over a private map of its own where the addon is built
 * (see mapped.ts), else (or with `how` 'read') read with pread.
 */
export function readStore(opts: StoreLocation, how: 'map' | 'read' = 'map'): GraphStore | undefined {
  return readStoreIn(indexDir(opts), how);
}

/** The least bytes a read of the query store maps rather than copies. */
const MAP_AT_LEAST = 1 << 16;

function readStoreIn(dir: string, how: 'map' | 'read' = 'map'): GraphStore | undefined {
  const file = join(dir, STORE_FILE);
  try {
    let fd = openSync(file, 'r');
    const map = how === 'map' ? rangeMapper() : undefined;
    // The descriptor stays open until close(): sections are read as needed. A section's map is the
    // page cache's own pages, faulted in as they are touched, where a read copies it into memory the
    // process must first touch (a page's first touch costs more than the copy on the VMs we measure
    // on). Each section is mapped alone: V8 counts a map as external memory, and the whole store
    // (69 MB on v1.28) was past the 64 MB that starts a full collection in every query.
    const bytes: StoreBytes = {
      sections: map !== undefined,
      close() {
        if (fd >= 0) closeSync(fd);
        fd = -1;
      },
      read(offset, length) {
        if (fd < 0) throw new Error('the query store was closed');
        const mapped = map && length >= MAP_AT_LEAST ? map(fd, offset, length) : undefined;
        if (mapped) return mapped;
        const b = Buffer.allocUnsafe(length);
        return b.subarray(0, bytes.readInto!(b, offset));
      },
      readInto(target, offset) {
        if (fd < 0) throw new Error('the query store was closed');
        let done = 0;
        while (done < target.length) {
          const n = readSync(fd, target, done, target.length - done, offset + done);
          if (n === 0) break;
          done += n;
        }
        return done;
      },
    };
    try {
      return new GraphStore(bytes);
    } catch {
      // Another format or a damaged header: no store, and the descriptor is not left open.
      bytes.close!();
      return undefined;
    }
  } catch {
    return undefined;
  }
}

/**
 * Each scanned Go file, then each of their folders once (in the order of their first file), with its
 * size and mtime as `statOf` gives them: passed the absolute path, the index of the file in `files`
 * (for a folder, of its first file) and whether it is the folder. The build passes the scan's stats,
 * taken before the files were read. A file added to or removed from a package dir changes the dir's
 * mtime, which the manifest also records.
 */
export function manifestOf(root: string, files: string[], statOf: (abs: string, file: number, dir: boolean) => Stat): Manifest {
  const dirs = new Map<string, number>();
  files.forEach((f, i) => {
    const dir = manifestDir(f);
    if (!dirs.has(dir)) dirs.set(dir, i);
  });
  const abs = manifestAbs(root);
  const paths: string[] = [];
  const sizes: number[] = [];
  const mtimes: number[] = [];
  // Indexed reads, not a destructured pair (an iterator per read), and a plain loop: this runs once a
  // build over every file (5,187 on v1.28's default scope).
  const add = (p: string, file: number, dir: boolean) => {
    const st = statOf(p, file, dir);
    paths.push(p);
    sizes.push(st[0]);
    mtimes.push(st[1]);
  };
  for (let i = 0; i < files.length; i++) add(abs(files[i]), i, false);
  for (const [dir, first] of dirs) add(abs(dir), first, true);
  return { paths, sizes, mtimes };
}

/** The folder manifestOf lists for a file at `rel` (relative to the root): its path up to the last '/'. */
export function manifestDir(rel: string): string {
  return rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
}

/**
 * A path relative to `root` as manifestOf writes it: as join(root, p) gives it (root is absolute and
 * normalized, p relative; '' is the root itself), where join is the slower part.
 */
export function manifestAbs(root: string): (rel: string) => string {
  const prefix = root.endsWith(sep) ? root : root + sep;
  return (p) => (p === '' ? root : prefix + p);
}

/**
 * The C version of the source stage's stat of many paths (see StatMany in source/snapshot.ts), on the
 * check's threads; undefined when it is not built, and the source stage stats path by path itself.
 */
export function nativeStatAll(): StatMany | undefined {
  const check = freshCheck();
  return check && ((root, rels, count) => check.statAll(Buffer.from(rels), count, root));
}

interface FreshCheck {
  /** Index of a path whose size or mtime differs from the manifest's (or that is gone), else -1. */
  firstStale(paths: Buffer, sizes: Float64Array, mtimes: Float64Array): number;
  /** The same check on threads of its own; finish(handle) waits for it and answers as firstStale. */
  start(paths: Buffer, sizes: Float64Array, mtimes: Float64Array): object;
  finish(handle: object): number;
  /** Four numbers per path (size, mtimeMs, ctimeMs, ino), as Stat in source/tree.ts. */
  statAll(paths: Buffer, count: number, root: string): Float64Array;
}

let addon: FreshCheck | null | undefined;

/** Whether the C freshness test is in use (else the statSync loop). */
export function nativeFreshCheckInUse(): boolean {
  return freshCheck() !== undefined;
}

/**
 * The freshness test in C (src/parse/native/fresh_check.c, built with the parser addon): one stat()
 * per path on a few threads, where statSync also builds a Stats object and its Dates, about four times
 * the cost. Absent when the addon was not built or KUBELET_ATLAS_NATIVE=0; the loop above is the same test.
 */
function freshCheck(): FreshCheck | undefined {
  if (addon === undefined) addon = loadAddon<FreshCheck>('fresh_check') ?? null;
  return addon ?? undefined;
}
