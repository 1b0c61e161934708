/**
 * Atomic writes: a temporary file in the target's folder, renamed over the target once complete, so a
 * reader sees the old content or the new, never half of it. Only node:fs, so the query path (key.ts)
 * can write through it too.
 */
import { closeSync, copyFileSync, existsSync, fstatSync, ftruncateSync, linkSync, mkdirSync, openSync, readdir, renameSync, rmSync, unlink, writeSync, type BigIntStats } from 'node:fs';
import { basename, join } from 'node:path';

/** Writes to a temporary file in the same folder, then renames it over the target. */
export function writeBytes(file: string, bytes: Uint8Array): void {
  writeParts(file, [bytes]);
}

/**
 * How a file written again and again (the watch's graph and query store, and its state and freshness
 * manifest) can be written into its previous copy. Writing tens of megabytes into a new file costs
 * the kernel a fresh page for every 4 KB; writing over a file whose pages are cached costs the copy
 * alone (57 MB: 65-80 ms against 15-20 ms on the VM we measure on). So the file the write replaces
 * is kept as `FILE.spare`, and the next write goes into the spare in place, then renames it over the
 * file, when `unshared` says that no process has the spare open or mapped (a reader that took the
 * file before it was replaced still sees its old bytes, unchanged). Otherwise the write goes to a new
 * file, as writeParts does.
 */
export interface Reuse {
  unshared(path: string): boolean;
}

/** writeBytes for bytes in pieces, written one after another (never copied into one buffer). */
export function writeParts(file: string, parts: Uint8Array[], reuse?: Reuse): void {
  const out = openAtomic(file, reuse);
  try {
    for (const p of parts) out.write(p);
  } catch (err) {
    out.abort();
    throw err;
  }
  out.close();
}

/**
 * A temporary file in the target's folder, renamed over the target when closed. With `reuse`, the
 * target's spare when no one holds it (see Reuse), and the replaced file becomes the spare.
 */
export function openAtomic(file: string, reuse?: Reuse) {
  mkdirSync(join(file, '..'), { recursive: true });
  const spare = `${file}.spare`;
  const inPlace = reuse !== undefined && existsSync(spare) && reuse.unshared(spare);
  const tmp = inPlace ? spare : `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, inPlace ? 'r+' : 'w');
  let size = 0;
  /** The size a spare written in place was cut to (it may have been longer), -1 before it is. */
  let cut = -1;
  const cutSpare = () => {
    if (!inPlace || cut === size) return;
    ftruncateSync(fd, size);
    cut = size;
  };
  return {
    write(c: Uint8Array) {
      for (let done = 0; done < c.length;) done += writeSync(fd, c, done, c.length - done);
      size += c.length;
    },
    /**
     * The stat of what was written so far, as the file will be (a spare cut to it first; the file keeps
     * its device, inode, size and mtime through the rename): nothing more is to be written.
     */
    stat(): BigIntStats {
      cutSpare();
      return fstatSync(fd, { bigint: true });
    },
    close() {
      try {
        cutSpare();
      } finally {
        closeSync(fd);
      }
      // A large old file is linked aside first: the rename then only drops a name, and freeing the old
      // file's pages (about 1 ms per MB here) happens in the background, after the new file is in place.
      // With reuse, the old file is kept as the next spare instead.
      const aside = reuse || size >= ASIDE_MIN_BYTES ? linkAside(file) : undefined;
      try {
        renameSync(tmp, file);
      } catch (err) {
        // The target keeps its old content and no half-made file is left behind.
        rmSync(tmp, { force: true });
        if (aside) rmSync(aside, { force: true });
        throw err;
      }
      if (aside && reuse) keepAside(aside, spare, file);
      else if (aside) unlink(aside, () => sweepAside(file));
    },
    abort() {
      closeSync(fd);
      rmSync(tmp, { force: true });
    },
  };
}

/**
 * Makes `file`'s spare (see Reuse) when it has none, as a copy: so that the first write after a build
 * that made the file, or after a start from a stored index, goes in place too. Does nothing when the
 * file is missing or the copy fails: that write then makes a new file, as it would have.
 */
export function makeSpare(file: string): void {
  const spare = `${file}.spare`;
  if (existsSync(spare) || !existsSync(file)) return;
  const tmp = `${spare}.${process.pid}.tmp`;
  try {
    copyFileSync(file, tmp);
    renameSync(tmp, spare);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/** The replaced file, linked aside, renamed to be the next spare (a spare someone still holds loses its name, not its bytes). */
function keepAside(aside: string, spare: string, file: string): void {
  try {
    renameSync(aside, spare);
  } catch {
    unlink(aside, () => sweepAside(file));
  }
}

/** Files written at least this large have the old file linked aside before the rename (see close). */
const ASIDE_MIN_BYTES = 4 << 20;

let asideCount = 0;

/** A second name for `file` (`FILE.PID.N.old`), or undefined when there is no file to link. */
function linkAside(file: string): string | undefined {
  const aside = `${file}.${process.pid}.${asideCount++}.old`;
  try {
    linkSync(file, aside);
    return aside;
  } catch {
    return undefined;
  }
}

/** Names linked aside by processes that stopped before removing them (see linkAside), removed in the background. */
function sweepAside(file: string): void {
  const dir = join(file, '..');
  const base = basename(file);
  readdir(dir, (err, names) => {
    if (err) return;
    for (const name of names) {
      const m = name.startsWith(`${base}.`) ? /^(\d+)\.\d+\.old$/.exec(name.slice(base.length + 1)) : null;
      if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) unlink(join(dir, name), () => {});
    }
  });
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
