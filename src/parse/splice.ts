/**
 * A file parsed in part: its new facts made from its old ones and a parse of only the declarations an
 * edit touched. A one-shot build after an edit of a large file otherwise pays for tree-sitter and the
 * extractor over the whole file (kubelet.go: 124 KB, about 25 ms of tree-sitter and 20-45 ms of
 * extraction), where an edit of a function body touches one declaration.
 *
 * The old facts carry the old text's segments (segments.ts): where each top-level declaration ends, a
 * hash of its text with the comments and blank lines before it, and the facts' counts after it. The
 * segments whose text is unchanged from the front, and from the back with the change in length, keep
 * their facts; the text between (the region) is parsed with the text between the header and it
 * blanked to spaces (newlines kept, so every offset, row and column is the file's) and the text after
 * it left out, and its facts replace the old region's. Facts after the region move by the change in
 * lines and in length, and indexes into the function list by the change in its length. The kept facts
 * are written from the old record's tokens, moved (see Repack in codec.ts), not decoded.
 *
 * That is the facts a parse of the whole file makes when the text after the region is read as it was
 * read before: the region must begin and end with a newline at a declaration's end (the lexer is then
 * between declarations on both sides, and neither side's tokens can join the other's), and its parse
 * must hold no syntax error (an unclosed string or block would be one), and every block comment
 * opened in it must close in it (the text after the region is left out, so it closes none, and an unclosed
 * comment's '/' and '*' can read as operators). Var and const
 * declarations, and init functions, are never in a region: a file's package initializer gathers every
 * var's calls, and init functions and package-level closures are numbered across the file. Any edit
 * outside these bounds gets undefined: the caller parses the whole file.
 */
import { isAscii } from 'node:buffer';
import type { FileFacts } from './facts.js';
import { oldFactsOf, OldValue, packFacts, segmentsIn, withSegments, type OldFacts } from './codec.js';
import { extractLayout } from './extract.js';
import { DECL_WORDS as W, hashRange, lineCount, segmentsMade, SEGMENTS_MIN_CHARS, type Segments } from './segments.js';
import { LINE_KEYS, OFFSET_KEYS, ShiftPairs } from './positions.js';

/** What splicePacked gives: the encoded facts, and what factsShift would say of the old facts and them. */
export interface Spliced {
  packed: Uint8Array;
  /** factsShift's answer (undefined where it would find records changed). */
  shift: { lines: Map<number, number>; symbols: boolean } | undefined;
  /** The facts' declarations, in order, with only their names, docs and fingerprints (read from the old tokens where kept, without decoding the facts). */
  declared(): Declared;
}

/** A file's declarations with only their names, docs and fingerprints, in the facts' order. */
export interface Declared {
  funcs: { local: string; doc?: string; fingerprint: string }[];
  types: { name: string; doc?: string; fingerprint: string }[];
  values: { name: string; doc?: string }[];
}

/** Classes of the old numbers that move (see oldFactsOf): lines, offsets, function indexes. */
const LINE = 1;
const OFFSET = 2;
const FUNC = 3;

/**
 * The class of the numbers of field `key` of a record of kind `kind` (`inList`: in a list that is
 * that field's value): those a splice moves (see splicePacked).
 */
