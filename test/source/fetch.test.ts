import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { defaultCacheDir, fetchRelease, resolveSourceDir, SourceError } from '../../src/source/index.js';
import { GO_MOD, goFile, makeTree, removeTree } from './helpers.js';

const git = (cwd: string, ...args: string[]): void => {
  execFileSync('git', ['-c', 'user.name=atlas', '-c', 'user.email=atlas@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd, stdio: 'ignore',
  });
};

describe('fetchRelease from a local bare repository', () => {
  let work = '';
  let url = '';
  before(() => {
    work = makeTree({
      'src/go.mod': GO_MOD,
      'src/cmd/kubelet/kubelet.go': goFile('main'),
      'src/pkg/kubelet/kubelet.go': goFile('kubelet'),
      'src/staging/src/k8s.io/api/api.go': goFile('api'),
      'src/other/big.go': goFile('other'),
    });
    const src = path.join(work, 'src');
    git(src, 'init', '-q');
    git(src, 'add', '-A');
    git(src, 'commit', '-q', '-m', 'tiny tree');
    git(src, 'tag', 'v1.28.0');
    git(work, 'clone', '-q', '--bare', src, 'bare.git');
    // Let the blob filter take effect so the lazy-fetch path is exercised too.
    git(path.join(work, 'bare.git'), 'config', 'uploadpack.allowFilter', 'true');
    url = `file://${path.join(work, 'bare.git')}`;
  });
  after(() => removeTree(work));

  it('makes a sparse checkout of the release and reports progress', async () => {
    const lines: string[] = [];
    const cacheDir = path.join(work, 'cache');
    const dir = await fetchRelease({ ref: 'v1.28.0', cacheDir, repoUrl: url, onProgress: (l) => lines.push(l) });
    assert.equal(dir, path.join(cacheDir, 'v1.28.0'));
    for (const rel of ['go.mod', 'cmd/kubelet/kubelet.go', 'pkg/kubelet/kubelet.go', 'staging/src/k8s.io/api/api.go']) {
      assert.ok(fs.existsSync(path.join(dir, rel)), rel);
    }
    assert.ok(!fs.existsSync(path.join(dir, 'other')), 'other/ is outside the sparse set');
    assert.ok(lines.length > 0);
    assert.ok(lines.some((l) => l.startsWith('cloning ')));
    assert.ok(lines.some((l) => l.startsWith('sparse checkout')));
    assert.deepEqual(fs.readdirSync(cacheDir), ['v1.28.0'], 'no temp dirs left behind');

    const again: string[] = [];
    assert.equal(await fetchRelease({ ref: 'v1.28.0', cacheDir, repoUrl: url, onProgress: (l) => again.push(l) }), dir);
    assert.deepEqual(again, [`using cached checkout ${dir}`]);
  });

  it('names the git command and its output when the tag does not exist', async () => {
    const cacheDir = path.join(work, 'cache-missing');
    await assert.rejects(fetchRelease({ ref: 'v9.9.9', cacheDir, repoUrl: url }), (err: unknown) => {
      assert.ok(err instanceof SourceError);
      assert.equal(err.code, 'source.git-failed');
      assert.match(err.message, /^git .*clone .*--branch v9\.9\.9 /);
      assert.match(err.message, /not found in upstream/, 'git\'s stderr tail is in the message');
      return true;
    });
    assert.deepEqual(fs.readdirSync(cacheDir), [], 'the partial clone is removed');
  });

  it('refuses a half-finished cache entry instead of trusting it', async () => {
    const cacheDir = path.join(work, 'cache-broken');
    fs.mkdirSync(path.join(cacheDir, 'v1.28.0'), { recursive: true });
    await assert.rejects(fetchRelease({ ref: 'v1.28.0', cacheDir, repoUrl: url }), { code: 'source.cache-corrupt' });
  });

  it('rejects refs that git would read as options or paths', async () => {
    for (const ref of ['--upload-pack=evil', '../up', 'a b', '']) {
      await assert.rejects(fetchRelease({ ref, cacheDir: path.join(work, 'cache-bad'), repoUrl: url }), { code: 'source.bad-ref' }, ref);
    }
  });
});

describe('resolveSourceDir and defaultCacheDir', () => {
  it('prefers --source, then KUBELET_ATLAS_SOURCE, else undefined', () => {
    assert.equal(resolveSourceDir({ source: '/a/b', env: { KUBELET_ATLAS_SOURCE: '/c' } }), '/a/b');
    assert.equal(resolveSourceDir({ env: { KUBELET_ATLAS_SOURCE: '/c' } }), '/c');
    assert.equal(resolveSourceDir({ source: '', env: { KUBELET_ATLAS_SOURCE: ' ' } }), undefined);
    assert.equal(resolveSourceDir({ env: {} }), undefined);
  });

  it('makes paths absolute and expands ~', () => {
    assert.equal(resolveSourceDir({ source: 'rel/dir', env: {} }), path.resolve('rel/dir'));
    assert.equal(resolveSourceDir({ source: '~/k8s', env: { HOME: '/home/me' } }), '/home/me/k8s');
  });

  it('puts the cache under XDG_CACHE_HOME or ~/.cache', () => {
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/xdg', HOME: '/home/me' }), '/xdg/kubelet-atlas');
    assert.equal(defaultCacheDir({ HOME: '/home/me' }), '/home/me/.cache/kubelet-atlas');
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: 'relative', HOME: '/home/me' }), '/home/me/.cache/kubelet-atlas');
  });
});
