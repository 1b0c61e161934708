/**
 * `index --watch`: one process builds, then builds again after each change to a Go file in scope (or
 * go.mod), and each of those builds gives what a build in a new process would.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { buildIndex, watchIndex, type IndexOptions, type IndexResult, type WatchBuild } from '../../src/index/build.js';
import { indexDir, openStore } from '../../src/index/stored.js';
import { watchWith } from '../../src/index/watch.js';
import { PackMemo, readPack, writePack } from '../../src/index/cache.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { packGraph, unpackGraph } from '../../src/graph/pack.js';
import type { Graph } from '../../src/model/index.js';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';
import { tempDir } from '../helpers/temp.js';
import { observeAskedCollections } from '../helpers/gc.js';

const fixture = resolve('test/fixtures/go/kubelike');

function tree(): IndexOptions {
  const root = tempDir('ka-watch-tree-');
  cpSync(fixture, root, { recursive: true });
  return { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-watch-cache-'), workers: 0 };
}

/** The graph as its pack keeps it, so that a loaded graph and a resolved one compare. */
function normal(g: Graph): Graph {
  return unpackGraph(packGraph(g));
}

type Event = { build: WatchBuild } | { error: Error };

/** A watch on `loc` (building with `build`, buildIndex by default) whose builds and errors are queued, to be taken one at a time (`next`) with a time limit. */
function watching(loc: IndexOptions & { verifyMs?: number }, build?: (o: IndexOptions) => IndexResult) {
  const queue: Event[] = [];
  let wake: (() => void) | undefined;
  const push = (e: Event) => {
    queue.push(e);
    wake?.();
  };
  const stop = new AbortController();
  const opts = { ...loc, signal: stop.signal, onBuild: (build: WatchBuild) => push({ build }), onError: (error: Error) => push({ error }) };
  const w = build ? watchWith(build, indexDir(loc), opts) : watchIndex(opts);
  const next = async (ms = 10_000): Promise<Event | undefined> => {
    const deadline = Date.now() + ms;
    while (queue.length === 0) {
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
      wake = undefined;
    }
    return queue.shift();
  };
  /** The next build that found a change (builds that found none, such as a second event of one save, are skipped). */
  const nextChange = async (): Promise<WatchBuild> => {
    for (;;) {
      const e = await next();
      assert.ok(e, 'a build follows the change within 10 s');
      if ('error' in e) throw e.error;
      if (e.build.changed) return e.build;
    }
  };
  return { w, next, nextChange, stop };
}

