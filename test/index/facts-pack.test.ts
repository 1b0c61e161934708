/**
 * The facts pack's entries from elsewhere: a new index takes the facts of files it shares with other
 * indexes that the same version built; an entry that cannot be decoded is extracted again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex, indexDir } from '../../src/index/build.js';
import { OWNER_FILE } from '../../src/index/prune.js';
import { packGraph } from '../../src/graph/pack.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { tempDir } from '../helpers/temp.js';

/** The kubelike fixture with enough files of its own that a new index looks for donors (DONORS_MIN_FILES). */
function tree(): string {
  const root = tempDir('ka-donor-tree-');
  cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
  mkdirSync(join(root, 'pkg/kubelet/hooks'), { recursive: true });
  for (let i = 0; i < 70; i++) {
    writeFileSync(join(root, `pkg/kubelet/hooks/hook${i}.go`), `package hooks\n\n// Hook${i} runs hook ${i}.\nfunc Hook${i}() int { return helper(${i}) }\n`);
  }
  writeFileSync(join(root, 'pkg/kubelet/hooks/helper.go'), 'package hooks\n\nfunc helper(n int) int { return n + 1 }\n');
  return root;
}

function copyOf(root: string): string {
  const other = tempDir('ka-donor-copy-');
  cpSync(root, other, { recursive: true });
  return other;
}

describe('facts from other indexes', () => {
  const ctx = defaultBuildContext();

  it('parses only the files another tree indexed in the same cache does not share, and makes the graph a fresh cache makes', () => {
    const cacheDir = tempDir('ka-donor-cache-');
    const a = tree();
    const first = buildIndex({ root: a, ctx, cacheDir, workers: 0 });
    assert.equal(first.files.parsed, first.files.total);
    const b = copyOf(a);
    appendFileSync(join(b, 'pkg/kubelet/hooks/hook3.go'), '\nfunc Hook3b() int { return Hook3() }\n');
    const second = buildIndex({ root: b, ctx, cacheDir, workers: 0 });
    assert.equal(second.files.parsed, 1);
    assert.equal(second.files.cached, second.files.total - 1);
    const alone = buildIndex({ root: b, ctx, cacheDir: tempDir('ka-donor-alone-'), workers: 0 });
    assert.deepEqual(packGraph(second.graph), packGraph(alone.graph));
    // The facts taken went into the new index's own pack: without the donor, nothing is parsed again.
    rmSync(indexDir({ root: a, ctx, cacheDir }), { recursive: true });
    const again = buildIndex({ root: b, ctx, cacheDir, workers: 0, fresh: true });
    assert.equal(again.files.parsed, 0);
  });

  it('takes nothing from an index another version built', () => {
    const cacheDir = tempDir('ka-donor-cache-');
    const a = tree();
    buildIndex({ root: a, ctx, cacheDir, workers: 0 });
    const ownerFile = join(indexDir({ root: a, ctx, cacheDir }), OWNER_FILE);
    writeFileSync(ownerFile, JSON.stringify({ ...JSON.parse(readFileSync(ownerFile, 'utf8')), stamp: 'another-version' }));
    const b = copyOf(a);
    const built = buildIndex({ root: b, ctx, cacheDir, workers: 0 });
    assert.equal(built.files.parsed, built.files.total);
  });
});

describe('a damaged facts entry', () => {
  it('is extracted again and replaced, and the graph is the one a clean cache gives', () => {
    const ctx = defaultBuildContext();
    const cacheDir = tempDir('ka-damaged-cache-');
    const root = tree();
    const clean = buildIndex({ root, ctx, cacheDir, workers: 0 });
    const packFile = join(indexDir({ root, ctx, cacheDir }), 'facts.bin');
    const bytes = readFileSync(packFile);
    // The second entry's magic ('KFC1', the codec's) overwritten: the pack still reads, that entry does not decode.
    const second = bytes.indexOf('KFC1', bytes.indexOf('KFC1') + 4);
    assert.ok(second > 0);
    bytes.write('XXXX', second, 'latin1');
    writeFileSync(packFile, bytes);
    const again = buildIndex({ root, ctx, cacheDir, workers: 0, fresh: true });
    assert.equal(again.files.parsed, 1);
    assert.deepEqual(packGraph(again.graph), packGraph(clean.graph));
    assert.equal(buildIndex({ root, ctx, cacheDir, workers: 0, fresh: true }).files.parsed, 0);
  });
});

describe('a damaged facts entry of a file whose lines moved', () => {
  it('makes the build resolve again instead of failing', () => {
    const ctx = defaultBuildContext();
    const cacheDir = tempDir('ka-damaged-cache-');
    const root = tree();
    buildIndex({ root, ctx, cacheDir, workers: 0 });
    const packFile = join(indexDir({ root, ctx, cacheDir }), 'facts.bin');
    const bytes = readFileSync(packFile);
    // The pack: 'KAF3', the entries one after another, a JSON trailer { keys, lengths }, its length (u32).
    const len = bytes.readUInt32LE(bytes.length - 4);
    const trailer = JSON.parse(bytes.toString('utf8', bytes.length - 4 - len, bytes.length - 4)) as { keys: string[]; lengths: number[] };
    const i = trailer.keys.findIndex((k) => k.endsWith(' pkg/kubelet/hooks/hook5.go'));
    assert.ok(i >= 0);
    const at = 4 + trailer.lengths.slice(0, i).reduce((a, b) => a + b, 0);
    assert.equal(bytes.toString('latin1', at, at + 4), 'KFC1');
    bytes.write('XXXX', at, 'latin1');
    writeFileSync(packFile, bytes);
    const file = join(root, 'pkg/kubelet/hooks/hook5.go');
    writeFileSync(file, '// moved down a line\n' + readFileSync(file, 'utf8'));
    const built = buildIndex({ root, ctx, cacheDir, workers: 0 });
    const clean = buildIndex({ root, ctx, cacheDir: tempDir('ka-damaged-clean-'), workers: 0 });
    assert.deepEqual(packGraph(built.graph), packGraph(clean.graph));
  });
});
