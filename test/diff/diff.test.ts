import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultBuildContext } from '../../src/source/index.js';
import { diffMarkdown, diffTrees, isFake, lineChange, type DiffReport } from '../../src/diff/index.js';
import { createNoteFile } from '../../src/notes/index.js';
import { copyFixture, FIXTURE, modifyFixture, writeFixtureAnnotations, writeFixturePorts } from './fixture.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const K = 'k8s.io/kubernetes/pkg/kubelet';
const GOLDEN = resolve('test/golden/diff/fixture-modified.md');

const run = (args: string[]) => runCli(args);

/** A short line diff for a golden mismatch: the first differing lines with their numbers. */
function showDiff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < 40; i++) {
    if (a[i] === b[i]) continue;
    if (a[i] !== undefined) out.push(`${i + 1} - ${a[i]}`);
    if (b[i] !== undefined) out.push(`${i + 1} + ${b[i]}`);
  }
  return out.join('\n');
}

describe('version diff of the fixture and a modified copy', () => {
  let base: string;
  let modified: string;
  let cache: string;
  let report: DiffReport;
  const options = () => ({
    fromDir: FIXTURE, toDir: modified, ctx: defaultBuildContext(), cacheDir: cache,
    fromLabel: 'kubelike', toLabel: 'kubelike-modified',
    annotationsDir: join(base, 'annotations'), notesDir: join(base, 'notes'), portsDir: join(base, 'reference-impl'),
  });
  before(() => {
    base = tempDir('ka-diff-');
    cache = join(base, 'cache');
    modified = copyFixture(join(base, 'modified'));
    modifyFixture(modified);
    writeFixtureAnnotations(join(base, 'annotations'));
    writeFixturePorts(join(base, 'reference-impl'));
    mkdirSync(join(base, 'notes'));
    createNoteFile(join(base, 'notes'), {
      id: '20250101T000000000Z-00000001', author: 'alice', date: '2025-01-01T00:00:00.000Z', kind: 'question', status: 'open', body: 'Why?',
      anchor: { symbol: `${K}/pleg.(*GenericPLEG).Relist`, query: 'Relist', file: 'pkg/kubelet/pleg/generic.go', line: 109, endLine: 142, fingerprint: 'x' },
    });
    report = diffTrees(options());
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('classifies each edit of the modified copy', () => {
    const pleg = report.packages.find((p) => p.pkg === `${K}/pleg`)!;
    const by = (cls: string) => pleg.functions.filter((f) => f.class === cls).map((f) => f.id.slice(`${K}/`.length));
    assert.deepEqual(by('changed'), ['pleg.(*GenericPLEG).Relist', 'pleg.(*GenericPLEG).Start']);
    assert.deepEqual(by('added'), ['pleg.(*GenericPLEG).watchdog']);
    assert.deepEqual(by('removed'), ['pleg.(*GenericPLEG).updateRelistTime']);
    assert.deepEqual(by('renamed'), ['pleg.getContainersFromPods']);
    assert.deepEqual(by('moved'), ['pleg.convertState']);
    const relist = pleg.functions.find((f) => f.id.endsWith('.Relist'))!;
    // The time line, the stored time line and the renamed call's line.
    assert.deepEqual([relist.differ, relist.of], [3, 32]);
    const renamed = pleg.functions.find((f) => f.class === 'renamed')!;
    assert.equal(renamed.newId, `${K}/pleg.containersOfPods`);
    assert.equal(renamed.renamedBy, 'shape');
    assert.equal(pleg.functions.find((f) => f.class === 'moved')!.to!.file, 'pkg/kubelet/pleg/state.go');
  });

  it('reports edges, goroutines and channels, with renames not counted as edge changes', () => {
    const pleg = report.packages.find((p) => p.pkg === `${K}/pleg`)!;
    assert.deepEqual(pleg.edges.map((e) => `${e.change} ${e.caller.slice(K.length + 6)} → ${e.callee.slice(K.length + 6)}`).sort(), [
      'added (*GenericPLEG).Start → (*GenericPLEG).watchdog',
      'removed (*GenericPLEG).Relist → (*GenericPLEG).updateRelistTime',
    ]);
    assert.deepEqual(pleg.goroutines.map((g) => [g.change, g.target, g.via]), [['added', `${K}/pleg.(*GenericPLEG).watchdog.func*`, 'go']]);
    assert.deepEqual(pleg.channels.map((c) => [c.change, c.holder]), [['added', `${K}/pleg.GenericPLEG.stopCh`]]);
  });

  it('splits a shared package between topics and ranks the most changed first', () => {
    assert.deepEqual(report.topics.map((t) => t.id), ['pleg', 'pod-workers', 'syncloop']);
    const pw = report.topics.find((t) => t.id === 'pod-workers')!;
    assert.deepEqual(pw.scopes.map((s) => [s.pkg, s.files]), [[K, ['pkg/kubelet/pod_workers.go']]]);
    assert.deepEqual(pw.functions.map((f) => f.id), [`${K}.(*podWorkers).removeTerminatedWorker`]);
    assert.equal(report.topics.find((t) => t.id === 'syncloop')!.functions.length, 0);
  });

  it('lists annotations, notes and port tags that go stale', () => {
    const stale = report.stale.map((s) => `${s.consumer} ${s.class} ${s.id.slice(K.length)} ${s.at.join(',')}`);
    assert.deepEqual(stale, [
      'annotation changed .(*podWorkers).removeTerminatedWorker annotations/pod-workers.md:14',
      'annotation changed /pleg.(*GenericPLEG).Relist annotations/pleg.md:14',
      'annotation removed /pleg.(*GenericPLEG).updateRelistTime annotations/pleg.md:15',
      'note changed /pleg.(*GenericPLEG).Relist notes/20250101T000000000Z-00000001.md',
      'port removed /pleg.(*GenericPLEG).updateRelistTime reference-impl/pleg/relist.ts:3',
      'port renamed /pleg.getContainersFromPods reference-impl/pleg/relist.ts:1',
    ]);
  });

  it('renders the Markdown report as in the golden file', () => {
    const md = diffMarkdown(report);
    if (process.env['UPDATE_GOLDEN']) {
      mkdirSync(resolve('test/golden/diff'), { recursive: true });
      writeFileSync(GOLDEN, md);
    }
    const expected = readFileSync(GOLDEN, 'utf8');
    if (md !== expected) assert.fail(`diff Markdown differs from ${GOLDEN} (run with UPDATE_GOLDEN=1 to accept):\n${showDiff(expected, md)}`);
  });

  it('limits the report to one topic', () => {
    const one = diffTrees({ ...options(), topic: 'pod-workers' });
    assert.deepEqual(one.topics.map((t) => t.id), ['pod-workers']);
    assert.deepEqual(one.packages.map((p) => p.pkg), [K]);
    assert.deepEqual(one.stale.map((s) => s.id), [`${K}.(*podWorkers).removeTerminatedWorker`]);
    assert.throws(() => diffTrees({ ...options(), topic: 'nope' }), /unknown topic 'nope'/);
  });

  it('works from the command line, as JSON and into a file', async () => {
    const args = ['diff', '--from', FIXTURE, '--to', modified, '--cache-dir', cache, '--annotations', join(base, 'annotations'), '--notes-dir', join(base, 'notes'), '--ports', join(base, 'reference-impl')];
    const json = await run([...args, '--json', '--topic', 'pleg']);
    assert.equal(json.code, 0, json.err);
    assert.equal(JSON.parse(json.out).topics[0].counts.renamed, 1);
    const out = join(base, 'report.md');
    const file = await run([...args, '--out', out]);
    assert.equal(file.code, 0, file.err);
    assert.match(file.out, /wrote .*report\.md: 3 functions changed, 1 added, 1 removed, 1 renamed; 6 stale references/);
    assert.match(readFileSync(out, 'utf8'), /^# Kubelet changes: kubelike → modified/);
    const bad = await run([...args, '--topic', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /unknown topic 'nope'\ntopics: pleg, pod-workers, syncloop/);
  });

  it('refuses two folders that are not Kubernetes checkouts, with exit 2', async () => {
    const a = join(base, 'not-k8s-a');
    const b = join(base, 'not-k8s-b');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(b, 'go.mod'), 'module example.com/other\n');
    const r = await run(['diff', '--from', a, '--to', b, '--cache-dir', cache]);
    assert.equal(r.code, 2);
    assert.match(r.err, /is not a Kubernetes checkout \(no go\.mod\)\n.*is not a Kubernetes checkout \(go\.mod declares example\.com\/other and there is no pkg\/kubelet\)/);
    assert.doesNotMatch(r.err, /at .*\.js:\d+/);
  });
});

describe('diff helpers', () => {
  it('counts differing body lines, ignoring comments and layout', () => {
    const a = 'func f() {\n\tx := 1\n\ty := 2\n\treturn x + y\n}';
    assert.deepEqual(lineChange(a, a.replace('x := 1', 'x   :=   1 // one')), { differ: 0, of: 5 });
    assert.deepEqual(lineChange(a, a.replace('y := 2', 'y := 3')), { differ: 1, of: 5 });
    assert.deepEqual(lineChange(a, a.replace('\ty := 2\n', '\ty := 2\n\tz := 3\n\tw := 4\n')), { differ: 2, of: 7 });
  });

  it('knows fakes and mocks by package or type name', () => {
    assert.ok(isFake(`${K}/container/testing.(*FakeRuntime).GetPods`));
    assert.ok(isFake(`${K}/pod/testing.NewMockManager`));
    assert.ok(isFake(`${K}/cm.(*FakeContainerManager).Start`));
    assert.ok(!isFake(`${K}/kuberuntime.(*kubeGenericRuntimeManager).GetPods`));
    assert.ok(!isFake(`${K}/images.(*imageManager).EnsureImageExists`));
  });
});
