/**
 * `index --watch`: one process that keeps the index up to date while the tree is edited. It builds
 * once, then watches the folders of the scope's packages and the root (for go.mod), and builds again
 * shortly after a Go file (or go.mod) there changes. A build in a process that keeps running is about
 * half as dear as the same build in a fresh one: the code is compiled and the heap is grown already.
 *
 * What changed is found by the build itself: each path's stat against the last scan (see
 * source/snapshot.ts). When every event since the last build named a file, the build stats only those
 * files (on v1.28's default scope, one stat for an edit of one file instead of 12,060: about 15 ms
 * less per edit), and takes every other path as the last scan found it. An event that is missed
 * costs no more than a wait: a while
 * after such a build (WATCH_VERIFY_MS, when no other event came) the watch builds again statting
 * every path, which finds any change the events did not name, and prints nothing when there is none.
 * The watched folders are read from the manifest the build writes beside the query store, again after
 * every build that resolved (only those can change the scope).
 *
 * While it runs, the watch keeps a mark in the index folder (see watch-mark.ts): whether it is building,
 * and how many builds it finished. The other commands on the index wait for it rather than build
 * beside it, and a second watch on the same index is refused.
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { manifestPaths, readFreshness } from './stored.js';
import { PackMemo } from './cache.js';
import { collectYoung } from './young.js';
import { readWatchMark, removeWatchMark, writeWatchMark } from './watch-mark.js';
import type { IndexOptions, IndexResult } from './build.js';

export interface WatchOptions extends IndexOptions {
  /** How long after the last event a build starts (default WATCH_DEBOUNCE_MS): an editor's save is often several events. */
  debounceMs?: number;
  /** How long after a build that took the events' word (see fromEvents) the watch checks every path (default WATCH_VERIFY_MS). */
  verifyMs?: number;
  /** Stops the watch: the watchers are closed and `closed` resolves. */
  signal?: AbortSignal;
  /**
   * Stops the watch once this long has passed since its last build or warm-up ended with no change
   * seen since (a watch started in the background: see cli/background.ts); `onIdle` is told first.
   * Without it, the watch runs until stopped.
   */
  idleMs?: number;
  onIdle?: () => void;
  /** After each build, with what it did. */
  onBuild: (report: WatchBuild) => void;
  /** A build that failed (a go.mod gone, a folder unreadable): the watch goes on, and builds again at the next change. */
  onError: (err: Error) => void;
  /**
   * After the watch tried to keep the stored graph's resolution, when its first build found the graph
   * stored, or rehearsed the resolution its first build made (see warmIndex): how long that took, and
   * whether it kept one.
   */
  onWarm?: (report: { ms: number; kept: boolean }) => void;
}

export interface WatchBuild {
  result: IndexResult;
  /** The build's own time. */
  ms: number;
  /** From the first event the build answers to, to its end (undefined for the first build). */
  sinceEvent?: number;
  /**
   * The paths the events named, and the files the build found changed when they named none of them
   * (a check of every path can take in an edit whose event comes after it), relative to the root,
   * sorted; empty for the first build.
   */
  touched: string[];
  /** Whether the build found anything changed (a file parsed again, the graph resolved), or follows a build that failed. */
  changed: boolean;
  /** How many folders are watched after the build. */
  watching: number;
  /** Whether the build was told that only the files the events named can have changed (a check of every path follows it; see the top of this file). */
  fromEvents: boolean;
}

export interface IndexWatch {
  /** Resolves once the watch has stopped (its signal aborted, or close called). */
  closed: Promise<void>;
  close(): void;
}

/** The wait after the last event before a build, in ms. */
export const WATCH_DEBOUNCE_MS = 20;

/** The wait after a build that stat'd only the files the events named before a build that stats every path, in ms. */
export const WATCH_VERIFY_MS = 300;

/** A watch that cannot be set up at all (the first build is not one: it is passed to onError). */
export class WatchError extends Error {}

/** Names whose change can change the index: Go files and the module file (and unnamed events, to be safe). */
function relevant(name: string | null): boolean {
  return name === null || name.endsWith('.go') || name === 'go.mod';
}

