/** Old index folders go after a build; folders for other trees and the newest alternatives stay. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIndex, indexDir } from '../../src/index/build.js';
import { OWNER_FILE, pruneIndexes, writeOwner } from '../../src/index/prune.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { tempDir } from '../helpers/temp.js';

const DAY = 24 * 3600 * 1000;

function folder(root: string, name: string, owner?: { of: string; stamp: string; builtAt: number }, files = ['facts.bin']): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(join(dir, f), 'x');
  if (owner) writeOwner(dir, owner);
  return dir;
}

describe('pruning old index folders', () => {
  it('keeps the current folder, the two newest other versions and other trees; removes the rest', () => {
    const root = tempDir('ka-prune-');
    const of = JSON.stringify({ root: '/k8s', scope: 'default' });
    const current = { of, stamp: 'v5', builtAt: 500 };
    folder(root, 'cur', current);
    folder(root, 'v4', { of, stamp: 'v4', builtAt: 400 });
    folder(root, 'v3', { of, stamp: 'v3', builtAt: 300 });
    folder(root, 'v2', { of, stamp: 'v2', builtAt: 200 });
    folder(root, 'v1', { of, stamp: 'v1', builtAt: 100 });
    folder(root, 'other-tree', { of: JSON.stringify({ root: '/elsewhere', scope: 'default' }), stamp: 'v1', builtAt: 1 });
    const old = folder(root, 'legacy-old');
    folder(root, 'legacy-new');
    folder(root, 'not-an-index', undefined, ['notes.txt']);
    const then = new Date(Date.now() - 2 * DAY);
    utimesSync(join(old, 'facts.bin'), then, then);
    writeFileSync(join(root, 'tool-stamp.json'), '{}');

    assert.deepEqual(pruneIndexes(root, 'cur', current), ['legacy-old', 'v1', 'v2']);
    assert.deepEqual(readdirSync(root).sort(), ['cur', 'legacy-new', 'not-an-index', 'other-tree', 'tool-stamp.json', 'v3', 'v4']);
  });

  it('is never an error: a missing root removes nothing', () => {
    assert.deepEqual(pruneIndexes(join(tmpdir(), 'ka-prune-missing-' + process.pid), 'x', { of: '', stamp: '', builtAt: 0 }), []);
  });

  it('a build records its owner and removes an older version of the same index', () => {
    const tree = tempDir('ka-prune-tree-');
    cpSync(resolve('test/fixtures/go/kubelike'), tree, { recursive: true });
    const cacheDir = tempDir('ka-prune-cache-');
    const opts = { root: tree, ctx: defaultBuildContext(), cacheDir };
    const dir = indexDir(opts);
    const of = JSON.stringify({ root: tree, ctx: opts.ctx, scope: 'default' });
    const stale = ['s1', 's2', 's3'].map((s, i) => folder(join(cacheDir, 'index'), s, { of, stamp: s, builtAt: i }));
    buildIndex(opts);
    assert.ok(existsSync(join(dir, OWNER_FILE)));
    assert.deepEqual(stale.map((d) => existsSync(d)), [false, true, true]);
  });
});
