/**
 * Matching the symbols of two trees by ID, then pairing the IDs that vanished with the ones that
 * appeared: first by identical fingerprint (a package move or a renumbered closure), then by the
 * body with its own names blanked (a rename within a package). Only unambiguous pairs are taken.
 */
import type { Graph, SymbolKind, SymbolRecord } from '../model/index.js';
import { localPart, shapeOf, type ReadSource } from '../notes/index.js';
import { bodyLines, lineChange } from './lines.js';
import type { SymbolChange, Where } from './types.js';

const KINDS: ReadonlySet<SymbolKind> = new Set(['func', 'method', 'closure', 'type', 'interface']);

export interface SymbolDiff {
  /** Keyed by the `from` ID, and by the `to` ID for added symbols. */
  byId: Map<string, SymbolChange>;
  /** from ID → to ID for renamed symbols. */
  renames: Map<string, string>;
  /** Fills in line counts (reads both bodies); cheap to call twice. */
  measure(c: SymbolChange): SymbolChange;
}

/** One record per ID, preferring the build variant the context selects. */
export function symbolsById(graph: Graph): Map<string, SymbolRecord> {
  const m = new Map<string, SymbolRecord>();
  // Test files are parsed (inactive) but are not the kubelet; they count only when the context asks for tests.
  const tests = graph.context.includeTests;
  for (const s of graph.symbols) {
    if (!KINDS.has(s.kind) || (!tests && s.file.endsWith('_test.go'))) continue;
    const prev = m.get(s.id);
    if (!prev || (!prev.active && s.active)) m.set(s.id, s);
  }
  return m;
}

const where = (s: SymbolRecord): Where => ({ file: s.file, line: s.line, endLine: s.endLine });

export function compareSymbols(from: Graph, to: Graph, readFrom: ReadSource, readTo: ReadSource): SymbolDiff {
  const a = symbolsById(from);
  const b = symbolsById(to);
  const byId = new Map<string, SymbolChange>();
  const removed: SymbolRecord[] = [];
  for (const [id, s] of a) {
    const t = b.get(id);
    if (!t) {
      removed.push(s);
      continue;
    }
    const cls = s.fingerprint !== t.fingerprint ? 'changed' : s.file !== t.file ? 'moved' : s.line !== t.line ? 'shifted' : 'same';
    byId.set(id, { id, kind: t.kind, class: cls, pkg: t.pkg, from: where(s), to: where(t) });
  }
  const added = [...b.values()].filter((t) => !a.has(t.id));
  const renames = pairRenames(removed, added, readFrom, readTo);
  const pairedTo = new Set(renames.values());
  for (const s of removed) {
    const newId = renames.get(s.id);
    if (newId) {
      const t = b.get(newId)!;
      const by = s.fingerprint === t.fingerprint ? 'fingerprint' : 'shape';
      byId.set(s.id, { id: s.id, kind: t.kind, class: 'renamed', pkg: t.pkg, from: where(s), to: where(t), newId, renamedBy: by });
    } else byId.set(s.id, { id: s.id, kind: s.kind, class: 'removed', pkg: s.pkg, from: where(s) });
  }
  for (const t of added) {
    if (!pairedTo.has(t.id)) byId.set(t.id, { id: t.id, kind: t.kind, class: 'added', pkg: t.pkg, to: where(t) });
  }
  // `relist` → `Relist`: exported and rewritten at once. Not a rename (the body differs), but worth a pointer.
  const byLower = group([...byId.values()].filter((c) => c.class === 'added'), (c) => c.id.toLowerCase());
  for (const c of byId.values()) {
    if (c.class !== 'removed') continue;
    const next = byLower.get(c.id.toLowerCase());
    if (next?.length === 1) c.successor = next[0].id;
  }

  const measured = new Set<SymbolChange>();
  const measure = (c: SymbolChange): SymbolChange => {
    if (measured.has(c)) return c;
    measured.add(c);
    const before = c.from ? readFrom({ id: c.id, ...c.from }) : undefined;
    const after = c.to ? readTo({ id: c.newId ?? c.id, ...c.to }) : undefined;
    if (c.class === 'changed' && before !== undefined && after !== undefined) Object.assign(c, lineChange(before, after));
    else if (c.class === 'added' && after !== undefined) c.lines = bodyLines(after);
    else if (c.class === 'removed' && before !== undefined) {
      c.lines = bodyLines(before);
      const next = c.successor ? byId.get(c.successor) : undefined;
      const text = next?.to ? readTo({ id: next.id, ...next.to }) : undefined;
      if (text !== undefined) c.successorChange = lineChange(before, text);
    }
    return c;
  };
  return { byId, renames, measure };
}

function pairRenames(removed: SymbolRecord[], added: SymbolRecord[], readFrom: ReadSource, readTo: ReadSource): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  const name = (id: string) => localPart(id);

  // 1. Identical fingerprints: the same text (name included) under another ID.
  const byFp = group(added.filter((t) => t.fingerprint), (t) => `${t.kind}|${t.fingerprint}`);
  for (const [key, olds] of group(removed.filter((s) => s.fingerprint), (s) => `${s.kind}|${s.fingerprint}`)) {
    const news = (byFp.get(key) ?? []).filter((t) => !taken.has(t.id));
    if (!news.length) continue;
    const left = [...olds];
    // Same local name first (a package move), then a lone pair (a renumbered closure).
    for (const s of olds) {
      const t = news.find((x) => !taken.has(x.id) && name(x.id) === name(s.id));
      if (t) {
        out.set(s.id, t.id);
        taken.add(t.id);
        left.splice(left.indexOf(s), 1);
      }
    }
    const rest = news.filter((t) => !taken.has(t.id));
    if (left.length === 1 && rest.length === 1) {
      out.set(left[0].id, rest[0].id);
      taken.add(rest[0].id);
    }
  }

  // 2. Same shape in the same package: a rename, body otherwise untouched.
  const oldRest = removed.filter((s) => !out.has(s.id) && s.kind !== 'closure');
  const newRest = added.filter((t) => !taken.has(t.id) && t.kind !== 'closure');
  const newPkgs = new Set(newRest.map((t) => t.pkg));
  const oldPkgs = new Set(oldRest.map((s) => s.pkg));
  const shapeKey = (s: SymbolRecord, read: ReadSource) => {
    const text = read(s);
    return text === undefined ? undefined : `${s.kind}|${s.pkg}|${shapeOf(text, s.id)}`;
  };
  const olds = group(oldRest.filter((s) => newPkgs.has(s.pkg)), (s) => shapeKey(s, readFrom));
  const news = group(newRest.filter((t) => oldPkgs.has(t.pkg)), (t) => shapeKey(t, readTo));
  for (const [key, list] of olds) {
    const match = news.get(key);
    if (list.length === 1 && match?.length === 1) out.set(list[0].id, match[0].id);
  }
  return out;
}

function group<T>(xs: T[], key: (x: T) => string | undefined): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    if (k === undefined) continue;
    const list = m.get(k);
    if (list) list.push(x);
    else m.set(k, [x]);
  }
  return m;
}