/** The folders to watch: each scope package's folder (a file's folder in the manifest), and the root. */
function foldersOf(opts: IndexOptions, dir: string): Set<string> {
  const out = new Set<string>([opts.root]);
  const fresh = readFreshness(dir);
  if (!fresh) return out;
  for (const p of manifestPaths(fresh)) if (p.endsWith('.go')) out.add(dirname(p));
  return out;
}

/**
 * Watches the tree of `opts.root` and keeps its index built with `build` (the indexer's buildIndex;
 * a parameter so that the watching can be tested on its own). The first build runs at once.
 */
export function watchWith(build: (opts: IndexOptions) => IndexResult, dir: string, opts: WatchOptions, warm?: (opts: IndexOptions) => 'made' | 'rehearsed' | 'had' | 'none'): IndexWatch {
  const debounce = opts.debounceMs ?? WATCH_DEBOUNCE_MS;
  const verifyMs = opts.verifyMs ?? WATCH_VERIFY_MS;
  // Each build reads the state and the snapshot the one before wrote: kept decoded in between.
  // The writes no query reads, which a build hands over (see IndexOptions.defer): done after its report.
  const later: (() => void)[] = [];
  const buildOpts: IndexOptions = { ...opts, memo: opts.memo ?? new PackMemo(), defer: (task) => later.push(task) };
  const watchers = new Map<string, FSWatcher>();
  const touched = new Set<string>();
  let firstEvent: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** The check of every path that follows a build which took the events' word. */
  let verifier: NodeJS.Timeout | undefined;
  /** An event since the last build named no file (a folder's, or an error): the next build stats every path. */
  let unnamed = false;
  let stopped = false;
  let refresh = true;
  /** The last build failed: the next one that works is news even if it finds the index as it was. */
  let failing = false;
  let done!: () => void;
  const closed = new Promise<void>((r) => (done = r));
  /** Builds and warm-ups finished, as the mark counts them. */
  let builds = 0;
  /** The mark says whether the watch is busy; it only tells other commands, so a write that fails is let go. */
  const mark = (busy: boolean, warming = false) => {
    try {
      writeWatchMark(dir, { busy, builds, warming });
    } catch {
      // A command that finds no mark builds the index itself, as it would with no watch.
    }
  };
  /** Stops an idle watch (see WatchOptions.idleMs): armed when a build or warm-up ends, disarmed by an event. */
  let idleTimer: NodeJS.Timeout | undefined;
  const idle = () => {
    builds++;
    if (stopped) return;
    mark(false);
    if (opts.idleMs !== undefined && !timer) {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        idleTimer = undefined;
        if (stopped || timer) return;
        opts.onIdle?.();
        close();
      }, opts.idleMs);
    }
  };

  const close = () => {
    if (stopped) return;
    stopped = true;
    try {
      removeWatchMark(dir);
    } catch {
      // Left behind, it names a process that is gone: no mark.
    }
    finishWrites();
    if (timer) clearTimeout(timer);
    if (verifier) clearTimeout(verifier);
    if (idleTimer) clearTimeout(idleTimer);
    for (const w of watchers.values()) w.close();
    watchers.clear();
    done();
  };

  const schedule = () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    // The build this schedules checks what the events named; if it takes their word, a check follows it.
    if (verifier) clearTimeout(verifier);
    verifier = undefined;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    timer = setTimeout(() => runBuild(), debounce);
  };

  const onEvent = (folder: string, name: string | null) => {
    if (!relevant(name)) return;
    firstEvent ??= performance.now();
    if (name === null) unnamed = true;
    const rel = relative(opts.root, name === null ? folder : `${folder}${sep}${name}`);
    touched.add(rel === '' ? '.' : rel.split(sep).join('/'));
    schedule();
  };

  /** Watches `want` and nothing else; a folder that cannot be watched (gone since) is left out and a build follows. */
  const rewatch = (want: Set<string>) => {
    for (const [folder, w] of watchers) {
      if (want.has(folder)) continue;
      w.close();
      watchers.delete(folder);
    }
    for (const folder of want) {
      if (watchers.has(folder)) continue;
      let w: FSWatcher;
      try {
        w = watch(folder, { persistent: true }, (_event, name) => onEvent(folder, typeof name === 'string' ? name : null));
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'ENOSPC' || e.code === 'EMFILE') {
          throw new WatchError(`cannot watch ${want.size} folders: the system's limit on watches is reached (${e.code}; on Linux raise fs.inotify.max_user_watches)`);
        }
        // Gone or unreadable: the next build finds out why, and the scope says whether it is still wanted.
        refresh = true;
        continue;
      }
      // A folder removed or renamed: stop watching it; the build that follows says whether it is still in scope.
      w.on('error', () => {
        w.close();
        if (watchers.get(folder) === w) watchers.delete(folder);
        refresh = true;
        onEvent(folder, null);
      });
      watchers.set(folder, w);
    }
  };

  /**
   * The rest of the last build's writes. One that fails is reported; the next build, which finds the
   * state behind the tree, builds as after any edit.
   */
  const finishWrites = () => {
    for (const task of later.splice(0)) {
      try {
        task();
      } catch (err) {
        refresh = true;
        failing = true;
        opts.onError(err as Error);
        later.length = 0;
        return;
      }
    }
  };

  /** One build and what follows it. The first build's error is thrown (the watch does not start); later ones go to onError. */
  const runBuild = (first = false, verify = false) => {
    timer = undefined;
    verifier = undefined;
    if (stopped) return;
    const names = [...touched].sort();
    const since = firstEvent;
    // The events' word is taken when each named a file, the last build worked and no folder is to be
    // watched anew (a folder watched since the last scan may have changed before its watch began).
    const fromEvents = !first && !verify && !unnamed && !failing && !refresh && names.length > 0 && !names.includes('.');
    touched.clear();
    firstEvent = undefined;
    unnamed = false;
    mark(true);
    try {
      buildAndReport(first, fromEvents, names, since);
    } finally {
      idle();
    }
  };

  const buildAndReport = (first: boolean, fromEvents: boolean, names: string[], since: number | undefined) => {
    // Writes the last build left (none, unless its report threw) come first.
    finishWrites();
    const t = performance.now();
    let result: IndexResult;
    try {
      result = build(fromEvents ? { ...buildOpts, onlyChanged: names.map((n) => n.split('/').join(sep)) } : buildOpts);
    } catch (err) {
      if (first) throw err;
      refresh = true;
      failing = true;
      opts.onError(err as Error);
      return;
    }
    const end = performance.now();
    const changed = failing || !(result.fromCache && !result.cutOff && result.files.parsed === 0);
    failing = false;
    // Only a build that resolved can have changed which packages are in scope, and not one that resolved
    // in part: the kept resolution takes an edit only when the files and packages are the ones it had
    // (reading the manifest's 12,000 paths again took 9 ms of each such edit on v1.28).
    if (refresh || (!result.fromCache && !result.cutOff && !result.incremental)) {
      refresh = false;
      try {
        rewatch(foldersOf(opts, dir));
      } catch (err) {
        if (first) throw err;
        opts.onError(err as Error);
        close();
        return;
      }
    }
    if (fromEvents) verifier = setTimeout(() => runBuild(false, true), verifyMs);
    const found = first ? [] : (result.changed ?? []).filter((p) => !names.includes(p));
    opts.onBuild({ result, ms: end - t, sinceEvent: since === undefined ? undefined : end - since, touched: found.length ? [...names, ...found].sort() : names, changed, watching: watchers.size, fromEvents });
    finishWrites();
    // Reported: the young generation is emptied while the watch waits (see collectYoung).
    setImmediate(collectYoung);
  };

  if (opts.signal?.aborted) close();
  else {
    const other = readWatchMark(dir);
    if (other) throw new WatchError(`another watch (process ${other.pid}) keeps this index up to date; stop it first (queries and builds wait for it meanwhile)`);
    try {
      runBuild(true);
    } catch (err) {
      close();
      throw err;
    }
    opts.signal?.addEventListener('abort', close, { once: true });
    // A first build that found the graph stored resolved nothing: the resolution is made now, before
    // the first edit asks for it, unless an edit came first (its build resolves, and keeps it). One
    // that resolved kept its resolution: its updates are rehearsed now (see rehearse.ts).
    if (warm) {
      setImmediate(() => {
        if (stopped || timer) return;
        const t = performance.now();
        mark(true, true);
        try {
          const kept = warm(buildOpts);
          if (kept !== 'had') opts.onWarm?.({ ms: performance.now() - t, kept: kept === 'made' || kept === 'rehearsed' });
        } catch (err) {
          opts.onError(err as Error);
        } finally {
          idle();
        }
      });
    }
  }
  return { closed, close };
}
