/**
 * A fingerprint of Go source that ignores comments and whitespace: the text is split into tokens
 * (strings kept whole), comments dropped, and the tokens hashed. Two bodies that differ only in
 * layout or comments get the same fingerprint.
 *
 * The tokens are those of this regular expression's matches, in order (test/parse/fingerprint.test.ts
 * holds it and checks the scanner below against it):
 *
 *   //[^\n]* | /\*[\s\S]*?\*\/ | `[^`]*` | "(?:[^"\\\n]|\\.)*" | '(?:[^'\\\n]|\\.)*'
 *   | [A-Za-z_\u0080-\uffff][\w\u0080-\uffff]* | \d[\w.]* | \.\.\. | <- | := | && | \|\|
 *   | [<>=!+\-*\/%&|^]= | <<=? | >>=? | &\^=? | \+\+ | -- | \S
 *
 * The scanner walks the UTF-8 bytes instead: every declaration of every file is fingerprinted while it
 * is extracted, and the regular expression's match, the token strings and their join cost more.
 * Fingerprints stored in annotation locks stay valid only while these tokens do not change. The scanner
 * and the hash are mirrored in C by src/parse/native/extract_facts.c (tested to give the same).
 */
import * as crypto from 'node:crypto';

/** Byte classes: ASCII whitespace (the only text no token starts with), letters and `_`, digits. */
const SPACE = 1;
const LETTER = 2;
const DIGIT = 4;
const CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if (c === 32 || (c >= 9 && c <= 13)) CLASS[c] = SPACE;
  // Every byte of a char from U+0080 up is 0x80 or more, and such chars start and go on identifiers.
  else if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80) CLASS[c] = LETTER;
  else if (c >= 48 && c <= 57) CLASS[c] = DIGIT;
}

/** Where `a`, `b` occur from `i` on, before `end`, or -1 (`b` < 0: `a` alone). */
function find(s: Uint8Array, i: number, end: number, a: number, b = -1): number {
  for (; i < end; i++) if (s[i] === a && (b < 0 || (i + 1 < end && s[i + 1] === b))) return i;
  return -1;
}

/** A quoted literal's end (after its closing quote), or -1 when it is not closed on its line. */
function quotedEnd(s: Uint8Array, i: number, end: number, quote: number): number {
  for (let j = i + 1; j < end; ) {
    const c = s[j];
    if (c === quote) return j + 1;
    if (c === 10) return -1;
    if (c === 92) {
      // A backslash escapes any char but a line terminator: \n, \r, U+2028 or U+2029 (E2 80 A8/A9).
      if (j + 1 >= end) return -1;
      const e = s[j + 1];
      if (e === 10 || e === 13) return -1;
      if (e === 0xe2 && j + 3 < end && s[j + 2] === 0x80 && (s[j + 3] === 0xa8 || s[j + 3] === 0xa9)) return -1;
      // Only the first byte of a longer char is taken here; the rest are plain bytes of the literal.
      j += 2;
    } else j++;
  }
  return -1;
}

/**
 * The end of the token that starts at `i` (not whitespace) in the UTF-8 bytes `s`, which end at `end`,
 * the alternatives tried in the order above. Token ends fall between chars: every alternative stops at
 * an ASCII byte or at the end of a run of bytes of 0x80 and up.
 */
