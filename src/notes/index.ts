/** Study-group notes: one Markdown file per note, anchored to a Go symbol and checked for drift. */
export * from './types.js';
export { newNoteId, noteIdTime, NOTE_ID } from './id.js';
export { formatNote, parseNote } from './format.js';
export { readNotes, readNoteFile, createNoteFile, rewriteNoteFile, findNote, notesDir, NOTES_ENV, NoteExistsError, type NoteSet } from './store.js';
export { addNote, resolveNote, anchorFor, parentNote, checkKind, NoteInputError, type AddNoteInput } from './add.js';
export { checkNotes, checkNotesFolder, type CheckNotesOptions, type NotesFolderCheck } from './check.js';
export { buildThreads, flatten, shortId } from './threads.js';
export { filterNotes, anchorMatches, type NoteFilter } from './filter.js';
export { exportJson, exportMarkdown, type ExportInput } from './export.js';
export { treeSource, shapeOf, packageOf, localPart, type ReadSource, type SymbolSpan } from './source.js';
export { toMarkdown, fromMarkdown, heading, para, list, table, text, code, strong } from './markdown.js';
