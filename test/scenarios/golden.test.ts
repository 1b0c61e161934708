/**
 * Every bundled scenario's timeline against test/golden/scenarios/<name>.txt.
 * `UPDATE_GOLDEN=1 npm test` rewrites the golden files instead of comparing.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/ports/index.js';
import { bundledScenarioPath, formatTimeline, listBundledScenarios, loadScenario, runScenario } from '../../src/scenarios/index.js';

const goldenDir = join(packageRoot(), 'test', 'golden', 'scenarios');
const update = process.env['UPDATE_GOLDEN'] === '1';

describe('bundled scenarios match their golden timelines', () => {
  const names = listBundledScenarios();

  it('ships at least crashloop, memory-pressure, image-gc and liveness', () => {
    for (const n of ['crashloop', 'memory-pressure', 'image-gc', 'liveness']) assert.ok(names.includes(n), n);
  });

  for (const name of names) {
    it(name, () => {
      const text = formatTimeline(runScenario(loadScenario(bundledScenarioPath(name)!)));
      const file = join(goldenDir, `${name}.txt`);
      if (update) {
        mkdirSync(goldenDir, { recursive: true });
        writeFileSync(file, text);
        return;
      }
      assert.ok(existsSync(file), `no golden file ${file}; run UPDATE_GOLDEN=1 npm test to create it`);
      const want = readFileSync(file, 'utf8');
      if (text !== want) assert.fail(`timeline of ${name} differs from ${file} (- golden, + now):\n${lineDiff(want, text)}\nIf the change is intended: UPDATE_GOLDEN=1 npm test`);
    });
  }
});

describe('lineDiff', () => {
  it('marks removed and added lines and elides far-away context', () => {
    const a = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n');
    const b = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10'].join('\n');
    assert.equal(lineDiff(a, b), ['  …', '  3', '  4', '- 5', '+ five', '  6', '  7', '  8', '  9', '+ 10'].join('\n'));
  });
});

/** A plain longest-common-subsequence line diff, printing only changed lines with a little context. */
export function lineDiff(a: string, b: string, context = 2): string {
  const x = a.split('\n');
  const y = b.split('\n');
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const ops: [' ' | '-' | '+', string][] = [];
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      ops.push([' ', x[i++]]);
      j++;
    } else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(['-', x[i++]]);
    else ops.push(['+', y[j++]]);
  }
  const keep = ops.map((_, k) => ops.slice(Math.max(0, k - context), k + context + 1).some(([t]) => t !== ' '));
  const out: string[] = [];
  ops.forEach(([t, line], k) => {
    if (keep[k]) out.push(`${t} ${line}`);
    else if (k === 0 || keep[k - 1]) out.push('  …');
  });
  return out.join('\n');
}
