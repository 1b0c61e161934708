/** Reading Go sources of a tree by relative path, each file once. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadSource } from './types.js';

export function treeReader(root: string): ReadSource {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (!cache.has(file)) {
      try {
        cache.set(file, readFileSync(join(root, file), 'utf8'));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
}

/** A lock exposes which IDs it knows: anchored symbols and the extra `symbols` list. */
export function lockKnows(lock: { anchored: Record<string, unknown>; symbols: string[] }, id: string): boolean {
  return Object.hasOwn(lock.anchored, id) || lock.symbols.includes(id);
}