function classOf(key: string, inList: boolean, kind: string | undefined): number {
  if (inList) return key === 'closures' ? FUNC : 0;
  return LINE_KEYS.has(key) ? LINE : OFFSET_KEYS.has(key) ? OFFSET : key === 'parent' || (key === 'i' && kind === 'fn') ? FUNC : 0;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;

/**
 * The encoded facts of `bytes` when it differs from the file's last version (`old`, encoded facts with
 * segments) only after its last declaration, in comments and white space: the old facts, which a parse
 * of the whole file would make again, stored with the new text's segments (its lines, length and
 * tail's hash). Undefined otherwise. Nothing is parsed, decoded or encoded.
 */
export function keptFacts(bytes: Uint8Array, old: Uint8Array): Uint8Array | undefined {
  const seg = segmentsIn(old);
  const n = seg ? seg.decls.length / W : 0;
  if (!seg || n === 0 || bytes.length < SEGMENTS_MIN_CHARS || !isAscii(bytes)) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const { headerKept, p } = keptFront(text, seg);
  const end = segStart(seg, n);
  if (!headerKept || p < n || !commentsOnly(text, end)) return undefined;
  const hashes = Int32Array.from(seg.hashes);
  hashRange(text, end, text.length, hashes, 2);
  return withSegments(old, { ...seg, lines: lineCount(text), length: text.length, hashes });
}

/** Scratch words for hashedAs. */
const HASHED = new Int32Array(2);

/** Whether text[from, to) hashes to the two words at words[at] (never for a range outside the text). */
function hashedAs(text: string, from: number, to: number, words: Int32Array, at: number): boolean {
  if (from < 0 || to > text.length || from > to) return false;
  hashRange(text, from, to, HASHED, 0);
  return HASHED[0] === words[at] && HASHED[1] === words[at + 1];
}

/** Where old declaration k's segment starts (k = the number of declarations: the tail). */
function segStart(seg: Segments, k: number): number {
  return k === 0 ? seg.header : seg.decls[(k - 1) * W];
}

/**
 * The old segments `text` holds unchanged from its start: whether the header does, and how many
 * declarations after it (none when the header changed).
 */
function keptFront(text: string, seg: Segments): { headerKept: boolean; p: number } {
  const n = seg.decls.length / W;
  const headerKept = hashedAs(text, 0, seg.header, seg.hashes, 0);
  let p = 0;
  while (headerKept && p < n && hashedAs(text, segStart(seg, p), seg.decls[p * W], seg.decls, p * W + 1)) p++;
  return { headerKept, p };
}

/** Whether byte or char code c is Go white space. */
function blankCode(c: number): boolean {
  return c === SPACE || c === NEWLINE || c === 0x09 || c === 0x0d;
}

/** Whether text from `from` on is white space and whole comments only. */
function commentsOnly(text: string, from: number): boolean {
  for (let i = from; i < text.length;) {
    if (blankCode(text.charCodeAt(i))) i++;
    else if (text.startsWith('//', i)) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
    } else if (text.startsWith('/*', i)) {
      const closed = text.indexOf('*/', i + 2);
      if (closed < 0) return false;
      i = closed + 2;
    } else return false;
  }
  return true;
}

/**
 * The encoded facts of `bytes` made from `old` (the encoded facts of the file's last version), or
 * undefined when a whole parse is needed: the bytes packFacts writes for a whole parse's facts,
 * segments included. The records before and after the region are written from the old tokens, moved
 * (see Repack): they are not decoded, moved and encoded again.
 */
