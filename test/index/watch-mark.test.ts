/**
 * The watch's mark in its index folder, and the other commands waiting for the watch: a query right
 * after an edit answers from what the watch builds instead of building the index beside it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIndex, WatchError, type IndexOptions, type IndexResult, type WatchBuild } from '../../src/index/build.js';
import { indexDir } from '../../src/index/stored.js';
import { watchWith } from '../../src/index/watch.js';
import { awaitWatch, readWatchMark, removeWatchMark, WATCH_MARK_FILE, writeWatchMark, type WatchMark } from '../../src/index/watch-mark.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tree(): IndexOptions {
  const root = tempDir('ka-mark-tree-');
  cpSync(fixture, root, { recursive: true });
  return { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-mark-cache-'), workers: 0 };
}

describe('the watch mark (readWatchMark)', () => {
  it('is this process while it is written, and nothing once removed', () => {
    const dir = tempDir('ka-mark-');
    assert.equal(readWatchMark(dir), undefined, 'no file');
    writeWatchMark(dir, { busy: true, builds: 3 });
    const mark = readWatchMark(dir);
    assert.equal(mark?.pid, process.pid);
    assert.equal(mark?.busy, true);
    assert.equal(mark?.builds, 3);
    removeWatchMark(dir);
    assert.equal(existsSync(join(dir, WATCH_MARK_FILE)), false);
  });

  it('is nothing when its process is gone, it was made on another host, or it cannot be read', () => {
    const dir = tempDir('ka-mark-');
    const file = join(dir, WATCH_MARK_FILE);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(file, JSON.stringify({ pid: gone, host: hostname(), busy: true, builds: 0 }));
    assert.equal(readWatchMark(dir), undefined, 'a process that exited');
    writeFileSync(file, JSON.stringify({ pid: process.pid, host: 'another-host.invalid', busy: true, builds: 0 }));
    assert.equal(readWatchMark(dir), undefined, 'another host');
    writeWatchMark(dir, { busy: true, builds: 0 });
    const mine = JSON.parse(readFileSync(file, 'utf8')) as WatchMark;
    if (existsSync('/proc/self/stat')) {
      assert.equal(typeof mine.start, 'number', 'the start of this process, from /proc');
      // The same pid, started at another time: a process that got the pid of a watch gone since.
      writeFileSync(file, JSON.stringify({ ...mine, start: mine.start! + 1 }));
      assert.equal(readWatchMark(dir), undefined, 'another process with the pid');
    }
    writeFileSync(file, '{"pid": ');
    assert.equal(readWatchMark(dir), undefined, 'damaged');
    writeFileSync(file, JSON.stringify({ pid: process.pid, busy: 'yes' }));
    assert.equal(readWatchMark(dir), undefined, 'fields missing or of the wrong type');
    // Another process's mark is not removed by this one.
    writeFileSync(file, JSON.stringify({ pid: 1, host: 'another-host.invalid', busy: true, builds: 0 }));
    removeWatchMark(dir);
    assert.ok(existsSync(file));
  });
});

describe('awaitWatch', () => {
  it('returns at once when no watch keeps the index', async () => {
    let asked = 0;
    const w = await awaitWatch(tempDir('ka-mark-'), () => ++asked > 0);
    assert.deepEqual(w, { ended: 'none' });
    assert.equal(asked, 0);
  });

  it('waits while the watch builds, never asking for freshness then, and ends when the index is fresh after its build', async () => {
    const dir = tempDir('ka-mark-');
    writeWatchMark(dir, { busy: true, builds: 1 });
    let fresh = false;
    const asked: boolean[] = [];
    setTimeout(() => {
      fresh = true;
      writeWatchMark(dir, { busy: false, builds: 2 });
    }, 200);
    let told = 0;
    const w = await awaitWatch(dir, () => (asked.push(readWatchMark(dir)!.busy), fresh), { pollMs: 10, tellAfterMs: 50, onWait: () => told++ });
    assert.ok(w.ended === 'fresh' && w.ms >= 190, JSON.stringify(w));
    assert.deepEqual(asked, [false], 'asked once, after the build');
    assert.equal(told, 1, 'told once that it waits');
  });

  it('goes on at once while the watch only warms up and the index is fresh, and waits out a warm-up while it is behind', async () => {
    const dir = tempDir('ka-mark-');
    writeWatchMark(dir, { busy: true, warming: true, builds: 1 });
    assert.equal(readWatchMark(dir)?.warming, true);
    const now = await awaitWatch(dir, () => true, { pollMs: 10, limitMs: 2000 });
    assert.ok(now.ended === 'fresh' && now.ms < 500, JSON.stringify(now));

    // Behind: no grace runs out during the warm-up (the watch builds after it); its build ends the wait.
    let fresh = false;
    setTimeout(() => writeWatchMark(dir, { busy: true, builds: 2 }), 400);
    setTimeout(() => {
      fresh = true;
      writeWatchMark(dir, { busy: false, builds: 3 });
    }, 500);
    const later = await awaitWatch(dir, () => fresh, { pollMs: 10, graceMs: 100 });
    assert.ok(later.ended === 'fresh' && later.ms >= 490, JSON.stringify(later));

    // A mark without the field (an older watch's) is a warm-up like any build: waited out.
    writeWatchMark(dir, { busy: true, builds: 1 });
    assert.equal(readWatchMark(dir)?.warming, undefined);
    assert.equal((await awaitWatch(dir, () => true, { pollMs: 10, limitMs: 80 })).ended, 'limit');
    removeWatchMark(dir);
  });

  it('gives up when the watch stays idle with the index behind, when the watch stops, and at its limit', async () => {
    const dir = tempDir('ka-mark-');
    writeWatchMark(dir, { busy: false, builds: 1 });
    let asked = 0;
    const behind = await awaitWatch(dir, () => (asked++, false), { graceMs: 250, pollMs: 10 });
    assert.ok(behind.ended === 'behind' && behind.ms >= 250, JSON.stringify(behind));
    assert.ok(asked >= 2 && asked <= 5, `the tree checked every 100 ms while idle (${asked} times)`);

    writeWatchMark(dir, { busy: true, builds: 1 });
    setTimeout(() => removeWatchMark(dir), 60);
    assert.equal((await awaitWatch(dir, () => true, { pollMs: 10 })).ended, 'gone');

    writeWatchMark(dir, { busy: true, builds: 1 });
    assert.equal((await awaitWatch(dir, () => true, { pollMs: 10, limitMs: 80 })).ended, 'limit');
    removeWatchMark(dir);
  });
});

describe('a watch and its mark', () => {
  it('marks itself busy while it builds and idle after, refuses a second watch on its index, and removes the mark when it stops', async () => {
    const loc = tree();
    const dir = indexDir(loc);
    const during: (WatchMark | undefined)[] = [];
    const builds: WatchBuild[] = [];
    const build = (o: IndexOptions): IndexResult => {
      during.push(readWatchMark(dir));
      return buildIndex(o);
    };
    const stop = new AbortController();
    // The warm-up (after the first build) is marked as such: a command that finds the index fresh goes on.
    const warming: (WatchMark | undefined)[] = [];
    const warm = () => (warming.push(readWatchMark(dir)), 'none' as const);
    const w = watchWith(build, dir, { ...loc, signal: stop.signal, onBuild: (b) => builds.push(b), onError: (e) => assert.fail(e) }, warm);
    try {
      assert.equal(during[0]?.busy, true, 'busy during the first build');
      assert.equal(during[0]?.warming, undefined, 'a build is no warm-up');
      assert.equal(during[0]?.pid, process.pid);
      assert.deepEqual(readWatchMark(dir), { ...during[0], busy: false, builds: 1 }, 'idle after it, one build done');
      for (let i = 0; i < 100 && warming.length === 0; i++) await sleep(10);
      assert.deepEqual(warming, [{ ...during[0], busy: true, warming: true, builds: 1 }], 'warming, then');
      assert.deepEqual(readWatchMark(dir), { ...during[0], busy: false, builds: 2 }, 'idle after the warm-up');
      assert.throws(() => watchWith(build, dir, { ...loc, onBuild: () => {}, onError: () => {} }), (e: Error) => e instanceof WatchError && /another watch \(process \d+\)/.test(e.message));
      assert.ok(readWatchMark(dir), 'the refused watch left the mark alone');
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// seen\n');
      for (let i = 0; i < 1000 && builds.length < 2; i++) await sleep(20);
      assert.equal(during[1]?.busy, true, 'busy during a later build');
      assert.equal(readWatchMark(dir)?.busy, false);
      assert.ok(readWatchMark(dir)!.builds >= 3);
    } finally {
      stop.abort();
      await w.closed;
    }
    assert.equal(existsSync(join(dir, WATCH_MARK_FILE)), false, 'removed when the watch stops');
  });
});

describe('a query while a watch keeps the index', () => {
  function io(): Io & { text: () => string; errors: () => string } {
    let out = '';
    let err = '';
    return { out: (s) => { out += s; }, err: (s) => { err += s; }, isTTY: false, env: { HOME: tmpdir() }, text: () => out, errors: () => err };
  }

  it('answers right after an edit from what the watch built, without building itself', async () => {
    const loc = tree();
    const dir = indexDir(loc);
    let watchBuilds = 0;
    const stop = new AbortController();
    const w = watchWith((o) => (watchBuilds++, buildIndex(o)), dir, { ...loc, signal: stop.signal, onBuild: () => {}, onError: (e) => assert.fail(e) });
    try {
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc atlasWaitedFor(kl *Kubelet) { kl.BirthCry() }\n');
      const before = watchBuilds;
      const q = io();
      const code = await main(['node', 'kubelet-atlas', 'callers', '(*Kubelet).BirthCry', '--source', loc.root, '--cache-dir', loc.cacheDir], q);
      assert.equal(code, 0, q.errors());
      assert.match(q.text(), /atlasWaitedFor/, 'the answer has the edit');
      assert.ok(watchBuilds > before, 'the watch built it before the answer');
      // A slow machine may make the wait long enough to mention; it never builds here.
      assert.doesNotMatch(q.errors(), /building here|error/i, q.errors());
      // `index` after another edit: the watch's build, read as it left it (no scan here), and said so.
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc atlasIndexed(kl *Kubelet) { kl.BirthCry() }\n');
      const builds = watchBuilds;
      const ix = io();
      assert.equal(await main(['node', 'kubelet-atlas', 'index', '--source', loc.root, '--cache-dir', loc.cacheDir], ix), 0, ix.errors());
      assert.ok(watchBuilds > builds, 'the watch built it');
      assert.match(ix.text(), new RegExp(`graph as the index watch \\(process ${process.pid}\\) left it`));
      const symbols = Number(/symbols (\d+)/.exec(ix.text())![1]);
      assert.equal(symbols, buildIndex(loc).summary.stats.symbols, 'the summary of the index with the edit');
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('builds itself, saying why, when the watch stays idle with the index behind the tree', async () => {
    const loc = tree();
    buildIndex(loc);
    const dir = indexDir(loc);
    // A watch that sees nothing: its mark alone.
    writeWatchMark(dir, { busy: false, builds: 1 });
    try {
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc atlasUnseen(kl *Kubelet) { kl.BirthCry() }\n');
      const q = io();
      const t = performance.now();
      const code = await main(['node', 'kubelet-atlas', 'callers', '(*Kubelet).BirthCry', '--source', loc.root, '--cache-dir', loc.cacheDir], q);
      assert.equal(code, 0, q.errors());
      assert.ok(performance.now() - t >= 1000, 'the grace period was waited');
      assert.match(q.text(), /atlasUnseen/);
      assert.match(q.errors(), /index watch \(process \d+\) left the index behind the tree for 1 s .*building here/);
    } finally {
      removeWatchMark(dir);
    }
  });
});
