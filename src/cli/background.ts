/**
 * A watch kept in the background (`index --background MINUTES`, or KUBELET_ATLAS_BACKGROUND for every
 * command that reads the index): a detached `index --watch --idle-exit MINUTES` on the same index, as
 * a build server keeps its analysis between commands. Only a running process keeps a resolution (see
 * resolve/session.ts): without one, the first command after an edit of a function resolves the whole
 * scope again (some 9 s on v1.28's default scope); with one, the watch takes the edit in part as soon
 * as it is saved, and the command waits for it (see index/watch-mark.ts) and reads what it wrote. The
 * watch stops by itself once MINUTES pass with no change, and its output goes to `background.log` in
 * the index folder.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readWatchMark, type WatchMark } from '../index/watch-mark.js';
import { UserError } from './errors.js';
import type { CommonOptions, Io } from './context.js';

/** The variable that keeps a watch in the background for every command that reads the index: its value is the minutes. */
export const BACKGROUND_ENV = 'KUBELET_ATLAS_BACKGROUND';

/** The watch's output, in the index folder. */
export const BACKGROUND_LOG = 'background.log';

/** Minutes as `--background` and `--idle-exit` take them (a positive number); `from` names the option for the error. */
export function minutesOf(value: string, from: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new UserError(`${from} takes a number of minutes greater than 0, not '${value}'`, 2);
  return n;
}

/** The minutes KUBELET_ATLAS_BACKGROUND asks for, or undefined when it is unset, empty or 0. */
export function backgroundFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const v = env[BACKGROUND_ENV];
  if (v === undefined || v.trim() === '' || v.trim() === '0') return undefined;
  return minutesOf(v, BACKGROUND_ENV);
}

export type Background = { started: number; log: string } | { running: WatchMark } | { failed: string };

/**
 * Starts a watch in the background on the index in `dir` (made from `o` and `root`) unless one runs
 * there already. With `waitMs`, waits that long at most for the watch's mark, so that what is returned
 * is known: a watch that stopped at once (another one got there first, a build that failed) is
 * `failed`, with the last line of its log.
 */
export async function keepInBackground(o: CommonOptions, io: Io, root: string, cacheDir: string, dir: string, minutes: number, waitMs = 0): Promise<Background> {
  const running = readWatchMark(dir);
  if (running) return { running };
  // Required here, not imported: node:child_process (with the stream and net modules under it) costs
  // every command's start some milliseconds, and only this one needs it.
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const bin = fileURLToPath(new URL('../../../bin/kubelet-atlas.cjs', import.meta.url));
  const args = ['index', '--watch', '--idle-exit', String(minutes), '--source', resolve(root), '--cache-dir', resolve(cacheDir), '--scope', o.scope ?? 'default'];
  if (o.goos) args.push('--goos', o.goos);
  if (o.goarch) args.push('--goarch', o.goarch);
  if (o.tags) args.push('--tags', o.tags);
  const log = join(dir, BACKGROUND_LOG);
  let exited: number | undefined;
  let child;
  try {
    const fd = openSync(log, 'w');
    try {
      // The bin's own sizing of a watch's young generation (see bin/kubelet-atlas.cjs), without its
      // parent process: this one is gone long before the watch.
      child = spawn(process.execPath, ['--max-semi-space-size=64', bin, ...args], {
        detached: true,
        stdio: ['ignore', fd, fd],
        env: { ...io.env, KUBELET_ATLAS_WATCH_CHILD: '1', [BACKGROUND_ENV]: '' },
      });
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    // The log cannot be written (the index folder gone or read-only), or no process could be made.
    return { failed: `${log}: ${(err as Error).message}` };
  }
  child.on('exit', (code) => (exited = code ?? 1));
  child.on('error', () => (exited = 1));
  const pid = child.pid;
  const end = performance.now() + waitMs;
  while (waitMs > 0 && performance.now() < end && exited === undefined && readWatchMark(dir)?.pid !== pid) await new Promise((r) => setTimeout(r, 20));
  child.unref();
  if (pid === undefined || exited !== undefined) {
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    return { failed: lines[lines.length - 1] || `the watch exited with code ${exited}` };
  }
  return { started: pid, log };
}
