/**
 * Atomic writes: a temporary file in the target's folder, renamed over the target once complete, so a
 * reader sees the old content or the new, never half of it. Only node:fs, so the query path (key.ts)
 * can write through it too.
 */
import { closeSync, constants, copyFileSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
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

/** Writes all of `bytes` at offset `at` of an open file (a single write may take only part). */
export function writeAt(fd: number, bytes: Uint8Array, at: number): void {
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, at + done);
}

/**
 * Changes part of a file atomically: the file is copied (by the kernel, no bytes pass through here; cloned where the file system can) to
 * a temporary file next to it, `patch` writes into that through its descriptor, and it is renamed over
 * the file.
 */
export function patchAtomic(file: string, patch: (fd: number) => void): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    // A copy-on-write clone where the file system makes them (btrfs, XFS, APFS): no bytes copied at all.
    copyFileSync(file, tmp, constants.COPYFILE_FICLONE);
    const fd = openSync(tmp, 'r+');
    try {
      patch(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
