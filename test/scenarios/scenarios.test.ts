/**
 * What each bundled scenario must show, checked on the timeline entries themselves (the golden files
 * pin the exact wording; these pin the behaviour), plus small inline scenarios for other paths.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { bundledScenarioPath, GO, loadScenario, parseScenario, runScenario, type TimelineEntry } from '../../src/scenarios/index.js';

const run = (name: string) => runScenario(loadScenario(bundledScenarioPath(name)!));
const seconds = (entries: TimelineEntry[]) => entries.map((e) => e.at / 1000);
const matching = (entries: TimelineEntry[], go: string, re: RegExp) => entries.filter((e) => e.go === go && re.test(e.text));

describe('crashloop', () => {
  let t: TimelineEntry[];
  before(() => {
    t = run('crashloop');
  });

  it('backs off 10s, 20s, 40s … and caps at 5m0s', () => {
    const backOffs = matching(t, GO.doBackOff, /not restarted yet/).map((e) => /back-off (\S+)/.exec(e.text)![1]);
    assert.deepEqual(backOffs, ['10s', '20s', '40s', '1m20s', '2m40s', '5m0s', '5m0s', '5m0s']);
  });

  it('restarts the first crash at once and later ones on the first pod-worker retry after the back-off', () => {
    const starts = seconds(matching(t, GO.startContainer, /restart #/));
    // Crashes at 5s after each start; retries every 11s (10s backOffPeriod + the 1s sync tick).
    assert.deepEqual(starts, [5, 21, 48, 97, 190, 360, 673, 986]);
    const crashes = seconds(t.filter((e) => e.go === GO.relist && /died/.test(e.text)));
    const waits = ['10s', '20s', '40s', '1m20s', '2m40s', '5m0s', '5m0s'].map((d) => (d.includes('m') ? Number(d.split('m')[0]) * 60 + Number(d.split('m')[1].replace('s', '')) : Number(d.replace('s', ''))));
    for (let i = 0; i < waits.length; i++) assert.ok(starts[i + 1] - crashes[i + 1] >= waits[i], `restart ${i + 2} waited at least ${waits[i]}s`);
  });

  it('decides through ShouldContainerBeRestarted and requeues through completeWork', () => {
    assert.equal(matching(t, GO.shouldContainerBeRestarted, /restartPolicy Always → restart/).length, 8);
    assert.equal(matching(t, GO.completeWork, /retries in 10s/).length, 8);
  });
});

describe('memory-pressure', () => {
  let t: TimelineEntry[];
  before(() => {
    t = run('memory-pressure');
  });

  it('evicts one pod per pass, in rank order', () => {
    const evictions = matching(t, GO.evictPod, /Evicted:/).map((e) => [e.at / 1000, e.text.split(':')[0]]);
    assert.deepEqual(evictions, [
      [30, 'batch'],
      [40, 'api'],
    ]);
    const firstRank = matching(t, GO.rankMemoryPressure, /^\s+\d\./).filter((e) => e.at === 30_000).map((e) => /\d\. (\S+)/.exec(e.text)![1]);
    assert.deepEqual(firstRank, ['batch', 'api', 'db']);
  });

  it('rejects BestEffort pods while MemoryPressure lasts and admits the others', () => {
    assert.deepEqual(seconds(matching(t, GO.admit, /^late-besteffort .*rejected: Evicted: The node had condition: \[MemoryPressure\]/)), [60]);
    assert.deepEqual(seconds(matching(t, GO.admit, /^late-burstable .*admitted although/)), [60]);
    assert.deepEqual(seconds(matching(t, GO.handlePodAdditions, /^after-pressure: added and admitted/)), [360]);
  });

  it('keeps the condition for the transition period after the last pass that saw pressure', () => {
    assert.deepEqual(seconds(matching(t, GO.synchronize, /MemoryPressure is now True/)), [30]);
    assert.deepEqual(seconds(matching(t, GO.synchronize, /MemoryPressure is now False/)), [340]);
  });
});

describe('image-gc', () => {
  it('frees the least recently used images until usage is at most the low threshold', () => {
    const t = run('image-gc');
    assert.deepEqual(
      matching(t, GO.freeSpace, /removed/).map((e) => [e.at / 1000, /removed (\S+)/.exec(e.text)![1]]),
      [
        [300, 'registry.example/tools:old'],
        [300, 'registry.example/batch:2023-07'],
      ],
    );
    assert.ok(matching(t, GO.freeSpace, /kept registry.example\/debug:latest \(first seen 0s ago, younger than MinAge 2m0s\)/).length === 1);
    assert.deepEqual(seconds(matching(t, GO.garbageCollect, /nothing to do/)), [0, 600]);
    assert.ok(matching(t, GO.garbageCollect, /now 79% used/).length === 1);
  });
});

describe('liveness', () => {
  it('kills after failureThreshold failures in a row and restarts without back-off', () => {
    const t = run('liveness');
    assert.deepEqual(
      matching(t, GO.probe, /Liveness probe failed/).map((e) => [e.at / 1000, /\((\d) of 3\)/.exec(e.text)![1]]),
      [
        [61, '1'],
        [71, '2'],
        [81, '3'],
      ],
    );
    assert.deepEqual(seconds(matching(t, GO.computePodActions, /kill "app" \(LivenessProbe\), start "app"/)), [81]);
    assert.deepEqual(seconds(matching(t, GO.startContainer, /restart #1/)), [81]);
    assert.equal(matching(t, GO.killContainer, /liveness/).length, 1);
  });
});

describe('runScenario', () => {
  it('gives the same timeline every time', () => {
    assert.deepEqual(run('memory-pressure'), run('memory-pressure'));
  });

  it('finishes a pod whose containers may not restart', () => {
    const s = parseScenario(`
duration: 30s
pods:
  - metadata: { name: once }
    spec:
      restartPolicy: Never
      containers: [{ name: job, image: registry.example/job:1 }]
  - metadata: { name: retry }
    spec:
      restartPolicy: OnFailure
      containers: [{ name: job, image: registry.example/job:1 }]
events:
  - { at: 5s, event: container-exit, pod: once, container: job, exitCode: 3 }
  - { at: 5s, event: container-exit, pod: retry, container: job, exitCode: 0 }
`);
    const t = runScenario(s);
    assert.deepEqual(
      matching(t, GO.computePodActions, /no container will run again/).map((e) => e.text),
      ['once: no container will run again → phase Failed', 'retry: no container will run again → phase Succeeded'],
    );
    assert.equal(matching(t, GO.startContainer, /restart/).length, 0);
  });

  it('reports readiness changes without killing anything', () => {
    const s = parseScenario(`
duration: 1m
pods:
  - metadata: { name: web }
    spec:
      containers:
        - name: app
          image: registry.example/app:1
          readinessProbe: { httpGet: { path: /ready, port: 8080 }, periodSeconds: 5 }
events:
  - { at: 20s, event: probe-fail, container: app, probe: readiness, output: "HTTP probe failed with statuscode: 503" }
  - { at: 40s, event: probe-pass, container: app, probe: readiness }
`);
    const t = runScenario(s);
    assert.deepEqual(
      matching(t, GO.doProbe, /ready/).map((e) => [e.at / 1000, e.text]),
      [
        [1, 'web: "app" is ready'],
        [31, 'web: "app" is not ready'],
        [41, 'web: "app" is ready'],
      ],
    );
    assert.equal(matching(t, GO.killContainer, /./).length, 0);
  });
});
