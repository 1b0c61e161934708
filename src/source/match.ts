import type { BuildContext } from '../model/index.js';
import {
  ConstraintSyntaxError, evalConstraint, formatConstraint, parseGoBuild, parsePlusBuildLines,
  type ConstraintExpr,
} from './constraint.js';
import { matchFileName, matchTag } from './context.js';
import { detach, scanHeader, type GoHeader } from './header.js';

export interface FileMatch {
  active: boolean;
  constraint?: string;
  /** Set when the header is malformed; such a file is never active. */
  error?: string;
}

/** The build-independent facts about one file, enough to decide activity for any context. */
export interface FileFacts {
  name: string;
  constraint?: string;
  imports: string[];
  invalid?: string;
}

const parsed = new Map<string, ConstraintExpr>();

function parseCached(expr: string): ConstraintExpr {
  let e = parsed.get(expr);
  if (e === undefined) {
    e = parseGoBuild(expr);
    parsed.set(expr, e);
  }
  return e;
}

/** Turns a scanned header into the facts, normalising legacy +build lines to //go:build syntax. */
export function factsFromHeader(name: string, h: GoHeader): FileFacts {
  const facts: FileFacts = { name: baseName(name), imports: uniquePaths(h) };
  let invalid = h.error;
  if (h.goBuild !== undefined) {
    facts.constraint = h.goBuild;
    try {
      parseCached(h.goBuild);
    } catch (err) {
      if (!(err instanceof ConstraintSyntaxError)) throw err;
      invalid ??= `bad //go:build line: ${err.message}`;
    }
  } else {
    const legacy = parsePlusBuildLines(h.plusBuild);
    if (legacy !== undefined) facts.constraint = detach(formatConstraint(legacy));
  }
  if (invalid !== undefined) facts.invalid = invalid;
  return facts;
}

export function isActive(f: FileFacts, ctx: BuildContext): boolean {
  if (f.invalid !== undefined) return false;
  if (!ctx.includeTests && f.name.endsWith('_test.go')) return false;
  if (!matchFileName(f.name, ctx)) return false;
  if (f.constraint !== undefined && !evalConstraint(parseCached(f.constraint), (t) => matchTag(ctx, t))) return false;
  // go/build drops cgo files when cgo is off, whatever their constraints say.
  if (!ctx.cgo && f.imports.includes('C')) return false;
  return true;
}

/** Decides whether go/build would select the file `name` with contents `text` under `ctx`. */
export function matchFile(name: string, text: string, ctx: BuildContext): FileMatch {
  const facts = factsFromHeader(name, scanHeader(text));
  const out: FileMatch = { active: isActive(facts, ctx) };
  if (facts.constraint !== undefined) out.constraint = facts.constraint;
  if (facts.invalid !== undefined) out.error = facts.invalid;
  return out;
}

function baseName(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i >= 0 ? p.slice(i + 1) : p;
}

function uniquePaths(h: GoHeader): string[] {
  const out: string[] = [];
  for (const s of h.imports) if (!out.includes(s.path)) out.push(s.path);
  return out;
}
