/**
 * Checking anchors against the lock, and (with a graph) the locked symbols against a tree.
 * Without a tree only the lock's anchor → ID map is checked, which is what CI can do. With one, each
 * locked symbol is classified fresh, moved, changed, renamed or orphaned.
 */
import type { Diagnostic, Graph, SymbolRecord } from '../model/index.js';
import { SymbolTable } from '../graph/lookup.js';
import { lcsPairs, formatRuns, runs } from './diff.js';
import { compareAt, locate, nameOf, shapeOf, symbolText, LOCK_FIX } from './lock.js';
import { lineOfKey, parseLock } from './readlock.js';
import { lookupAnchor, lookupDiagnostic } from './resolve.js';
import { lineHashes, tokens } from '../parse/fingerprint.js';
import type { AnnotationLock, CheckReport, CheckSummary, LineDiff, LockAnchor, LockedSymbol, ReadSource, SymbolStatus, Topic } from './types.js';

export interface CheckInput {
  topics: readonly Topic[];
  /** The parsed lock, or its raw text (parsed here, so a corrupted lock becomes a diagnostic). */
  lock?: AnnotationLock | string;
  /** Display path of the lock, for diagnostics. */
  lockFile?: string;
  lockText?: string;
  graph?: Graph;
  readSource?: ReadSource;
  /** Diagnostics found earlier (loading the topics, reading the lock), reported with the rest. */
  diagnostics?: readonly Diagnostic[];
}

const STALE = 'run `kubelet-atlas annotations lock --source DIR` to record it';

export function checkAnnotations(input: CheckInput): CheckReport {
  const lockFile = input.lockFile ?? 'annotations/annotations.lock.json';
  const diagnostics: Diagnostic[] = [...(input.diagnostics ?? [])];
  let lock: AnnotationLock | undefined;
  let lockText = input.lockText;
  if (typeof input.lock === 'string') {
    lockText = input.lock;
    const parsed = parseLock(input.lock, lockFile);
    lock = parsed.lock;
    diagnostics.push(...parsed.diagnostics);
  } else lock = input.lock;
  if (!lock && !diagnostics.some((d) => d.code.startsWith('lock-'))) {
    diagnostics.push({ severity: 'error', code: 'lock-missing', file: lockFile, line: 1, message: `stale lock: no lock was given; ${STALE}` });
  }

  const anchors = input.topics.flatMap((t) => t.anchors);
  let stale = 0;
  if (lock) {
    for (const a of anchors) {
      if (a.symbol in lock.queries) continue;
      stale++;
      diagnostics.push({ severity: 'error', code: 'lock-stale', file: a.file, line: a.line, message: `stale lock: anchor \`@${a.symbol}\` is not in the lock; ${STALE}` });
    }
    unusedEntries(lock, anchors.map((a) => a.symbol), lockFile, lockText, diagnostics);
  }

  let symbols: SymbolStatus[] = [];
  let unknown = 0;
  let ambiguous = 0;
  if (input.graph && lock) {
    const table = new SymbolTable(input.graph.symbols);
    const read = input.readSource ?? (() => undefined);
    symbols = classifyAll(lock, input.topics, table, read);
    const renamed = new Map(symbols.filter((s) => s.class === 'renamed').map((s) => [s.id, s.now!.id]));
    const memo = new Map<string, ReturnType<SymbolTable['lookup']>>();
    for (const a of anchors) {
      let r = memo.get(a.symbol);
      if (!r) memo.set(a.symbol, (r = lookupAnchor(table, a.symbol)));
      const lockedId = lock.queries[a.symbol];
      if (!r.ok) {
        if (r.reason === 'ambiguous') ambiguous++;
        else unknown++;
        const hint = lockedId && renamed.get(lockedId);
        diagnostics.push(lookupDiagnostic(a, r, hint ? [hint] : []));
      } else if (lockedId && r.symbol.id !== lockedId) {
        diagnostics.push({ severity: 'warning', code: 'anchor-retargeted', file: a.file, line: a.line, message: `anchor \`@${a.symbol}\` now resolves to ${r.symbol.id}, but the lock has ${lockedId}; write the full ID if the locked one is meant` });
      }
    }
    for (const id of lock.symbols) {
      if (!table.get(id)) diagnostics.push({ severity: 'error', code: 'lock-symbol-missing', file: lockFile, line: lineOfKey(lockText, 'symbols'), message: `${id} (listed under 'symbols') is not in this tree; did you mean ${table.nearest(nameOf(id), 3).join(', ') || 'nothing close'}?` });
    }
    const ctx = input.graph.context;
    const tags = [...ctx.tags].sort().join(',');
    if (ctx.goos !== lock.goos || ctx.goarch !== lock.goarch || tags !== [...lock.tags].sort().join(',')) {
      diagnostics.push({ severity: 'warning', code: 'lock-context', file: lockFile, line: 1, message: `the lock was made for ${lock.goos}/${lock.goarch}${lock.tags.length ? ` tags ${lock.tags.join(',')}` : ''}, this check uses ${ctx.goos}/${ctx.goarch}${tags ? ` tags ${tags}` : ''}; pass the lock's --goos/--goarch/--tags` });
    }
  }

  const count = (c: SymbolStatus['class']) => symbols.filter((s) => s.class === c).length;
  const summary: CheckSummary = {
    topics: input.topics.length,
    anchors: anchors.length,
    fresh: count('fresh'),
    moved: count('moved'),
    changed: count('changed'),
    renamed: count('renamed'),
    orphaned: count('orphaned'),
    unknown,
    ambiguous,
    stale,
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
  };
  return {
    mode: input.graph ? 'tree' : 'lock',
    lockVersion: lock?.version,
    summary,
    symbols,
    diagnostics,
    ok: summary.errors === 0 && summary.orphaned === 0,
  };
}

