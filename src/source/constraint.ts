/**
 * Build-constraint expressions: the `//go:build` syntax and the legacy `// +build` lines, parsed into
 * one small tree so both are evaluated and printed the same way.
 */
export type ConstraintExpr =
  | { kind: 'tag'; name: string }
  | { kind: 'not'; x: ConstraintExpr }
  | { kind: 'and' | 'or'; x: ConstraintExpr; y: ConstraintExpr };

export class ConstraintSyntaxError extends Error {
  override readonly name = 'ConstraintSyntaxError';
}

const TAG_CHAR = /[\p{L}\p{N}_.]/u;

export function isValidTag(word: string): boolean {
  if (word.length === 0) return false;
  for (const ch of word) if (!TAG_CHAR.test(ch)) return false;
  return true;
}

const tag = (name: string): ConstraintExpr => ({ kind: 'tag', name });
const not = (x: ConstraintExpr): ConstraintExpr => ({ kind: 'not', x });
const join = (kind: 'and' | 'or', x: ConstraintExpr | undefined, y: ConstraintExpr): ConstraintExpr =>
  x === undefined ? y : { kind, x, y };

type Token = '(' | ')' | '!' | '&&' | '||' | { tag: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i] as string;
    if (ch === ' ' || ch === '\t') { i++; continue; }
    if (ch === '(' || ch === ')' || ch === '!') { out.push(ch); i++; continue; }
    const two = src.slice(i, i + 2);
    if (two === '&&' || two === '||') { out.push(two); i += 2; continue; }
    let j = i;
    while (j < src.length && TAG_CHAR.test(src[j] as string)) j++;
    if (j === i) throw new ConstraintSyntaxError(`unexpected character ${JSON.stringify(ch)}`);
    out.push({ tag: src.slice(i, j) });
    i = j;
  }
  return out;
}

/** Parses the expression of a `//go:build` line (the text after the `//go:build` prefix). */
export function parseGoBuild(src: string): ConstraintExpr {
  const toks = tokenize(src);
  let pos = 0;
  const peek = (): Token | undefined => toks[pos];

  // Precedence climbs from || (loosest) through && to unary !, exactly like Go expressions.
  const parseOr = (): ConstraintExpr => {
    let x = parseAnd();
    while (peek() === '||') { pos++; x = { kind: 'or', x, y: parseAnd() }; }
    return x;
  };
  const parseAnd = (): ConstraintExpr => {
    let x = parseNot();
    while (peek() === '&&') { pos++; x = { kind: 'and', x, y: parseNot() }; }
    return x;
  };
  const parseNot = (): ConstraintExpr => {
    const t = peek();
    if (t === '!') { pos++; return not(parseNot()); }
    if (t === '(') {
      pos++;
      const x = parseOr();
      if (peek() !== ')') throw new ConstraintSyntaxError('missing close paren');
      pos++;
      return x;
    }
    if (t === undefined) throw new ConstraintSyntaxError('unexpected end of expression');
    if (typeof t === 'string') throw new ConstraintSyntaxError(`unexpected token ${t}`);
    pos++;
    return tag(t.tag);
  };

  const x = parseOr();
  if (pos < toks.length) {
    const t = toks[pos] as Token;
    throw new ConstraintSyntaxError(`unexpected token ${typeof t === 'string' ? t : t.tag}`);
  }
  return x;
}

/**
 * Converts `// +build` lines (each line a clause list: space = OR, comma = AND; lines are ANDed).
 * As in current Go, a malformed term becomes the tag `ignore` instead of an error, and a line without
 * terms excludes the file the same way.
 */
export function parsePlusBuildLines(lines: readonly string[]): ConstraintExpr | undefined {
  let all: ConstraintExpr | undefined;
  for (const line of lines) {
    const body = line.replace(/^\/\/\s*\+build/, '');
    let anyOf: ConstraintExpr | undefined;
    for (const clause of body.split(/\s+/).filter((s) => s.length > 0)) {
      let allOf: ConstraintExpr | undefined;
      for (let lit of clause.split(',')) {
        let term: ConstraintExpr;
        if (lit.startsWith('!!') || lit === '!') {
          term = tag('ignore');
        } else {
          const negated = lit.startsWith('!');
          if (negated) lit = lit.slice(1);
          term = isValidTag(lit) ? tag(lit) : tag('ignore');
          if (negated) term = not(term);
        }
        allOf = join('and', allOf, term);
      }
      if (allOf !== undefined) anyOf = join('or', anyOf, allOf);
    }
    all = join('and', all, anyOf ?? tag('ignore'));
  }
  return all;
}

export function evalConstraint(e: ConstraintExpr, ok: (tag: string) => boolean): boolean {
  switch (e.kind) {
    case 'tag': return ok(e.name);
    case 'not': return !evalConstraint(e.x, ok);
    case 'and': return evalConstraint(e.x, ok) && evalConstraint(e.y, ok);
    case 'or': return evalConstraint(e.x, ok) || evalConstraint(e.y, ok);
  }
}

/** Prints in `//go:build` syntax with only the parentheses precedence requires. */
export function formatConstraint(e: ConstraintExpr): string {
  const prec = (x: ConstraintExpr): number => (x.kind === 'or' ? 1 : x.kind === 'and' ? 2 : 3);
  const sub = (x: ConstraintExpr, min: number): string => {
    const s = formatConstraint(x);
    return prec(x) < min ? `(${s})` : s;
  };
  switch (e.kind) {
    case 'tag': return e.name;
    case 'not': return `!${sub(e.x, 3)}`;
    case 'and': return `${sub(e.x, 2)} && ${sub(e.y, 2)}`;
    case 'or': return `${sub(e.x, 1)} || ${sub(e.y, 1)}`;
  }
}
