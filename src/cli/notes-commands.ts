/** `kubelet-atlas notes …`: study-group notes anchored to Go symbols (see notes/README.md). */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Command, Option } from './commander.js';
import {
  addNote, anchorFor, buildThreads, checkKind, checkNotes, exportJson, exportMarkdown, filterNotes, findNote, flatten,
  notesDir, NoteInputError, NOTE_KINDS, parentNote, readNoteFile, readNotes, resolveNote, shortId, treeSource,
  type Note, type NoteCheck, type NoteProblem,
} from '../notes/index.js';
import { normalizeId } from '../graph/index.js';
import { loadIndex, type CommonOptions, type Io } from './context.js';
import { UserError } from './errors.js';

interface NotesOptions extends CommonOptions {
  dir?: string;
}

/** Adds the `notes` command group; `common` adds the shared source and build-context options. */
export function registerNotesCommands(program: Command, common: (c: Command) => Command, io: Io, done: (code: number) => void): void {
  const notes = program.command('notes').description('study-group notes (questions, answers, insights) anchored to Go symbols');
  const withDir = (c: Command) => common(c).option('--dir <dir>', 'notes folder (default: $KUBELET_ATLAS_NOTES, else notes/)');
  const opts = (c: Command) => c.opts();
  withDir(notes.command('add').description('write a new note on a symbol (or a reply to a note)'))
    .option('--symbol <id>', 'the symbol: a full ID or a short form such as pleg.GenericPLEG.Relist')
    .option('--author <name>', 'who writes it')
    .option('--kind <kind>', `one of ${NOTE_KINDS.join(', ')} (default: question, or answer for a reply)`)
    .option('--session <label>', 'study session label, e.g. week-3')
    .option('--reply-to <note>', 'the note this answers (ID or unique prefix); the reply shares its symbol')
    .option('--text <text>', 'the note text (Markdown)')
    .option('--file <file>', 'read the note text from a file')
    .action(run(done, (c) => notesAddCommand(opts(c), io)));
  withDir(notes.command('list').description('list notes as threads; with --source, also what happened to their code'))
    .option('--symbol <id>', 'only notes on this symbol')
    .option('--author <name>', 'only notes by this author')
    .option('--session <label>', 'only notes of this session')
    .option('--kind <kind>', `only notes of this kind (${NOTE_KINDS.join(', ')})`)
    .action(run(done, (c) => notesListCommand(opts(c), io)));
  withDir(notes.command('show <note>').description('one note with its replies'))
    .action(run(done, (c, ref) => notesShowCommand(ref, opts(c), io)));
  withDir(notes.command('resolve <note>').description('mark a note resolved (rewrites only that note\'s file)'))
    .action(run(done, (c, ref) => notesResolveCommand(ref, opts(c), io)));
  withDir(notes.command('export').description('every note as one Markdown document or as JSON'))
    .addOption(new Option('--format <fmt>', 'md or json').choices(['md', 'json']).default('md'))
    .action(run(done, (c) => notesExportCommand(opts(c), io)));
}

// commander calls an action with (positional args..., options, command).
function run(done: (code: number) => void, fn: (c: Command, ...args: string[]) => Promise<number>) {
  return async (...args: unknown[]) => {
    const c = args[args.length - 1] as Command;
    try {
      done(await fn(c, ...(args.slice(0, -2) as string[])));
    } catch (err) {
      if (err instanceof NoteInputError) throw new UserError(err.message, 2, err.hint);
      throw err;
    }
  };
}

function clock(io: Io): Date {
  const fixed = io.env['KUBELET_ATLAS_NOW'];
  if (!fixed) return new Date();
  const d = new Date(fixed);
  if (Number.isNaN(d.getTime())) throw new UserError(`KUBELET_ATLAS_NOW is not an ISO date: '${fixed}'`);
  return d;
}

