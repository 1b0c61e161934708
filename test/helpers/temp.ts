/**
 * Temporary folders for the tests of one file, removed when its process exits (the test runner runs
 * each test file in a process of its own): made with mkdtempSync alone, they stayed in the system's
 * temporary folder, thousands of them after a few runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

process.on('exit', () => {
  for (const dir of made) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // A folder a test made unreadable (or one still in use) is left behind: never a failure of the tests.
    }
  }
});

/** A new empty folder in the system's temporary folder, its name `prefix` and a few random letters. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
