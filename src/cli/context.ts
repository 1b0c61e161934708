/** Shared option handling: where the tree is, the build context, the cache, and loading the index. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { BuildContext } from '../model/index.js';
// The light files of source/, not its entry: a query must not load the tree scanner and the fetcher.
import { defaultBuildContext } from '../source/context.js';
import { defaultCacheDir, resolveSourceDir } from '../source/locate.js';
import { SourceError } from '../source/errors.js';
import type { Scope } from '../source/types.js';
import type { Concurrency, IndexOptions, IndexResult } from '../index/build.js';
import { awaitWatch, freshManifestIn, indexDir, openStorePending, WATCH_GRACE_MS, type Freshness } from '../index/stored.js';
import { GraphView, SymbolTable } from '../graph/index.js';
import { UserError } from './errors.js';
import { BACKGROUND_ENV, backgroundFromEnv, keepInBackground } from './background.js';

export interface CommonOptions {
  source?: string;
  goos?: string;
  goarch?: string;
  tags?: string;
  scope?: string;
  cacheDir?: string;
  ref?: string;
  json?: boolean;
}

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** Stops a long-running command (`index --watch`); without it, the command stops at SIGINT or SIGTERM. */
  stop?: AbortSignal;
}

export function buildContext(o: CommonOptions): BuildContext {
  return defaultBuildContext({
    goos: o.goos ?? 'linux',
    goarch: o.goarch ?? 'amd64',
    tags: (o.tags ?? '').split(',').map((t) => t.trim()).filter(Boolean),
  });
}

export function cacheDirOf(o: CommonOptions, io: Io): string {
  return o.cacheDir ?? defaultCacheDir(io.env);
}

/** --source, else KUBELET_ATLAS_SOURCE, else the pinned release cloned into the cache. */
export async function sourceDir(o: CommonOptions, io: Io): Promise<string> {
  const dir = resolveSourceDir({ source: o.source, env: io.env });
  if (dir) {
    if (!existsSync(dir)) throw new UserError(`source folder ${dir} does not exist`, 2, 'pass --source DIR pointing at a Kubernetes checkout, or omit it to clone the pinned release');
    return dir;
  }
  io.err(`no --source given and KUBELET_ATLAS_SOURCE is not set: using the pinned release ${o.ref ?? 'v1.28.0'}\n`);
  const { fetchRelease } = await import('../source/index.js');
  return fetchRelease({ ref: o.ref, cacheDir: join(cacheDirOf(o, io), 'src'), onProgress: (l) => io.err(`${l}\n`) });
}

export interface Loaded {
  result: IndexResult;
  table: SymbolTable;
  view: GraphView;
  root: string;
}

function scopeOf(o: CommonOptions): Scope {
  const scope = (o.scope ?? 'default') as Scope;
  if (scope !== 'default' && scope !== 'all') throw new UserError(`--scope must be 'default' or 'all', not '${o.scope}'`);
  return scope;
}

export interface Queries {
  table: SymbolTable;
  view: GraphView;
  root: string;
  /** The graph's goroutine starts and channel operations (only for a withQueries asked for them). */
  concurrency(): Concurrency;
}

/** Thrown by Queries.concurrency when the index folder's graph file is not the store's graph: the query runs again after a build. */
class NotStored extends Error {}

/** Thrown by Queries.concurrency when the store does not keep them and the indexer's code is not loaded: the query runs again with it. */
class NeedsIndexer extends Error {}

/**
 * Runs one of the one-shot queries (show, callers, callees, path, search, goroutines, channels) on the
 * on-disk query store, so neither the parser nor the whole graph is loaded (goroutines and channels
 * read the store's sections that hold them or a watch's delta, else the graph file's). The store's
 * freshness check runs on threads while `fn` looks up its answer; the answer is printed only if the
 * store was fresh. Otherwise (or with no store) the index is rebuilt, which writes the store, and `fn`
 * runs again on it. `fn` prints through `out`; the store is closed afterwards (main() can run many
 * commands in one process).
 */
