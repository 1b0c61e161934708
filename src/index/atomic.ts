/**
 * Atomic writes: a temporary file in the target's folder, renamed over the target once complete, so a
 * reader sees the old content or the new, never half of it. Only node:fs, so the query path (key.ts)
 * can write through it too.
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';

/** Writes to a temporary file in the same folder, then renames it over the target. */
export function writeBytes(file: string, bytes: Uint8Array): void {
  writeParts(file, [bytes]);
}

/** writeBytes for bytes in pieces, written one after another (never copied into one buffer). */
export function writeParts(file: string, parts: Uint8Array[]): void {
  const out = openAtomic(file);
  try {
    for (const p of parts) out.write(p);
  } catch (err) {
    out.abort();
    throw err;
  }
  out.close();
}

/** A temporary file in the target's folder, renamed over the target when closed. */
export function openAtomic(file: string) {
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w');
  return {
    write(c: Uint8Array) {
      for (let done = 0; done < c.length;) done += writeSync(fd, c, done, c.length - done);
    },
    /** The stat of what was written so far (the file keeps its device, inode, size and mtime through the rename). */
    stat(): BigIntStats {
      return fstatSync(fd, { bigint: true });
    },
    close() {
      closeSync(fd);
      try {
        renameSync(tmp, file);
      } catch (err) {
        // The target keeps its old content and no half-made file is left behind.
        rmSync(tmp, { force: true });
        throw err;
      }
    },
    abort() {
      closeSync(fd);
      rmSync(tmp, { force: true });
    },
  };
}
