/**
 * Concurrency facts and flow-narrowed dispatch on the Go fixtures: channels linked to their producers,
 * goroutine starts with their periods, and interface candidates ranked by what flows into the receiver.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { channelProducers, isRuledOut } from '../../src/graph/index.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

const root = resolve('test/fixtures/go/kubelike');
const KL = 'k8s.io/kubernetes/pkg/kubelet';

describe('concurrency and flow facts on test/fixtures/go/kubelike', () => {
  let graph: Graph;
  before(() => {
    graph = buildIndex({ root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-conc-'), fresh: true }).graph;
  });

  it('links every select case of syncLoopIteration to at least one producer', () => {
    const rows = channelProducers(graph, `${KL}.(*Kubelet).syncLoopIteration`);
    const cases = new Set(rows.map((r) => r.caseIndex));
    assert.ok(cases.size >= 6, `only ${cases.size} select cases found`);
    for (const r of rows) assert.ok(r.producers.length > 0, `case ${r.caseIndex} <-${r.expr} has no producer`);
    const config = rows.find((r) => r.expr === 'configCh');
    assert.ok(config?.producers.some((p) => p.includes('config.(*PodConfig).forward')), 'config updates come from PodConfig.forward');
    const pleg = rows.filter((r) => r.expr === 'plegCh').flatMap((r) => r.producers);
    assert.ok(pleg.some((p) => p.includes('pleg.(*GenericPLEG).Relist')), 'PLEG events come from GenericPLEG.Relist');
    const sync = rows.find((r) => r.expr === 'syncCh');
    assert.deepEqual(sync?.producers, ['the Go runtime (time.Ticker.C)']);
  });

  it('lists goroutine starts with who starts them and their period', () => {
    const byTarget = (t: string) => graph.goroutines.find((g) => g.target === t);
    const runtimeUp = byTarget(`${KL}.(*Kubelet).updateRuntimeUp`);
    assert.equal(runtimeUp?.starter, `${KL}.(*Kubelet).Run`);
    assert.equal(runtimeUp?.via, 'go wait.Until');
    assert.equal(runtimeUp?.period, '5 * time.Second');
    const gc = byTarget(`${KL}.(*Kubelet).StartGarbageCollection.func1`);
    assert.equal(gc?.period, 'ContainerGCPeriod (= time.Minute)');
    const run = graph.goroutines.find((g) => g.target === `${KL}.(*Kubelet).Run`);
    assert.equal(run?.via, 'go');
  });

  it('ranks the runtime that flows into kl.containerRuntime first and hides the fake', () => {
    const edges = graph.edges.filter((e) => e.file === 'pkg/kubelet/kubelet.go' && e.line === 213 && e.kind === 'interface');
    const real = edges.find((e) => e.callee.endsWith('kuberuntime.(*kubeGenericRuntimeManager).Type'));
    const fake = edges.find((e) => e.callee.endsWith('container/testing.(*FakeRuntime).Type'));
    assert.ok(real && !isRuledOut(real), 'the real runtime is a shown candidate');
    assert.ok(fake && isRuledOut(fake), 'the fake is stored but ruled out');
    assert.ok(real.confidence > fake.confidence);
  });
});
