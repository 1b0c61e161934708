/**
 * On-disk cache of parsed files, keyed by content hash, and of the resolved graph. One pack file per
 * tree and build context, written atomically, so a second run re-parses only files whose bytes changed.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { FileFacts } from '../parse/index.js';
import type { BuildContext } from '../model/index.js';

/** Bumped whenever the facts' shape or the extractor's output changes. */
export const FACTS_VERSION = 'facts-4';

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(FACTS_VERSION).update(bytes).digest('hex');
}

export function cacheKey(root: string, ctx: BuildContext, scope: string): string {
  const h = createHash('sha1').update(JSON.stringify({ root, ctx, scope, v: FACTS_VERSION })).digest('hex');
  return h.slice(0, 16);
}

export function readPack<T>(file: string): T | undefined {
  try {
    return deserialize(readFileSync(file)) as T;
  } catch {
    return undefined;
  }
}

export function writePack(file: string, value: unknown): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, serialize(value));
  renameSync(tmp, file);
}

export type FactsPack = Map<string, FileFacts>;