describe('index --watch (watchIndex)', () => {
  it('builds at once, then after each change to a Go file in scope, each time as a fresh build would', async () => {
    const loc = tree();
    const { w, next, nextChange, stop } = watching(loc);
    try {
      const first = await next();
      assert.ok(first && 'build' in first, 'the first build is reported');
      assert.equal(first.build.touched.length, 0);
      assert.equal(first.build.sinceEvent, undefined);
      assert.equal(first.build.result.fromCache, false);
      // The root (for go.mod) and each package folder in scope.
      assert.ok(first.build.watching > 5, `watching ${first.build.watching} folders`);
      const watched = first.build.watching;

      const kubelet = join(loc.root, 'pkg/kubelet/kubelet.go');
      appendFileSync(kubelet, '\n// a comment the watch sees\n');
      const comment = await nextChange();
      assert.deepEqual(comment.touched, ['pkg/kubelet/kubelet.go']);
      assert.equal(comment.result.cutOff, 'facts');
      assert.ok(comment.sinceEvent! >= comment.ms, 'the time since the event includes the build');

      appendFileSync(kubelet, '\nfunc watchedHelper() int { return len("x") }\n');
      const fn = await nextChange();
      assert.equal(fn.result.cutOff, undefined, 'new facts: resolved again');
      assert.ok(fn.result.graph.symbols.some((s) => s.name === 'watchedHelper'));
      assert.deepEqual(normal(fn.result.graph), normal(buildIndex({ ...loc, cacheDir: tempDir('ka-watch-cache-') }).graph));
      assert.equal(fn.watching, watched);
      // The watch kept the first build's resolution: only what the edit can change was resolved again.
      assert.ok(fn.result.incremental, 'resolved again in part');
      assert.ok(fn.result.incremental.redone < fn.result.incremental.functions / 2, `${fn.result.incremental.redone} of ${fn.result.incremental.functions}`);

      // A body edit that changes what flows into a field read by functions the edit does not touch.
      writeFileSync(kubelet, readFileSync(kubelet, 'utf8').replace(/\n\t\tklet\.pleg = pleg\.NewEventedPLEG\([^\n]*/, '\n\t\t_ = eventChannel'));
      const flow = await nextChange();
      assert.ok(flow.result.incremental, 'resolved again in part');
      assert.deepEqual(normal(flow.result.graph), normal(buildIndex({ ...loc, cacheDir: tempDir('ka-watch-cache-') }).graph));

      // A new package, imported from the kubelet: its folder joins the watch once a build puts it in scope.
      mkdirSync(join(loc.root, 'pkg/kubelet/watched'));
      writeFileSync(join(loc.root, 'pkg/kubelet/watched/watched.go'), 'package watched\n\nfunc Helper() int { return 1 }\n');
      const text = readFileSync(kubelet, 'utf8').replace(/^import \(/m, 'import (\n\t"k8s.io/kubernetes/pkg/kubelet/watched"');
      writeFileSync(kubelet, text + '\nfunc usesWatched() int { return watched.Helper() }\n');
      const imported = await nextChange();
      assert.equal(imported.result.incremental, undefined, 'an import added: resolved from nothing');
      assert.match(imported.result.refused ?? '', /not a file in the build|imports changed|files, packages/, 'and says why');
      assert.equal(imported.watching, watched + 1, 'the new package folder is watched');
      assert.ok(imported.result.graph.symbols.some((s) => s.id.endsWith('watched.Helper')));
      // Resolved from nothing, with the facts the refused resolution held for the files it took.
      assert.deepEqual(normal(imported.result.graph), normal(buildIndex({ ...loc, cacheDir: tempDir('ka-watch-cache-') }).graph));
      appendFileSync(join(loc.root, 'pkg/kubelet/watched/watched.go'), '\nfunc Other() {}\n');
      const inNew = await nextChange();
      assert.deepEqual(inNew.touched, ['pkg/kubelet/watched/watched.go']);
      assert.ok(inNew.result.graph.symbols.some((s) => s.id.endsWith('watched.Other')));
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('reports an edit its kept resolution took once queries read it, and writes the state and facts right after the report', async () => {
    const loc = tree();
    const dir = indexDir(loc);
    const seen: { incremental: boolean; answered: boolean; stateBefore: number; stateNow: number }[] = [];
    let stateBefore = 0;
    const stop = new AbortController();
    const reported: WatchBuild[] = [];
    const w = watchIndex({
      ...loc,
      signal: stop.signal,
      onError: (err) => assert.fail(err),
      onBuild: (b) => {
        reported.push(b);
        if (!b.result.incremental) return;
        const store = openStore(loc);
        seen.push({ incremental: true, answered: store?.get('k8s.io/kubernetes/pkg/kubelet.deferredHelper') !== undefined, stateBefore, stateNow: statSync(join(dir, 'state.v8')).mtimeMs });
        store?.close();
      },
    });
    try {
      while (reported.length === 0) await new Promise((r) => setTimeout(r, 20));
      stateBefore = statSync(join(dir, 'state.v8')).mtimeMs;
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc deferredHelper() int { return len("x") }\n');
      const deadline = Date.now() + 10_000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(seen.length, 1, 'the edit was taken by the kept resolution');
      assert.ok(seen[0].answered, 'when the build is reported, a query finds the new function');
      assert.equal(seen[0].stateNow, seen[0].stateBefore, 'and the state is not written yet');
    } finally {
      stop.abort();
      await w.closed;
    }
    // Written after the report: a new process finds the index up to date (no file parsed, nothing resolved).
    assert.notEqual(statSync(join(dir, 'state.v8')).mtimeMs, stateBefore);
    const again = buildIndex({ ...loc });
    assert.equal(again.fromCache, true);
    assert.equal(again.files.parsed, 0);
    assert.ok(again.graph.symbols.some((s) => s.name === 'deferredHelper'));
    assert.deepEqual(normal(again.graph), normal(buildIndex({ ...loc, cacheDir: tempDir('ka-watch-cache-') }).graph));
  });

  it('asks for a collection of the young generation once a build is reported, while it waits', async () => {
    const loc = tree();
    const asked = observeAskedCollections();
    const { next, stop } = watching(loc);
    try {
      const first = await next();
      assert.ok(first && 'build' in first, 'the first build is reported');
      const reported = performance.now();
      // (A watch of an earlier test may still ask for one: only those after this build count.)
      const after = () => asked.times.filter((t) => t >= reported).length;
      for (let i = 0; i < 50 && after() === 0; i++) await new Promise((r) => setTimeout(r, 10));
      assert.ok(after() >= 1, 'a collection was asked for after the build was reported');
    } finally {
      stop.abort();
      asked.stop();
    }
  });

  it('keeps the stored graph\'s resolution when its first build resolved nothing, for the next edit', async () => {
    const loc = tree();
    buildIndex(loc);
    const warmed: { ms: number; kept: boolean }[] = [];
    const queue: WatchBuild[] = [];
    const stop = new AbortController();
    const w = watchIndex({ ...loc, signal: stop.signal, onBuild: (b) => queue.push(b), onError: (err) => assert.fail(err), onWarm: (r) => warmed.push(r) });
    try {
      const until = async (ok: () => boolean) => {
        for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
        assert.ok(ok(), 'in time');
      };
      await until(() => warmed.length === 1);
      assert.equal(queue[0].result.fromCache, true, 'the first build found the graph stored');
      assert.equal(warmed[0].kept, true);
      const kubelet = join(loc.root, 'pkg/kubelet/kubelet.go');
      appendFileSync(kubelet, '\nfunc warmedHelper() int { return len("x") }\n');
      await until(() => queue.some((b) => b.changed));
      const edit = queue.find((b) => b.changed)!;
      assert.ok(edit.result.incremental, 'resolved again in part');
      assert.deepEqual(normal(edit.result.graph), normal(buildIndex({ ...loc, cacheDir: tempDir('ka-watch-cache-') }).graph));
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('keeps no resolution when KUBELET_ATLAS_KEEP_RESOLUTION=0, and resolves an edit from nothing', async () => {
    const loc = tree();
    process.env['KUBELET_ATLAS_KEEP_RESOLUTION'] = '0';
    const { w, next, nextChange, stop } = watching(loc);
    try {
      await next();
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc unkeptHelper() {}\n');
      const fn = await nextChange();
      assert.equal(fn.result.incremental, undefined);
      assert.equal(fn.result.refused, undefined, 'no kept resolution to refuse it');
      assert.ok(fn.result.graph.symbols.some((s) => s.name === 'unkeptHelper'));
    } finally {
      delete process.env['KUBELET_ATLAS_KEEP_RESOLUTION'];
      stop.abort();
      await w.closed;
    }
  });

  it('builds once for changes that come together, and not at all for files that are not Go', async () => {
    const loc = tree();
    const { w, next, nextChange, stop } = watching(loc);
    try {
      await next();
      writeFileSync(join(loc.root, 'pkg/kubelet/notes.txt'), 'not Go\n');
      assert.equal(await next(400), undefined, 'no build for a text file');
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// one\n');
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet_pods.go'), '\n// two\n');
      const both = await nextChange();
      assert.deepEqual(both.touched, ['pkg/kubelet/kubelet.go', 'pkg/kubelet/kubelet_pods.go']);
      assert.equal(both.result.files.parsed, 2);
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('stats only the files the events named, then every path a while later: a change no event named is found then, and named', async () => {
    const loc = tree();
    const told: (readonly string[] | undefined)[] = [];
    // The builds the watch asks for, with the paths it names; the event of kubelet_pods.go is lost, as if missed.
    const build = (o: IndexOptions) => {
      told.push(o.onlyChanged);
      return buildIndex(o.onlyChanged ? { ...o, onlyChanged: o.onlyChanged.filter((p) => !p.endsWith('kubelet_pods.go')) } : o);
    };
    const { w, next, nextChange, stop } = watching({ ...loc, verifyMs: 300 }, build);
    const has = (b: WatchBuild, name: string) => b.result.graph.symbols.some((s) => s.name === name);
    try {
      await next();
      assert.ok(told.length === 1 && told[0] === undefined, 'the first build stats every path');
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc namedHelper() {}\n');
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet_pods.go'), '\nfunc unnamedHelper() {}\n');
      const named = await nextChange();
      assert.equal(named.fromEvents, true);
      assert.ok(told.some((t) => t?.includes(join('pkg', 'kubelet', 'kubelet.go'))), 'told of kubelet.go');
      assert.equal(named.result.files.parsed, 1, 'only the file named was seen to change');
      assert.ok(has(named, 'namedHelper') && !has(named, 'unnamedHelper'));
      let check = await nextChange();
      while (!has(check, 'unnamedHelper')) check = await nextChange();
      assert.equal(check.fromEvents, false, 'found by the check of every path');
      assert.deepEqual(check.touched, ['pkg/kubelet/kubelet_pods.go'], 'no event named it: the check names the file it found changed');
      assert.equal(told[told.length - 1], undefined);
      assert.deepEqual(normal(check.result.graph), normal(buildIndex({ ...loc, cacheDir: tempDir('ka-watch-cache-') }).graph));
      assert.equal(await next(700), undefined, 'no build after the check until the next event');
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('checks every path once after a run of edits: an event before the check puts it off', async () => {
    const root = tempDir('ka-watch-fake-');
    const told: (readonly string[] | undefined)[] = [];
    const fake = (o: IndexOptions) => {
      told.push(o.onlyChanged);
      return { fromCache: false, files: { total: 1, parsed: 1, cached: 0 } } as never;
    };
    const { w, next, stop } = watching({ root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-watch-cache-'), verifyMs: 1500 }, fake);
    try {
      await next();
      writeFileSync(join(root, 'a.go'), 'package a\n');
      assert.ok(await next());
      writeFileSync(join(root, 'b.go'), 'package a\n');
      assert.ok(await next());
      const check = await next(5000);
      assert.ok(check && 'build' in check && !check.build.fromEvents, 'the check');
      assert.equal(await next(2000), undefined, 'one check');
      // Each event's build is told of its file (a save can come as more than one event: repeats are merged here).
      const runs = told.filter((t, i) => i === 0 || JSON.stringify(t) !== JSON.stringify(told[i - 1]));
      assert.deepEqual(runs, [undefined, ['a.go'], ['b.go'], undefined]);
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('reports a build that fails and goes on: the next change builds again', async () => {
    const loc = tree();
    const { w, next, nextChange, stop } = watching(loc);
    try {
      await next();
      const mod = readFileSync(join(loc.root, 'go.mod'));
      rmSync(join(loc.root, 'go.mod'));
      let e = await next();
      // The removal may come as more than one event: skip builds that found nothing.
      while (e && 'build' in e && !e.build.changed) e = await next();
      assert.ok(e && 'error' in e, 'the failed build is reported');
      assert.match(e.error.message, /go\.mod/);
      writeFileSync(join(loc.root, 'go.mod'), mod);
      const back = await nextChange();
      assert.deepEqual(back.touched, ['go.mod']);
      assert.ok(back.result.graph.symbols.length > 0);
    } finally {
      stop.abort();
      await w.closed;
    }
  });

  it('throws the first build\'s error and does not start', () => {
    const root = tempDir('ka-watch-empty-');
    assert.throws(() => watchIndex({ root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-watch-cache-'), onBuild: () => {}, onError: () => {} }), /is empty, not a Kubernetes checkout/);
  });

  it('does not build when its signal is already aborted, and closes when it is aborted later', async () => {
    let builds = 0;
    const fake = () => {
      builds++;
      return { fromCache: true, files: { total: 0, parsed: 0, cached: 0 } } as never;
    };
    const stopped = new AbortController();
    stopped.abort();
    const opts = { root: tmpdir(), ctx: defaultBuildContext(), cacheDir: tempDir('ka-watch-cache-'), onBuild: () => {}, onError: () => {} };
    await watchWith(fake, opts.cacheDir, { ...opts, signal: stopped.signal }).closed;
    assert.equal(builds, 0);
    const later = new AbortController();
    const w = watchWith(fake, opts.cacheDir, { ...opts, signal: later.signal });
    assert.equal(builds, 1);
    later.abort();
    await w.closed;
  });

  it('stops by itself once idleMs pass after a build with no change seen, and not while changes keep coming', async () => {
    const loc = tree();
    mkdirSync(loc.cacheDir!, { recursive: true });
    let builds = 0;
    const fake = () => {
      builds++;
      return { fromCache: true, files: { total: 0, parsed: 0, cached: 0 }, summary: { diagnostics: [] } } as never;
    };
    let idled = 0;
    const started = performance.now();
    const w = watchWith(fake, loc.cacheDir!, { ...loc, idleMs: 300, debounceMs: 5, verifyMs: 50, onIdle: () => idled++, onBuild: () => {}, onError: (e) => { throw e; } });
    // An edit every 100 ms for 600 ms: each puts the stop off (a file in the root, which the fake build's watch watches).
    const file = join(loc.root, 'edited.go');
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(idled, 0, `still running after ${i + 1} edits`);
      appendFileSync(file, `\n// edit ${i}\n`);
    }
    await w.closed;
    const ms = performance.now() - started;
    assert.equal(idled, 1, 'told once');
    assert.ok(builds >= 3, `built for the edits (${builds})`);
    assert.ok(ms >= 900, `ran through the edits, then idleMs (${Math.round(ms)} ms)`);
    assert.equal(existsSync(join(loc.cacheDir!, 'watch.json')), false, 'its mark removed');
  });
});

describe('kubelet-atlas index --watch', () => {
  it('prints the first build as JSON, its warm start, then a line per build that found a change, and exits 0 when stopped', async () => {
    const loc = tree();
    const stop = new AbortController();
    const lines: string[] = [];
    let err = '';
    const io: Io = {
      out: (s) => {
        lines.push(...s.split('\n').filter(Boolean));
        // The first build resolved: the watch rehearses the resolution it kept, then the edit comes.
        if (lines.length === 2) setTimeout(() => appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// watched\n'), 50);
        if (lines.length === 3) stop.abort();
      },
      err: (s) => { err += s; },
      isTTY: false,
      env: { HOME: tmpdir() },
      stop: stop.signal,
    };
    const code = await main(['node', 'kubelet-atlas', 'index', '--watch', '--json', '--source', loc.root, '--cache-dir', loc.cacheDir], io);
    assert.equal(code, 0, err);
    const [first, warm, second] = lines.map((l) => JSON.parse(l));
    assert.equal(first.event, 'build');
    assert.ok(first.stats.symbols > 0);
    assert.equal(warm.event, 'warm');
    assert.equal(warm.kept, true);
    assert.deepEqual(second.touched, ['pkg/kubelet/kubelet.go']);
    assert.equal(second.cutOff, 'facts');
    assert.equal(typeof second.sinceEvent, 'number');
  });

  it('exits 2 with a clear error when the first build cannot be made', async () => {
    const root = tempDir('ka-watch-empty-');
    let err = '';
    const io: Io = { out: () => {}, err: (s) => { err += s; }, isTTY: false, env: { HOME: tmpdir() }, stop: new AbortController().signal };
    const code = await main(['node', 'kubelet-atlas', 'index', '--watch', '--source', root, '--cache-dir', tempDir('ka-watch-cache-')], io);
    assert.equal(code, 2);
    assert.match(err, /is empty, not a Kubernetes checkout/);
    assert.doesNotMatch(err, /at .*\.js:\d+/, 'no stack trace');
  });
});

describe('the kubelet-atlas bin and index --watch', () => {
  /** The bin's `index --watch --json` on a copy of the fixture: its process, its first line, and the process that builds (the bin's child). */
  async function started(): Promise<{ bin: ChildProcess; exited: Promise<number | null>; child: number }> {
    const loc = tree();
    const bin = spawn(process.execPath, [resolve('bin/kubelet-atlas.cjs'), 'index', '--watch', '--json', '--source', loc.root, '--cache-dir', loc.cacheDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((r) => bin.on('exit', (code) => r(code)));
    await new Promise<void>((r) => createInterface({ input: bin.stdout! }).once('line', () => r()));
    const children = readFileSync(`/proc/${bin.pid}/task/${bin.pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
    if (children.length !== 1) bin.kill('SIGKILL');
    assert.equal(children.length, 1, 'one child builds');
    return { bin, exited, child: children[0] };
  }
  const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  const gone = async (pid: number) => {
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    return !alive(pid);
  };

  it('builds in a child Node with a 64 MB young generation a semi-space, which a SIGINT to the bin stops (exit 0)', async (t) => {
    if (!existsSync('/proc/self/task')) return t.skip('needs /proc (Linux) to find the child process');
    const { bin, exited, child } = await started();
    const cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8');
    bin.kill('SIGINT');
    assert.match(cmdline, /--max-semi-space-size=64\0/);
    assert.equal(await exited, 0);
    const stopped = await gone(child);
    if (!stopped) process.kill(child, 'SIGKILL');
    assert.ok(stopped, 'the child stopped with the bin');
  });

  it('stops its child when the bin is killed outright', async (t) => {
    if (!existsSync('/proc/self/task')) return t.skip('needs /proc (Linux) to find the child process');
    const { bin, exited, child } = await started();
    bin.kill('SIGKILL');
    await exited;
    const stopped = await gone(child);
    // A child left running would hold this test's pipe open.
    if (!stopped) process.kill(child, 'SIGKILL');
    assert.ok(stopped, 'the child saw its channel close and stopped');
  });
});

describe('PackMemo', () => {
  it('gives back the value a build wrote or read while the file is that one, and decodes a file written by another process', () => {
    const dir = tempDir('ka-memo-');
    const file = join(dir, 'state.v8');
    const memo = new PackMemo();
    const mine = { n: 1 };
    writePack(file, mine, memo);
    assert.equal(readPack(file, memo), mine, 'what this process wrote, not decoded again');
    // Another process's write: a new file renamed over the old one.
    writePack(file, { n: 2 });
    const theirs = readPack<{ n: number }>(file, memo);
    assert.deepEqual(theirs, { n: 2 });
    assert.equal(readPack(file, memo), theirs, 'kept once read');
    rmSync(file);
    assert.equal(readPack(file, memo), undefined, 'a file gone is no value');
  });
});
