/**
 * How much of a body changed: the longest common subsequence of the two bodies' line hashes
 * (lines compared as tokens, so layout and comments never count). "N of M lines differ" with
 * M = the longer body and N = M minus the lines kept.
 */
import { lineHashes } from '../parse/fingerprint.js';

export interface LineChange {
  differ: number;
  of: number;
}

/** Above this many cells the exact table is skipped for a cheaper count (a few giant functions only). */
const MAX_CELLS = 4_000_000;

export function lineChange(before: string, after: string): LineChange {
  const a = lineHashes(before);
  const b = lineHashes(after);
  const of = Math.max(a.length, b.length);
  return { differ: of - commonLines(a, b), of };
}

export function bodyLines(text: string): number {
  return lineHashes(text).length;
}

function commonLines(a: string[], b: string[]): number {
  // Equal heads and tails never need the table.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const x = a.slice(start, a.length - end);
  const y = b.slice(start, b.length - end);
  return start + end + (x.length * y.length > MAX_CELLS ? multisetCommon(x, y) : lcsLength(x, y));
}

function lcsLength(a: string[], b: string[]): number {
  let prev = new Uint32Array(b.length + 1);
  let cur = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** An upper bound of the LCS that ignores order: lines present on both sides. */
function multisetCommon(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const h of a) counts.set(h, (counts.get(h) ?? 0) + 1);
  let n = 0;
  for (const h of b) {
    const c = counts.get(h) ?? 0;
    if (c > 0) {
      n++;
      counts.set(h, c - 1);
    }
  }
  return n;
}