export async function notesAddCommand(
  o: NotesOptions & { symbol?: string; author?: string; kind?: string; session?: string; replyTo?: string; text?: string; file?: string },
  io: Io,
): Promise<number> {
  const dir = notesDir(o.dir, io.env);
  // Every check that needs no tree comes first, so bad input fails fast and writes nothing.
  if (o.text !== undefined && o.file !== undefined) throw new UserError('give the note text with --text or --file, not both');
  if (o.text === undefined && o.file === undefined) throw new UserError('no note text', 2, 'pass --text TEXT or --file FILE');
  let text = o.text ?? '';
  if (o.file !== undefined) {
    if (!existsSync(o.file) || !statSync(o.file).isFile()) throw new UserError(`--file ${o.file} does not exist or is not a file`);
    text = readFileSync(o.file, 'utf8');
  }
  if (!text.trim()) throw new UserError(`the note text is empty${o.file !== undefined ? ` (${o.file})` : ''}`, 2, 'write the question, answer or insight in --text or the --file');
  if (!o.author?.trim()) throw new UserError('no author', 2, 'pass --author NAME');
  checkKind(o.kind, 'question');
  if (o.replyTo !== undefined) parentNote(dir, o.replyTo);
  if (o.symbol === undefined && o.replyTo === undefined) throw new UserError('no symbol given', 2, 'pass --symbol ID, or --reply-to NOTE to answer a note');

  let anchor;
  if (o.symbol !== undefined) {
    const { table, root } = await loadIndex(o, io);
    const r = table.lookup(o.symbol);
    if (!r.ok) {
      if (r.reason === 'ambiguous') throw new UserError(`'${o.symbol}' is ambiguous; candidates:\n${r.candidates.slice(0, 20).map((c) => `  ${c}`).join('\n')}`, 2, 'pass one of the full IDs');
      const near = rankNearest(o.symbol, r.candidates);
      throw new UserError(`unknown symbol '${o.symbol}'`, 2, near.length ? `did you mean:\n${near.map((c) => `  ${c}`).join('\n')}` : 'try `kubelet-atlas search TEXT`');
    }
    anchor = anchorFor(r.symbol, o.symbol, treeSource(root));
  }
  const note = addNote({ dir, anchor, author: o.author, kind: o.kind, session: o.session, replyTo: o.replyTo, text, now: clock(io) });
  if (o.json) io.out(JSON.stringify(note, null, 2) + '\n');
  else io.out(`added ${note.path} (${note.kind} on ${shortId(note.anchor.symbol)}${note.replyTo ? `, reply to ${note.replyTo}` : ''})\n`);
  return 0;
}

async function checksFor(notes: Note[], o: NotesOptions, io: Io): Promise<Map<string, NoteCheck> | undefined> {
  if (!o.source || notes.length === 0) return undefined;
  const { result } = await loadIndex(o, io);
  return new Map(checkNotes(notes, result.graph).map((c) => [c.note, c]));
}

function reportProblems(problems: NoteProblem[], io: Io): void {
  for (const p of problems) io.err(`${p.file}:${p.line}: invalid note: ${p.message}\n`);
}

export async function notesListCommand(o: NotesOptions & { symbol?: string; author?: string; session?: string; kind?: string }, io: Io): Promise<number> {
  const dir = notesDir(o.dir, io.env);
  if (o.kind !== undefined) checkKind(o.kind, 'question');
  const { notes, problems } = readNotes(dir);
  const shown = filterNotes(notes, o);
  const checks = await checksFor(shown, o, io);
  const rows = flatten(buildThreads(shown));
  if (o.json) {
    io.out(JSON.stringify({
      notes: rows.map(({ note, depth }) => ({ ...note, depth, check: checks?.get(note.id) })),
      problems,
    }, null, 2) + '\n');
    return problems.length ? 1 : 0;
  }
  reportProblems(problems, io);
  if (rows.length === 0) io.out(notes.length ? 'no notes match\n' : `no notes in ${dir}\n`);
  for (const { note, depth } of rows) {
    const pad = '  '.repeat(depth);
    const c = checks?.get(note.id);
    const head = [note.id, note.kind, note.status, note.author, note.session ? `session ${note.session}` : ''].filter(Boolean).join('  ');
    io.out(`${pad}${depth ? '↳ ' : ''}${head}\n`);
    io.out(`${pad}${depth ? '  ' : ''}  on ${shortId(note.anchor.symbol)}${c ? `  [${c.class}] ${c.message}` : ''}\n`);
    io.out(`${pad}${depth ? '  ' : ''}  ${firstLine(note.body)}\n`);
  }
  return problems.length ? 1 : 0;
}

