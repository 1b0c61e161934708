/**
 * The guide and tour commands end to end on the Go fixture tree and the fixture topics, checked
 * against goldens (UPDATE_GOLDEN=1 npm test rewrites them), plus determinism, drift and bad input.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkGoldenDir } from './golden.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');
const annotations = resolve('test/fixtures/annotations');
const notes = resolve('test/outputs/fixtures/notes');
const portsRoot = resolve('test/outputs/fixtures/ports');
const work = tempDir('ka-guides-');
const cache = join(work, 'cache');

interface Run { code: number; out: string; err: string }

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return runCli(args, { HOME: work, ...env });
}

const fixtureArgs = (source = fixture) => ['--source', source, '--annotations', annotations, '--cache-dir', cache, '--ports-root', portsRoot];

function readAll(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((n) => [n, readFileSync(join(dir, n), 'utf8')]));
}

describe('guide --all on the fixtures', () => {
  const out = join(work, 'guides');
  let first: Run;
  before(async () => {
    first = await run(['guide', '--all', ...fixtureArgs(), '--notes', notes, '--out', out]);
    const zh = await run(['guide', '--all', '--lang', 'zh', ...fixtureArgs(), '--notes', notes, '--out', out]);
    assert.equal(zh.code, 0, zh.err);
  });

  it('writes one guide per topic and a reading plan', () => {
    assert.equal(first.code, 0, first.err);
    assert.deepEqual(readdirSync(out).sort(), ['index.md', 'index.zh.md', 'pleg.md', 'pleg.zh.md', 'startup.md', 'startup.zh.md']);
    const plan = readFileSync(join(out, 'index.md'), 'utf8');
    assert.ok(plan.indexOf('(startup.md)') < plan.indexOf('(pleg.md)'), 'startup (order 10) comes before pleg (order 20)');
  });

  it('matches the goldens', () => {
    checkGoldenDir(out, resolve('test/golden/guides'));
  });

  it('has every part the brief asks for', () => {
    const g = readFileSync(join(out, 'pleg.md'), 'utf8');
    for (const part of ['## Where it sits', '## Call tree', '```mermaid', '-->|go|', '-->|interface|', '## Key functions', '#### Go', '#### TypeScript port (reference-impl/pleg/relist.ts)', '## Defaults', '## Study questions', '## Study-group notes']) {
      assert.ok(g.includes(part), `pleg.md lacks ${part}`);
    }
    assert.ok(g.includes('https://github.com/kubernetes/kubernetes/blob/v1.28.0/pkg/kubelet/pleg/generic.go#L'));
    const tree = g.slice(g.indexOf('## Call tree'), g.indexOf('\n## ', g.indexOf('## Call tree') + 1));
    assert.ok(tree.includes('kubeGenericRuntimeManager).GetPods') && !tree.includes('FakeRuntime'), 'fakes are hidden from the call tree');
    assert.ok(!g.includes('Changed since'), 'the fixture tree has not drifted from its lock');
    // Go first, then its port, for the same symbol.
    const relist = g.indexOf('### [`pleg.(*GenericPLEG).Relist`]');
    assert.ok(relist > 0 && g.indexOf('#### Go', relist) < g.indexOf('#### TypeScript port', relist));
  });

  it('follows the tour steps in order in the startup guide', () => {
    const g = readFileSync(join(out, 'startup.md'), 'utf8');
    const steps = [...g.matchAll(/^### Step (\d+): /gm)].map((m) => Number(m[1]));
    assert.ok(steps.length >= 4);
    assert.deepEqual(steps, steps.map((_, i) => i + 1));
  });

  it('uses the translation, or says there is none', () => {
    assert.ok(readFileSync(join(out, 'pleg.zh.md'), 'utf8').includes('## 关键函数'));
    assert.ok(readFileSync(join(out, 'startup.zh.md'), 'utf8').includes('尚无中文翻译'));
  });

  it('is byte-identical on a second run', async () => {
    const again = join(work, 'again');
    const r = await run(['guide', '--all', ...fixtureArgs(), '--notes', notes, '--out', again]);
    assert.equal(r.code, 0, r.err);
    const a = readAll(out);
    delete a['index.zh.md']; delete a['pleg.zh.md']; delete a['startup.zh.md'];
    assert.deepEqual(readAll(again), a);
  });
});

describe('tour export on the fixtures', () => {
  const out = join(work, 'tours');
  let r: Run;
  before(async () => {
    r = await run(['tour', 'export', ...fixtureArgs(), '--out', out]);
  });

  it('writes CodeTour files that match the goldens', () => {
    assert.equal(r.code, 0, r.err);
    checkGoldenDir(out, resolve('test/golden/tours'));
  });

  it('has one step per tour step, lines from the index, and the pinned ref', () => {
    const tour = JSON.parse(readFileSync(join(out, 'startup.tour'), 'utf8'));
    assert.equal(tour.$schema, 'https://aka.ms/codetour-schema');
    assert.equal(tour.ref, 'v1.28.0');
    assert.equal(tour.steps[0].file, 'cmd/kubelet/kubelet.go');
    assert.equal(tour.steps[0].line, readFileSync(join(fixture, 'cmd/kubelet/kubelet.go'), 'utf8').split('\n').findIndex((l) => l.startsWith('func main(')) + 1);
    const pleg = JSON.parse(readFileSync(join(out, 'pleg.tour'), 'utf8'));
    assert.equal(pleg.steps.length, 5);
  });
});

describe('drift under a topic', () => {
  it('adds a "Changed since v1.28.0" line when an anchored body changed', async () => {
    const tree = tempDir('ka-guides-tree-');
    cpSync(fixture, tree, { recursive: true });
    const file = join(tree, 'pkg/kubelet/pleg/generic.go');
    const text = readFileSync(file, 'utf8');
    const changed = text.replace(/(func generateEvents\([^\n]*\{\n)/, '$1\tprintln("drift")\n');
    assert.notEqual(changed, text);
    writeFileSync(file, changed);
    const out = join(work, 'drift');
    const r = await run(['guide', 'pleg', ...fixtureArgs(tree), '--notes', notes, '--out', out]);
    assert.equal(r.code, 0, r.err);
    const g = readFileSync(join(out, 'pleg.md'), 'utf8');
    assert.match(g, /\*\*Changed since v1\.28\.0:\*\*/);
    assert.match(g, /`pleg\.generateEvents` \(changed\)/);
  });
});

