/**
 * The notes folder: one file per note, named by its ID. New notes only ever create new files and a
 * resolve rewrites only its own file, so merging two members' folders never conflicts.
 *
 * Creating is both atomic and exclusive: the text goes to a hidden temporary file first (through
 * write-file-atomic), which is then hard-linked to its final name. link(2) fails when the name
 * exists, so two processes can never overwrite each other, and a reader never sees half a note.
 */
import { copyFileSync, constants, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import writeFileAtomic from 'write-file-atomic';
import { formatNote, parseNote } from './format.js';
import { NOTE_ID } from './id.js';
import type { Note, NoteProblem } from './types.js';

export const NOTES_ENV = 'KUBELET_ATLAS_NOTES';

export function notesDir(dir: string | undefined, env: NodeJS.ProcessEnv): string {
  return dir ?? env[NOTES_ENV] ?? 'notes';
}

export interface NoteSet {
  notes: Note[];
  problems: NoteProblem[];
}

/** Every note of a folder, oldest first; files that are not valid notes become problems. */
export function readNotes(dir: string): NoteSet {
  const out: NoteSet = { notes: [], problems: [] };
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.md') || name.startsWith('.') || name.toLowerCase() === 'readme.md') continue;
    const file = join(dir, name);
    const base = name.slice(0, -3);
    if (!NOTE_ID.test(base)) {
      out.problems.push({ file, line: 1, message: `${name} is not named like a note (<id>.md, e.g. 20250130T031502123Z-7f3a9c2e.md)` });
      continue;
    }
    const r = readNoteFile(file, base);
    if (r.ok) out.notes.push(r.note);
    else out.problems.push(r.problem);
  }
  out.notes.sort((a, b) => a.id.localeCompare(b.id));
  return out;
}

export function readNoteFile(file: string, expectId?: string): ReturnType<typeof parseNote> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, problem: { file, line: 1, message: `cannot read: ${(err as Error).message}` } };
  }
  return parseNote(text, file, expectId);
}

export class NoteExistsError extends Error {
  constructor(readonly file: string) {
    super(`${file} already exists`);
    this.name = 'NoteExistsError';
  }
}

/** Writes a new note; throws NoteExistsError if a file with its ID is already there. */
export function createNoteFile(dir: string, note: Note): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${note.id}.md`);
  const tmp = join(dir, `.${note.id}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  writeFileAtomic.sync(tmp, formatNote(note));
  try {
    try {
      linkSync(tmp, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new NoteExistsError(file);
      // Some file systems have no hard links: an exclusive copy still never overwrites.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw err;
      try {
        copyFileSync(tmp, file, constants.COPYFILE_EXCL);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new NoteExistsError(file);
        throw e;
      }
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
  return file;
}

/** Replaces one existing note's file in a single rename. */
export function rewriteNoteFile(file: string, note: Note): void {
  writeFileAtomic.sync(file, formatNote(note));
}

export type FindResult =
  | { ok: true; file: string; id: string }
  | { ok: false; message: string; candidates?: string[] };

/** A note by full ID, unique ID prefix, or file path. Does not parse it. */
export function findNote(dir: string, ref: string): FindResult {
  const r = ref.trim().replace(/\.md$/, '').split(/[\\/]/).pop() ?? '';
  if (!r) return { ok: false, message: 'no note ID given' };
  const ids = existsSync(dir)
    ? readdirSync(dir).filter((n) => n.endsWith('.md') && NOTE_ID.test(n.slice(0, -3))).map((n) => n.slice(0, -3))
    : [];
  if (ids.includes(r)) return { ok: true, file: join(dir, `${r}.md`), id: r };
  const hits = ids.filter((id) => id.startsWith(r) || id.endsWith(r));
  if (hits.length === 1) return { ok: true, file: join(dir, `${hits[0]}.md`), id: hits[0] };
  if (hits.length > 1) return { ok: false, message: `'${ref}' matches ${hits.length} notes`, candidates: hits.sort() };
  return { ok: false, message: `no note '${ref}' in ${dir}` };
}
