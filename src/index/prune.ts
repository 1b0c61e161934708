/**
 * Old index folders. Each folder is named by a hash that includes the indexer's own code (key.ts), so
 * every new version of kubelet-atlas builds new folders (about 240 MB each for the kubelet's scope)
 * and the old ones would stay forever. Each folder records who it is for; after a build, folders for
 * the same tree, context and scope made by other versions are removed, except the newest few (two
 * versions used in turn, say a checkout and an installed copy, keep their own).
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeBytes } from './atomic.js';

export const OWNER_FILE = 'owner.json';

export interface Owner {
  /** The tree, build context and scope, as one JSON string: folders with equal `of` are alternatives. */
  of: string;
  stamp: string;
  builtAt: number;
}

export function writeOwner(dir: string, owner: Owner): void {
  writeBytes(join(dir, OWNER_FILE), Buffer.from(JSON.stringify(owner)));
}

/** Folders written by versions before owner files: removed once nothing in them moved for a day. */
const LEGACY_AGE_MS = 24 * 3600 * 1000;

/**
 * Removes the folders under `indexRoot` that serve the same `of` as `current` with another stamp,
 * beyond the `keep` most recently built, and old folders without an owner file. Returns their names.
 * Never throws: a folder that cannot be read or removed is left alone.
 */
export function pruneIndexes(indexRoot: string, current: string, owner: Owner, keep = 2, now = Date.now()): string[] {
  const rivals: { name: string; builtAt: number }[] = [];
  const removed: string[] = [];
  for (const { name, owner: other } of otherFolders(indexRoot, current)) {
    if (other) {
      if (other.of === owner.of && other.stamp !== owner.stamp) rivals.push({ name, builtAt: other.builtAt });
      continue;
    }
    const dir = join(indexRoot, name);
    if (isLegacyIndex(dir, now) && remove(dir)) removed.push(name);
  }
  rivals.sort((a, b) => b.builtAt - a.builtAt);
  for (const r of rivals.slice(keep)) if (remove(join(indexRoot, r.name))) removed.push(r.name);
  return removed.sort();
}

/**
 * The other folders under `indexRoot` built by this same version (`stamp`) of kubelet-atlas, for another
 * tree, scope or build context: newest first, at most `limit`. Their facts serve a new index for the
 * files it shares with them (the same path and bytes). Never throws: an unreadable folder is skipped,
 * and so is one without an owner file (a build under way, or a folder from before owner files).
 */
export function siblingIndexes(indexRoot: string, current: string, stamp: string, limit: number): string[] {
  const same: { dir: string; builtAt: number }[] = [];
  for (const { name, owner } of otherFolders(indexRoot, current)) {
    if (owner?.stamp === stamp) same.push({ dir: join(indexRoot, name), builtAt: owner.builtAt });
  }
  return same.sort((a, b) => b.builtAt - a.builtAt).slice(0, limit).map((x) => x.dir);
}

/** The folders under `indexRoot` other than `current`, each with its owner file when it can be read. */
function otherFolders(indexRoot: string, current: string): { name: string; owner: Owner | undefined }[] {
  let names: string[];
  try {
    names = readdirSync(indexRoot, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name !== current).map((e) => e.name);
  } catch {
    return [];
  }
  return names.map((name) => {
    try {
      return { name, owner: JSON.parse(readFileSync(join(indexRoot, name, OWNER_FILE), 'utf8')) as Owner };
    } catch {
      return { name, owner: undefined };
    }
  });
}

/** An index folder (it holds a facts or graph pack) from before owner files, untouched for a day. */
function isLegacyIndex(dir: string, now: number): boolean {
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return false;
  }
  if (!files.some((f) => f === 'facts.bin' || f === 'graph.v8' || f === 'query.bin')) return false;
  return files.every((f) => {
    const st = statSync(join(dir, f), { throwIfNoEntry: false });
    return !st || now - st.mtimeMs > LEGACY_AGE_MS;
  });
}

function remove(dir: string): boolean {
  try {
    rmSync(dir, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}
