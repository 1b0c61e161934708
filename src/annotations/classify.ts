/**
 * Where each locked symbol stands in a tree: fresh, moved, changed (with a line diff), renamed (same
 * body under another ID) or orphaned (with the nearest names).
 */
import type { SymbolRecord } from '../model/index.js';
import type { SymbolTable } from '../graph/lookup.js';
import { lcsPairs, formatRuns, runs } from './diff.js';
import { compareAt, locate, shapeOf, symbolText } from './lock.js';
import { nameOf, pkgPath } from './ids.js';
import { suggest } from './resolve.js';
import { lineHashes, tokens } from '../parse/fingerprint.js';
import type { AnnotationLock, LineDiff, LockAnchor, LockedSymbol, ReadSource, SymbolStatus, Topic } from './types.js';

export function classifyAll(lock: AnnotationLock, topics: readonly Topic[], table: SymbolTable, read: ReadSource): SymbolStatus[] {
  const uses = new Map<string, LockAnchor[]>();
  for (const t of topics) {
    for (const a of t.anchors) {
      const id = Object.hasOwn(lock.queries, a.symbol) ? lock.queries[a.symbol] : undefined;
      if (id) uses.set(id, [...(uses.get(id) ?? []), { at: `${a.file}:${a.line}`, as: a.symbol }]);
    }
  }
  const finder = new RenameFinder(table, read, new Set(Object.keys(lock.anchored)));
  return Object.keys(lock.anchored).sort().map((id) => {
    const anchors = (uses.get(id) ?? lock.anchored[id].anchors).slice().sort((x, y) => compareAt(x.at, y.at));
    return { ...classify(id, lock.anchored[id], table, read, finder), anchors };
  });
}

function classify(id: string, rec: LockedSymbol, table: SymbolTable, read: ReadSource, finder: RenameFinder): Omit<SymbolStatus, 'anchors'> {
  const locked = { file: rec.file, line: rec.line };
  const from = `${rec.file}:${rec.line}`;
  const sym = table.get(id);
  if (sym) {
    const text = symbolText(sym, read);
    const now = { id, file: sym.file, line: sym.line };
    const to = `${sym.file}:${sym.line}`;
    const fp = text === undefined ? sym.fingerprint : locate(sym, text).fingerprint;
    if (fp === rec.fingerprint) {
      if (to === from) return { id, class: 'fresh', locked, now, message: `fresh at ${to}` };
      return { id, class: 'moved', locked, now, message: `moved from ${from} to ${to}` };
    }
    const diff = text === undefined ? undefined : lineDiff(rec.lines, text, sym.line);
    const how = diff ? describe(diff) : 'the body differs (source not readable for a line count)';
    return { id, class: 'changed', locked, now, diff, message: `changed: ${how}${to !== from ? `; moved from ${from} to ${to}` : ''}` };
  }
  const match = finder.find(id, rec);
  if (match) {
    const now = { id: match.id, file: match.file, line: match.line };
    return { id, class: 'renamed', locked, now, message: `renamed: the same body is now ${match.id} at ${match.file}:${match.line}` };
  }
  const suggestions = suggest(table, id);
  return {
    id, class: 'orphaned', locked, suggestions,
    message: `orphaned: no symbol ${id} and none with its body${suggestions.length ? `; nearest names: ${suggestions.join(', ')}` : ''}`,
  };
}

/** LCS over the per-line hashes; changed lines are reported in the new body and in the file. */
export function lineDiff(oldLines: readonly string[], text: string, startLine: number): LineDiff {
  const srcLines = text.split('\n');
  const offsets: number[] = [];
  srcLines.forEach((l, k) => {
    if (tokens(l).length > 0) offsets.push(k + 1);
  });
  // lineHashes drops token-less lines, so its i-th hash belongs to offsets[i].
  const hashesNow = lineHashes(text);
  const pairs = lcsPairs(oldLines, hashesNow);
  const kept = new Set(pairs.map((p) => p[1]));
  const changed = hashesNow.map((_, i) => i).filter((i) => !kept.has(i));
  const tokenRuns = runs(changed);
  const ranges = tokenRuns.map(([a, b]) => [offsets[a], offsets[b]] as [number, number]);
  const of = Math.max(oldLines.length, hashesNow.length);
  return {
    differ: of - pairs.length,
    of,
    ranges,
    fileRanges: ranges.map(([a, b]) => [a + startLine - 1, b + startLine - 1] as [number, number]),
    added: hashesNow.length - pairs.length,
    removed: oldLines.length - pairs.length,
  };
}

export function describe(d: LineDiff): string {
  const head = `${d.differ} of ${d.of} lines differ`;
  const counts = `+${d.added} −${d.removed} lines`;
  if (d.ranges.length) return `${head}, body lines ${shortRuns(d.ranges)} (file lines ${shortRuns(d.fileRanges)}); ${counts}`;
  if (d.removed) return `${head}: ${d.removed} line${d.removed === 1 ? '' : 's'} removed`;
  return `${head} (only layout across lines changed)`;
}

/** At most six runs in text; the JSON report keeps them all. */
function shortRuns(rs: [number, number][]): string {
  return formatRuns(rs.slice(0, 6)) + (rs.length > 6 ? `, … (${rs.length - 6} more)` : '');
}

/**
 * Finds where a vanished symbol went: first a symbol with the identical fingerprint anywhere (a
 * package move), then one with the same body under another name in the same file or package.
 */
class RenameFinder {
  private byFingerprint?: Map<string, SymbolRecord[]>;

  constructor(private table: SymbolTable, private read: ReadSource, private locked: Set<string>) {}

  find(id: string, rec: LockedSymbol): SymbolRecord | undefined {
    const exact = this.fingerprints().get(rec.fingerprint) ?? [];
    const pick = (xs: SymbolRecord[]) => {
      const pool = xs.filter((s) => s.id !== id && s.kind === rec.kind);
      return pool.find((s) => !this.locked.has(s.id)) ?? pool[0];
    };
    const hit = pick(exact);
    if (hit) return hit;
    const pkg = pkgPath(id);
    const near = [...this.table.all()].filter((s) => s.kind === rec.kind && (s.file === rec.file || s.pkg === pkg));
    const same = near.filter((s) => {
      const text = symbolText(s, this.read);
      return text !== undefined && shapeOf(text, nameOf(s.id)) === rec.shape;
    });
    return pick(same);
  }

  private fingerprints(): Map<string, SymbolRecord[]> {
    if (!this.byFingerprint) {
      this.byFingerprint = new Map();
      for (const s of this.table.all()) {
        if (!s.fingerprint) continue;
        const list = this.byFingerprint.get(s.fingerprint);
        if (list) list.push(s);
        else this.byFingerprint.set(s.fingerprint, [s]);
      }
    }
    return this.byFingerprint;
  }
}
