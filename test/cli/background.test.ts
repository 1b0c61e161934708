/**
 * `index --background MINUTES` and KUBELET_ATLAS_BACKGROUND: a watch left running after the command,
 * which takes an edit in part and which the next command waits for, and which stops by itself.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';
import { readWatchMark } from '../../src/index/watch-mark.js';
import { keepInBackground } from '../../src/cli/background.js';
import { tempDir } from '../helpers/temp.js';

const bin = resolve('bin/kubelet-atlas.cjs');

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, KUBELET_ATLAS_BACKGROUND: '', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a watch kept in the background', () => {
  it('is started by index --background, takes an edit in part for the next command, and stops once idle', async () => {
    const root = tempDir('ka-bg-tree-');
    cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
    const cache = tempDir('ka-bg-cache-');
    const common = ['--source', root, '--cache-dir', cache];
    const pids: number[] = [];
    try {
      // 0.05 minutes: it stops 3 s after its last build.
      const first = run(['index', ...common, '--background', '0.05']);
      assert.equal(first.code, 0, first.err);
      assert.match(first.out, /^indexed /);
      const m = /kept up to date in the background by process (\d+), until 0\.05 minutes pass with no change \(log: (.*)\)/.exec(first.out);
      assert.ok(m, first.out);
      const pid = Number(m[1]);
      pids.push(pid);
      const log = m[2];
      const dir = join(cache, 'index', readdirSync(join(cache, 'index')).find((d) => existsSync(join(cache, 'index', d, 'watch.json')))!);
      assert.equal(log, join(dir, 'background.log'));
      assert.equal(readWatchMark(dir)?.pid, pid);

      const again = run(['index', ...common, '--background', '0.05']);
      assert.match(again.out, new RegExp(`kept up to date by the watch already running on this index \\(process ${pid}\\)`));

      // Once its resolution is kept (the mark idle after the warm-up), a function added is re-indexed
      // in part by the watch, and the query that follows the edit waits for it.
      await until('the watch ready', () => readWatchMark(dir)?.busy === false && readWatchMark(dir)!.builds >= 2);
      appendFileSync(join(root, 'pkg/kubelet/kubelet.go'), '\nfunc atlasBackgroundProbe() { NewMainKubelet("n", nil, 0) }\n');
      const callers = run(['callers', 'NewMainKubelet', ...common]);
      assert.equal(callers.code, 0, callers.err);
      assert.match(callers.out, /kubelet\.atlasBackgroundProbe/);
      assert.match(readFileSync(log, 'utf8'), /pkg\/kubelet\/kubelet\.go: re-indexed in \d+ ms.*resolved again \(1 of \d+ functions\)/);

      await until('the watch stopped', () => !alive(pid));
      assert.match(readFileSync(log, 'utf8'), /no change for 0\.05 minutes: the watch stops\n$/);
      assert.equal(readWatchMark(dir), undefined, 'its mark removed');

      // KUBELET_ATLAS_BACKGROUND: a query starts one too (after answering), and says so on stderr.
      const query = run(['callers', 'NewMainKubelet', ...common], { KUBELET_ATLAS_BACKGROUND: '0.05' });
      assert.equal(query.code, 0, query.err);
      assert.match(query.out, /atlasBackgroundProbe/);
      const q = /the index is kept up to date in the background by process (\d+) \(KUBELET_ATLAS_BACKGROUND=0\.05; log: /.exec(query.err);
      assert.ok(q, query.err);
      pids.push(Number(q[1]));
      await until('the second watch running', () => readWatchMark(dir)?.pid === Number(q[1]));
      await until('the second watch stopped', () => !alive(Number(q[1])));
    } finally {
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('is suggested on a terminal when index resolved everything again for an edit of a few files', async () => {
    const root = tempDir('ka-bg-tree-');
    cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
    const cache = tempDir('ka-bg-cache-');
    const run = async (isTTY: boolean) => {
      let err = '';
      const io: Io = { out: () => {}, err: (s) => { err += s; }, isTTY, env: { HOME: tmpdir() } };
      assert.equal(await main(['node', 'kubelet-atlas', 'index', '--source', root, '--cache-dir', cache], io), 0, err);
      return err;
    };
    await run(true);
    appendFileSync(join(root, 'pkg/kubelet/kubelet.go'), '\nfunc atlasHinted() {}\n');
    assert.match(await run(true), /one file changed and every function was resolved again; `index --background 30` keeps a watch/);
    appendFileSync(join(root, 'pkg/kubelet/kubelet.go'), '\nfunc atlasNotHinted() {}\n');
    assert.doesNotMatch(await run(false), /--background/, 'not when the output is not a terminal');
    assert.doesNotMatch(await run(true), /--background/, 'not when nothing changed');
  });

  it('says why when the watch cannot be started (its log cannot be written), without throwing', async () => {
    const io: Io = { out: () => {}, err: () => {}, isTTY: false, env: { HOME: tmpdir() } };
    const dir = join(tempDir('ka-bg-gone-'), 'no', 'such', 'index');
    const kept = await keepInBackground({}, io, tempDir('ka-bg-tree-'), tempDir('ka-bg-cache-'), dir, 1, 1000);
    assert.ok('failed' in kept, JSON.stringify(kept));
    assert.match(kept.failed, /background\.log: ENOENT/);
  });

  it('refuses minutes that are not a positive number, and --background with --watch or --idle-exit without it', async () => {
    const cases: [string[], RegExp][] = [
      [['index', '--background', '0'], /--background takes a number of minutes greater than 0, not '0'/],
      [['index', '--background', 'soon'], /--background takes a number of minutes greater than 0, not 'soon'/],
      [['index', '--watch', '--background', '5'], /give --watch or --background, not both/],
      [['index', '--idle-exit', '5'], /--idle-exit is for a watch: give it with --watch/],
      [['index', '--watch', '--idle-exit', '-1'], /--idle-exit takes a number of minutes greater than 0, not '-1'/],
    ];
    for (const [args, want] of cases) {
      let err = '';
      const io: Io = { out: () => {}, err: (s) => { err += s; }, isTTY: false, env: { HOME: tmpdir() } };
      const code = await main(['node', 'kubelet-atlas', ...args, '--source', tempDir('ka-bg-none-'), '--cache-dir', tempDir('ka-bg-cache-')], io);
      assert.equal(code, 2, args.join(' '));
      assert.match(err, want);
      assert.doesNotMatch(err, /at .*\.js:\d+/, 'no stack trace');
    }
    let err = '';
    const io: Io = { out: () => {}, err: (s) => { err += s; }, isTTY: false, env: { HOME: tmpdir(), KUBELET_ATLAS_BACKGROUND: 'later' } };
    assert.equal(await main(['node', 'kubelet-atlas', 'index', '--source', tempDir('ka-bg-none-'), '--cache-dir', tempDir('ka-bg-cache-')], io), 2);
    assert.match(err, /KUBELET_ATLAS_BACKGROUND takes a number of minutes greater than 0, not 'later'/);
  });
});
