/**
 * A file's top-level layout, kept with its facts so that a later version of the file can be parsed in
 * part (see splice.ts). The file is cut after its header (package clause and imports) and after each
 * top-level declaration: segment k runs from the end of declaration k-1 (or of the header) to the end
 * of declaration k, so it holds the comments and blank lines before its declaration, doc comment
 * included. Each segment is kept as its end, a hash of its text and how many functions, types and
 * values the facts list once its declaration is walked. The header and the tail after the last
 * declaration are hashed too.
 *
 * Only files of at least SEGMENTS_MIN_CHARS characters get segments (a smaller file parses whole in a
 * few milliseconds), and only ASCII files with no diagnostic (their offsets are the same in bytes and
 * in UTF-16 code units, and every top-level node is a declaration). src/parse/native/extract_facts.c
 * makes the same segments for the files it extracts.
 */
import type { FileFacts } from './facts.js';

export const SEGMENTS_MIN_CHARS = 16 * 1024;

export interface Segments {
  /** Lines in the file (newlines + 1). */
  lines: number;
  /** The text's length. */
  length: number;
  /** The end of the header: 0 without one. */
  header: number;
  /** Per declaration: its end, then its segment's two hash words, then the facts' function, type and value counts after it. */
  decls: Int32Array;
  /** The header's hash words, then the tail's. */
  hashes: Int32Array;
}

/** Int32 words per declaration in Segments.decls. */
export const DECL_WORDS = 6;

/** The segments extractFile made for a file's facts (read by packFacts, which stores them with the facts). */
export const segmentsMade = new WeakMap<FileFacts, Segments>();

/**
 * Two 32-bit hashes of text[from, to) (FNV-1a and a multiplicative hash with another seed and
 * multiplier), as one 64-bit identity: a segment taken as unchanged must be unchanged.
 */
export function hashRange(text: string, from: number, to: number, out: Int32Array, at: number): void {
  let a = 0x811c9dc5 | 0;
  let b = 0x9e3779b9 | 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x5bd1e995) ^ (b >>> 15);
  }
  out[at] = a ^ (to - from);
  out[at + 1] = b;
}

/** How many newlines text has, plus one. */
export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The segments of a file whose header ends at `header` and whose declarations end at `ends`, with the
 * facts' counts after each (`counts`, three words a declaration).
 */
export function segmentsOf(text: string, header: number, ends: readonly number[], counts: readonly number[]): Segments {
  const decls = new Int32Array(ends.length * DECL_WORDS);
  let from = header;
  ends.forEach((end, k) => {
    const o = k * DECL_WORDS;
    decls[o] = end;
    hashRange(text, from, end, decls, o + 1);
    decls[o + 3] = counts[3 * k];
    decls[o + 4] = counts[3 * k + 1];
    decls[o + 5] = counts[3 * k + 2];
    from = end;
  });
  const hashes = new Int32Array(4);
  hashRange(text, 0, header, hashes, 0);
  hashRange(text, from, text.length, hashes, 2);
  return { lines: lineCount(text), length: text.length, header, decls, hashes };
}

const SEG_MAGIC = 0x31474553; // 'SEG1'

/** Segments as bytes: magic, lines, length, header, declaration count, then the words of decls and hashes. */
export function encodeSegments(s: Segments): Uint8Array {
  const words = new Int32Array(5 + s.decls.length + 4);
  words.set([SEG_MAGIC, s.lines, s.length, s.header, s.decls.length / DECL_WORDS]);
  words.set(s.decls, 5);
  words.set(s.hashes, 5 + s.decls.length);
  return new Uint8Array(words.buffer);
}

/** encodeSegments read back; undefined for bytes that are not segments of this format. */
export function decodeSegments(bytes: Uint8Array): Segments | undefined {
  if (bytes.byteLength < 20 || bytes.byteLength % 4 !== 0) return undefined;
  const words = new Int32Array(bytes.byteLength / 4);
  new Uint8Array(words.buffer).set(bytes);
  const n = words[4];
  if (words[0] !== SEG_MAGIC || n < 0 || words.length !== 5 + n * DECL_WORDS + 4) return undefined;
  return { lines: words[1], length: words[2], header: words[3], decls: words.slice(5, 5 + n * DECL_WORDS), hashes: words.slice(5 + n * DECL_WORDS) };
}
