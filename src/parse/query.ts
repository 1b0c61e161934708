/** Loads the `.scm` queries next to this module and checks their capture names once, at start-up. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
// Types only: the bindings are loaded by whoever needs them (see extract.ts).
import type ParserModule from 'tree-sitter';

const here = dirname(fileURLToPath(import.meta.url));

/** The query files live in src/parse/queries; the compiled module runs from dist/src/parse. */
function queryPath(name: string): string {
  const candidates = [join(here, 'queries', name), join(here, '..', '..', '..', 'src', 'parse', 'queries', name)];
  for (const c of candidates) {
    try {
      readFileSync(c);
      return c;
    } catch {
      // try the next location
    }
  }
  throw new Error(`query file ${name} not found next to ${here}; reinstall the package`);
}

export function querySource(name: string): string {
  return readFileSync(queryPath(name), 'utf8');
}

/** The query compiled by the bindings (`Parser` is the tree-sitter module), its capture names checked (see checkCaptures). */
export function loadQuery(Parser: typeof ParserModule, language: unknown, name: string, captures: readonly string[]): ParserModule.Query {
  const source = querySource(name);
  const query = new Parser.Query(language as ParserModule.Language, source);
  checkCaptures(name, source, captures);
  return query;
}

/** Throws unless the query's captures are exactly the ones the extractor handles. */
export function checkCaptures(name: string, source: string, captures: readonly string[]): void {
  const known = new Set(captures);
  // The Node bindings do not expose capture names, so read them from the source (comments stripped).
  const found = new Set([...source.replace(/;[^\n]*/g, '').matchAll(/@([\w.]+)/g)].map((m) => m[1]));
  for (const c of found) if (!known.has(c)) throw new Error(`${name}: capture @${c} has no handler`);
  for (const c of known) if (!found.has(c)) throw new Error(`${name}: handler for @${c} has no capture`);
}
