/**
 * The committed annotations and their lock agree (what CI checks, no Kubernetes tree needed), and the
 * CLI commands work end to end on the fixture topics and the Go fixture tree.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkAnnotations, loadAnnotations, readLock } from '../../src/annotations/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const committed = resolve('annotations');
const fixtureTopics = resolve('test/fixtures/annotations');
const fixtureTree = resolve('test/fixtures/go/kubelike');

const run = (args: string[]) => runCli(args);

describe('the committed annotations', () => {
  it('load without errors', () => {
    const { topics, diagnostics } = loadAnnotations(committed);
    assert.deepEqual(diagnostics.filter((d) => d.severity === 'error'), []);
    assert.ok(topics.length >= 19);
  });

  it('pass the check against the committed lock: every anchor is locked', () => {
    const { topics, diagnostics } = loadAnnotations(committed);
    const lock = readLock(join(committed, 'annotations.lock.json'), 'annotations/annotations.lock.json');
    const r = checkAnnotations({ topics, lock: lock.lock, lockText: lock.text, diagnostics: [...diagnostics, ...lock.diagnostics] });
    assert.deepEqual(r.diagnostics.filter((d) => d.severity === 'error'), []);
    assert.ok(r.ok);
    assert.equal(r.summary.stale, 0);
    assert.equal(lock.lock!.version, 'v1.28.0');
  });

  it('pass `kubelet-atlas check` without a tree', async () => {
    const r = await run(['check']);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /against the lock only/);
    assert.match(r.out, /stale lock\s+0/);
  });

  it('are listed by `annotations list --json`', async () => {
    const r = await run(['annotations', 'list', '--json']);
    assert.equal(r.code, 0, r.err);
    const { topics } = JSON.parse(r.out) as { topics: { id: string; lang: string; anchors: unknown[] }[] };
    assert.ok(topics.some((t) => t.id === 'startup' && t.lang === 'zh' && t.anchors.length > 10));
  });
});

describe('the annotations commands on the fixtures', () => {
  let work: string;
  let cache: string;
  before(() => {
    work = join(tempDir('ka-ann-cli-'), 'annotations');
    cpSync(fixtureTopics, work, { recursive: true });
    cache = tempDir('ka-ann-cache-');
  });

  it('`annotations lock` writes the lock that `check --source` then finds fresh', async () => {
    const lockPath = join(work, 'annotations.lock.json');
    writeFileSync(lockPath, '');
    const l = await run(['annotations', 'lock', '--annotations', work, '--source', fixtureTree, '--cache-dir', cache]);
    assert.equal(l.code, 0, l.err);
    assert.match(l.out, /wrote annotations\/annotations\.lock\.json: 35 anchors in 3 topics, 19 distinct anchors, 19 symbols, v1\.28\.0 linux\/amd64/);
    const written = JSON.parse(readFileSync(lockPath, 'utf8')) as { queries: Record<string, string> };
    assert.deepEqual(written.queries, (JSON.parse(readFileSync(join(fixtureTopics, 'annotations.lock.json'), 'utf8')) as typeof written).queries);
    const c = await run(['check', '--annotations', work, '--source', fixtureTree, '--cache-dir', cache]);
    assert.equal(c.code, 0, c.out);
    assert.match(c.out, /fresh\s+19/);
    const j = await run(['check', '--annotations', work, '--source', fixtureTree, '--cache-dir', cache, '--json']);
    const report = JSON.parse(j.out) as { mode: string; ok: boolean; summary: { fresh: number } };
    assert.deepEqual([report.mode, report.ok, report.summary.fresh], ['tree', true, 19]);
  });

  it('`check` fails on a new anchor until the lock is regenerated, naming the command', async () => {
    for (const [name, heading] of [['pleg.md', '## When it goes wrong'], ['pleg.zh.md', '## 出问题时']]) {
      const file = join(work, name);
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace(`${heading}\n`, `${heading}\n\n\`@pleg.getContainerState\` maps runtime states.\n`));
    }
    const r = await run(['check', '--annotations', work]);
    assert.equal(r.code, 1);
    assert.match(r.out, /pleg: annotations\/pleg\.md\n\s+\d+\s+error: stale lock: anchor `@pleg\.getContainerState` is not in the lock; run `kubelet-atlas annotations lock --source DIR`/);
    const l = await run(['annotations', 'lock', '--annotations', work, '--source', fixtureTree, '--cache-dir', cache]);
    assert.equal(l.code, 0, l.err);
    assert.equal((await run(['check', '--annotations', work])).code, 0);
  });

  it('`annotations lock` refuses to write when an anchor does not resolve', async () => {
    const file = join(work, 'startup.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('### `@app.run` — dependencies', '### `@app.runn` — dependencies'));
    const before = readFileSync(join(work, 'annotations.lock.json'), 'utf8');
    const r = await run(['annotations', 'lock', '--annotations', work, '--source', fixtureTree, '--cache-dir', cache]);
    assert.equal(r.code, 1);
    assert.match(r.err, /annotations\/startup\.md:\d+: error: anchor `@app\.runn` names no symbol in the tree; did you mean `k8s\.io\/kubernetes\/cmd\/kubelet\/app\.run`/);
    assert.equal(readFileSync(join(work, 'annotations.lock.json'), 'utf8'), before);
  });

  it('`check` reports a corrupted lock with its line', async () => {
    const bad = join(work, 'bad.lock.json');
    writeFileSync(bad, '{\n  "format": 1,\n  "version": v1.28.0\n}\n');
    const r = await run(['check', '--annotations', fixtureTopics, '--lock', bad]);
    assert.equal(r.code, 1);
    assert.match(r.out, /\n\s+3\s+error: corrupted lock: it is not valid JSON/);
  });
});
