/**
 * The facts pack: entries written one by one read back byte for byte under their keys; an aborted
 * write leaves the previous pack in place; a rebuild from a partly cached pack gives the graph a fresh
 * build gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { appendFactsEntries, contentHash, factsPackWriter, readFactsEntries, readFactsPack, textHash } from '../../src/index/cache.js';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { until } from '../helpers/until.js';
import { tempDir } from '../helpers/temp.js';

/** Writes a facts pack of `entries` at `file`. */
function writeEntries(file: string, entries: [string, Uint8Array][]): void {
  const w = factsPackWriter(file);
  for (const [k, v] of entries) w.add(k, v);
  w.close();
}

/** A new folder holding a facts pack of `entries`: the folder, and the pack's path in it. */
function newPack(entries: [string, Uint8Array][]): { dir: string; file: string } {
  const dir = tempDir('ka-pack-');
  const file = join(dir, 'facts.bin');
  writeEntries(file, entries);
  return { dir, file };
}

/** Entries `entry k` under each key k. */
function entriesOf(keys: string[]): [string, Uint8Array][] {
  return keys.map((k) => [k, Buffer.from(`entry ${k}`)]);
}

describe('facts pack', () => {
  it('hashes a text as the bytes of its UTF-8', () => {
    for (const text of ['', 'pkg/kubelet/kubelet.go', 'naïve — 日本 \u{1F600}']) assert.equal(textHash(text), contentHash(Buffer.from(text)));
  });

  it('reads back each entry written, under its key', () => {
    const entries: [string, Uint8Array][] = [['h1 a.go', Buffer.from('first')], ['h2 b/c.go', new Uint8Array(0)], ['h3 é.go', Buffer.from([0, 1, 2, 255])]];
    const { dir, file } = newPack(entries);
    const pack = readFactsPack(file);
    assert.deepEqual([...pack.keys()], entries.map(([k]) => k));
    for (const [k, v] of entries) assert.deepEqual(Buffer.from(pack.get(k)!), Buffer.from(v));
    assert.deepEqual(readdirSync(dir), ['facts.bin']);
  });

  it('keeps the previous pack when a write is aborted, and reads a missing or foreign file as empty', () => {
    const { dir, file } = newPack([['k', Buffer.from('v')]]);
    const aborted = factsPackWriter(file);
    aborted.add('other', Buffer.from('x'));
    aborted.abort();
    assert.deepEqual([...readFactsPack(file).keys()], ['k']);
    assert.deepEqual(readdirSync(dir), ['facts.bin']);
    assert.equal(readFactsPack(join(dir, 'none.bin')).size, 0);
    writeFileSync(join(dir, 'old.bin'), 'KAF1 something else');
    assert.equal(readFactsPack(join(dir, 'old.bin')).size, 0);
  });

  it('appends entries without rewriting the others, and drops dead ones once they pile up', () => {
    const { dir, file } = newPack(entriesOf(['a', 'b', 'c']));
    const ino = statSync(file).ino;
    appendFactsEntries(file, [['d', Buffer.from('entry d')], ['a', Buffer.from('ignored')]], new Set(['a', 'b', 'c', 'd']));
    const appended = readFactsPack(file);
    assert.deepEqual([...appended.keys()], ['a', 'b', 'c', 'd']);
    assert.equal(Buffer.from(appended.get('a')!).toString(), 'entry a', 'a key it holds is not written again');
    assert.deepEqual([...readFactsEntries(file, ['d', 'x']).entries()].map(([k, v]) => [k, Buffer.from(v).toString()]), [['d', 'entry d']]);
    // The small pack read first, then the pack for what it lacks.
    assert.deepEqual([...readFactsEntries(file, ['a', 'd']).entries()].map(([k, v]) => [k, Buffer.from(v).toString()]).sort(), [['a', 'entry a'], ['d', 'entry d']]);
    assert.deepEqual(readdirSync(dir).sort(), ['facts.bin', 'facts.bin.added'], 'the new entry sits beside the pack');
    assert.equal(statSync(file).ino, ino, 'the pack itself is not written again');
    // Two of five entries dead: more than a fifth, so the pack is rewritten with the live ones.
    appendFactsEntries(file, [['e', Buffer.from('entry e')]], new Set(['a', 'd', 'e']));
    assert.deepEqual([...readFactsPack(file).keys()], ['a', 'd', 'e']);
    // No pack there: the entries become one.
    appendFactsEntries(join(dir, 'none.bin'), [['x', Buffer.from('x')]]);
    assert.deepEqual([...readFactsPack(join(dir, 'none.bin')).keys()], ['x']);
    assert.deepEqual(readdirSync(dir).sort(), ['facts.bin', 'none.bin']);
  });

  it('reads the entries asked for from where the pack holds them, in any order, a few or many', () => {
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    // Entries of different lengths, so that each one's offset depends on the ones before it.
    const { file } = newPack(keys.map((k, i) => [k, Buffer.from(`entry ${k} `.repeat(1 + (i % 3)))]));
    const text = (k: string) => `entry ${k} `.repeat(1 + (keys.indexOf(k) % 3));
    for (const wanted of [['k7', 'k2', 'k30', 'absent'], [...keys].reverse()]) {
      const got = readFactsEntries(file, wanted);
      const present = wanted.filter((k) => k !== 'absent');
      assert.deepEqual([...got.keys()].sort(), [...present].sort(), `${wanted.length} asked`);
      for (const k of present) assert.equal(Buffer.from(got.get(k)!).toString(), text(k), `${k} of ${wanted.length} asked`);
    }
  });

  it('writes the pack whole once the appended entries grow large, and skips entries it holds twice', async () => {
    const { dir, file } = newPack(entriesOf(['a']));
    appendFactsEntries(file, [['b', Buffer.from('entry b')]]);
    // A rewrite stopped between putting the pack in place and removing the small one: 'b' is in both.
    writeEntries(join(dir, 'next.bin'), entriesOf(['a', 'b']));
    renameSync(join(dir, 'next.bin'), file);
    assert.deepEqual([...readFactsPack(file).keys()], ['a', 'b']);
    const big = Buffer.alloc(4 * 1024 * 1024 + 1, 7);
    appendFactsEntries(file, [['c', big]]);
    // The old pack, linked aside while the new one took its place (see writeParts), goes in the background.
    await until(() => readdirSync(dir).length === 1);
    assert.deepEqual(readdirSync(dir), ['facts.bin'], 'one pack again');
    const pack = readFactsPack(file);
    assert.deepEqual([...pack.keys()], ['a', 'b', 'c']);
    assert.ok(Buffer.from(pack.get('c')!).equals(big));
  });

  it('a rebuild with one file changed gives the graph a fresh build gives', () => {
    const root = tempDir('ka-pack-tree-');
    cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
    const loc = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-pack-cache-') };
    const first = buildIndex(loc);
    writeFileSync(join(root, 'pkg/kubelet/extra.go'), 'package kubelet\n\nfunc extra() { extra() }\n');
    const second = buildIndex(loc);
    assert.equal(second.files.parsed, 1);
    assert.equal(second.files.cached, first.files.total);
    const fresh = buildIndex({ ...loc, cacheDir: tempDir('ka-pack-cache-') });
    assert.deepEqual(second.graph, fresh.graph);
    assert.equal(buildIndex(loc).files.parsed, 0);
  });

  it('reports the decoding of cached facts as a stage, and the parse stage by part', () => {
    const root = tempDir('ka-pack-tree-');
    cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
    const loc = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-pack-cache-'), workers: 0 };
    const cold = buildIndex(loc);
    assert.ok(cold.parseThreads, 'a cold build reports its parse stage by part');
    const { treeSitter, tree, extract, encode } = cold.parseThreads;
    for (const [name, ms] of Object.entries({ treeSitter, tree, extract, encode })) assert.ok(ms > 0, `${name}: ${ms}`);
    assert.deepEqual(Object.keys(cold.timings).slice(0, 5), ['source', 'read', 'load', 'decode', 'parse']);
    writeFileSync(join(root, 'pkg/kubelet/extra.go'), 'package kubelet\n\nfunc extra() {}\n');
    const one = buildIndex(loc);
    assert.ok(one.timings.decode > 0);
    assert.equal(buildIndex(loc).parseThreads, undefined, 'nothing parsed: the graph came from the cache');
  });
});