function tokenEnd(s: Uint8Array, i: number, end: number): number {
  const c = s[i];
  const d = i + 1 < end ? s[i + 1] : -1;
  const e = i + 2 < end ? s[i + 2] : -1;
  switch (c) {
    case 47: // '/'
      if (d === 47) {
        const nl = find(s, i + 2, end, 10);
        return nl < 0 ? end : nl;
      }
      if (d === 42) {
        const close = find(s, i + 2, end, 42, 47);
        if (close >= 0) return close + 2;
      }
      return d === 61 ? i + 2 : i + 1;
    case 96: {
      // '`'
      const close = find(s, i + 1, end, 96);
      return close < 0 ? i + 1 : close + 1;
    }
    case 34: // '"'
    case 39: {
      // "'"
      const close = quotedEnd(s, i, end, c);
      return close < 0 ? i + 1 : close;
    }
    case 46: // '.'
      return d === 46 && e === 46 ? i + 3 : i + 1;
    case 60: // '<'
      if (d === 45 || d === 61) return i + 2;
      if (d === 60) return e === 61 ? i + 3 : i + 2;
      return i + 1;
    case 62: // '>'
      if (d === 61) return i + 2;
      if (d === 62) return e === 61 ? i + 3 : i + 2;
      return i + 1;
    case 38: // '&'
      if (d === 38 || d === 61) return i + 2;
      if (d === 94) return e === 61 ? i + 3 : i + 2;
      return i + 1;
    case 124: // '|'
      return d === 124 || d === 61 ? i + 2 : i + 1;
    case 43: // '+'
      return d === 61 || d === 43 ? i + 2 : i + 1;
    case 45: // '-'
      return d === 61 || d === 45 ? i + 2 : i + 1;
    case 58: // ':'
    case 61: // '='
    case 33: // '!'
    case 37: // '%'
    case 94: // '^'
    case 42: // '*'
      return d === 61 ? i + 2 : i + 1;
  }
  const k = CLASS[c];
  if (k === LETTER) {
    let j = i + 1;
    while (j < end && CLASS[s[j]] & (LETTER | DIGIT)) j++;
    return j;
  }
  if (k === DIGIT) {
    // \w is ASCII: a number does not go on into other letters.
    let j = i + 1;
    for (; j < end; j++) {
      const b = s[j];
      if (!(b < 0x80 && CLASS[b] & (LETTER | DIGIT)) && b !== 46) break;
    }
    return j;
  }
  return i + 1;
}

/** Whether the token from `i` to `end` is a comment (a lone `/` is not). */
function comment(s: Uint8Array, i: number, end: number): boolean {
  return end - i > 1 && s[i] === 47 && (s[i + 1] === 47 || s[i + 1] === 42);
}

/** Calls `each` with the start and end of every token of `s` from `start` to `end`, comments left out. */
function scan(s: Uint8Array, start: number, end: number, each: (from: number, to: number) => void): void {
  for (let i = start; i < end; ) {
    if (CLASS[s[i]] === SPACE) {
      i++;
      continue;
    }
    const to = tokenEnd(s, i, end);
    if (!comment(s, i, to)) each(i, to);
    i = to;
  }
}

export function tokens(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: string[] = [];
  scan(bytes, 0, bytes.length, (from, to) => out.push(bytes.toString('utf8', from, to)));
  return out;
}

/** SHA-1 in one call where node has it (20.12 and later): no Hash object made per declaration. */
const sha1Hex: (s: string | Uint8Array) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (s) => (crypto as unknown as { hash(alg: string, data: string | Uint8Array): string }).hash('sha1', s)
    : (s) => crypto.createHash('sha1').update(s).digest('hex');

/** The tokens joined by spaces, in a buffer reused from call to call. */
let joined = new Uint8Array(1 << 16);

/**
 * The fingerprint of the UTF-8 bytes of `source` from `start` to `end`: the extractor passes a file's
 * bytes and a declaration's offsets when they are the same as its text's (an ASCII file), so that no
 * text is sliced or encoded. The hash is of the tokens' UTF-8 joined by spaces, the bytes copied as
 * they are.
 */
export function fingerprintBytes(source: Uint8Array, start = 0, end = source.length): string {
  // Each token takes its own length and one space at most.
  if (joined.length < 2 * (end - start)) joined = new Uint8Array(2 * (end - start));
  let w = 0;
  scan(source, start, end, (from, to) => {
    if (w > 0) joined[w++] = 32;
    for (let k = from; k < to; k++) joined[w++] = source[k];
  });
  return sha1Hex(joined.subarray(0, w)).slice(0, 16);
}

export function fingerprint(text: string): string {
  return fingerprintBytes(Buffer.from(text, 'utf8'));
}

/** The fingerprint of a file's text from `start` to `end`, read from its bytes when it has them (see FileWalk). */
export function fingerprintOf(file: { text: string; bytes?: Uint8Array }, start: number, end: number): string {
  return file.bytes ? fingerprintBytes(file.bytes, start, end) : fingerprint(file.text.slice(start, end));
}

/** One short hash per source line that has tokens: used to say how much of a body changed and where. */
export function lineHashes(text: string): string[] {
  return text.split('\n').map((l) => tokens(l).join(' ')).filter((l) => l.length > 0)
    .map((l) => sha1Hex(l).slice(0, 6));
}
