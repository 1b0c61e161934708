/** Index folder names: a stable 64-bit hash, different for each tree, context and scope. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheKey, FACTS_VERSION, Hash64, toolStamp } from '../../src/index/key.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { tempDir } from '../helpers/temp.js';

describe('index keys', () => {
  it('keeps the tool stamp with the signature of the files it hashed', () => {
    const dir = tempDir('ka-key-');
    const stamp = toolStamp(dir);
    assert.match(stamp, /^[0-9a-f]{12}$/);
    const memos = readdirSync(dir).filter((f) => /^tool-stamp-[0-9a-f]{8}\.json$/.test(f));
    assert.equal(memos.length, 1, 'one memo, named after the code that wrote it');
    const memo = join(dir, memos[0]);
    // First in this file: the first stamp this test process computes (node --test runs each file in
    // its own process); later calls answer from memory and do not write the memo.
    assert.ok(existsSync(memo), 'memo written');
    const kept = JSON.parse(readFileSync(memo, 'utf8')) as { signature: string; stamp: string };
    assert.equal(kept.stamp, stamp);
    assert.ok(kept.signature.startsWith(`${FACTS_VERSION}\n`), 'the facts version is part of the signature');
    assert.match(kept.signature, /parse[/\\]extract\.(js|ts) \d+ [\d.]+/);
  });

  it('hashes to 16 hex digits, the same for the same input, and tells pieces apart', () => {
    const h = (...parts: (string | Uint8Array)[]) => parts.reduce((x: Hash64, p) => x.update(p), new Hash64()).hex();
    assert.match(h('abc'), /^[0-9a-f]{16}$/);
    assert.equal(h('abc'), h('abc'));
    assert.equal(h(Buffer.from('abc')), h('abc'), 'bytes and their ASCII string agree');
    assert.notEqual(h('abc'), h('abd'));
    assert.notEqual(h('ab', 'c'), h('a', 'bc'));
    assert.notEqual(h(''), h());
  });

  it('names a different folder for another tree, context or scope', () => {
    const ctx = defaultBuildContext();
    const keys = new Set([
      cacheKey('/a', ctx, 'default'),
      cacheKey('/b', ctx, 'default'),
      cacheKey('/a', ctx, 'all'),
      cacheKey('/a', defaultBuildContext({ goos: 'darwin' }), 'default'),
    ]);
    assert.equal(keys.size, 4);
    assert.equal(cacheKey('/a', ctx, 'default'), cacheKey('/a', ctx, 'default'));
  });

});
