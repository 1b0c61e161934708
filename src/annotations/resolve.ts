/** Anchors as written → full symbol IDs, through the call-graph index's lookup (short forms allowed). */
import type { Diagnostic } from '../model/index.js';
import { normalizeId, type Lookup, type SymbolTable } from '../graph/lookup.js';
import { nameOf, pkgPath } from './ids.js';
import type { Anchor, ResolveResult, ResolvedAnchor, Topic } from './types.js';

export function resolveAnchors(topics: readonly Topic[], table: SymbolTable): ResolveResult {
  const memo = new Map<string, Lookup>();
  const anchors: ResolvedAnchor[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const t of topics) {
    for (const a of t.anchors) {
      let r = memo.get(a.symbol);
      if (!r) memo.set(a.symbol, (r = lookupAnchor(table, a.symbol)));
      if (!r.ok) {
        diagnostics.push(lookupDiagnostic(a, r));
        continue;
      }
      anchors.push({ ...a, id: r.symbol.id });
      const receiver = receiverMismatch(a.symbol, r.symbol.id);
      if (receiver) diagnostics.push({ severity: 'warning', code: 'anchor-receiver', file: a.file, line: a.line, message: `anchor \`@${a.symbol}\` resolves to ${r.symbol.id}, whose receiver is written differently; write \`@${receiver}\`` });
    }
  }
  return { anchors, diagnostics };
}

/** The lookup forgives `(*T).M` for `T.M`; anchors should say which one the code has. */
function receiverMismatch(written: string, id: string): string | undefined {
  if (id.endsWith(written) || !normalizeId(id).endsWith(normalizeId(written))) return undefined;
  // Same number of path elements as written, taken from the real ID.
  const parts = normalizeId(written).split('/').length;
  return id.split('/').slice(-parts).join('/');
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
  return { ...r, candidates: suggest(table, query) };
}

/**
 * Nearest names, those in the package the query names first (the table ranks by name only, so a
 * `Run` in an unrelated package would otherwise come before the one next door).
 */
export function suggest(table: SymbolTable, query: string, n = 5): string[] {
  const q = normalizeId(query);
  const name = nameOf(q);
  const pkg = pkgPath(q);
  const owner = q.slice(0, q.length - name.length - 1);
  const rank = (id: string) => {
    const nid = normalizeId(id);
    if (owner && nid.endsWith(`${owner}.${nameOf(nid)}`)) return 0;
    const p = pkgPath(nid);
    return p === pkg || p.endsWith(`/${pkg}`) ? 1 : 2;
  };
  return table.nearest(name, 100).map((id, i) => ({ id, i, r: rank(id) })).sort((a, b) => a.r - b.r || a.i - b.i).slice(0, n).map((x) => x.id);
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
