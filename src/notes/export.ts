/** Exports a notes folder as one Markdown document (threads per symbol) or as JSON. */
import type { Blockquote, BlockContent, Root, RootContent } from 'mdast';
import { buildThreads, shortId } from './threads.js';
import { code, fromMarkdown, heading, para, strong, text, toMarkdown } from './markdown.js';
import type { Note, NoteCheck, NoteProblem, Thread } from './types.js';

export interface ExportInput {
  notes: readonly Note[];
  problems?: readonly NoteProblem[];
  /** Classes from checkNotes, when a tree was given. */
  checks?: readonly NoteCheck[];
}

type JsonThread = Omit<Note, 'path'> & { class?: string; classMessage?: string; replies: JsonThread[] };

export function exportJson(input: ExportInput): string {
  const checks = new Map((input.checks ?? []).map((c) => [c.note, c]));
  const conv = (t: Thread): JsonThread => {
    const { path: _path, ...rest } = t.note;
    const c = checks.get(t.note.id);
    return { ...rest, ...(c ? { class: c.class, classMessage: c.message } : {}), replies: t.replies.map(conv) };
  };
  return JSON.stringify({ threads: buildThreads(input.notes).map(conv), problems: input.problems ?? [] }, null, 2) + '\n';
}

export function exportMarkdown(input: ExportInput): string {
  const checks = new Map((input.checks ?? []).map((c) => [c.note, c]));
  const threads = buildThreads(input.notes);
  const open = input.notes.filter((n) => n.status === 'open').length;
  const authors = [...new Set(input.notes.map((n) => n.author))].sort();
  const children: RootContent[] = [
    heading(1, 'Study notes'),
    para(`${input.notes.length} notes (${open} open) in ${threads.length} threads${authors.length ? `, by ${authors.join(', ')}` : ''}.`),
  ];
  const bySymbol = new Map<string, Thread[]>();
  for (const t of threads) bySymbol.set(t.note.anchor.symbol, [...(bySymbol.get(t.note.anchor.symbol) ?? []), t]);
  for (const symbol of [...bySymbol.keys()].sort()) {
    const first = bySymbol.get(symbol)![0].note.anchor;
    children.push(heading(2, code(shortId(symbol))));
    children.push(para(code(symbol), text(` — ${first.file}:${first.line}-${first.endLine} when written`)));
    for (const t of bySymbol.get(symbol)!) {
      const n = t.note;
      children.push(heading(3, `${cap(n.kind)} by ${n.author}`));
      children.push(meta(n, checks.get(n.id)));
      children.push(...fromMarkdown(n.body, 4));
      for (const r of t.replies) children.push(reply(r, checks));
    }
  }
  if (input.problems?.length) {
    children.push(heading(2, 'Files that are not valid notes'));
    for (const p of input.problems) children.push(para(code(`${p.file}:${p.line}`), text(` ${p.message}`)));
  }
  return toMarkdown({ type: 'root', children } satisfies Root);
}

function reply(t: Thread, checks: Map<string, NoteCheck>): Blockquote {
  const n = t.note;
  const body: BlockContent[] = [
    para(strong(`${cap(n.kind)} by ${n.author}`)),
    meta(n, checks.get(n.id)),
    ...(fromMarkdown(n.body, 4) as BlockContent[]),
    ...t.replies.map((r) => reply(r, checks)),
  ];
  return { type: 'blockquote', children: body };
}

function meta(n: Note, c: NoteCheck | undefined): BlockContent {
  const parts = [n.date.slice(0, 10), n.session ? `session ${n.session}` : '', n.status, c ? c.class : ''].filter(Boolean);
  return para(text(`${parts.join(' · ')} · `), code(n.id));
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