export async function withQueries<T>(o: CommonOptions, io: Io, fn: (q: Queries, out: (s: string) => void) => T): Promise<T> {
  const root = await sourceDir(o, io);
  const location = { root, ctx: buildContext(o), scope: scopeOf(o), cacheDir: cacheDirOf(o, io) };
  // The store keeps the goroutines and channels, and so does a watch's delta when they changed; with
  // a delta that does not say (written before deltas carried them), the graph file has them, read by
  // the indexer's code, loaded only then.
  let built: typeof import('../index/build.js') | undefined;
  const fromStore = () => withoutOptimizingCompiler(() => {
    const pending = openStorePending(location);
    if (!pending) return undefined;
    const printed: string[] = [];
    let result: { value: T } | { error: unknown };
    const concurrency = (): Concurrency => {
      const own = pending.store.concurrency();
      if (own) return own;
      if (!built) throw new NeedsIndexer();
      const c = built.storedConcurrency(indexDir(location), pending.graph);
      if (!c) throw new NotStored();
      return c;
    };
    try {
      result = { value: fn({ table: new SymbolTable(pending.store), view: new GraphView(pending.store), root, concurrency }, (s) => printed.push(s)) };
    } catch (error) {
      result = { error };
    }
    const stale = !pending.fresh() || ('error' in result && result.error instanceof NotStored);
    pending.store.close();
    if (stale) return undefined;
    if ('error' in result) {
      if (result.error instanceof NeedsIndexer) return 'indexer' as const;
      throw result.error;
    }
    // One write: a call tree is hundreds of lines, and each write to a pipe or file is a system call.
    if (printed.length) io.out(printed.join(''));
    return result;
  });
  /** fromStore, with the indexer's code loaded and the query run again when the store alone could not answer. */
  const answer = async () => {
    const first = fromStore();
    if (first !== 'indexer') return first;
    built = await import('../index/build.js');
    const again = fromStore();
    return again === 'indexer' ? undefined : again;
  };
  const answered = await answer();
  if (answered) {
    await backgroundAsked(o, io, root);
    return answered.value;
  }
  // The build writes a fresh store, which answers as above without decoding the whole graph (a build
  // that reused the stored graph has not decoded it). Only if it cannot be read does the graph answer.
  const { result } = await indexResult(o, io, false, root);
  await backgroundAsked(o, io, root);
  const again = await answer();
  if (again) return again.value;
  return fn({ table: new SymbolTable(result.graph.symbols), view: new GraphView(result.graph), root, concurrency: () => result.concurrency }, io.out);
}

/**
 * Runs `fn` with V8's optimizing compiler off. A query from the store is over in tens of milliseconds,
 * too soon for optimized code to pay off, and a compile started on a background thread holds the
 * process's exit until it finishes (node waits for V8's background tasks): the on-stack replacement
 * of `path`'s search loop held it 8-34 ms, measured (`--no-use-osr` alone also avoided it). The flag is
 * process-wide (worker threads read it too), so it is back on before anything is built.
 */
function withoutOptimizingCompiler<T>(fn: () => T): T {
  setFlagsFromString('--no-turbofan');
  optimizing = false;
  try {
    return fn();
  } finally {
    setFlagsFromString('--turbofan');
    optimizing = true;
  }
}

/** Whether V8's optimizing compiler is on (see withoutOptimizingCompiler). */
let optimizing = true;

/**
 * Runs `fn` with V8's optimizing compiler on, when a query had turned it off: for the work of a query
 * that can be long, measuring every symbol's name against a mistyped one (86,868 IDs on v1.28:
 * 215-440 ms without it, 125-170 ms with it, whole commands) or a search for a text most records hold
 * (`search kind`: 490 -> 405 ms; `search evict`, which parses a few records, stays at 185 ms).
 */
export function withOptimizingCompiler<T>(fn: () => T): T {
  if (optimizing) return fn();
  setFlagsFromString('--turbofan');
  try {
    return fn();
  } finally {
    setFlagsFromString('--no-turbofan');
  }
}

/**
 * What a build of the index needs from the options: the tree, the context, the scope, the cache, and
 * with `progress` a progress bar on a terminal. `known`: the source folder, if already found.
 */
export async function indexOptions(o: CommonOptions, io: Io, progress = false, known?: string): Promise<IndexOptions> {
  const root = known ?? (await sourceDir(o, io));
  const scope = scopeOf(o);
  let last = 0;
  const onProgress = progress && io.isTTY
    ? (done: number, total: number) => {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      const width = 30;
      const fill = Math.round((done / total) * width);
      io.err(`\rparsing [${'#'.repeat(fill)}${' '.repeat(width - fill)}] ${done}/${total}`);
      if (done === total) io.err('\n');
    }
    : undefined;
  return { root, ctx: buildContext(o), scope, cacheDir: cacheDirOf(o, io), onProgress };
}

/**
 * The index built or refreshed, with the progress bar: its graph decoded only if read (`index` reads
 * the summary). `watch`: the process of the index watch that had just taken the tree in, when the
 * index is read as it left it.
 */
export async function buildIndexResult(o: CommonOptions, io: Io, known?: string): Promise<{ result: IndexResult; watch?: number }> {
  const { result, watch } = await indexResult(o, io, true, known);
  return { result, watch };
}

