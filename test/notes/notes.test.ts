import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { SymbolTable } from '../../src/graph/index.js';
import type { Graph } from '../../src/model/index.js';
import {
  addNote, anchorFor, buildThreads, checkNotes, checkNotesFolder, createNoteFile, exportJson, exportMarkdown, filterNotes, flatten, formatNote,
  newNoteId, NOTE_ID, NoteInputError, noteIdTime, parseNote, readNotes, resolveNote, treeSource, type Note,
} from '../../src/notes/index.js';
import { copyFixture, FIXTURE, modifyFixture } from '../diff/fixture.js';
import { tempDir } from '../helpers/temp.js';

const K = 'k8s.io/kubernetes/pkg/kubelet';
const ROOT = tempDir('ka-notes-test-');
after(() => rmSync(ROOT, { recursive: true, force: true }));
const NOW = new Date('2025-01-30T03:15:02.123Z');

function sample(over: Partial<Note> = {}): Note {
  return {
    id: '20250130T031502123Z-0000000a',
    anchor: { symbol: `${K}/pleg.(*GenericPLEG).Relist`, query: 'pleg.GenericPLEG.Relist', file: 'pkg/kubelet/pleg/generic.go', line: 109, endLine: 142, fingerprint: 'abc', shape: 'def' },
    author: 'alice', date: NOW.toISOString(), kind: 'question', session: 'week-1', status: 'open',
    body: 'Why poll *every* second?\n\n- because the runtime has no events',
    ...over,
  };
}

/** Every file of a folder with its bytes and mtime, to prove a rejected command changed nothing. */
function snapshot(dir: string): string {
  return readdirSync(dir).sort().map((n) => `${n} ${statSync(join(dir, n)).mtimeMs} ${readFileSync(join(dir, n), 'utf8')}`).join('\n');
}

describe('note files', () => {
  it('round-trips through format and parse', () => {
    const n = sample({ replyTo: '20250130T031502000Z-0000000b' });
    const text = formatNote(n);
    assert.match(text, /^---\nid: 20250130T031502123Z-0000000a\nanchor:\n {2}symbol: /);
    const r = parseNote(text, 'x.md', n.id);
    assert.ok(r.ok);
    assert.deepEqual({ ...r.note, path: undefined }, { ...n, path: undefined });
  });

  it('reports hand-edit mistakes with the file line they are on', () => {
    const good = formatNote(sample());
    const cases: [string, string, number, RegExp][] = [
      ['bad kind', good.replace('kind: question', 'kind: rant'), 13, /'kind' must be one of question, answer, insight, found "rant"/],
      ['broken YAML', good.replace('author: alice', 'author: [alice'), 11, /invalid YAML/],
      ['no fence', good.slice(4), 1, /no front matter/],
      ['unclosed', good.replace(/\n---\n\n/, '\n\n'), 1, /never closed/],
      ['line not a number', good.replace('line: 109', 'line: soon'), 7, /'anchor.line' must be a line number/],
      ['missing author', good.replace('author: alice\n', ''), 2, /'author' must be a non-empty name/],
      ['empty body', good.replace(/---\n\n[\s\S]*$/, '---\n\n  \n'), 17, /no text/],
      ['bad date', good.replace(/date: .*/, 'date: yesterday'), 12, /'date' must be an ISO date/],
    ];
    for (const [name, text, line, msg] of cases) {
      const r = parseNote(text, 'n.md', '20250130T031502123Z-0000000a');
      assert.ok(!r.ok, name);
      assert.equal(r.problem.line, line, `${name}: ${r.problem.message}`);
      assert.match(r.problem.message, msg, name);
    }
    const r = parseNote(good, 'n.md', '20250130T031502123Z-0000000f');
    assert.ok(!r.ok);
    assert.match(r.problem.message, /file is named 20250130T031502123Z-0000000f\.md/);
  });

  it('makes IDs that sort by time and do not collide within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newNoteId(NOW));
    assert.equal(new Set(ids).size, ids.length);
    for (const id of ids) assert.match(id, NOTE_ID);
    assert.equal(noteIdTime(ids[0])!.toISOString(), NOW.toISOString());
    const later = newNoteId(new Date(NOW.getTime() + 1));
    assert.ok(ids.every((id) => id < later));
  });

  it('nests replies under their parent, keeps orphan replies and survives a hand-made cycle', () => {
    const a = sample({ id: '20250101T000000000Z-0000000a' });
    const b = sample({ id: '20250101T000000001Z-0000000b', replyTo: a.id, kind: 'answer' });
    const c = sample({ id: '20250101T000000002Z-0000000c', replyTo: b.id, kind: 'answer' });
    const lost = sample({ id: '20250101T000000003Z-0000000d', replyTo: '20240101T000000000Z-deadbeef' });
    const rows = flatten(buildThreads([c, lost, b, a]));
    assert.deepEqual(rows.map((r) => [r.note.id.slice(-1), r.depth]), [['a', 0], ['b', 1], ['c', 2], ['d', 0]]);
    const x = sample({ id: '20250101T000000000Z-0000000e', replyTo: '20250101T000000001Z-0000000f' });
    const y = sample({ id: '20250101T000000001Z-0000000f', replyTo: x.id });
    assert.equal(flatten(buildThreads([x, y])).length, 2);
  });

  it('filters by symbol short form, author, session and kind', () => {
    const ns = [sample(), sample({ id: '20250130T031502124Z-0000000b', author: 'Bob', kind: 'insight', session: undefined, anchor: { ...sample().anchor, symbol: `${K}.(*Kubelet).syncLoop` } })];
    assert.equal(filterNotes(ns, { symbol: 'GenericPLEG.Relist' }).length, 1);
    assert.equal(filterNotes(ns, { symbol: 'kubelet.Kubelet.syncLoop' }).length, 1);
    assert.equal(filterNotes(ns, { symbol: 'Relis' }).length, 0);
    assert.equal(filterNotes(ns, { author: 'bob' }).length, 1);
    assert.equal(filterNotes(ns, { session: 'week-1' }).length, 1);
    assert.equal(filterNotes(ns, { kind: 'insight' })[0].author, 'Bob');
  });
});