export function splicePacked(path: string, bytes: Uint8Array, old: Uint8Array): Spliced | undefined {
  const seg = segmentsIn(old);
  if (!seg || !isAscii(bytes)) return undefined;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const L = text.length;
  const n = seg.decls.length / W;
  // The unchanged segments from the front: the header, then declarations 0..p-1. With the header
  // changed, the region starts at the file's start and its parse gives the imports.
  const { headerKept, p } = keptFront(text, seg);
  const start = headerKept ? segStart(seg, p) : 0;
  const delta = L - seg.length;
  // The unchanged segments from the back: declarations q..n-1, then the tail, all moved by delta.
  let q = n;
  let tailKept = false;
  if (hashedAs(text, segStart(seg, n) + delta, L, seg.hashes, 2) && segStart(seg, n) + delta >= start) {
    tailKept = true;
    while (q > p && segStart(seg, q - 1) + delta >= start && hashedAs(text, segStart(seg, q - 1) + delta, seg.decls[(q - 1) * W] + delta, seg.decls, (q - 1) * W + 1)) q--;
  }
  const regionEnd = tailKept ? segStart(seg, q) + delta : L;
  // Between declarations on both sides: a newline right after the kept front and at the region's end.
  if ((start > 0 && start < L && bytes[start] !== NEWLINE) || (regionEnd < L && bytes[regionEnd] !== NEWLINE)) return undefined;
  // A block comment opened in the region and closed after it: left out, the text after the region
  // closes nothing, and '/' and '*' may read as operators there.
  const opened = text.lastIndexOf('/*', regionEnd - 2);
  if (opened >= start) {
    const closed = text.indexOf('*/', opened + 2);
    if (closed < 0 || closed + 2 > regionEnd) return undefined;
  }
  const before = (k: number, what: 0 | 1 | 2): number => (k === 0 ? 0 : seg.decls[(k - 1) * W + 3 + what]);
  const [fp, tp, vp] = [before(p, 0), before(p, 1), before(p, 2)];
  const [fq, tq, vq] = [before(q, 0), before(q, 1), before(q, 2)];
  // The old facts' records are read where they are: only the old region's are decoded. A record that
  // cannot be read (a damaged cache entry) is parsed whole.
  let oldFacts: OldFacts;
  let oldRegion: { funcs: FileFacts['funcs']; types: FileFacts['types']; imports: FileFacts['imports'] };
  const list = (key: string) => oldFacts.lists.get(key) ?? [];
  const decoded = <T>(key: string, from: number, to?: number) => list(key).slice(from, to).map((at) => oldFacts.value(at) as T);
  try {
    oldFacts = oldFactsOf(old, constantKey, classOf);
    oldRegion = { funcs: decoded('funcs', fp, fq), types: decoded('types', tp, tq), imports: headerKept ? [] : decoded('imports', 0) };
  } catch {
    return undefined;
  }
  const importsAt = oldFacts.root.get('imports');
  const oldPkg = oldFacts.field(0, 'pkg');
  if (list('diagnostics').length > 0 || importsAt === undefined || typeof oldPkg !== 'string' || typeof oldFacts.field(0, 'path') !== 'string') return undefined;
  if (vq > vp || oldRegion.funcs.some(isInit)) return undefined;
  // The region parsed with the text between the header and it blanked, newlines kept, up to its end
  // and newline: the text after it, blanked, would only cost tree-sitter some milliseconds per 100 KB
  // of spaces to skip.
  const masked = Buffer.from(bytes.subarray(0, Math.min(L, regionEnd + 1)));
  if (headerKept) blank(masked, seg.header, start);
  let part: ReturnType<typeof extractLayout>;
  try {
    part = extractLayout(path, masked);
  } catch {
    return undefined;
  }
  const { facts: got, layout } = part;
  const header = layout.header;
  if (got.diagnostics.length > 0 || got.pkg !== oldPkg || header === undefined || (headerKept ? header !== seg.header : header > regionEnd) || got.values.length > 0 || got.funcs.some(isInit)) return undefined;
  if (layout.ends.some((e) => e <= Math.max(start, header) || e > regionEnd)) return undefined;
  // A comment at the region's end would join the doc comment of the declaration after it.
  if (q < n && !blankBetween(bytes, layout.ends.at(-1) ?? Math.max(start, header), regionEnd)) return undefined;
  const lines = lineCount(text);
  const dLines = lines - seg.lines;
  const oldEnd = regionEnd - delta;
  const lastRow = rowOf(text, regionEnd) - dLines;
  const dFuncs = fp + got.funcs.length - fq;
  // The positions as factsShift would pair them: the old records' as they are written (those
  // before the region stay where they are), the region's as compared below.
  const pairs = new ShiftPairs();
  // Old records after the region: lines below the region's last row move by the change in lines,
  // offsets past its end by the change in length, function indexes past the old region's by the
  // change in the count. Records before it hold no such position, but for the package initializer,
  // which holds the calls of every var's initializer.
  const move = (v: number, cls: number): number => {
    if (cls === LINE) {
      const w = v > lastRow + 1 ? v + dLines : v;
      pairs.line(v, w);
      return w;
    }
    if (cls === OFFSET) {
      const w = v > oldEnd ? v + delta : v;
      pairs.offset(v, w);
      return w;
    }
    return v >= fq ? v + dFuncs : v;
  };
  // The region's own indexes count from its first function.
  const renumbered = new Set<object>();
  const renumber = (x: unknown): void => {
    if (typeof x !== 'object' || x === null || renumbered.has(x)) return;
    renumbered.add(x);
    if (Array.isArray(x)) {
      for (const v of x) renumber(v);
      return;
    }
    const r = x as Record<string, unknown>;
    for (const k in r) {
      const v = r[k];
      if (typeof v === 'number') {
        if (k === 'parent' || (k === 'i' && r['k'] === 'fn')) r[k] = v + fp;
      } else if (k === 'closures' && Array.isArray(v)) r[k] = v.map((i: number) => i + fp);
      else renumber(v);
    }
  };
  got.funcs.forEach(renumber);
  got.types.forEach(renumber);
  const regionSame = pairs.same([oldRegion.funcs, oldRegion.types, oldRegion.imports], [got.funcs, got.types, headerKept ? [] : got.imports]);
  // The region's constants are written as the old facts' records (a parse of the whole file shares
  // one record of each through the file): each stands in the region's records as an old value.
  const shareSeen = new Set<object>();
  const share = (x: unknown): unknown => {
    if (typeof x !== 'object' || x === null) return x;
    const c = constantKey(x);
    const at = c === undefined ? undefined : oldFacts.shared.get(c);
    if (at !== undefined) return new OldValue(at);
    if (shareSeen.has(x)) return x;
    shareSeen.add(x);
    if (Array.isArray(x)) for (let i = 0; i < x.length; i++) x[i] = share(x[i]);
    else for (const k in x as Record<string, unknown>) (x as Record<string, unknown>)[k] = share((x as Record<string, unknown>)[k]);
    return x;
  };
  got.funcs.forEach(share);
  got.types.forEach(share);
  const olds = (key: string, from: number, to?: number) => list(key).slice(from, to).map((at) => new OldValue(at));
  // Old values stand in the facts' lists where they are kept (see Repack).
  const facts = {
    path: oldFacts.field(0, 'path'),
    pkg: oldPkg,
    imports: headerKept ? new OldValue(importsAt) : got.imports,
    funcs: [...olds('funcs', 0, fp), ...got.funcs, ...olds('funcs', fq)],
    types: [...olds('types', 0, tp), ...got.types, ...olds('types', tq)],
    values: [...olds('values', 0, vp), ...olds('values', vq)],
    diagnostics: [],
  } as unknown as FileFacts;
  if (L >= SEGMENTS_MIN_CHARS) segmentsMade.set(facts, newSegments(text, seg, { p, q, delta, start: Math.max(start, header), header, lines }, layout, [fp, tp, vp], [got.funcs.length - (fq - fp), got.types.length - (tq - tp), 0]));
  let packed: Uint8Array;
  try {
    packed = packFacts(facts, undefined, { old: oldFacts, move });
  } catch {
    return undefined;
  }
  // A string field of a declaration, kept (an old value) or the region's.
  const field = (x: unknown, k: string): string | undefined => {
    const v = x instanceof OldValue ? oldFacts.field(x.at, k) : (x as Record<string, unknown>)[k];
    return typeof v === 'string' ? v : undefined;
  };
  const declared = (): Declared => ({
    funcs: facts.funcs.map((f) => ({ local: field(f, 'local') ?? '', doc: field(f, 'doc'), fingerprint: field(f, 'fingerprint') ?? '' })),
    types: facts.types.map((t) => ({ name: field(t, 'name') ?? '', doc: field(t, 'doc'), fingerprint: field(t, 'fingerprint') ?? '' })),
    values: facts.values.map((v) => ({ name: field(v, 'name') ?? '', doc: field(v, 'doc') })),
  });
  return { packed, shift: regionSame ? pairs.result() : undefined, declared };
}

