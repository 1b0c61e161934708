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
  } catch {
    const e = jsonError(text);
    return bad(e.line, `it is not valid JSON (${e.what} at line ${e.line}, column ${e.column})`);
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
    if (!Object.hasOwn(raw.anchored, id)) return bad(at(q), `query '${q}' maps to '${id}', which has no entry under 'anchored'`);
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

/**
 * Where JSON text first goes wrong. JSON.parse's messages differ between Node versions and do not
 * always carry a position, so a small scanner finds it.
 */
export function jsonError(text: string): { line: number; column: number; what: string } {
  let i = 0;
  const fail = (what: string): never => {
    throw Object.assign(new Error(what), { at: i });
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const lit = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${show(text[i])}`);
  };
  const str = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? '')) fail('bad escape');
      } else if (text.charCodeAt(i) < 0x20) fail('control character in a string');
      i++;
    }
    if (i >= text.length) fail('unterminated string');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a key, found ${show(text[i])}`);
        str();
        ws();
        if (text[i] !== ':') fail(`expected ':', found ${show(text[i])}`);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(`expected ',' or '}', found ${show(text[i])}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(`expected ',' or ']', found ${show(text[i])}`);
      }
    }
    if (c === '"') return str();
    if (c === 't') return lit('true');
    if (c === 'f') return lit('false');
    if (c === 'n') return lit('null');
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (m && m[0].length) return void (i += m[0].length);
    fail(`unexpected ${show(c)}`);
  };
  let what = 'cannot parse';
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${show(text[i])} after the end`);
  } catch (err) {
    what = (err as Error).message;
  }
  const before = text.slice(0, Math.min(i, text.length)).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1, what };
}

function show(c: string | undefined): string {
  return c === undefined ? 'end of file' : JSON.stringify(c);
}

/** Line of the first `"key":` in the lock text (1 when absent). */
export function lineOfKey(text: string | undefined, key: string): number {
  if (!text) return 1;
  const i = text.indexOf(`${JSON.stringify(key)}:`);
  return i < 0 ? 1 : text.slice(0, i).split('\n').length;
}
