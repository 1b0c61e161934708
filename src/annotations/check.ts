/**
 * Checking anchors against the lock, and (with a graph) the locked symbols against a tree.
 * Without a tree only the lock's anchor → ID map is checked, which is what CI can do. With one, each
 * locked symbol is classified fresh, moved, changed, renamed or orphaned.
 */
import type { Diagnostic, Graph } from '../model/index.js';
import { SymbolTable } from '../graph/lookup.js';
import { LOCK_FIX } from './lock.js';
import { lineOfKey, parseLock } from './readlock.js';
import { lookupAnchor, lookupDiagnostic } from './resolve.js';
import { classifyAll } from './classify.js';
import type { AnnotationLock, CheckReport, CheckSummary, ReadSource, SymbolStatus, Topic } from './types.js';

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
      if (queryOf(lock, a.symbol)) continue;
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
      const lockedId = queryOf(lock, a.symbol);
      if (!r.ok) {
        if (r.reason === 'ambiguous') ambiguous++;
        else unknown++;
        const hint = lockedId && renamed.get(lockedId);
        diagnostics.push(lookupDiagnostic(a, r, hint ? [hint] : []));
      } else if (lockedId && r.symbol.id !== lockedId) {
        diagnostics.push({ severity: 'warning', code: 'anchor-retargeted', file: a.file, line: a.line, message: `anchor \`@${a.symbol}\` now resolves to ${r.symbol.id}, but the lock has ${lockedId}; write the full ID if the locked one is meant` });
      }
    }
    // The lock's `symbols` (the reference ports' IDs) are checked by the ports check, which also
    // knows symbols outside the indexed scope (test helper packages).
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

/** The locked ID of an anchor as written (own keys only: an anchor may be spelled like an Object method). */
function queryOf(lock: AnnotationLock, written: string): string | undefined {
  return Object.hasOwn(lock.queries, written) ? lock.queries[written] : undefined;
}

/** Lock entries that no anchor uses any more: harmless, but the lock should be regenerated. */
function unusedEntries(lock: AnnotationLock, written: string[], lockFile: string, lockText: string | undefined, diagnostics: Diagnostic[]): void {
  const used = new Set(written);
  const usedIds = new Set(written.map((w) => queryOf(lock, w)).filter(Boolean));
  for (const q of Object.keys(lock.queries)) {
    if (!used.has(q)) diagnostics.push({ severity: 'warning', code: 'lock-unused', file: lockFile, line: lineOfKey(lockText, q), message: `stale lock entry: no anchor is written \`@${q}\` any more; ${LOCK_FIX}` });
  }
  for (const id of Object.keys(lock.anchored)) {
    if (!usedIds.has(id)) diagnostics.push({ severity: 'warning', code: 'lock-unused', file: lockFile, line: lineOfKey(lockText, id), message: `stale lock entry: no anchor uses ${id} any more; ${LOCK_FIX}` });
  }
}
