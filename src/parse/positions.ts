/**
 * Whether two versions of a file's facts differ only in where things are: the same records in the same
 * order, with other lines and byte offsets. That is what an edit of comments or blank lines, or of the
 * spacing inside a line, does to a file. The answer maps each old line to its new line.
 *
 * factsShift also lets the fields that only describe a declaration differ: its doc comment and its
 * fingerprint (a hash of its tokens, which a string literal's text changes). Resolution reads neither;
 * they are copied into the symbol records.
 */
import type { FileFacts } from './facts.js';

/** Fields holding a line number. */
export const LINE_KEYS = new Set(['l', 'line', 'endLine']);
/** Fields holding a byte offset. */
export const OFFSET_KEYS = new Set(['pos', 'end', 'start']);
/** Fields holding a column: carried in the facts, read by nothing after extraction. */
const FREE_KEYS = new Set(['col']);
/** Fields of a declaration copied into its symbol record and read by nothing else. */
const SYMBOL_KEYS = new Set(['doc', 'fingerprint']);

/**
 * Old line → new line, when `next` is `old` with only its positions moved, and moved in order: lines
 * and offsets each map one to one and keep their order (so whatever compares two positions compares
 * the same way after), and offset 0 stays 0. Undefined otherwise.
 */
export function positionShift(old: FileFacts, next: FileFacts): Map<number, number> | undefined {
  const shift = factsShift(old, next);
  return shift && !shift.symbols ? shift.lines : undefined;
}

/**
 * positionShift, where the declarations' docs and fingerprints may differ too: `symbols` says whether
 * one does (the symbol records must then be made again from `next`).
 */
export function factsShift(old: FileFacts, next: FileFacts): { lines: Map<number, number>; symbols: boolean } | undefined {
  return recordsShift(old, next);
}

/** factsShift for any part of the facts (a function's records, a file's types): the same test. */
export function recordsShift(old: unknown, next: unknown): { lines: Map<number, number>; symbols: boolean } | undefined {
  const pairs = new ShiftPairs();
  return pairs.same(old, next) ? pairs.result() : undefined;
}

/**
 * The old and new positions of two versions of a file's facts, gathered part by part: `same` compares
 * two parts as recordsShift does; `line` and `offset` take one position each (a splice's kept and
 * moved records, see splice.ts). `result` is recordsShift's answer for all the parts given.
 */
export class ShiftPairs {
  private readonly lines = new Map<number, number>();
  private readonly offsets = new Map<number, number>();
  private symbols = false;
  private ok = true;

  line(a: number, b: number): void {
    if (!pair(this.lines, a, b)) this.ok = false;
  }

  offset(a: number, b: number): void {
    if (!pair(this.offsets, a, b)) this.ok = false;
  }

  /** Whether `x` and `y` are the same records with only their positions (and docs and fingerprints) changed; their positions are taken. */
  same(x: unknown, y: unknown): boolean {
    if (x === y) return true;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!this.same(x[i], y[i])) return false;
      return true;
    }
    const a = x as Record<string, unknown>;
    const b = y as Record<string, unknown>;
    // Keys counted and walked with for-in (facts are plain records, with no inherited keys), not listed
    // with Object.keys: a list per record compared was about 2 MB per edit of kubelet.go.
    let n = 0;
    for (const _ in b) n++;
    for (const k in a) {
      n--;
      if (!Object.hasOwn(b, k)) return false;
      const va = a[k];
      const vb = b[k];
      if (typeof va === 'number' && typeof vb === 'number') {
        if (LINE_KEYS.has(k)) {
          if (!pair(this.lines, va, vb)) return false;
          continue;
        }
        if (OFFSET_KEYS.has(k)) {
          if (!pair(this.offsets, va, vb)) return false;
          continue;
        }
        if (FREE_KEYS.has(k)) continue;
      }
      if (SYMBOL_KEYS.has(k) && (typeof va === 'string' || va === undefined) && (typeof vb === 'string' || vb === undefined)) {
        if (va !== vb) this.symbols = true;
        continue;
      }
      if (!this.same(va, vb)) return false;
    }
    return n === 0;
  }

  result(): { lines: Map<number, number>; symbols: boolean } | undefined {
    if (!this.ok || !inOrder(this.lines) || !inOrder(this.offsets)) return undefined;
    if (this.offsets.has(0) && this.offsets.get(0) !== 0) return undefined;
    return { lines: this.lines, symbols: this.symbols };
  }
}

/** Takes a → b into `map`: false when a was taken to another value. */
function pair(map: Map<number, number>, a: number, b: number): boolean {
  const seen = map.get(a);
  if (seen === undefined) map.set(a, b);
  return seen === undefined || seen === b;
}

/**
 * Whether the map is strictly increasing: one to one, and order kept. Each pair of whole numbers
 * below 2^26 (every position: a file is at most 8 MB) is sorted as one number, a * 2^26 + b, in a
 * typed array: a list of 20,000 pairs sorted by a comparison (a file's offsets) took 3-4 ms of a
 * one-shot build.
 */
function inOrder(map: Map<number, number>): boolean {
  const keyed = new Float64Array(map.size);
  let i = 0;
  for (const [a, b] of map) {
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a < SPAN && b < SPAN)) return inOrderSorted(map);
    keyed[i++] = a * SPAN + b;
  }
  keyed.sort();
  for (let j = 1; j < keyed.length; j++) if (keyed[j] % SPAN <= keyed[j - 1] % SPAN) return false;
  return true;
}

const SPAN = 2 ** 26;

/** inOrder for any numbers: the pairs sorted by a comparison. */
function inOrderSorted(map: Map<number, number>): boolean {
  const pairs = [...map].sort((p, q) => p[0] - q[0]);
  for (let i = 1; i < pairs.length; i++) if (pairs[i][1] <= pairs[i - 1][1]) return false;
  return true;
}