export async function notesShowCommand(ref: string, o: NotesOptions, io: Io): Promise<number> {
  const dir = notesDir(o.dir, io.env);
  const found = findNote(dir, ref);
  if (!found.ok) throw new UserError(found.message, 2, found.candidates ? `candidates:\n${found.candidates.map((c) => `  ${c}`).join('\n')}` : 'run `kubelet-atlas notes list` to see the note IDs');
  const r = readNoteFile(found.file, found.id);
  if (!r.ok) throw new UserError(`${r.problem.file}:${r.problem.line}: invalid note: ${r.problem.message}`, 2, 'fix the front matter by hand (see notes/README.md for the format)');
  const all = readNotes(dir).notes;
  const thread = buildThreads(all).flatMap(function find(t): ReturnType<typeof buildThreads> {
    return t.note.id === found.id ? [t] : t.replies.flatMap(find);
  })[0] ?? { note: r.note, replies: [] };
  const rows = flatten([thread]);
  const checks = await checksFor(rows.map((x) => x.note), o, io);
  if (o.json) {
    io.out(JSON.stringify({ notes: rows.map(({ note, depth }) => ({ ...note, depth, check: checks?.get(note.id) })) }, null, 2) + '\n');
    return 0;
  }
  const n = r.note;
  io.out(`${n.id}  ${n.kind}  ${n.status}\n`);
  io.out(`  by ${n.author} on ${n.date}${n.session ? `, session ${n.session}` : ''}\n`);
  io.out(`  on ${n.anchor.symbol}\n  written against ${n.anchor.file}:${n.anchor.line}-${n.anchor.endLine}\n`);
  if (n.replyTo) io.out(`  reply to ${n.replyTo}\n`);
  const c = checks?.get(n.id);
  if (c) io.out(`  [${c.class}] ${c.message}\n`);
  io.out(`\n${indent(n.body, '  ')}\n`);
  for (const { note, depth } of rows.slice(1)) {
    const pad = '  '.repeat(depth);
    const rc = checks?.get(note.id);
    io.out(`\n${pad}↳ ${note.id}  ${note.kind} by ${note.author}, ${note.date.slice(0, 10)}, ${note.status}${rc && rc.class !== c?.class ? `  [${rc.class}]` : ''}\n`);
    io.out(`${indent(note.body, pad + '  ')}\n`);
  }
  return 0;
}

export async function notesResolveCommand(ref: string, o: NotesOptions, io: Io): Promise<number> {
  const { note, changed } = resolveNote(notesDir(o.dir, io.env), ref);
  if (o.json) io.out(JSON.stringify({ id: note.id, status: note.status, changed }) + '\n');
  else io.out(changed ? `resolved ${note.id}\n` : `${note.id} was already resolved\n`);
  return 0;
}

export async function notesExportCommand(o: NotesOptions & { format?: string }, io: Io): Promise<number> {
  const { notes, problems } = readNotes(notesDir(o.dir, io.env));
  const checks = await checksFor(notes, o, io);
  const input = { notes, problems, checks: checks ? [...checks.values()] : undefined };
  const format = o.json ? 'json' : o.format ?? 'md';
  io.out(format === 'json' ? exportJson(input) : exportMarkdown(input));
  reportProblems(problems, io);
  return problems.length ? 1 : 0;
}

/** Nearest names that also contain what was typed before the last name (`GenericPLEG` in `GenericPLEG.Relis`) come first. */
function rankNearest(query: string, candidates: string[]): string[] {
  const q = normalizeId(query);
  const qualifier = q.includes('.') ? q.slice(0, q.lastIndexOf('.')) : '';
  if (!qualifier) return candidates;
  const has = (c: string) => normalizeId(c).includes(qualifier);
  return [...candidates.filter(has), ...candidates.filter((c) => !has(c))];
}

function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}…` : line;
}

function indent(s: string, pad: string): string {
  return s.split('\n').map((l) => (l ? pad + l : l)).join('\n');
}