describe('adding and resolving', () => {
  it('rejects bad input without touching the folder', () => {
    const dir = mkdtempSync(join(ROOT, 'n-'));
    const first = addNote({ dir, anchor: sample().anchor, author: 'alice', text: 'first', now: NOW });
    const before = snapshot(dir);
    const bad: [string, () => unknown, RegExp][] = [
      ['empty text', () => addNote({ dir, anchor: sample().anchor, author: 'a', text: '  \n', now: NOW }), /text is empty/],
      ['unknown kind', () => addNote({ dir, anchor: sample().anchor, author: 'a', kind: 'rant', text: 'x', now: NOW }), /unknown kind 'rant'/],
      ['missing parent', () => addNote({ dir, author: 'a', replyTo: '20200101T000000000Z-ffffffff', text: 'x', now: NOW }), /cannot reply to/],
      ['no symbol', () => addNote({ dir, author: 'a', text: 'x', now: NOW }), /no symbol/],
      ['empty author', () => addNote({ dir, anchor: sample().anchor, author: ' ', text: 'x', now: NOW }), /author is empty/],
    ];
    for (const [name, fn, msg] of bad) assert.throws(fn, (e: Error) => e instanceof NoteInputError && msg.test(e.message), name);
    assert.equal(snapshot(dir), before);
    const reply = addNote({ dir, author: 'bob', replyTo: first.id.slice(0, 14), text: 'an answer', now: NOW });
    assert.equal(reply.replyTo, first.id);
    assert.equal(reply.kind, 'answer');
    assert.deepEqual(reply.anchor, first.anchor);
  });

  it('never overwrites an existing note file', () => {
    const dir = mkdtempSync(join(ROOT, 'n-'));
    const n = sample();
    createNoteFile(dir, n);
    assert.throws(() => createNoteFile(dir, { ...n, body: 'other' }), /already exists/);
    assert.match(readFileSync(join(dir, `${n.id}.md`), 'utf8'), /Why poll/);
    assert.deepEqual(readdirSync(dir), [`${n.id}.md`]);
  });

  it('resolve rewrites only that note', () => {
    const dir = mkdtempSync(join(ROOT, 'n-'));
    const a = addNote({ dir, anchor: sample().anchor, author: 'a', text: 'one', now: NOW });
    const b = addNote({ dir, anchor: sample().anchor, author: 'b', text: 'two', now: new Date(NOW.getTime() + 5) });
    const other = readFileSync(b.path!, 'utf8');
    const mtime = statSync(b.path!).mtimeMs;
    assert.equal(resolveNote(dir, a.id).changed, true);
    assert.equal(resolveNote(dir, a.id).changed, false);
    assert.match(readFileSync(a.path!, 'utf8'), /status: resolved/);
    assert.equal(readFileSync(b.path!, 'utf8'), other);
    assert.equal(statSync(b.path!).mtimeMs, mtime);
  });

  it('lists invalid files as problems and keeps the valid notes', () => {
    const dir = mkdtempSync(join(ROOT, 'n-'));
    addNote({ dir, anchor: sample().anchor, author: 'a', text: 'ok', now: NOW });
    writeFileSync(join(dir, '20250130T031502123Z-0000beef.md'), formatNote(sample({ id: '20250130T031502123Z-0000beef' })).replace('status: open', 'status: maybe'));
    writeFileSync(join(dir, 'README.md'), '# not a note');
    const { notes, problems } = readNotes(dir);
    assert.equal(notes.length, 1);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].line, 15);
    assert.match(problems[0].message, /'status' must be open or resolved/);
  });

  it('exports threads as Markdown and JSON', () => {
    const a = sample({ id: '20250101T000000000Z-0000000a' });
    const b = sample({ id: '20250101T000000001Z-0000000b', replyTo: a.id, kind: 'answer', author: 'bob', body: '# Because\n\nno CRI events' });
    const md = exportMarkdown({ notes: [b, a] });
    assert.match(md, /^# Study notes\n\n2 notes \(2 open\) in 1 threads, by alice, bob\./);
    assert.match(md, /## `pleg\.\(\*GenericPLEG\)\.Relist`/);
    assert.match(md, /### Question by alice/);
    assert.match(md, /> \*\*Answer by bob\*\*/);
    assert.match(md, /> #### Because/);
    const json = JSON.parse(exportJson({ notes: [b, a] }));
    assert.equal(json.threads.length, 1);
    assert.equal(json.threads[0].replies[0].id, b.id);
  });
});

describe('notes drift against a modified tree', () => {
  let older: Graph;
  let newer: Graph;
  let root: string;
  before(() => {
    const tmp = mkdtempSync(join(ROOT, 'drift-'));
    root = copyFixture(join(tmp, 'tree'));
    modifyFixture(root);
    const ctx = defaultBuildContext();
    older = buildIndex({ root: FIXTURE, ctx, cacheDir: join(tmp, 'cache') }).graph;
    newer = buildIndex({ root, ctx, cacheDir: join(tmp, 'cache') }).graph;
  });

  it('classifies notes fresh, moved, changed, renamed and orphaned, and never drops one', () => {
    const table = new SymbolTable(older.symbols);
    const read = treeSource(FIXTURE);
    const on = (q: string, i: number): Note => {
      const r = table.lookup(q);
      assert.ok(r.ok, q);
      return sample({ id: `20250101T00000000${i}Z-0000000${i}`, anchor: anchorFor(r.symbol, q, read) });
    };
    const notes = [
      on('kubelet.newPodWorkers', 1),
      on('pleg.generateEvents', 2),
      on('pleg.convertState', 3),
      on('pleg.GenericPLEG.Relist', 4),
      on('pleg.getContainersFromPods', 5),
      on('pleg.GenericPLEG.updateRelistTime', 6),
    ];
    const checks = checkNotes(notes, newer);
    assert.equal(checks.length, notes.length);
    assert.deepEqual(checks.map((c) => c.class), ['fresh', 'moved', 'moved', 'changed', 'renamed', 'orphaned']);
    assert.match(checks[1].message, /moved from pkg\/kubelet\/pleg\/generic.go:\d+ to pkg\/kubelet\/pleg\/generic.go:\d+/);
    assert.equal(checks[2].now?.file, 'pkg/kubelet/pleg/state.go');
    assert.equal(checks[4].now?.id, `${K}/pleg.containersOfPods`);
    assert.match(checks[5].message, /orphaned/);
    assert.ok(checks[5].suggestions!.some((s) => s.endsWith('getRelistTime')), checks[5].message);
    // Against the tree it was written on, every note is fresh.
    assert.ok(checkNotes(notes, older).every((c) => c.class === 'fresh'));
    // The folder form the check command uses: a broken file is reported, the rest still classified.
    const dir = mkdtempSync(join(ROOT, 'folder-'));
    for (const n of notes) createNoteFile(dir, n);
    writeFileSync(join(dir, '20250101T000000009Z-00000009.md'), 'no front matter');
    const folder = checkNotesFolder(dir, newer);
    assert.deepEqual(folder.summary, { fresh: 1, moved: 2, changed: 1, renamed: 1, orphaned: 1 });
    assert.equal(folder.problems.length, 1);
    assert.equal(readdirSync(dir).length, notes.length + 1);
  });
});
