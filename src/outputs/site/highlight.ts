/**
 * A small Go tokenizer that turns a file into one HTML string per line. It only needs to be right
 * about what a reader sees (comments, strings, keywords); full parsing is the index's job. Call sites
 * become links: on a line with resolved calls, an identifier naming a callee links to that callee.
 * Hand-written over char codes: a regex tokenizer was too slow for the ~5,000 files of a full build.
 */
import { escapeHtml } from './html.js';

const KEYWORDS = new Set(
  'break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var'.split(' '),
);
const BUILTINS = new Set(
  'append cap clear close complex copy delete imag len make max min new panic print println real recover bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable true false nil iota'.split(' '),
);

/** One link target per identifier name on a line. */
export type LineLinks = Map<number, Map<string, { href: string; title: string }>>;

const NL = 10;

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c > 127;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

function esc(s: string): string {
  return /[&<>"']/.test(s) ? escapeHtml(s) : s;
}

export function highlightGo(text: string, links: LineLinks = new Map()): string[] {
  const lines: string[] = [];
  let cur = '';
  let line = 1;
  let lineLinks = links.get(1);
  const newline = () => {
    lines.push(cur);
    cur = '';
    line++;
    lineLinks = links.get(line);
  };
  /** A token that may span lines: each line gets its own closed span. */
  const wrap = (cls: string, s: string) => {
    let start = 0;
    for (;;) {
      const nl = s.indexOf('\n', start);
      const part = nl < 0 ? s.slice(start) : s.slice(start, nl);
      if (part) cur += `<i class=${cls}>${esc(part)}</i>`;
      if (nl < 0) return;
      newline();
      start = nl + 1;
    }
  };
  const n = text.length;
  let i = 0;
  let plain = i;
  const flush = (to: number) => {
    if (to > plain) cur += esc(text.slice(plain, to));
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === NL) {
      flush(i);
      newline();
      plain = ++i;
      continue;
    }
    let end = -1;
    let cls = '';
    if (c === 47 && text.charCodeAt(i + 1) === 47) {
      end = text.indexOf('\n', i);
      if (end < 0) end = n;
      cls = 'c';
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      end = text.indexOf('*/', i + 2);
      end = end < 0 ? n : end + 2;
      cls = 'c';
    } else if (c === 96) {
      end = text.indexOf('`', i + 1);
      end = end < 0 ? n : end + 1;
      cls = 's';
    } else if (c === 34 || c === 39) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) j += 2;
        else if (d === c) { j++; break; }
        else if (d === NL) break;
        else j++;
      }
      end = Math.min(j, n);
      cls = 's';
    } else if (c >= 48 && c <= 57) {
      let j = i + 1;
      while (j < n && (isIdentPart(text.charCodeAt(j)) || text.charCodeAt(j) === 46)) j++;
      end = j;
      cls = 'n';
    } else if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      const word = text.slice(i, j);
      const link = lineLinks?.get(word);
      if (link) {
        flush(i);
        cur += `<a class=call href="${escapeHtml(link.href)}" title="${escapeHtml(link.title)}">${esc(word)}</a>`;
        plain = i = j;
        continue;
      }
      if (KEYWORDS.has(word)) cls = 'k';
      else if (BUILTINS.has(word)) cls = 'b';
      else {
        i = j;
        continue;
      }
      end = j;
    } else {
      i++;
      continue;
    }
    flush(i);
    wrap(cls, text.slice(i, end));
    plain = i = end;
  }
  flush(n);
  lines.push(cur);
  return lines;
}
