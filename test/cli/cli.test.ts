import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { buildIndex, indexDir } from '../../src/index/build.js';
import { layoutSections, openSections } from '../../src/graph/sections.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { channelProducers } from '../../src/graph/index.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');

const run = runCli;

describe('kubelet-atlas CLI', () => {
  let cache: string;
  before(() => {
    cache = tempDir('ka-cli-');
  });

  it('index prints a summary of the fixture tree', async () => {
    const r = await run(['index', '--source', fixture, '--cache-dir', cache]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /symbols \d+/);
    assert.match(r.out, /unresolved call sites \d+/);
  });

  it('path walks the startup chain from main to syncLoopIteration', async () => {
    const r = await run(['path', 'k8s.io/kubernetes/cmd/kubelet.main', 'Kubelet.syncLoopIteration', '--source', fixture, '--cache-dir', cache]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\(\*Kubelet\)\.Run .*go/);
    assert.match(r.out, /syncLoopIteration/);
  });

  it('index says when the graph was reused, its lines moved or its records made again after an edit', async () => {
    const root = tempDir('ka-cli-tree-');
    cpSync(fixture, root, { recursive: true });
    const own = tempDir('ka-cli-');
    const args = ['index', '--source', root, '--cache-dir', own];
    assert.equal((await run(args)).code, 0);
    const file = join(root, 'pkg/kubelet/kubelet.go');
    appendFileSync(file, '\n// a comment\n');
    assert.match((await run(args)).out, /1 parsed.*graph from cache \(the changed files' facts are the same\)/);
    writeFileSync(file, '\n' + readFileSync(file, 'utf8'));
    const json = JSON.parse((await run([...args, '--json'])).out) as { cutOff?: string; fromCache: boolean };
    assert.equal(json.cutOff, 'positions');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"Starting kubelet."', '"Starting the kubelet."'));
    assert.match((await run(args)).out, /graph from cache with the changed files' lines moved and their symbols' docs and fingerprints made again/);
  });

  it('a query after an edit rebuilds and answers as before, in one write', async () => {
    const root = tempDir('ka-cli-tree-');
    cpSync(fixture, root, { recursive: true });
    const own = tempDir('ka-cli-');
    const args = ['callers', 'Kubelet.syncLoop', '--source', root, '--cache-dir', own];
    const first = await run(args);
    assert.equal(first.code, 0, first.err);
    const file = join(root, 'pkg/kubelet/kubelet.go');
    appendFileSync(file, '\n// a comment: the graph is reused\n');
    const second = await run(args);
    assert.equal(second.code, 0, second.err);
    assert.equal(second.out, first.out);
    appendFileSync(file, '\nfunc queryProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n');
    const third = await run(args);
    assert.equal(third.code, 0, third.err);
    assert.match(third.out, /queryProbe/);
    assert.equal(third.writes, 1, 'printed in one write');
  });

  it('goroutines and channels answer from the store as the graph has them, before and after an edit that moves lines', async () => {
    const root = tempDir('ka-cli-tree-');
    cpSync(fixture, root, { recursive: true });
    const own = tempDir('ka-cli-');
    const at = ['--source', root, '--cache-dir', own];
    const loop = 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoopIteration';
    const check = async (what: string) => {
      const graph = buildIndex({ root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-cli-fresh-'), fresh: true }).graph;
      const goroutines = await run(['goroutines', '--all', '--json', ...at]);
      assert.equal(goroutines.code, 0, goroutines.err);
      assert.deepEqual(JSON.parse(goroutines.out), graph.goroutines, `${what}: goroutines`);
      const channels = await run(['channels', 'Kubelet.syncLoopIteration', '--json', ...at]);
      assert.equal(channels.code, 0, channels.err);
      assert.deepEqual(JSON.parse(channels.out), JSON.parse(JSON.stringify(channelProducers(graph, loop))), `${what}: channels`);
      const text = await run(['channels', 'Kubelet.syncLoopIteration', ...at]);
      assert.match(text.out, /^k8s\.io\/kubernetes\/pkg\/kubelet\.\(\*Kubelet\)\.syncLoopIteration: \d+ receives\n/);
    };
    assert.equal((await run(['index', ...at])).code, 0);
    await check('as built');
    const file = join(root, 'pkg/kubelet/kubelet.go');
    writeFileSync(file, '// moved\n\n' + readFileSync(file, 'utf8'));
    const moved = JSON.parse((await run(['index', '--json', ...at])).out) as { cutOff?: string };
    assert.equal(moved.cutOff, 'positions');
    await check('lines moved');
    // A store without them (a watch's delta, which does not carry them, is read the same way): the
    // graph file's, through the indexer's code.
    const storeFile = join(indexDir({ root, ctx: defaultBuildContext(), cacheDir: own }), 'query.bin');
    const bytes = readFileSync(storeFile);
    const opened = openSections<{ sections: Record<string, [number, number]> }>(bytes, bytes.toString('latin1', 0, 4), 'query store')!;
    const kept = opened.names.filter((n) => n !== 'goroutines' && n !== 'channels');
    assert.equal(kept.length, opened.names.length - 2);
    writeFileSync(storeFile, Buffer.concat(layoutSections(bytes.toString('latin1', 0, 4), { ...opened.header, sections: {} }, kept.map((n): [string, Buffer] => [n, opened.section(n)]))));
    await check('a store without them');
    const unknown = await run(['channels', 'Kubelet.syncLoopIteratio', ...at]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /did you mean:\n {2}k8s\.io\/kubernetes\/pkg\/kubelet\.\(\*Kubelet\)\.syncLoopIteration/);
  });

  it('callgraph --format tsv prints four tab-separated columns', async () => {
    const r = await run(['callgraph', '--format', 'tsv', '--source', fixture, '--cache-dir', cache]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.ok(lines.length > 50);
    for (const l of lines) assert.match(l, /^[^\t]+\t[^\t]+\t(static|dynamic)\t[^\t]+:\d+$/);
  });

  it('unknown symbols suggest the nearest names and exit 2', async () => {
    const r = await run(['callers', 'Kubelet.syncLop', '--source', fixture, '--cache-dir', cache]);
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown symbol/);
    assert.match(r.err, /syncLoop/);
  });

  it('a missing source folder is a clear error, not a stack trace', async () => {
    const r = await run(['index', '--source', join(cache, 'nope'), '--cache-dir', cache]);
    assert.equal(r.code, 2);
    assert.match(r.err, /does not exist/);
    assert.doesNotMatch(r.err, /at .*\.js:\d+/);
  });

  it('a folder that is not a Kubernetes tree is rejected', async () => {
    const dir = tempDir('ka-notk8s-');
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'a.go'), 'package x\n');
    const r = await run(['index', '--source', dir, '--cache-dir', cache]);
    assert.equal(r.code, 2);
    assert.match(r.err, /go\.mod/);
  });

  it('a second index run re-parses only the changed file', async () => {
    const { cpSync } = await import('node:fs');
    const copy = tempDir('ka-copy-');
    cpSync(fixture, copy, { recursive: true });
    const first = await run(['index', '--json', '--source', copy, '--cache-dir', cache]);
    const total = JSON.parse(first.out).files.total;
    writeFileSync(join(copy, 'pkg/kubelet/extra.go'), 'package kubelet\n\nfunc extra() {}\n');
    const second = JSON.parse((await run(['index', '--json', '--source', copy, '--cache-dir', cache])).out);
    assert.equal(second.files.parsed, 1);
    assert.equal(second.files.total, total + 1);
  });

  it('a query sees a changed file: the stale store is not used, the index is rebuilt and the new caller shows', async () => {
    const { cpSync } = await import('node:fs');
    const copy = tempDir('ka-stale-');
    cpSync(fixture, copy, { recursive: true });
    const before = await run(['callers', 'Kubelet.syncLoop', '--source', copy, '--cache-dir', cache]);
    assert.equal(before.code, 0, before.err);
    assert.doesNotMatch(before.out, /kickLoop/);
    writeFileSync(join(copy, 'pkg/kubelet/kick.go'), 'package kubelet\n\nfunc (kl *Kubelet) kickLoop() {\n\tkl.syncLoop(nil, nil, nil)\n}\n');
    const after = await run(['callers', 'Kubelet.syncLoop', '--source', copy, '--cache-dir', cache]);
    assert.equal(after.code, 0, after.err);
    assert.match(after.out, /\(\*Kubelet\)\.kickLoop/);
    // A symbol only a newer file has: the stale store's "unknown symbol" must not be the answer.
    writeFileSync(join(copy, 'pkg/kubelet/kick2.go'), 'package kubelet\n\nfunc (kl *Kubelet) kickAgain() {}\n');
    const shown = await run(['show', 'Kubelet.kickAgain', '--source', copy, '--cache-dir', cache]);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /kick2\.go:3/);
  });
});
