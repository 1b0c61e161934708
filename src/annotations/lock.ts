/**
 * The lock (`annotations/annotations.lock.json`): for the pinned release, every anchored symbol's place,
 * fingerprint and per-line hashes, plus the anchor → ID map that lets CI check anchors without a tree.
 * Built from a graph and the tree's sources; written deterministically and atomically.
 */
import { createHash } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import type { Diagnostic, Graph, SymbolRecord } from '../model/index.js';
import { SymbolTable } from '../graph/lookup.js';
import { fingerprint, lineHashes, tokens } from '../parse/fingerprint.js';
import { resolveAnchors } from './resolve.js';
import { nameOf } from './ids.js';
import { LOCK_FORMAT, type AnnotationLock, type LockAnchor, type LockedSymbol, type ReadSource, type Topic } from './types.js';

export const LOCK_FIX = 'regenerate it with `kubelet-atlas annotations lock --source DIR` (DIR: a Kubernetes checkout of the pinned release)';

export interface LockResult {
  lock: AnnotationLock;
  diagnostics: Diagnostic[];
}

export interface LockOptions {
  /** The lock being replaced: its `symbols` list is kept. */
  previous?: AnnotationLock;
}

export function lockAnnotations(topics: readonly Topic[], graph: Graph, readSource: ReadSource, opts: LockOptions = {}): LockResult {
  const table = new SymbolTable(graph.symbols);
  const { anchors, diagnostics } = resolveAnchors(topics, table);
  const queries = new Map<string, string>();
  const uses = new Map<string, LockAnchor[]>();
  for (const a of anchors) {
    queries.set(a.symbol, a.id);
    uses.set(a.id, [...(uses.get(a.id) ?? []), { at: `${a.file}:${a.line}`, as: a.symbol }]);
  }
  const anchored: Record<string, LockedSymbol> = {};
  for (const id of [...uses.keys()].sort()) {
    const sym = table.get(id)!;
    const text = symbolText(sym, readSource);
    if (text === undefined) {
      diagnostics.push({ severity: 'error', code: 'lock-source', file: sym.file, line: sym.line, message: `cannot read the source of ${id}; is the tree complete?` });
      continue;
    }
    const list = uses.get(id)!;
    anchored[id] = {
      ...locate(sym, text),
      anchors: dedupeAnchors(list),
    };
  }
  const lock: AnnotationLock = {
    format: LOCK_FORMAT,
    version: pinnedVersion(topics),
    goos: graph.context.goos,
    goarch: graph.context.goarch,
    tags: [...graph.context.tags].sort(),
    symbols: [...new Set(opts.previous?.symbols ?? [])].sort(),
    queries: Object.fromEntries([...queries].sort((x, y) => (x[0] < y[0] ? -1 : 1))),
    anchored,
  };
  return { lock, diagnostics };
}

/** Place, kind and hashes of one symbol as found now: what the lock stores and what a check compares. */
export function locate(sym: SymbolRecord, text: string): Omit<LockedSymbol, 'anchors'> {
  return {
    file: sym.file,
    line: sym.line,
    endLine: sym.endLine,
    kind: sym.kind,
    fingerprint: sym.fingerprint || fingerprint(text),
    shape: shapeOf(text, nameOf(sym.id)),
    lines: lineHashes(text),
  };
}

/** The source lines line..endLine of a symbol, or undefined when its file cannot be read. */
export function symbolText(sym: SymbolRecord, readSource: ReadSource): string | undefined {
  const src = readSource(sym.file);
  if (src === undefined) return undefined;
  return src.split('\n').slice(sym.line - 1, sym.endLine).join('\n');
}

/** A fingerprint that ignores the symbol's own name, so a renamed function with the same body matches. */
export function shapeOf(text: string, name: string): string {
  const ts = tokens(text).map((t) => (t === name ? '\u0000' : t));
  return createHash('sha1').update(ts.join(' ')).digest('hex').slice(0, 16);
}

/** The release the topics were written against: the most common `version`, ties broken by sort. */
function pinnedVersion(topics: readonly Topic[]): string {
  const count = new Map<string, number>();
  for (const t of topics) if (t.version) count.set(t.version, (count.get(t.version) ?? 0) + 1);
  const best = [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return best?.[0] ?? 'unknown';
}

function dedupeAnchors(list: LockAnchor[]): LockAnchor[] {
  const seen = new Map<string, LockAnchor>();
  for (const a of list) seen.set(`${a.at} ${a.as}`, a);
  return [...seen.values()].sort((x, y) => compareAt(x.at, y.at) || x.as.localeCompare(y.as));
}

/** `file:line` by file, then numerically by line. */
export function compareAt(a: string, b: string): number {
  const [fa, la] = splitAt(a);
  const [fb, lb] = splitAt(b);
  return fa.localeCompare(fb) || la - lb;
}

export function splitAt(at: string): [string, number] {
  const i = at.lastIndexOf(':');
  return i < 0 ? [at, 0] : [at.slice(0, i), Number(at.slice(i + 1)) || 0];
}

/**
 * Pretty JSON that stays reviewable: lists of strings or numbers (line hashes, tags) and small flat
 * objects (anchors) on one line, everything else indented by two spaces. Key order is the caller's.
 */
export function formatLock(lock: AnnotationLock): string {
  return format(lock, '') + '\n';
}

function format(v: unknown, indent: string): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    if (v.every((x) => x === null || typeof x !== 'object')) return `[${v.map((x) => JSON.stringify(x)).join(', ')}]`;
    return `[\n${v.map((x) => inner + format(x, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length === 0) return '{}';
  if (entries.every(([, x]) => x === null || typeof x !== 'object')) {
    const flat = `{ ${entries.map(([k, x]) => `${JSON.stringify(k)}: ${JSON.stringify(x)}`).join(', ')} }`;
    if (flat.length <= 120) return flat;
  }
  return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${format(x, inner)}`).join(',\n')}\n${indent}}`;
}

export async function writeLock(path: string, lock: AnnotationLock): Promise<void> {
  await writeFileAtomic(path, formatLock(lock), { encoding: 'utf8' });
}
