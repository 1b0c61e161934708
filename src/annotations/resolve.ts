/** Anchors as written → full symbol IDs, through the call-graph index's lookup (short forms allowed). */
import type { Diagnostic } from '../model/index.js';
import type { Lookup, SymbolTable } from '../graph/lookup.js';
import type { Anchor, ResolveResult, ResolvedAnchor, Topic } from './types.js';

export function resolveAnchors(topics: readonly Topic[], table: SymbolTable): ResolveResult {
  const memo = new Map<string, Lookup>();
  const anchors: ResolvedAnchor[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const t of topics) {
    for (const a of t.anchors) {
      let r = memo.get(a.symbol);
      if (!r) memo.set(a.symbol, (r = lookupAnchor(table, a.symbol)));
      if (r.ok) anchors.push({ ...a, id: r.symbol.id });
      else diagnostics.push(lookupDiagnostic(a, r));
    }
  }
  return { anchors, diagnostics };
}

/**
 * The table's lookup, plus Go's runtime naming of commands: a symbol of a `package main` is written
 * `main.main` (as in a stack trace) although its import path ends in the command's folder name.
 */
export function lookupAnchor(table: SymbolTable, query: string): Lookup {
  const r = table.lookup(query);
  const m = /^([A-Za-z_]\w*)\.(.+)$/.exec(query.trim());
  if (r.ok || r.reason !== 'unknown' || !m) return r;
  const paths = packagesNamed(table).get(m[1]) ?? [];
  const hits = paths.map((p) => table.lookup(`${p}.${m[2]}`)).filter((x): x is Extract<Lookup, { ok: true }> => x.ok);
  const ids = [...new Set(hits.map((h) => h.symbol.id))];
  if (ids.length === 1) return hits[0];
  if (ids.length > 1) return { ok: false, reason: 'ambiguous', query, candidates: ids.sort() };
  return r;
}

const named = new WeakMap<SymbolTable, Map<string, string[]>>();

/** Package name → import paths, for names that differ from the path's last element. */
function packagesNamed(table: SymbolTable): Map<string, string[]> {
  let map = named.get(table);
  if (!map) {
    map = new Map();
    for (const s of table.symbols) {
      if (s.kind !== 'package' || s.id.endsWith(`/${s.name}`) || s.id === s.name) continue;
      map.set(s.name, [...(map.get(s.name) ?? []), s.id]);
    }
    named.set(table, map);
  }
  return map;
}

export function lookupDiagnostic(a: Anchor, r: Extract<Lookup, { ok: false }>, extra: string[] = []): Diagnostic {
  if (r.reason === 'ambiguous') {
    return {
      severity: 'error', code: 'anchor-ambiguous', file: a.file, line: a.line,
      message: `anchor \`@${a.symbol}\` is ambiguous: write a longer package path; candidates: ${r.candidates.slice(0, 8).join(', ')}${r.candidates.length > 8 ? `, … ${r.candidates.length - 8} more` : ''}`,
    };
  }
  const near = [...new Set([...extra, ...r.candidates])].slice(0, 5);
  return {
    severity: 'error', code: 'anchor-unknown', file: a.file, line: a.line,
    message: `anchor \`@${a.symbol}\` names no symbol in the tree${near.length ? `; did you mean ${near.map((c) => `\`${c}\``).join(', ')}?` : ''}`,
  };
}
