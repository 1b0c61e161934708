/**
 * Adding and resolving notes. Every input is checked before anything is written, so a rejected
 * command leaves the folder exactly as it was.
 */
import type { SymbolRecord } from '../model/index.js';
import { newNoteId } from './id.js';
import { shapeOf, type ReadSource } from './source.js';
import { createNoteFile, findNote, NoteExistsError, readNoteFile, rewriteNoteFile } from './store.js';
import { NOTE_KINDS, type Note, type NoteAnchor, type NoteKind } from './types.js';

/** Bad input: the message says what is wrong, the hint how to fix it. */
export class NoteInputError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = 'NoteInputError';
  }
}

/** The anchor for a resolved symbol, with a shape when its source can be read. */
export function anchorFor(symbol: SymbolRecord, query: string, read?: ReadSource): NoteAnchor {
  const anchor: NoteAnchor = { symbol: symbol.id, query, file: symbol.file, line: symbol.line, endLine: symbol.endLine, fingerprint: symbol.fingerprint };
  const text = read?.(symbol);
  if (text !== undefined) anchor.shape = shapeOf(text, symbol.id);
  return anchor;
}

export interface AddNoteInput {
  dir: string;
  /** Required unless replyTo is given (a reply then shares its parent's anchor). */
  anchor?: NoteAnchor;
  author: string;
  kind?: string;
  session?: string;
  replyTo?: string;
  text: string;
  now: Date;
  random?: () => string;
}

export function checkKind(kind: string | undefined, fallback: NoteKind): NoteKind {
  if (kind === undefined) return fallback;
  if (!NOTE_KINDS.includes(kind as NoteKind)) throw new NoteInputError(`unknown kind '${kind}'`, `--kind must be one of ${NOTE_KINDS.join(', ')}`);
  return kind as NoteKind;
}

/** The parent of a reply, read and validated; throws when it is missing or unreadable. */
export function parentNote(dir: string, ref: string): Note {
  const found = findNote(dir, ref);
  if (!found.ok) {
    throw new NoteInputError(`cannot reply to '${ref}': ${found.message}`, found.candidates ? `candidates:\n${found.candidates.map((c) => `  ${c}`).join('\n')}` : 'run `kubelet-atlas notes list` to see the note IDs');
  }
  const r = readNoteFile(found.file, found.id);
  if (!r.ok) throw new NoteInputError(`cannot reply to '${ref}': its file is not a valid note (${r.problem.file}:${r.problem.line}: ${r.problem.message})`);
  return r.note;
}

/** Validates the input, writes a new note file and returns the note. */
export function addNote(input: AddNoteInput): Note {
  const text = input.text.trim();
  if (!text) throw new NoteInputError('the note text is empty', 'write something with --text TEXT or --file FILE');
  const author = input.author.trim();
  if (!author) throw new NoteInputError('the author is empty', 'pass --author NAME');
  const parent = input.replyTo !== undefined ? parentNote(input.dir, input.replyTo) : undefined;
  const kind = checkKind(input.kind, parent ? 'answer' : 'question');
  const anchor = input.anchor ?? parent?.anchor;
  if (!anchor) throw new NoteInputError('no symbol given', 'pass --symbol ID (a full symbol ID or a short form such as pleg.GenericPLEG.Relist)');
  const session = input.session?.trim() || parent?.session;

  for (let attempt = 0; ; attempt++) {
    const note: Note = { id: newNoteId(input.now, input.random), anchor, author, date: input.now.toISOString(), kind, status: 'open', body: text };
    if (session) note.session = session;
    if (parent) note.replyTo = parent.id;
    try {
      note.path = createNoteFile(input.dir, note);
      return note;
    } catch (err) {
      // Only a clash of random suffixes within one millisecond gets here; a fresh suffix fixes it.
      if (!(err instanceof NoteExistsError) || attempt >= 5 || input.random) throw err;
    }
  }
}

/** Marks a note resolved by rewriting its own file; returns false when it already was. */
export function resolveNote(dir: string, ref: string): { note: Note; changed: boolean } {
  const found = findNote(dir, ref);
  if (!found.ok) throw new NoteInputError(found.message, found.candidates ? `candidates:\n${found.candidates.map((c) => `  ${c}`).join('\n')}` : undefined);
  const r = readNoteFile(found.file, found.id);
  if (!r.ok) throw new NoteInputError(`${r.problem.file}:${r.problem.line}: ${r.problem.message}`, 'fix the front matter by hand; the note was not changed');
  if (r.note.status === 'resolved') return { note: r.note, changed: false };
  const note: Note = { ...r.note, status: 'resolved' };
  rewriteNoteFile(found.file, note);
  return { note, changed: true };
}
