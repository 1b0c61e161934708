/**
 * A working copy of a Go tree for builds that edit files: go.mod, every folder and every Go file, the
 * files as hard links (copies across file systems) and links as they are. Used by the benchmark and by
 * the cut-off check on a real tree (test/index/cutoff-real.test.ts).
 */
import { copyFileSync, linkSync, mkdirSync, readdirSync, readlinkSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tree the builds run on: go.mod, every folder and every Go file of `root` under `dest`, the files
 * as hard links (copies across file systems) and links as they are. Edits are made in place on a copy
 * of the edited file, so a build sees a real change of bytes, size and mtime, and the user's tree is
 * never written.
 */
export function workingCopy(root: string, dest: string, edited: string): void {
  const walk = (rel: string) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      const from = join(root, r);
      const to = join(dest, r);
      if (e.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
      else if (e.isDirectory()) {
        if (e.name === '.git') continue;
        mkdirSync(to);
        walk(r);
      } else if (e.isFile() && (e.name.endsWith('.go') || r === 'go.mod')) {
        if (r === edited) copyFileSync(from, to);
        else {
          try {
            linkSync(from, to);
          } catch {
            copyFileSync(from, to);
          }
        }
      }
    }
  };
  walk('');
}

/**
 * Makes `abs` a file of its own before it is written in place: a hard link would write the tree it
 * was linked from.
 */
export function ownCopy(abs: string): void {
  if (statSync(abs).nlink > 1) {
    copyFileSync(abs, abs + '.own');
    renameSync(abs + '.own', abs);
  }
}