export async function loadIndex(o: CommonOptions, io: Io, progress = false): Promise<Loaded> {
  const { result, root } = await indexResult(o, io, progress);
  await backgroundAsked(o, io, root);
  // Made when first read: `callgraph` reads neither.
  let table: SymbolTable | undefined;
  let view: GraphView | undefined;
  return {
    result,
    root,
    get table() {
      return (table ??= new SymbolTable(result.graph.symbols));
    },
    get view() {
      return (view ??= new GraphView(result.graph));
    },
  };
}

/**
 * With KUBELET_ATLAS_BACKGROUND set, a watch kept in the background on the index of `root` (see
 * background.ts), started after the command's own work when none runs, and said so on stderr.
 */
async function backgroundAsked(o: CommonOptions, io: Io, root: string): Promise<void> {
  if (!io.env[BACKGROUND_ENV]) return;
  const minutes = backgroundFromEnv(io.env);
  if (minutes === undefined) return;
  const cacheDir = cacheDirOf(o, io);
  const kept = await keepInBackground(o, io, root, cacheDir, indexDir({ root, ctx: buildContext(o), scope: scopeOf(o), cacheDir }), minutes);
  if ('started' in kept) io.err(`kubelet-atlas: the index is kept up to date in the background by process ${kept.started} (${BACKGROUND_ENV}=${minutes}; log: ${kept.log})\n`);
}

/**
 * The index, built or refreshed as needed; its graph is decoded only when read. `known`: the source
 * folder, if already found. When an `index --watch` keeps this index, the watch is waited for (see
 * index/watch-mark.ts): once it has taken in the tree as it is, the index is read as it left it.
 */
async function indexResult(o: CommonOptions, io: Io, progress = false, known?: string): Promise<{ result: IndexResult; root: string; watch?: number }> {
  const options = await indexOptions(o, io, progress, known);
  const watched = await waitForWatch(indexDir(options), io);
  try {
    // `index` builds: every file whose stat moved since the last scan is read and hashed again (see
    // source/snapshot.ts). Queries trust the store when no file's size or mtime moved, as does `index`
    // when a watch has just taken the tree in (it read and hashed what moved); the manifest the wait
    // found matching the tree is not checked against it again.
    const { buildIndex, loadIndex: loadStoredIndex } = await import('../index/build.js');
    const result = progress && !watched ? buildIndex(options) : loadStoredIndex(options, watched?.checked);
    return { result, root: options.root, watch: watched && result.fromCache ? watched.pid : undefined };
  } catch (err) {
    if (err instanceof SourceError) throw new UserError(err.message, 2, err.hint);
    throw err;
  }
}

/**
 * Waits for a watch that keeps the index in `dir`, saying so on stderr when the wait is long or ends
 * without it; when the watch left the index up to date with the tree, its process and the manifest
 * file found matching the tree.
 */
async function waitForWatch(dir: string, io: Io): Promise<{ pid: number; checked?: Freshness } | undefined> {
  // The manifest file the last check found matching the tree.
  let checked: Freshness | undefined;
  const waited = await awaitWatch(dir, () => (checked = freshManifestIn(dir)) !== undefined, {
    onWait: (m) => io.err(`kubelet-atlas: waiting for the index watch (process ${m.pid}) to take in the tree's changes\n`),
  });
  if (waited.ended === 'behind') {
    io.err(`kubelet-atlas: the index watch (process ${waited.mark.pid}) left the index behind the tree for ${WATCH_GRACE_MS / 1000} s (a change it does not watch?); building here\n`);
  } else if (waited.ended === 'limit') {
    io.err(`kubelet-atlas: the index watch (process ${waited.mark.pid}) is still building after ${Math.round(waited.ms / 1000)} s; building here\n`);
  }
  return waited.ended === 'fresh' ? { pid: waited.mark.pid, checked } : undefined;
}

/** Resolves a symbol argument or fails with candidates / suggestions. */
export function symbolArg(table: SymbolTable, query: string): string {
  const r = table.lookup(query);
  if (r.ok) return r.symbol.id;
  if (r.reason === 'ambiguous') {
    throw new UserError(`'${query}' is ambiguous; candidates:\n${r.candidates.slice(0, 20).map((c) => `  ${c}`).join('\n')}`, 2);
  }
  const near = withOptimizingCompiler(() => r.candidates);
  const hint = near.length ? `did you mean:\n${near.map((c) => `  ${c}`).join('\n')}` : undefined;
  throw new UserError(`unknown symbol '${query}'`, 2, hint);
}
