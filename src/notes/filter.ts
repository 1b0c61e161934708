/** Filters for `notes list`: by symbol (full ID, as typed, or a short form), author, session and kind. */
import { normalizeId } from '../graph/lookup.js';
import type { Note } from './types.js';

export interface NoteFilter {
  symbol?: string;
  author?: string;
  session?: string;
  kind?: string;
}

/** Whether a note's anchor is the symbol asked for; short forms match the end of the full ID. */
export function anchorMatches(note: Note, query: string): boolean {
  const q = query.trim();
  if (note.anchor.symbol === q || note.anchor.query === q) return true;
  const full = normalizeId(note.anchor.symbol);
  const nq = normalizeId(q);
  return full === nq || full.endsWith(`/${nq}`) || full.endsWith(`.${nq}`);
}

export function filterNotes(notes: readonly Note[], f: NoteFilter): Note[] {
  return notes.filter((n) =>
    (f.symbol === undefined || anchorMatches(n, f.symbol)) &&
    (f.author === undefined || n.author.toLowerCase() === f.author.toLowerCase()) &&
    (f.session === undefined || n.session === f.session) &&
    (f.kind === undefined || n.kind === f.kind));
}
