/**
 * Reading the lock back: a file that does not parse, or lacks a field, is a "corrupted lock"
 * diagnostic with the line it goes wrong on and the command that regenerates it.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Diagnostic } from '../model/index.js';
import { LOCK_FIX } from './lock.js';
import { LOCK_FORMAT, type AnnotationLock } from './types.js';

export interface ReadLockResult {
  lock?: AnnotationLock;
  /** The lock's text, kept so later diagnostics can point at lines in it. */
  text?: string;
  diagnostics: Diagnostic[];
}

export function readLock(path: string, display = path): ReadLockResult {
  if (!existsSync(path)) {
    return { diagnostics: [{ severity: 'error', code: 'lock-missing', file: display, line: 1, message: `stale lock: there is no lock file; run \`kubelet-atlas annotations lock --source DIR\` to create it` }] };
  }
  const text = readFileSync(path, 'utf8');
  return { ...parseLock(text, display), text };
}

export function parseLock(text: string, file: string): { lock?: AnnotationLock; diagnostics: Diagnostic[] } {
  const bad = (line: number, what: string) => ({ diagnostics: [{ severity: 'error' as const, code: 'lock-corrupted', file, line, message: `corrupted lock: ${what}; ${LOCK_FIX}, or restore it from git` }] });
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message;
    return bad(jsonErrorLine(text, msg), `it is not valid JSON (${msg})`);
  }
  if (!isObject(raw)) return bad(1, 'the top level must be an object');
  const at = (key: string) => lineOfKey(text, key);
  if (raw.format !== LOCK_FORMAT) return bad(at('format'), `format must be ${LOCK_FORMAT}, found ${JSON.stringify(raw.format)}`);
  for (const k of ['version', 'goos', 'goarch']) if (typeof raw[k] !== 'string') return bad(at(k), `'${k}' must be a string`);
  for (const k of ['tags', 'symbols']) if (!isStrings(raw[k])) return bad(at(k), `'${k}' must be a list of strings`);
  if (!isObject(raw.queries)) return bad(at('queries'), "'queries' must map each anchor as written to a symbol ID");
  if (!isObject(raw.anchored)) return bad(at('anchored'), "'anchored' must map symbol IDs to their locked records");
  for (const [id, rec] of Object.entries(raw.anchored)) {
    const problem = lockedProblem(rec);
    if (problem) return bad(at(id), `entry '${id}' ${problem}`);
  }
  for (const [q, id] of Object.entries(raw.queries)) {
    if (typeof id !== 'string') return bad(at(q), `query '${q}' must map to a symbol ID string`);
    if (!(id in raw.anchored)) return bad(at(q), `query '${q}' maps to '${id}', which has no entry under 'anchored'`);
  }
  return { lock: raw as unknown as AnnotationLock, diagnostics: [] };
}

function lockedProblem(rec: unknown): string | undefined {
  if (!isObject(rec)) return 'must be an object';
  for (const k of ['file', 'kind', 'fingerprint', 'shape']) if (typeof rec[k] !== 'string') return `lacks the string field '${k}'`;
  for (const k of ['line', 'endLine']) if (!Number.isInteger(rec[k]) || (rec[k] as number) < 1) return `lacks the line number '${k}'`;
  if (!isStrings(rec.lines)) return "lacks 'lines' (a list of line hashes)";
  if (!Array.isArray(rec.anchors) || !rec.anchors.every((a) => isObject(a) && typeof a.at === 'string' && typeof a.as === 'string')) {
    return "lacks 'anchors' (a list of { at, as })";
  }
  return undefined;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isStrings(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

/** Node reports either "(line L column C)" or "at position P". */
function jsonErrorLine(text: string, msg: string): number {
  const l = /line (\d+)/.exec(msg);
  if (l) return Number(l[1]);
  const p = /position (\d+)/.exec(msg);
  if (p) return text.slice(0, Number(p[1])).split('\n').length;
  return text.length ? text.split('\n').length : 1;
}

/** Line of the first `"key":` in the lock text (1 when absent). */
export function lineOfKey(text: string | undefined, key: string): number {
  if (!text) return 1;
  const i = text.indexOf(`${JSON.stringify(key)}:`);
  return i < 0 ? 1 : text.slice(0, i).split('\n').length;
}
