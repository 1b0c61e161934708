/**
 * What happened to the code under each note since it was written, in the annotation check's terms:
 * fresh (same ID, body and place), moved (same ID and body, other place), changed (same ID, other
 * body), renamed (ID gone, same body under another ID) and orphaned (gone). Orphaned notes are only
 * reported; nothing here deletes or edits a note.
 */
import type { Graph, SymbolRecord } from '../model/index.js';
import { SymbolTable } from '../graph/lookup.js';
import { packageOf, shapeOf, treeSource, type ReadSource } from './source.js';
import { readNotes } from './store.js';
import { NOTE_CLASSES, type Note, type NoteCheck, type NoteClass, type NoteProblem, type Place } from './types.js';

export interface CheckNotesOptions {
  /** Reads symbol source from the checked tree; defaults to reading files under graph.root. */
  read?: ReadSource;
}

export function checkNotes(notes: readonly Note[], graph: Graph, opts: CheckNotesOptions = {}): NoteCheck[] {
  const table = new SymbolTable(graph.symbols);
  const read = opts.read ?? treeSource(graph.root);
  const finder = new RenameFinder(table, read);
  return notes.map((n) => classifyNote(n, table, finder));
}

function place(s: SymbolRecord): Place {
  return { id: s.id, file: s.file, line: s.line, endLine: s.endLine };
}

function classifyNote(note: Note, table: SymbolTable, finder: RenameFinder): NoteCheck {
  const a = note.anchor;
  const base = { note: note.id, symbol: a.symbol };
  const was = `${a.file}:${a.line}`;
  const sym = table.get(a.symbol);
  if (sym) {
    const now = place(sym);
    const is = `${sym.file}:${sym.line}`;
    if (sym.fingerprint === a.fingerprint) {
      if (is === was) return { ...base, class: 'fresh', now, message: `fresh at ${is}` };
      return { ...base, class: 'moved', now, message: `moved from ${was} to ${is}, body unchanged` };
    }
    const size = `${a.endLine - a.line + 1} → ${sym.endLine - sym.line + 1} lines`;
    return { ...base, class: 'changed', now, message: `changed: the body differs from when the note was written (${size}); now at ${is}-${sym.endLine}` };
  }
  const match = finder.find(note);
  if (match) {
    return { ...base, class: 'renamed', now: place(match.symbol), message: `renamed: the same ${match.by === 'fingerprint' ? 'body' : 'body under a new name'} is now ${match.symbol.id} at ${match.symbol.file}:${match.symbol.line}` };
  }
  const name = a.symbol.slice(a.symbol.lastIndexOf('.') + 1);
  const suggestions = table.nearest(name, 5);
  return {
    ...base, class: 'orphaned', suggestions,
    message: `orphaned: ${a.symbol} is gone and no symbol has its body${suggestions.length ? `; nearest names: ${suggestions.join(', ')}` : ''}`,
  };
}

/**
 * Where a vanished symbol went: first a symbol with the identical fingerprint anywhere (a package
 * move), then one with the same shape (the body with its own names blanked) in the same package
 * or file (a rename).
 */
class RenameFinder {
  private byFingerprint?: Map<string, SymbolRecord[]>;
  private shapes = new Map<string, string | null>();

  constructor(private table: SymbolTable, private read: ReadSource) {}

  find(note: Note): { symbol: SymbolRecord; by: 'fingerprint' | 'shape' } | undefined {
    const a = note.anchor;
    if (a.fingerprint) {
      const exact = (this.fingerprints().get(a.fingerprint) ?? []).filter((s) => s.id !== a.symbol);
      if (exact.length) return { symbol: exact[0], by: 'fingerprint' };
    }
    if (!a.shape) return undefined;
    const pkg = packageOf(a.symbol);
    for (const s of this.table.all()) {
      if (s.id === a.symbol || !s.fingerprint || (s.pkg !== pkg && s.file !== a.file)) continue;
      if (this.shape(s) === a.shape) return { symbol: s, by: 'shape' };
    }
    return undefined;
  }

  private shape(s: SymbolRecord): string | null {
    let v = this.shapes.get(s.id);
    if (v === undefined) {
      const text = this.read(s);
      v = text === undefined ? null : shapeOf(text, s.id);
      this.shapes.set(s.id, v);
    }
    return v;
  }

  private fingerprints(): Map<string, SymbolRecord[]> {
    if (!this.byFingerprint) {
      const m = new Map<string, SymbolRecord[]>();
      for (const s of this.table.all()) {
        if (!s.fingerprint) continue;
        const list = m.get(s.fingerprint);
        if (list) list.push(s);
        else m.set(s.fingerprint, [s]);
      }
      this.byFingerprint = m;
    }
    return this.byFingerprint;
  }
}

export interface NotesFolderCheck {
  checks: NoteCheck[];
  problems: NoteProblem[];
  /** How many notes fall in each class. */
  summary: Record<NoteClass, number>;
}

/** For `kubelet-atlas check`: every note of a folder classified against a graph, plus unreadable files. */
export function checkNotesFolder(dir: string, graph: Graph, opts: CheckNotesOptions = {}): NotesFolderCheck {
  const { notes, problems } = readNotes(dir);
  const checks = checkNotes(notes, graph, opts);
  const summary = Object.fromEntries(NOTE_CLASSES.map((c) => [c, checks.filter((x) => x.class === c).length])) as Record<NoteClass, number>;
  return { checks, problems, summary };
}
