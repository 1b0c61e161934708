/**
 * A fingerprint of Go source that ignores comments and whitespace: the text is split into tokens
 * (strings kept whole), comments dropped, and the tokens hashed. Two bodies that differ only in
 * layout or comments get the same fingerprint.
 */
import { createHash } from 'node:crypto';

const TOKEN = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|`[^`]*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*|\d[\w.]*|\.\.\.|<-|:=|&&|\|\||[<>=!+\-*/%&|^]=|<<=?|>>=?|&\^=?|\+\+|--|\S/g;

export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const t = m[0];
    if (t.startsWith('//') || t.startsWith('/*')) continue;
    out.push(t);
  }
  return out;
}

export function fingerprint(text: string): string {
  return createHash('sha1').update(tokens(text).join(' ')).digest('hex').slice(0, 16);
}

/** One short hash per source line that has tokens: used to say how much of a body changed and where. */
export function lineHashes(text: string): string[] {
  return text.split('\n').map((l) => tokens(l).join(' ')).filter((l) => l.length > 0)
    .map((l) => createHash('sha1').update(l).digest('hex').slice(0, 6));
}