/** Lock entries that no anchor uses any more: harmless, but the lock should be regenerated. */
function unusedEntries(lock: AnnotationLock, written: string[], lockFile: string, lockText: string | undefined, diagnostics: Diagnostic[]): void {
  const used = new Set(written);
  const usedIds = new Set(written.map((w) => lock.queries[w]).filter(Boolean));
  for (const q of Object.keys(lock.queries)) {
    if (!used.has(q)) diagnostics.push({ severity: 'warning', code: 'lock-unused', file: lockFile, line: lineOfKey(lockText, q), message: `stale lock entry: no anchor is written \`@${q}\` any more; ${LOCK_FIX}` });
  }
  for (const id of Object.keys(lock.anchored)) {
    if (!usedIds.has(id)) diagnostics.push({ severity: 'warning', code: 'lock-unused', file: lockFile, line: lineOfKey(lockText, id), message: `stale lock entry: no anchor uses ${id} any more; ${LOCK_FIX}` });
  }
}

function classifyAll(lock: AnnotationLock, topics: readonly Topic[], table: SymbolTable, read: ReadSource): SymbolStatus[] {
  const uses = new Map<string, LockAnchor[]>();
  for (const t of topics) {
    for (const a of t.anchors) {
      const id = lock.queries[a.symbol];
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
  const suggestions = table.nearest(nameOf(id), 5);
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
    removedOnly: changed.length === 0 ? oldLines.length - pairs.length : 0,
  };
}

export function describe(d: LineDiff): string {
  const head = `${d.differ} of ${d.of} lines differ`;
  if (d.ranges.length) return `${head}, body lines ${formatRuns(d.ranges)} (file lines ${formatRuns(d.fileRanges)})`;
  if (d.removedOnly) return `${head}: ${d.removedOnly} line${d.removedOnly === 1 ? '' : 's'} removed`;
  return `${head} (only token order or layout across lines changed)`;
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
    const pkg = pkgOf(id);
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

/** `k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist` → `k8s.io/kubernetes/pkg/kubelet/pleg`. */
export function pkgOf(id: string): string {
  const slash = id.lastIndexOf('/', id.indexOf('(') < 0 ? id.length : id.indexOf('('));
  const dot = id.indexOf('.', slash + 1);
  return dot < 0 ? id : id.slice(0, dot);
}