describe('bad input', () => {
  it('an unknown topic lists the topics and exits 2', async () => {
    const r = await run(['guide', 'nope', ...fixtureArgs()]);
    assert.equal(r.code, 2);
    assert.match(r.err, /no topic 'nope'/);
    assert.match(r.err, /pleg/);
    assert.match(r.err, /startup/);
  });

  it('no topic and no --all lists the topics and exits 2', async () => {
    const r = await run(['guide', '--annotations', annotations, '--cache-dir', cache]);
    assert.equal(r.code, 2);
    assert.match(r.err, /the topics are/);
  });

  it('a missing source tree says how to get one and exits 2', async () => {
    const r = await run(['guide', 'pleg', '--offline', '--annotations', annotations, '--cache-dir', join(work, 'empty-cache')]);
    assert.equal(r.code, 2);
    for (const hint of ['--source DIR', 'KUBELET_ATLAS_SOURCE', 'kubelet-atlas fetch']) assert.ok(r.err.includes(hint), r.err);
    const gone = await run(['guide', 'pleg', ...fixtureArgs(join(work, 'no-such-tree'))]);
    assert.equal(gone.code, 2);
    assert.match(gone.err, /does not exist/);
    const tours = await run(['tour', 'export', '--offline', '--annotations', annotations, '--cache-dir', join(work, 'empty-cache')]);
    assert.equal(tours.code, 2);
  });
});
