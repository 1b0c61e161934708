/**
 * A fast scanner for the start of a Go file: the leading comment block (where build constraints live),
 * the package clause and the import declarations. It reads only as far as the last import, so the
 * source stage can decide activity and follow imports from a small prefix of each file, without
 * tree-sitter.
 */
export interface ImportSpec {
  path: string;
  /** The alias, `_` or `.`, when one is written. */
  name?: string;
  line: number;
}

export interface GoHeader {
  /** Text after `//go:build`, trimmed. */
  goBuild?: string;
  /** `// +build` lines found in the header, trimmed. */
  plusBuild: string[];
  packageName?: string;
  imports: ImportSpec[];
  /** True when `text` was only a prefix of the file and ended before the import section did. */
  needMore: boolean;
  /** A malformed header: two //go:build lines, no package clause, a broken import declaration. */
  error?: string;
}

/**
 * V8 keeps a whole file's text alive while any slice of it lives, so strings that outlive the scan
 * (import paths, constraints) are copied out once and shared. Without this the heads of all files
 * stay in the heap and garbage collection dominates the walk.
 */
const pool = new Map<string, string>();

export function detach(s: string): string {
  let v = pool.get(s);
  if (v === undefined) {
    v = Buffer.from(s, 'utf8').toString('utf8');
    pool.set(v, v);
  }
  return v;
}

/** `partial` says `text` is a prefix of the file (cut at a line end); then running out means "read more". */
export function scanHeader(text: string, partial = false): GoHeader {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const head = scanConstraintComments(text);
  const out: GoHeader = { plusBuild: head.plusBuild, imports: [], needMore: false };
  if (head.goBuild !== undefined) out.goBuild = detach(head.goBuild);
  if (head.error !== undefined) out.error = head.error;
  if (!head.sawCode && partial) {
    out.needMore = true;
    return out;
  }
  scanDecls(text, partial, out);
  return out;
}

interface ConstraintComments { goBuild?: string; plusBuild: string[]; sawCode: boolean; error?: string }

/**
 * Mirrors go/build: //go:build counts anywhere in the leading run of comments, while // +build lines
 * count only up to the last blank line before the first non-comment line (so a doc comment glued to
 * the package clause never carries constraints).
 */
function scanConstraintComments(text: string): ConstraintComments {
  const res: ConstraintComments = { plusBuild: [], sawCode: false };
  const candidates: { line: string; at: number }[] = [];
  let lastBlankEnd = 0;
  let ended = false;
  let inBlock = false;
  let pos = 0;
  lines: while (pos < text.length) {
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length;
    let line = text.slice(pos, nl).trim();
    pos = nl + 1;
    if (line.length === 0 && !ended) { lastBlankEnd = pos; continue; }
    if (!line.startsWith('//')) ended = true;
    if (!inBlock && /^\/\/go:build(?:[ \t]|$)/.test(line)) {
      if (res.goBuild !== undefined) { res.error = 'multiple //go:build comments'; }
      else res.goBuild = line.slice('//go:build'.length).trim();
    }
    if (!inBlock && isPlusBuild(line)) candidates.push({ line, at: pos });
    // Strip comments from the line; any text left over is code and ends the header.
    while (line.length > 0) {
      if (inBlock) {
        const close = line.indexOf('*/');
        if (close < 0) continue lines;
        inBlock = false;
        line = line.slice(close + 2).trim();
        continue;
      }
      if (line.startsWith('//')) continue lines;
      if (line.startsWith('/*')) { inBlock = true; line = line.slice(2).trim(); continue; }
      res.sawCode = true;
      break lines;
    }
  }
  res.plusBuild = candidates.filter((c) => c.at <= lastBlankEnd).map((c) => c.line);
  return res;
}

function isPlusBuild(line: string): boolean {
  if (!line.startsWith('//')) return false;
  const rest = line.slice(2).trim();
  if (!rest.startsWith('+build')) return false;
  const after = rest.slice('+build'.length);
  return after === '' || after[0] === ' ' || after[0] === '\t';
}

type Tok =
  | { t: 'ident'; v: string; line: number }
  | { t: 'string'; v: string; line: number }
  | { t: 'punct'; v: string; line: number }
  | { t: 'eof'; line: number }
  | { t: 'bad'; line: number; v: string };

/** Just enough of Go's lexer for package and import declarations. */
class Lexer {
  private i = 0;
  private line = 1;
  constructor(private readonly s: string) {}

