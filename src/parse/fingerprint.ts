/**
 * A fingerprint of Go source that ignores comments and whitespace: the text is split into tokens
 * (strings kept whole), comments dropped, and the tokens hashed. Two bodies that differ only in
 * layout or comments get the same fingerprint.
 */
import * as crypto from 'node:crypto';

const TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`[^`]*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|\d[\w.]*|\.\.\.|<-|:=|&&|\|\||[<>=!+\-*/%&|^]=|<<=?|>>=?|&\^=?|\+\+|--|\S/g;

export function tokens(text: string): string[] {
  // match() with /g gives the matched strings alone, without a match object (and its array) for each:
  // every declaration of every file is fingerprinted while it is extracted.
  const all = text.match(TOKEN);
  if (!all) return [];
  const out: string[] = [];
  for (const t of all) {
    // A comment starts with '/' and then '/' or '*'; no other token does.
    if (t.charCodeAt(0) === 47 && t.length > 1 && (t.charCodeAt(1) === 47 || t.charCodeAt(1) === 42)) continue;
    out.push(t);
  }
  return out;
}

/** SHA-1 in one call where node has it (20.12 and later): no Hash object made per declaration. */
const sha1Hex: (s: string) => string =
  typeof (crypto as { hash?: unknown }).hash === 'function'
    ? (s) => (crypto as unknown as { hash(alg: string, data: string): string }).hash('sha1', s)
    : (s) => crypto.createHash('sha1').update(s).digest('hex');

export function fingerprint(text: string): string {
  return sha1Hex(tokens(text).join(' ')).slice(0, 16);
}

/** One short hash per source line that has tokens: used to say how much of a body changed and where. */
export function lineHashes(text: string): string[] {
  return text.split('\n').map((l) => tokens(l).join(' ')).filter((l) => l.length > 0)
    .map((l) => sha1Hex(l).slice(0, 6));
}
