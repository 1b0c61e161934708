/**
 * Builds over the source snapshot: a file whose stat is unchanged is not read, and every build gives
 * the graph a build from nothing gives, whatever changed, however damaged the snapshot.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { buildIndex, indexDir, type IndexOptions } from '../../src/index/build.js';
import { PackMemo } from '../../src/index/cache.js';
import { defaultBuildContext, type SourceSnapshot } from '../../src/source/index.js';
import { packGraph, unpackGraph } from '../../src/graph/pack.js';
import type { Graph } from '../../src/model/index.js';
import { fsCalls } from '../helpers/fs-calls.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');

/**
 * A copy of the fixture and a cache. No racy window: the files were written a moment ago, and with
 * one every stat would be distrusted (test/source/snapshot.test.ts covers the window).
 */
function tree(): IndexOptions {
  const root = tempDir('ka-snap-tree-');
  cpSync(fixture, root, { recursive: true });
  return { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-snap-cache-'), workers: 0, racyMs: -Infinity };
}

function fresh(loc: IndexOptions): Graph {
  return normal(buildIndex({ ...loc, cacheDir: tempDir('ka-snap-cache-'), fresh: true }).graph);
}

function normal(g: Graph): Graph {
  return unpackGraph(packGraph(g));
}

const sourceFile = (loc: IndexOptions) => join(indexDir(loc), 'source.v8');

describe('builds over the source snapshot', () => {
  it('reads no file whose stat is unchanged, and one edited file alone', () => {
    const loc = tree();
    const first = buildIndex(loc);
    assert.equal(first.files.read, first.files.total);
    const warm = buildIndex(loc);
    assert.equal(warm.files.read, 0);
    assert.equal(warm.files.parsed, 0);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// a note\n');
    const edited = buildIndex(loc);
    assert.equal(edited.files.read, 1);
    assert.equal(edited.cutOff, 'facts');
    assert.deepEqual(normal(edited.graph), fresh(loc));
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc snapshotProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n');
    const resolved = buildIndex(loc);
    assert.equal(resolved.files.read, 1);
    assert.equal(resolved.cutOff, undefined);
    assert.deepEqual(normal(resolved.graph), fresh(loc));
  });

  it('a file renamed with its bytes, keeping its place among its package\'s files: the graph names the new path', () => {
    const loc = tree();
    buildIndex(loc);
    renameSync(join(loc.root, 'pkg/kubelet/kubelet.go'), join(loc.root, 'pkg/kubelet/kubelet2.go'));
    const renamed = buildIndex(loc);
    const files = (g: Graph) => new Set(g.symbols.map((s) => s.file));
    assert.ok(files(renamed.graph).has('pkg/kubelet/kubelet2.go'), 'the new path');
    assert.ok(!files(renamed.graph).has('pkg/kubelet/kubelet.go'), 'not the old one');
    assert.deepEqual(normal(renamed.graph), fresh(loc));
  });

  it('names the files that changed, came and went since the stored graph (what a watch says when no event named them)', () => {
    const loc = tree();
    buildIndex(loc);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// a note\n');
    assert.deepEqual(buildIndex(loc).changed, ['pkg/kubelet/kubelet.go']);
    writeFileSync(join(loc.root, 'pkg/kubelet/came.go'), 'package kubelet\n\nfunc came() {}\n');
    assert.deepEqual(buildIndex(loc).changed, ['pkg/kubelet/came.go']);
    rmSync(join(loc.root, 'pkg/kubelet/came.go'));
    assert.deepEqual(buildIndex(loc).changed, ['pkg/kubelet/came.go'], 'a file that went');
    renameSync(join(loc.root, 'pkg/kubelet/kubelet_pods.go'), join(loc.root, 'pkg/kubelet/pods_renamed.go'));
    assert.deepEqual(buildIndex(loc).changed, ['pkg/kubelet/pods_renamed.go', 'pkg/kubelet/kubelet_pods.go'], 'a rename: the new path, then the old');
    assert.deepEqual(buildIndex(loc).changed, undefined, 'nothing changed: the stamp is the stored one');
  });

  it('leaves the snapshot as it is while few files were read, and writes it again past that', () => {
    const loc = tree();
    const first = buildIndex(loc);
    const before = readFileSync(sourceFile(loc));
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    appendFileSync(file, '\n// one\n');
    assert.equal(buildIndex(loc).files.read, 1);
    assert.ok(readFileSync(sourceFile(loc)).equals(before), 'not written for one file read');
    appendFileSync(file, '\n// two\n');
    const again = buildIndex(loc);
    assert.equal(again.files.read, 1, 'the edited file is read again: its stat still differs from the snapshot\'s');
    assert.deepEqual(normal(again.graph), fresh(loc));
    // Nine more files changed: past eight read, the snapshot is written, and the next build reads none.
    const others = [...new Set(first.graph.symbols.map((s) => s.file))].filter((f) => f.endsWith('.go') && f !== 'pkg/kubelet/kubelet.go').slice(0, 9);
    assert.equal(others.length, 9, 'the fixture has nine more files with symbols');
    for (const f of others) appendFileSync(join(loc.root, f), '\n// touched\n');
    const many = buildIndex(loc);
    assert.equal(many.files.read, 10);
    assert.ok(!readFileSync(sourceFile(loc)).equals(before), 'written');
    assert.deepEqual(normal(many.graph), fresh(loc));
    assert.equal(buildIndex(loc).files.read, 0);
  });

  it('told which files changed (a watch), reads those and the ones it read before, and takes files that come and go without a walk', () => {
    const loc: IndexOptions = { ...tree(), memo: new PackMemo() };
    buildIndex(loc);
    const kubelet = join(loc.root, 'pkg/kubelet/kubelet.go');
    const pods = join(loc.root, 'pkg/kubelet/kubelet_pods.go');
    const told = (...paths: string[]) => buildIndex({ ...loc, onlyChanged: paths.map((p) => p.split('/').join(sep)) });
    appendFileSync(kubelet, '\nfunc atlasOne() {}\n');
    assert.equal(told('pkg/kubelet/kubelet.go').files.read, 1);
    // The snapshot on disk still has kubelet.go as it was: this build must not take its word for it.
    appendFileSync(pods, '\nfunc atlasTwo() { atlasOne() }\n');
    const second = told('pkg/kubelet/kubelet_pods.go');
    assert.equal(second.files.read, 2, 'the file named, and the one read before and left out of the snapshot');
    assert.deepEqual(normal(second.graph), fresh(loc));
    const added = 'pkg/kubelet/atlas_added.go';
    // A walk lists folders: none is listed for a file that comes or goes.
    const listing = (f: () => Graph): Graph => {
      const { paths, value } = fsCalls('readdirSync', f);
      assert.deepEqual(paths, [], 'no folder listed');
      return normal(value);
    };
    writeFileSync(join(loc.root, added), 'package kubelet\n\nfunc atlasAdded() { atlasTwo() }\n');
    assert.deepEqual(listing(() => told(added).graph), fresh(loc), 'a file that came');
    rmSync(join(loc.root, added));
    assert.deepEqual(listing(() => told(added).graph), fresh(loc), 'a file that went');
    // The snapshot kept then holds for a build told of nothing.
    assert.equal(buildIndex(loc).files.read, 0);
  });

  it('a file that gains an import of a package out of scope brings it in', () => {
    const loc = tree();
    mkdirSync(join(loc.root, 'pkg/outside'));
    writeFileSync(join(loc.root, 'pkg/outside/outside.go'), 'package outside\n\nfunc Helper() {}\n');
    buildIndex(loc);
    const before = buildIndex(loc).graph.stats.packages;
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^import \(/m, 'import (\n\t_ "k8s.io/kubernetes/pkg/outside"'));
    const again = buildIndex(loc);
    assert.deepEqual(normal(again.graph), fresh(loc));
    assert.ok(again.graph.stats.packages > before, 'pkg/outside joined the scope');
  });

  it('parses files the facts pack lost, reading them then', () => {
    const loc = tree();
    const first = buildIndex(loc);
    rmSync(join(indexDir(loc), 'facts.bin'));
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc snapshotProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n');
    const again = buildIndex(loc);
    assert.equal(again.files.read, 1, 'read in the read stage: the edited file');
    assert.equal(again.files.parsed, first.files.total, 'parsed: all of them');
    assert.deepEqual(normal(again.graph), fresh(loc));
  });

  it('builds again from nothing when a file it did not read gives other bytes than its recorded hash', () => {
    const loc = tree();
    buildIndex(loc);
    // The snapshot says kubelet.go has other bytes (as if it changed without its stat moving), and
    // there are no facts to take instead: the build must read it, sees the mismatch, and starts over.
    const snap = deserialize(readFileSync(sourceFile(loc))) as SourceSnapshot;
    writeFileSync(sourceFile(loc), serialize({ ...snap, hashes: snap.hashes.split('\n').map((h) => h.replace(/^./, (c) => (c === '0' ? '1' : '0'))).join('\n') }));
    rmSync(join(indexDir(loc), 'facts.bin'));
    appendFileSync(join(loc.root, 'pkg/kubelet/pods.go'), '\nfunc snapshotProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n');
    const again = buildIndex(loc);
    assert.equal(again.files.read, again.files.total, 'the second attempt read everything');
    assert.deepEqual(normal(again.graph), fresh(loc));
  });

  it('takes a damaged or foreign snapshot for none', () => {
    const loc = tree();
    buildIndex(loc);
    const expected = fresh(loc);
    for (const bytes of [Buffer.from('not a snapshot'), serialize({ format: 1 }), serialize({ ...(deserialize(readFileSync(sourceFile(loc))) as object), scanPaths: 'wrong' })]) {
      writeFileSync(sourceFile(loc), bytes);
      appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// again\n');
      const again = buildIndex(loc);
      assert.equal(again.files.read, again.files.total);
      assert.deepEqual(normal(again.graph), expected);
    }
  });
});