/** The segments of the new text: the front's as they were, the region's as parsed, the back's moved. */
function newSegments(
  text: string,
  seg: Segments,
  at: { p: number; q: number; delta: number; start: number; header: number; lines: number },
  layout: { ends: number[]; counts: number[] },
  base: number[],
  grew: number[],
): Segments {
  const { p, q, delta } = at;
  const n = seg.decls.length / W;
  const m = layout.ends.length;
  const decls = new Int32Array((p + m + n - q) * W);
  decls.set(seg.decls.subarray(0, p * W));
  let from = at.start;
  for (let j = 0; j < m; j++) {
    const o = (p + j) * W;
    decls[o] = layout.ends[j];
    hashRange(text, from, layout.ends[j], decls, o + 1);
    for (let c = 0; c < 3; c++) decls[o + 3 + c] = base[c] + layout.counts[3 * j + c];
    from = layout.ends[j];
  }
  for (let k = q; k < n; k++) {
    const o = (p + m + k - q) * W;
    decls[o] = seg.decls[k * W] + delta;
    decls[o + 1] = seg.decls[k * W + 1];
    decls[o + 2] = seg.decls[k * W + 2];
    for (let c = 0; c < 3; c++) decls[o + 3 + c] = seg.decls[k * W + 3 + c] + grew[c];
  }
  const hashes = Int32Array.from(seg.hashes);
  if (at.header !== seg.header || at.p === 0) hashRange(text, 0, at.header, hashes, 0);
  // The first segment after the region starts where the region's last declaration ends: hashed again.
  if (q < n) hashRange(text, from, seg.decls[q * W] + delta, decls, (p + m) * W + 1);
  else hashRange(text, from, text.length, hashes, 2);
  return { lines: at.lines, length: text.length, header: at.header, decls, hashes };
}

/**
 * The records the extractor shares through a file as constants: a literal's kind without its text
 * (`{k: 'lit', t}`) and the unknown type (`{k: 'unknown'}`); undefined for any other value.
 */
function constantKey(x: object): string | undefined {
  const r = x as Record<string, unknown>;
  if (r['k'] === 'lit') return keyCount(r) === 2 && typeof r['t'] === 'string' ? `lit:${r['t'] as string}` : undefined;
  if (r['k'] === 'unknown') return keyCount(r) === 1 ? 'unknown' : undefined;
  return undefined;
}

function keyCount(r: object): number {
  let n = 0;
  for (const _ in r) n++;
  return n;
}

function isInit(f: { name: string; kind: string }): boolean {
  return f.kind === 'func' && f.name === 'init';
}

/** Whether bytes[from, to) is white space only. */
function blankBetween(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!blankCode(bytes[i])) return false;
  return true;
}

/** Spaces over bytes[from, to), newlines kept. */
function blank(bytes: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) if (bytes[i] !== NEWLINE) bytes[i] = SPACE;
}

/** The row (0-based) of offset `at`. */
function rowOf(text: string, at: number): number {
  let row = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) row++;
  return row;
}