  next(): Tok {
    const s = this.s;
    for (;;) {
      if (this.i >= s.length) return { t: 'eof', line: this.line };
      const c = s.charCodeAt(this.i);
      if (c === 10) { this.line++; this.i++; continue; }
      if (c === 32 || c === 9 || c === 13) { this.i++; continue; }
      if (c === 47 /* / */ && s.charCodeAt(this.i + 1) === 47) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl;
        continue;
      }
      if (c === 47 && s.charCodeAt(this.i + 1) === 42 /* * */) {
        const end = s.indexOf('*/', this.i + 2);
        if (end < 0) { this.i = s.length; continue; }
        this.countLines(this.i, end);
        this.i = end + 2;
        continue;
      }
      break;
    }
    const line = this.line;
    const c = s[this.i] as string;
    if (c === '"') return this.interpreted(line);
    if (c === '`') {
      const end = s.indexOf('`', this.i + 1);
      if (end < 0) { this.i = s.length; return { t: 'eof', line }; }
      const v = s.slice(this.i + 1, end).replace(/\r/g, '');
      this.countLines(this.i, end);
      this.i = end + 1;
      return { t: 'string', v, line };
    }
    if (isIdentStart(c)) {
      let j = this.i + 1;
      while (j < s.length && isIdentPart(s[j] as string)) j++;
      const v = s.slice(this.i, j);
      this.i = j;
      return { t: 'ident', v, line };
    }
    this.i++;
    if (c === '(' || c === ')' || c === ';' || c === '.') return { t: 'punct', v: c, line };
    return { t: 'bad', v: c, line };
  }

  private interpreted(line: number): Tok {
    const s = this.s;
    // Import paths almost never hold escapes: take the slice directly when there are none.
    const close = s.indexOf('"', this.i + 1);
    if (close >= 0) {
      const raw = s.slice(this.i + 1, close);
      if (!raw.includes('\\') && !raw.includes('\n')) {
        this.i = close + 1;
        return { t: 'string', v: raw, line };
      }
    }
    let j = this.i + 1;
    let v = '';
    while (j < s.length) {
      const c = s[j] as string;
      if (c === '"') { this.i = j + 1; return { t: 'string', v, line }; }
      if (c === '\n') break;
      if (c === '\\') {
        const esc = s[j + 1];
        if (esc === undefined) break;
        const simple: Record<string, string> = { n: '\n', t: '\t', '\\': '\\', '"': '"', "'": "'", r: '\r' };
        if (esc in simple) { v += simple[esc]; j += 2; continue; }
        const hexLen = esc === 'x' ? 2 : esc === 'u' ? 4 : esc === 'U' ? 8 : 0;
        if (hexLen > 0) {
          v += String.fromCodePoint(parseInt(s.slice(j + 2, j + 2 + hexLen), 16) || 0xfffd);
          j += 2 + hexLen;
          continue;
        }
        v += esc;
        j += 2;
        continue;
      }
      v += c;
      j++;
    }
    this.i = s.length;
    return j >= s.length ? { t: 'eof', line } : { t: 'bad', v: 'unterminated string', line };
  }

  private countLines(from: number, to: number): void {
    for (let k = this.s.indexOf('\n', from); k >= 0 && k < to; k = this.s.indexOf('\n', k + 1)) this.line++;
  }
}

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c > '\x7f';
}
function isIdentPart(c: string): boolean {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}

function scanDecls(text: string, partial: boolean, out: GoHeader): void {
  const lx = new Lexer(text);
  // Running out of text is only a problem if the caller can give us more of the file.
  const ranOut = (what: string): void => {
    if (partial) out.needMore = true;
    else if (what !== '') out.error ??= what;
  };

  let tok = lx.next();
  if (tok.t === 'ident' && tok.v === 'package') tok = lx.next();
  else if (tok.t === 'eof') { ranOut('no package clause'); return; }
  else { out.error ??= 'no package clause'; return; }
  if (tok.t !== 'ident') {
    if (tok.t === 'eof') ranOut('no package name');
    else out.error ??= 'no package name';
    return;
  }
  out.packageName = detach(tok.v);

  const spec = (first: Tok): Tok | 'done' => {
    let t = first;
    let name: string | undefined;
    if (t.t === 'ident' || (t.t === 'punct' && t.v === '.')) { name = t.v; t = lx.next(); }
    if (t.t !== 'string') return t;
    const path = detach(t.v);
    out.imports.push(name === undefined ? { path, line: t.line } : { path, name: detach(name), line: t.line });
    return 'done';
  };

  for (;;) {
    tok = lx.next();
    if (tok.t === 'punct' && tok.v === ';') continue;
    if (tok.t === 'eof') { ranOut(''); return; }
    if (tok.t !== 'ident' || tok.v !== 'import') return; // first non-import declaration: done
    tok = lx.next();
    if (tok.t === 'punct' && tok.v === '(') {
      for (;;) {
        tok = lx.next();
        if (tok.t === 'punct' && tok.v === ';') continue;
        if (tok.t === 'punct' && tok.v === ')') break;
        if (tok.t === 'eof') { ranOut('unterminated import block'); return; }
        const r = spec(tok);
        if (r === 'done') continue;
        if (r.t === 'eof') { ranOut('unterminated import block'); return; }
        out.error ??= `malformed import declaration on line ${r.line}`;
        return;
      }
      continue;
    }
    if (tok.t === 'eof') { ranOut('incomplete import declaration'); return; }
    const r = spec(tok);
    if (r === 'done') continue;
    if (r.t === 'eof') { ranOut('incomplete import declaration'); return; }
    out.error ??= `malformed import declaration on line ${r.line}`;
    return;
  }
}
