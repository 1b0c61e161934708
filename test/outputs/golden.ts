/** Golden files: compare, or rewrite with UPDATE_GOLDEN=1; a mismatch fails with a line diff. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const UPDATE = process.env['UPDATE_GOLDEN'] === '1';

/** Every file of `dir` against the same name in `goldenDir` (and no golden left without a file). */
export function checkGoldenDir(dir: string, goldenDir: string): void {
  const names = readdirSync(dir).sort();
  if (UPDATE) {
    mkdirSync(goldenDir, { recursive: true });
    for (const n of names) writeFileSync(join(goldenDir, n), readFileSync(join(dir, n)));
    return;
  }
  const goldens = existsSync(goldenDir) ? readdirSync(goldenDir).sort() : [];
  assert.deepEqual(names, goldens, `files differ from ${goldenDir}; run UPDATE_GOLDEN=1 npm test if the change is intended`);
  for (const n of names) {
    const got = readFileSync(join(dir, n), 'utf8');
    const want = readFileSync(join(goldenDir, n), 'utf8');
    if (got !== want) assert.fail(`${n} differs from its golden (UPDATE_GOLDEN=1 npm test rewrites it):\n${lineDiff(want, got)}`);
  }
}

/** A short unified-style diff: changed lines with two lines of context, at most 80 lines. */
export function lineDiff(want: string, got: string): string {
  const a = want.split('\n');
  const b = got.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let ea = a.length - 1;
  let eb = b.length - 1;
  while (ea >= start && eb >= start && a[ea] === b[eb]) {
    ea--;
    eb--;
  }
  const out = [`@@ line ${start + 1} @@`];
  for (let i = Math.max(0, start - 2); i < start; i++) out.push(`  ${a[i]}`);
  for (let i = start; i <= ea; i++) out.push(`- ${a[i]}`);
  for (let i = start; i <= eb; i++) out.push(`+ ${b[i]}`);
  for (let i = ea + 1; i < Math.min(a.length, ea + 3); i++) out.push(`  ${a[i]}`);
  return out.slice(0, 80).join('\n');
}
