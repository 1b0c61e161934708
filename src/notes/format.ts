/**
 * The on-disk form of a note: `---`, YAML front matter, `---`, then the Markdown body. Parsing is
 * strict and every problem names the file line it is on, because these files are edited by hand.
 */
import { isMap, LineCounter, parseDocument, stringify, type Document } from 'yaml';
import { NOTE_ID } from './id.js';
import { NOTE_KINDS, NOTE_STATUSES, type Note, type NoteAnchor, type NoteKind, type NoteProblem, type NoteStatus } from './types.js';

export function formatNote(note: Note): string {
  const anchor: Record<string, unknown> = {
    symbol: note.anchor.symbol,
    query: note.anchor.query,
    file: note.anchor.file,
    line: note.anchor.line,
    endLine: note.anchor.endLine,
    fingerprint: note.anchor.fingerprint,
  };
  if (note.anchor.shape) anchor.shape = note.anchor.shape;
  const front: Record<string, unknown> = { id: note.id, anchor, author: note.author, date: note.date, kind: note.kind };
  if (note.session !== undefined) front.session = note.session;
  front.status = note.status;
  if (note.replyTo !== undefined) front.replyTo = note.replyTo;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n\n${note.body.trim()}\n`;
}

export type ParseResult = { ok: true; note: Note } | { ok: false; problem: NoteProblem };

/** Parses one note file. `expectId` is the ID the file name promises. */
export function parseNote(text: string, file: string, expectId?: string): ParseResult {
  const fail = (line: number, message: string): ParseResult => ({ ok: false, problem: { file, line, message } });
  const src = text.startsWith('\ufeff') ? text.slice(1) : text;
  const lines = src.split('\n');
  if (!/^---\s*$/.test(lines[0] ?? '')) return fail(1, 'no front matter: a note starts with a `---` line, then YAML fields, then `---`');
  const close = lines.findIndex((l, i) => i > 0 && /^---\s*$/.test(l));
  if (close < 0) return fail(1, 'the front matter is never closed: add a `---` line after the last field');

  const counter = new LineCounter();
  const doc = parseDocument(lines.slice(1, close).join('\n'), { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  // The YAML starts on file line 2.
  const lineOf = (offset: number | undefined) => (offset === undefined ? 2 : counter.linePos(offset).line + 1);
  if (doc.errors.length) {
    const e = doc.errors[0];
    return fail(openerLine(lines, lineOf(e.pos[0]), e.message), `invalid YAML in the front matter: ${e.message.split('\n')[0]}`);
  }
  if (!isMap(doc.contents)) return fail(2, 'the front matter must be a set of `key: value` fields');
  const raw = doc.toJS() as Record<string, unknown>;
  const at = (path: string[]) => lineOf(nodeOffset(doc, path));

  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
  const id = str(raw.id);
  if (!id || !NOTE_ID.test(id)) return fail(at(['id']), `'id' must look like 20250130T031502123Z-7f3a9c2e, found ${show(raw.id)}`);
  if (expectId !== undefined && id !== expectId) return fail(at(['id']), `'id' is ${id} but the file is named ${expectId}.md; the two must match`);

  const a = raw.anchor;
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return fail(at(['anchor']), "'anchor' must be a map with symbol, query, file, line, endLine and fingerprint");
  const ar = a as Record<string, unknown>;
  for (const k of ['symbol', 'file']) {
    if (typeof ar[k] !== 'string' || ar[k] === '') return fail(at(['anchor', k]), `'anchor.${k}' must be a non-empty string, found ${show(ar[k])}`);
  }
  for (const k of ['line', 'endLine']) {
    if (!Number.isInteger(ar[k]) || (ar[k] as number) < 1) return fail(at(['anchor', k]), `'anchor.${k}' must be a line number, found ${show(ar[k])}`);
  }
  if (typeof ar.fingerprint !== 'string') return fail(at(['anchor', 'fingerprint']), `'anchor.fingerprint' must be a string, found ${show(ar.fingerprint)}`);
  if (ar.shape !== undefined && typeof ar.shape !== 'string') return fail(at(['anchor', 'shape']), `'anchor.shape' must be a string, found ${show(ar.shape)}`);
  const anchor: NoteAnchor = {
    symbol: ar.symbol as string,
    query: typeof ar.query === 'string' && ar.query ? ar.query : (ar.symbol as string),
    file: ar.file as string,
    line: ar.line as number,
    endLine: ar.endLine as number,
    fingerprint: ar.fingerprint as string,
  };
  if (typeof ar.shape === 'string') anchor.shape = ar.shape;

  const author = str(raw.author);
  if (!author || !author.trim()) return fail(at(['author']), `'author' must be a non-empty name, found ${show(raw.author)}`);
  const date = raw.date instanceof Date ? raw.date.toISOString() : str(raw.date);
  if (!date || Number.isNaN(Date.parse(date))) return fail(at(['date']), `'date' must be an ISO date such as 2025-01-30T03:15:02.123Z, found ${show(raw.date)}`);
  if (!NOTE_KINDS.includes(raw.kind as NoteKind)) return fail(at(['kind']), `'kind' must be one of ${NOTE_KINDS.join(', ')}, found ${show(raw.kind)}`);
  if (!NOTE_STATUSES.includes(raw.status as NoteStatus)) return fail(at(['status']), `'status' must be open or resolved, found ${show(raw.status)}`);
  const session = raw.session === undefined || raw.session === null ? undefined : str(raw.session);
  if (raw.session !== undefined && raw.session !== null && session === undefined) return fail(at(['session']), `'session' must be a label, found ${show(raw.session)}`);
  const replyTo = raw.replyTo === undefined || raw.replyTo === null ? undefined : str(raw.replyTo);
  if (raw.replyTo !== undefined && raw.replyTo !== null && (!replyTo || !NOTE_ID.test(replyTo))) {
    return fail(at(['replyTo']), `'replyTo' must be the ID of another note, found ${show(raw.replyTo)}`);
  }
  if (replyTo === id) return fail(at(['replyTo']), 'a note cannot reply to itself');

  const body = lines.slice(close + 1).join('\n').trim();
  if (!body) return fail(close + 2, 'the note has no text after the front matter');

  const note: Note = { id, anchor, author: author.trim(), date, kind: raw.kind as NoteKind, status: raw.status as NoteStatus, body, path: file };
  if (session !== undefined) note.session = session;
  if (replyTo !== undefined) note.replyTo = replyTo;
  return { ok: true, note };
}

/** Offset of a field's value (or of its key, when the value is missing) in the YAML text. */
function nodeOffset(doc: Document, path: string[]): number | undefined {
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  if (node?.range) return node.range[0];
  const parent = (path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents) as { range?: [number, number, number] } | undefined;
  return parent?.range?.[0];
}

/**
 * An unclosed `[`, `{` or quote is only noticed on a later line; point at the line that opened it
 * (the nearest one above with such a character), which is the one to fix.
 */
function openerLine(lines: string[], at: number, message: string): number {
  if (!/flow|closing|quote/i.test(message)) return at;
  for (let l = at; l >= Math.max(2, at - 5); l--) {
    if (/[[{"']/.test(lines[l - 1] ?? '')) return l;
  }
  return at;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  return JSON.stringify(v) ?? String(v);
}
