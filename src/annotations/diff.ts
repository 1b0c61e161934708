/**
 * Longest common subsequence over short lists (a function's line hashes, a topic's anchors): enough
 * to say how many lines of a body changed and where, without a diff library.
 */

/** Index pairs [i, j] with a[i] === b[j], in order, forming a longest common subsequence. */
export function lcsPairs<T>(a: readonly T[], b: readonly T[], eq: (x: T, y: T) => boolean = Object.is): [number, number][] {
  const n = a.length;
  const m = b.length;
  // Suffix lengths, so pairs can be read off front to back.
  const len: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i][j] = eq(a[i], b[j]) ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (eq(a[i], b[j])) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (len[i + 1][j] >= len[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}

/** Sorted numbers → inclusive runs: [3,4,5,9] → [[3,5],[9,9]]. */
export function runs(xs: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const x of xs) {
    const last = out[out.length - 1];
    if (last && x === last[1] + 1) last[1] = x;
    else out.push([x, x]);
  }
  return out;
}

export function formatRuns(rs: readonly [number, number][]): string {
  return rs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ');
}
