/**
 * The light half of the index stage, for one-shot queries: find the query store written by the last
 * build and tell whether it still matches the tree, without loading the parser or the resolver.
 */
import { openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildContext } from '../model/index.js';
import { GraphStore, type Manifest } from '../graph/store.js';
import { cacheKey } from './cache.js';

export interface StoreLocation {
  root: string;
  ctx: BuildContext;
  scope?: string;
  cacheDir: string;
}

export function indexDir(opts: StoreLocation): string {
  return join(opts.cacheDir, 'index', cacheKey(opts.root, opts.ctx, opts.scope ?? 'default'));
}

export const STORE_FILE = 'query.bin';

/** The stored graph for queries, if one exists and no Go file in scope changed size or mtime since. */
export function openStore(opts: StoreLocation): GraphStore | undefined {
  const store = readStore(opts);
  return store && manifestFresh(store.manifest()) ? store : undefined;
}

/** The query store in this format, fresh or not (its header only is read). */
export function readStore(opts: StoreLocation): GraphStore | undefined {
  try {
    const fd = openSync(join(indexDir(opts), STORE_FILE), 'r');
    // The descriptor stays open for the life of the (one-shot) process; sections are read as needed.
    return new GraphStore({
      read(offset, length) {
        const b = Buffer.allocUnsafe(length);
        let done = 0;
        while (done < length) {
          const n = readSync(fd, b, done, length - done, offset + done);
          if (n === 0) break;
          done += n;
        }
        return b.subarray(0, done);
      },
    });
  } catch {
    return undefined;
  }
}

/**
 * Each scanned Go file and package dir with its size and mtime. A file added to or removed from a
 * package dir changes the dir's mtime, which the manifest also records.
 */
export function manifestOf(root: string, files: string[]): Manifest {
  const dirs = new Set(files.map((f) => f.slice(0, Math.max(0, f.lastIndexOf('/')))));
  const paths = [...files, ...dirs].map((p) => join(root, p));
  const sizes: number[] = [];
  const mtimes: number[] = [];
  for (const p of paths) {
    const st = statSync(p, { throwIfNoEntry: false });
    sizes.push(st ? (st.isDirectory() ? -1 : st.size) : -2);
    mtimes.push(st ? st.mtimeMs : 0);
  }
  return { paths, sizes, mtimes };
}

export function manifestFresh(m: Manifest): boolean {
  for (let i = 0; i < m.paths.length; i++) {
    const st = statSync(m.paths[i], { throwIfNoEntry: false });
    if (!st || st.mtimeMs !== m.mtimes[i] || (m.sizes[i] >= 0 && st.size !== m.sizes[i])) return false;
  }
  return true;
}
