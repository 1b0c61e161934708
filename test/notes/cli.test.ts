import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readNotes } from '../../src/notes/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');
const bin = resolve('bin/kubelet-atlas.cjs');

const run = runCli;

function snapshot(dir: string): string {
  return readdirSync(dir).sort().map((n) => `${n} ${statSync(join(dir, n)).mtimeMs} ${readFileSync(join(dir, n), 'utf8')}`).join('\n');
}

describe('kubelet-atlas notes', () => {
  let cache: string;
  let dir: string;
  let first: string;
  const temps: string[] = [];
  const temp = (prefix: string) => {
    const d = tempDir(prefix);
    temps.push(d);
    return d;
  };
  after(() => { for (const d of temps) rmSync(d, { recursive: true, force: true }); });
  const src = () => ['--source', fixture, '--cache-dir', cache, '--dir', dir];
  before(async () => {
    cache = temp('ka-notes-cli-cache-');
    dir = join(temp('ka-notes-cli-'), 'notes');
    const r = await run(['index', '--source', fixture, '--cache-dir', cache]);
    assert.equal(r.code, 0, r.err);
    const a = await run(['notes', 'add', ...src(), '--symbol', 'pleg.GenericPLEG.Relist', '--author', 'alice', '--session', 'week-1', '--text', 'Why poll?'], { KUBELET_ATLAS_NOW: '2025-01-30T03:15:02.123Z' });
    assert.equal(a.code, 0, a.err);
    first = readdirSync(dir)[0].replace(/\.md$/, '');
  });

  it('adds, replies, lists threads with their class, shows, resolves and exports', async () => {
    assert.match(first, /^20250130T031502123Z-[0-9a-f]{8}$/);
    const text = readFileSync(join(dir, `${first}.md`), 'utf8');
    assert.match(text, /symbol: k8s\.io\/kubernetes\/pkg\/kubelet\/pleg\.\(\*GenericPLEG\)\.Relist/);
    assert.match(text, /query: pleg\.GenericPLEG\.Relist/);
    assert.match(text, /date: 2025-01-30T03:15:02\.123Z/);
    const bodyFile = join(dir, '..', 'answer.md');
    writeFileSync(bodyFile, 'The runtime has **no** event stream here.\n');
    const reply = await run(['notes', 'add', '--dir', dir, '--reply-to', first.slice(0, 16), '--author', 'bob', '--file', bodyFile]);
    assert.equal(reply.code, 0, reply.err);
    assert.match(reply.out, /answer on pleg\.\(\*GenericPLEG\)\.Relist, reply to /);

    const list = await run(['notes', 'list', ...src()]);
    assert.equal(list.code, 0, list.err);
    assert.match(list.out, /question {2}open {2}alice {2}session week-1\n {2}on pleg\.\(\*GenericPLEG\)\.Relist {2}\[fresh\]/);
    assert.match(list.out, /\n {2}↳ \S+ {2}answer {2}open {2}bob/);
    const byAuthor = await run(['notes', 'list', '--dir', dir, '--author', 'bob', '--json']);
    assert.equal(JSON.parse(byAuthor.out).notes.length, 1);

    const show = await run(['notes', 'show', first, '--dir', dir]);
    assert.equal(show.code, 0, show.err);
    assert.match(show.out, /Why poll\?[\s\S]*↳ \S+ {2}answer by bob/);

    const res = await run(['notes', 'resolve', first, '--dir', dir]);
    assert.equal(res.code, 0, res.err);
    assert.match(readFileSync(join(dir, `${first}.md`), 'utf8'), /status: resolved/);

    const md = await run(['notes', 'export', '--format', 'md', '--dir', dir]);
    assert.match(md.out, /### Question by alice[\s\S]*> \*\*Answer by bob\*\*/);
    const json = await run(['notes', 'export', '--format', 'json'], { KUBELET_ATLAS_NOTES: dir });
    assert.equal(JSON.parse(json.out).threads[0].replies.length, 1);
  });

  it('rejects bad input with a clear message, exit 2, and no note changed', async () => {
    const before = snapshot(dir);
    const body = join(dir, '..', 'body.md');
    writeFileSync(body, 'text');
    const cases: [string, string[], RegExp][] = [
      ['unknown symbol', ['--symbol', 'GenericPLEG.Relis', '--author', 'a', '--text', 'x'], /unknown symbol 'GenericPLEG\.Relis'\ndid you mean:\n {2}k8s\.io\/kubernetes\/pkg\/kubelet\/pleg\.\(\*GenericPLEG\)\.Relist/],
      ['empty text', ['--symbol', 'pleg.GenericPLEG.Relist', '--author', 'a', '--text', '   '], /the note text is empty/],
      ['both text and file', ['--symbol', 'pleg.GenericPLEG.Relist', '--author', 'a', '--text', 'x', '--file', body], /with --text or --file, not both/],
      ['neither text nor file', ['--symbol', 'pleg.GenericPLEG.Relist', '--author', 'a'], /no note text\npass --text TEXT or --file FILE/],
      ['reply to a missing note', ['--reply-to', '20200101T000000000Z-ffffffff', '--author', 'a', '--text', 'x'], /cannot reply to '20200101T000000000Z-ffffffff': no note/],
      ['unknown kind', ['--symbol', 'pleg.GenericPLEG.Relist', '--author', 'a', '--kind', 'rant', '--text', 'x'], /unknown kind 'rant'\n--kind must be one of question, answer, insight/],
      ['missing file', ['--symbol', 'pleg.GenericPLEG.Relist', '--author', 'a', '--file', join(dir, 'nope.txt')], /nope\.txt does not exist/],
    ];
    for (const [name, args, msg] of cases) {
      const r = await run(['notes', 'add', ...src(), ...args]);
      assert.equal(r.code, 2, `${name}: ${r.err}`);
      assert.match(r.err, msg, name);
      assert.doesNotMatch(r.err, /at .*\.js:\d+/, name);
    }
    assert.equal(snapshot(dir), before);
  });

  it('reports a hand-broken note with file:line in list, goes on, and show fails clearly', async () => {
    const broken = '20250131T000000000Z-0badf00d';
    const path = join(dir, `${broken}.md`);
    writeFileSync(path, readFileSync(join(dir, `${first}.md`), 'utf8').replace(`id: ${first}`, `id: ${broken}`).replace('kind: question', 'kind: [question'));
    const before = snapshot(dir);
    const list = await run(['notes', 'list', '--dir', dir]);
    assert.equal(list.code, 1);
    assert.match(list.err, new RegExp(`${broken}\\.md:13: invalid note: invalid YAML`));
    assert.match(list.out, new RegExp(first));
    const show = await run(['notes', 'show', broken, '--dir', dir]);
    assert.equal(show.code, 2);
    assert.match(show.err, new RegExp(`${broken}\\.md:13: invalid note`));
    const res = await run(['notes', 'resolve', broken, '--dir', dir]);
    assert.equal(res.code, 2);
    assert.equal(snapshot(dir), before);
  });

  it('eight processes adding at once write eight whole notes', async () => {
    const target = join(temp('ka-notes-race-'), 'notes');
    const one = (i: number) => new Promise<{ code: number | null; err: string }>((done) => {
      const p = spawn(process.execPath, [bin, 'notes', 'add', '--dir', target, '--source', fixture, '--cache-dir', cache,
        '--symbol', 'kubelet.Kubelet.syncLoop', '--author', `member-${i}`, '--text', `note number ${i}\n\n${'x'.repeat(4000)}`],
      // The same instant for all: only the random part keeps the names apart.
      { env: { ...process.env, KUBELET_ATLAS_NOW: '2025-02-01T10:00:00.000Z' }, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      p.stderr.on('data', (d) => { err += d; });
      p.on('close', (code) => done({ code, err }));
    });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => one(i)));
    for (const r of results) assert.equal(r.code, 0, r.err);
    const files = readdirSync(target);
    assert.equal(files.length, 8, files.join(', '));
    const { notes, problems } = readNotes(target);
    assert.deepEqual(problems, []);
    assert.equal(notes.length, 8);
    assert.deepEqual(notes.map((n) => n.author).sort(), Array.from({ length: 8 }, (_, i) => `member-${i}`));
    assert.ok(notes.every((n) => n.id.startsWith('20250201T100000000Z-') && n.body.endsWith('x'.repeat(4000))));
  });
});
