/**
 * Where an index lives: a folder named by a hash of the tree, the build context, the scope and the
 * indexer's own code. Kept free of node:crypto and node:v8, which a one-shot query would otherwise load
 * (about 15 ms) only to name a folder.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildContext } from '../model/index.js';
import { writeBytes } from './atomic.js';

/** Bumped whenever the facts' shape or the extractor's output changes. */
export const FACTS_VERSION = 'facts-9';

/**
 * A 64-bit hash as 16 hex digits: two 32-bit multiply-xorshift lanes (the cyrb53 construction, both
 * lanes kept). Names cache folders; file contents are hashed with SHA-1 (cache.ts).
 */
export class Hash64 {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;

  update(data: string | Uint8Array): this {
    let { h1, h2 } = this;
    if (typeof data === 'string') {
      for (let i = 0; i < data.length; i++) {
        const c = data.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
      }
    } else {
      for (let i = 0; i < data.length; i++) {
        const c = data[i];
        h1 = Math.imul(h1 ^ c, 2654435761);
        h2 = Math.imul(h2 ^ c, 1597334677);
      }
    }
    // A separator, so update('ab').update('c') differs from update('a').update('bc').
    h1 = Math.imul(h1 ^ 0x100, 2654435761);
    h2 = Math.imul(h2 ^ 0x100, 1597334677);
    this.h1 = h1;
    this.h2 = h2;
    return this;
  }

  hex(): string {
    let h1 = Math.imul(this.h1 ^ (this.h1 >>> 16), 2246822507);
    h1 ^= Math.imul(this.h2 ^ (this.h2 >>> 13), 3266489909);
    let h2 = Math.imul(this.h2 ^ (this.h2 >>> 16), 2246822507);
    h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
  }
}

let stamp: string | undefined;

/**
 * A hash of the indexer's own compiled code (parse, resolve, index stages), so that a new version of
 * kubelet-atlas never reuses facts or graphs made by an older one. Hashing the ~45 files costs more
 * than a whole query's lookups, so with `memoDir` the answer is kept there with each file's size and
 * mtime, and recomputed only when one of those moved.
 */
export function toolStamp(memoDir?: string): string {
  if (stamp) return stamp;
  const here = dirname(fileURLToPath(import.meta.url));
  const files: string[] = [];
  // The stages whose output is cached: the source scan (its snapshot), the parser and the resolver,
  // and the cache code itself. The
  // query store and graph pack carry their own format versions, so view code can change freely.
  for (const [dir, only] of [['source'], ['parse'], ['resolve'], ['index', ['build.js', 'build.ts', 'cache.js', 'cache.ts']]] as [string, string[]?][]) {
    const abs = join(here, '..', dir);
    let names: string[] = [];
    try {
      names = readdirSync(abs).filter((n) => (n.endsWith('.js') || n.endsWith('.ts') || n.endsWith('.scm')) && (!only || only.includes(n))).sort();
    } catch {
      continue;
    }
    for (const n of names) files.push(join(abs, n));
  }
  // One memo per installed copy of the code: two versions sharing a cache would otherwise overwrite
  // each other's, and each would hash its files again on every run.
  const memo = memoDir && join(memoDir, `tool-stamp-${new Hash64().update(here).hex().slice(0, 8)}.json`);
  let signature = '';
  if (memo) {
    // FACTS_VERSION lives in this file, which is not hashed: it is part of the signature instead.
    signature = [FACTS_VERSION, ...files.map((f) => {
      const st = statSync(f, { throwIfNoEntry: false });
      return `${f} ${st?.size} ${st?.mtimeMs}`;
    })].join('\n');
    try {
      const kept = JSON.parse(readFileSync(memo, 'utf8')) as { signature?: string; stamp?: string };
      if (kept.signature === signature && typeof kept.stamp === 'string') return (stamp = kept.stamp);
    } catch {
      // No memo yet, or an unreadable one: hash the files.
    }
  }
  const h = new Hash64().update(FACTS_VERSION);
  for (const f of files) h.update(basename(f)).update(readFileSync(f));
  stamp = h.hex().slice(0, 12);
  if (memo) {
    try {
      writeBytes(memo, Buffer.from(JSON.stringify({ signature, stamp })));
    } catch {
      // A read-only cache only costs the hashing next time.
    }
  }
  return stamp;
}

/** The index folder's name for a tree, build context and scope (`memoDir`: see toolStamp). */
export function cacheKey(root: string, ctx: BuildContext, scope: string, memoDir?: string): string {
  return new Hash64().update(JSON.stringify({ root, ctx, scope, v: toolStamp(memoDir) })).hex();
}
