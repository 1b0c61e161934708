/**
 * Records of the study-group notes: one note per file, anchored to a Go symbol by its full ID and by
 * a fingerprint of the body it was written against, so a later check can tell what happened to it.
 */

export const NOTE_KINDS = ['question', 'answer', 'insight'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

export const NOTE_STATUSES = ['open', 'resolved'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

/** Where a note points, as recorded when it was written. */
export interface NoteAnchor {
  /** Full symbol ID (runtime/pprof name). */
  symbol: string;
  /** The symbol as the author typed it. */
  query: string;
  file: string;
  line: number;
  endLine: number;
  fingerprint: string;
  /**
   * Fingerprint of the body with the symbol's own names blanked out, so a plain rename can be found.
   * Absent when the source could not be read when the note was written.
   */
  shape?: string;
}

export interface Note {
  id: string;
  anchor: NoteAnchor;
  author: string;
  /** ISO 8601, UTC. */
  date: string;
  kind: NoteKind;
  session?: string;
  status: NoteStatus;
  replyTo?: string;
  /** Markdown, without the front matter. */
  body: string;
  /** Path of the file it was read from (not stored in the file). */
  path?: string;
}

/** A note file that could not be read as a note. */
export interface NoteProblem {
  file: string;
  line: number;
  message: string;
}

/** The same classes, with the same meaning, as the annotation drift check. */
export const NOTE_CLASSES = ['fresh', 'moved', 'changed', 'renamed', 'orphaned'] as const;
export type NoteClass = (typeof NOTE_CLASSES)[number];

export interface Place {
  id: string;
  file: string;
  line: number;
  endLine: number;
}

export interface NoteCheck {
  note: string;
  symbol: string;
  class: NoteClass;
  /** One line for people: what happened and where the code is now. */
  message: string;
  /** Where the anchored code is now (absent when orphaned). */
  now?: Place;
  /** Nearest names, for an orphaned note. */
  suggestions?: string[];
}

/** A note with its replies, oldest first. */
export interface Thread {
  note: Note;
  replies: Thread[];
}
