/** What a piece of code asked the file system for, by spying on one `fs` function while it runs. */
import fs from 'node:fs';
import { statEach, type StatMany } from '../../src/source/index.js';

type Spied = 'openSync' | 'readdirSync';

/** The paths `fs[name]` was called with while `f` ran (a walk lists folders with readdirSync, reads headers through openSync), and what `f` gave. */
export function fsCalls<T>(name: Spied, f: () => T): { paths: string[]; value: T } {
  const paths: string[] = [];
  const real = fs[name] as (...a: unknown[]) => unknown;
  (fs as unknown as Record<Spied, unknown>)[name] = (p: fs.PathLike, ...rest: unknown[]) => {
    paths.push(String(p));
    return real(p, ...rest);
  };
  try {
    return { paths, value: f() };
  } finally {
    (fs as unknown as Record<Spied, unknown>)[name] = real;
  }
}

/** A StatMany that stats as statEach does and keeps how many paths each call asked for (in `counts`). */
export function countingStat(): { counts: number[]; statMany: StatMany } {
  const counts: number[] = [];
  return {
    counts,
    statMany: (root, rels, count) => {
      counts.push(count);
      return statEach(root, rels, count);
    },
  };
}
