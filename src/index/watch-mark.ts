/**
 * The mark a running `index --watch` keeps in its index folder (`watch.json`), so that the other
 * commands on the same index wait for the watch instead of building beside it. A query right after an
 * edit used to find the store stale and build the index itself, in parallel with the watch: after a
 * function was edited, that meant resolving the whole program again (some 11 s on v1.28's default
 * scope), where the watch resolves again only what the edit can change (a few hundred ms).
 *
 * The mark names the watch's process (pid, host and, where /proc tells it, when the process started),
 * says whether it is building (or making its resolution ready: see warmIndex) and counts the builds
 * it finished. It is written (atomically) when a build starts and when it ends, and removed when the
 * watch stops. A mark whose process is gone (a watch killed outright) or is another process that got
 * its pid since, made on another host (a cache folder shared over the network) or that cannot be read
 * is no mark.
 *
 * Only node:fs and node:os: the query path loads this.
 */
import { readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { alive, writeBytes } from './atomic.js';

export const WATCH_MARK_FILE = 'watch.json';

export interface WatchMark {
  pid: number;
  host: string;
  /** When the process started, in the kernel's clock ticks since boot (Linux: see startOf). */
  start?: number;
  /** Building, or making its resolution ready: a change it has seen is not in the index yet. */
  busy: boolean;
  /**
   * Busy only making its resolution ready (see warmIndex), which changes nothing in the index: a
   * waiting command that finds the index up to date goes on (absent in older marks: false).
   */
  warming?: boolean;
  /** How many builds (and warm-ups) it finished: a waiting command checks the index again when this moves. */
  builds: number;
}

/** This process as a mark names it: the same for every mark it writes (two per build), so read once. */
let thisProcess: Pick<WatchMark, 'pid' | 'host' | 'start'> | undefined;

/** Writes the mark of this process's watch. */
export function writeWatchMark(dir: string, mark: Pick<WatchMark, 'busy' | 'builds' | 'warming'>): void {
  thisProcess ??= { pid: process.pid, host: hostname(), start: startOf('self') };
  const full: WatchMark = { ...thisProcess, busy: mark.busy, builds: mark.builds, ...(mark.warming ? { warming: true } : {}) };
  writeBytes(join(dir, WATCH_MARK_FILE), Buffer.from(JSON.stringify(full) + '\n'));
}

/** Removes the mark if this process wrote it (a watch started since in another process keeps its own). */
export function removeWatchMark(dir: string): void {
  const file = join(dir, WATCH_MARK_FILE);
  const mark = markIn(file);
  if (mark?.pid === process.pid && mark.host === hostname()) rmSync(file, { force: true });
}

/** The mark of a watch that is running on this host, or undefined. */
export function readWatchMark(dir: string): WatchMark | undefined {
  const mark = markIn(join(dir, WATCH_MARK_FILE));
  if (!mark || mark.host !== hostname() || !alive(mark.pid)) return undefined;
  // A start that cannot be read now (no /proc) does not tell the process apart.
  const start = mark.start === undefined ? undefined : startOf(mark.pid);
  return start === undefined || start === mark.start ? mark : undefined;
}

/**
 * When process `pid` started, in clock ticks since boot, from /proc (Linux); undefined where it cannot
 * be read. A pid given to another process later does not come with the same start: a watch killed
 * during a build leaves a busy mark, which would otherwise hold queries for as long as that process lives.
 */
function startOf(pid: number | 'self'): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command's name, in brackets, may hold spaces: the start is the 20th field after it.
    const start = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isInteger(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

function markIn(file: string): WatchMark | undefined {
  let m: Partial<WatchMark>;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Partial<WatchMark>;
  } catch {
    return undefined;
  }
  if (!m || !Number.isInteger(m.pid) || m.pid! <= 0 || typeof m.host !== 'string' || typeof m.busy !== 'boolean' || !Number.isInteger(m.builds)) return undefined;
  if (m.start !== undefined && !Number.isInteger(m.start)) return undefined;
  if (m.warming !== undefined && typeof m.warming !== 'boolean') return undefined;
  return m as WatchMark;
}

/**
 * How a wait for a watch ended: there was none ('none'), the index was found up to date ('fresh'),
 * the watch stopped ('gone'), it stayed idle for the grace period with the index still behind the
 * tree ('behind': a change it does not see, such as a file outside the folders it watches), or the
 * wait reached its limit ('limit').
 */
export type WatchWait = { ended: 'none' } | { ended: 'fresh' | 'gone' | 'behind' | 'limit'; mark: WatchMark; ms: number };

export interface WatchWaitOptions {
  /** How long the watch may stay idle while the index is behind before the wait gives up (default WATCH_GRACE_MS). */
  graceMs?: number;
  /**
   * How often the mark is read (default 5 ms: a read is a small file and /proc's line for the watch,
   * some 20 µs, and a command after an edit waits for the build's end, 2.3 ms on average against 9.1
   * at 20 ms). The index is checked when a build ends, and every 100 ms while the watch is idle.
   */
  pollMs?: number;
  /** The longest wait (default 10 minutes: a watch's first build of a new tree takes about a minute). */
  limitMs?: number;
  /** Told once, when the wait has lasted `tellAfterMs` (default 300 ms). */
  onWait?: (mark: WatchMark) => void;
  tellAfterMs?: number;
}

/**
 * How long an idle watch has to start a build for a change the index is behind (its events come
 * within milliseconds, and it builds WATCH_DEBOUNCE_MS after the last one).
 */
export const WATCH_GRACE_MS = 1000;

/** How often the tree is checked against the index while an idle watch is waited for, in ms. */
const CHECK_EVERY_MS = 100;

/**
 * Waits for the watch running on the index in `dir`, if any, until `fresh()` (the index matches the
 * tree) holds while the watch is idle or only warming (see WatchMark.warming). `fresh` is never asked
 * while the watch builds.
 */
export async function awaitWatch(dir: string, fresh: () => boolean, opts: WatchWaitOptions = {}): Promise<WatchWait> {
  let mark = readWatchMark(dir);
  if (!mark) return { ended: 'none' };
  const grace = opts.graceMs ?? WATCH_GRACE_MS;
  const poll = opts.pollMs ?? 5;
  const limit = opts.limitMs ?? 600_000;
  const tellAfter = opts.tellAfterMs ?? 300;
  const start = performance.now();
  let idleSince: number | undefined;
  let checked: { builds: number; at: number } | undefined;
  let told = false;
  const end = (ended: 'fresh' | 'gone' | 'behind' | 'limit', m: WatchMark) => ({ ended, mark: m, ms: performance.now() - start });
  for (;;) {
    const now = performance.now();
    if (mark.busy && mark.warming) {
      // Its warm-up changes nothing in the index: up to date now, it stays so (a change it sees is
      // built after the warm-up, and is waited for as any build).
      if (!checked || checked.builds !== mark.builds || now - checked.at >= CHECK_EVERY_MS) {
        checked = { builds: mark.builds, at: now };
        if (fresh()) return end('fresh', mark);
      }
      idleSince = undefined;
    } else if (!mark.busy) {
      idleSince ??= now;
      if (!checked || checked.builds !== mark.builds || now - checked.at >= CHECK_EVERY_MS) {
        checked = { builds: mark.builds, at: now };
        if (fresh()) return end('fresh', mark);
      }
      if (now - idleSince >= grace) return end('behind', mark);
    } else idleSince = undefined;
    if (now - start >= limit) return end('limit', mark);
    if (!told && now - start >= tellAfter) {
      told = true;
      opts.onWait?.(mark);
    }
    await new Promise((r) => setTimeout(r, poll));
    const next = readWatchMark(dir);
    if (!next) return end('gone', mark);
    // A build finished since: the grace starts again from its end.
    if (next.builds !== mark.builds) idleSince = undefined;
    mark = next;
  }
}
