import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, type Container, type ContainerStatus, type Pod, type PodStatus, type Probe } from '../api/index.js';
import {
  ProbeManager,
  Prober,
  ResultsManager,
  StatusStore,
  Worker,
  ProbeSpecError,
  probeKey,
  resolveContainerPort,
  containerIDString,
  type ContainerID,
  type ExecCommand,
  type ProbeOutcome,
  type ProbeType,
  type ProbedContainer,
  type Result,
} from './index.js';

// ---- helpers mirroring common_test.go -------------------------------------------------------

const TEST_CONTAINER_NAME = 'cOnTaInEr_NaMe';
const TEST_POD_UID = 'pOd_UiD';
const testContainerID: ContainerID = { type: 'test', id: 'cOnTaInEr_Id' };
const ALL_TYPES: ProbeType[] = ['liveness', 'readiness', 'startup'];
const FIELD = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' } as const;

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function getTestRunningStatusWithStarted(clock: FakeClock, started: boolean): PodStatus {
  return {
    phase: 'Running',
    containerStatuses: [
      {
        name: TEST_CONTAINER_NAME,
        containerID: containerIDString(testContainerID),
        state: { running: { startedAt: iso(clock.now()) } },
        started,
        ready: false,
        restartCount: 0,
      },
    ],
  };
}

function getTestPod(): Pod {
  return { metadata: { name: 'testPod', uid: TEST_POD_UID }, spec: { containers: [{ name: TEST_CONTAINER_NAME }], restartPolicy: 'Never' } };
}

/** The Go test's defaults: unset timeout/period/thresholds become 1; always an exec handler. */
function setTestProbe(pod: Pod, probeType: ProbeType, spec: Probe): void {
  pod.spec.containers[0][FIELD[probeType]] = {
    ...spec,
    exec: {},
    timeoutSeconds: spec.timeoutSeconds || 1,
    periodSeconds: spec.periodSeconds || 1,
    successThreshold: spec.successThreshold || 1,
    failureThreshold: spec.failureThreshold || 1,
  };
}

function newTestManager() {
  const clock = new FakeClock();
  const status = new StatusStore();
  const m = new ProbeManager({ statusManager: status, clock });
  setExec(m, 'success');
  return { m, clock, status };
}

/** m.prober.exec = fakeExecProber{result, err} */
function setExec(m: ProbeManager, result: ProbeOutcome, error?: Error): void {
  m.prober.handlers.exec = () => (error ? { result, output: '', error } : { result, output: '' });
}

function newTestWorker(m: ProbeManager, probeType: ProbeType, spec: Probe): Worker {
  const pod = getTestPod();
  setTestProbe(pod, probeType, spec);
  return new Worker(m, probeType, pod, pod.spec.containers[0]);
}

function resultsManager(m: ProbeManager, probeType: ProbeType): ResultsManager {
  return { liveness: m.livenessManager, readiness: m.readinessManager, startup: m.startupManager }[probeType];
}

function expectResult(w: Worker, expected: Result, msg: string): void {
  assert.equal(resultsManager(w.probeManager, w.probeType).get(w.containerID), expected, `[${w.probeType} - ${msg}]`);
}

function expectContinue(w: Worker, c: boolean, msg: string): void {
  assert.equal(c, true, `[${w.probeType} - ${msg}] Expected to continue, but did not`);
}

// ---- worker_test.go -------------------------------------------------------------------------

describe('TestDoProbe', () => {
  type Case = {
    name: string;
    probe?: Probe;
    status?: (clock: FakeClock, started: boolean) => PodStatus;
    expectContinue?: ProbeType[];
    expectSet?: boolean;
    expectedResult?: Result;
    setDeletionTimestamp?: boolean;
  };
  const running = (clock: FakeClock, started: boolean) => getTestRunningStatusWithStarted(clock, started);
  const edit = (f: (s: PodStatus, c: ContainerStatus) => void) => (clock: FakeClock, started: boolean) => {
    const s = running(clock, started);
    f(s, s.containerStatuses![0]);
    return s;
  };
  const cases: Case[] = [
    { name: 'No status', expectContinue: ALL_TYPES },
    { name: 'Pod failed', status: edit((s) => (s.phase = 'Failed')) },
    { name: 'Pod deletion', status: running, setDeletionTimestamp: true, expectSet: true, expectContinue: ['readiness'], expectedResult: 'Success' },
    { name: 'No container status', status: edit((_, c) => (c.name = 'otherContainer')), expectContinue: ALL_TYPES },
    { name: 'Container waiting', status: edit((_, c) => (c.state = {})), expectContinue: ALL_TYPES, expectSet: true, expectedResult: 'Failure' },
    {
      name: 'Container terminated',
      status: edit((_, c) => (c.state = { terminated: { exitCode: 0, startedAt: c.state!.running!.startedAt } })),
      expectSet: true,
      expectedResult: 'Failure',
    },
    { name: 'Probe successful', status: running, expectContinue: ALL_TYPES, expectSet: true, expectedResult: 'Success' },
    { name: 'Initial delay passed', status: running, probe: { initialDelaySeconds: -100 }, expectContinue: ALL_TYPES, expectSet: true, expectedResult: 'Success' },
  ];
  for (const probeType of ALL_TYPES) {
    cases.forEach((tc, i) => {
      it(`${probeType}-${i}: ${tc.name}`, () => {
        const { m, clock, status } = newTestManager();
        const w = newTestWorker(m, probeType, tc.probe ?? {});
        if (tc.status) status.setPodStatus(w.pod, tc.status(clock, probeType !== 'startup'));
        if (tc.setDeletionTimestamp) w.pod.metadata.deletionTimestamp = iso(clock.now());
        assert.equal(w.doProbe(), (tc.expectContinue ?? []).includes(probeType), 'continue');
        const result = resultsManager(m, probeType).get(testContainerID);
        assert.equal(result, tc.expectSet ? tc.expectedResult : undefined, 'result');
      });
    });
  }
});

describe('TestInitialDelay', () => {
  const initial: Record<ProbeType, Result> = { liveness: 'Success', readiness: 'Failure', startup: 'Unknown' };
  for (const probeType of ALL_TYPES) {
    it(probeType, () => {
      const { m, clock, status } = newTestManager();
      const w = newTestWorker(m, probeType, { initialDelaySeconds: 10 });
      status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, probeType !== 'startup'));
      expectContinue(w, w.doProbe(), 'during initial delay');
      expectResult(w, initial[probeType], 'during initial delay');

      const later = getTestRunningStatusWithStarted(clock, probeType !== 'startup');
      later.containerStatuses![0].state!.running!.startedAt = iso(clock.now() - 100 * SECOND);
      status.setPodStatus(w.pod, later);
      expectContinue(w, w.doProbe(), 'after initial delay');
      expectResult(w, 'Success', 'after initial delay');
    });
  }
});

describe('TestFailureThreshold', () => {
  it('readiness with failureThreshold 3 flips to Failure on the third failure, twice over', () => {
    const { m, clock, status } = newTestManager();
    const w = newTestWorker(m, 'readiness', { successThreshold: 1, failureThreshold: 3 });
    status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, true));
    for (let i = 0; i < 2; i++) {
      setExec(m, 'success');
      for (let j = 0; j < 3; j++) {
        expectContinue(w, w.doProbe(), `${j + 1} success (${i})`);
        expectResult(w, 'Success', `${j + 1} success (${i})`);
      }
      setExec(m, 'failure');
      for (let j = 0; j < 2; j++) {
        expectContinue(w, w.doProbe(), `${j + 1} failing (${i})`);
        expectResult(w, 'Success', `${j + 1} failing (${i})`);
      }
      for (let j = 0; j < 3; j++) {
        expectContinue(w, w.doProbe(), `${j + 3} failure (${i})`);
        expectResult(w, 'Failure', `${j + 3} failure (${i})`);
      }
    }
  });
});

describe('TestSuccessThreshold', () => {
  it('readiness with successThreshold 3 needs three successes; one failure flips it back', () => {
    const { m, clock, status } = newTestManager();
    const w = newTestWorker(m, 'readiness', { successThreshold: 3, failureThreshold: 1 });
    status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, true));
    w.resultsManager.set(testContainerID, 'Failure', { metadata: {} });
    for (let i = 0; i < 2; i++) {
      for (let j = 0; j < 2; j++) {
        expectContinue(w, w.doProbe(), `${j + 1} success (${i})`);
        expectResult(w, 'Failure', `${j + 1} success (${i})`);
      }
      for (let j = 0; j < 3; j++) {
        expectContinue(w, w.doProbe(), `${j + 3} success (${i})`);
        expectResult(w, 'Success', `${j + 3} success (${i})`);
      }
      setExec(m, 'failure');
      expectContinue(w, w.doProbe(), `1 failure (${i})`);
      expectResult(w, 'Failure', `1 failure (${i})`);
      setExec(m, 'success');
    }
  });
});

describe('TestCleanUp', () => {
  for (const probeType of ALL_TYPES) {
    it(probeType, () => {
      const { m, clock, status } = newTestManager();
      const w = newTestWorker(m, probeType, {});
      status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, probeType !== 'startup'));
      m.workers.set(probeKey(TEST_POD_UID, TEST_CONTAINER_NAME, probeType), w);
      m.step(); // "go w.run()": the first turn probes at once.
      assert.equal(resultsManager(m, probeType).get(testContainerID), 'Success');
      for (let i = 0; i < 10; i++) w.stop();
      m.step();
      assert.equal(resultsManager(m, probeType).get(testContainerID), undefined, 'Expected result to be cleared.');
      assert.equal(m.getWorker(TEST_POD_UID, TEST_CONTAINER_NAME, probeType), undefined, 'Expected worker to be cleared.');
    });
  }
});

describe('TestOnHoldOnLivenessOrStartupCheckFailure', () => {
  for (const probeType of ['liveness', 'startup'] as const) {
    it(probeType, () => {
      const { m, clock, status } = newTestManager();
      const w = newTestWorker(m, probeType, { successThreshold: 1, failureThreshold: 1 });
      const podStatus = getTestRunningStatusWithStarted(clock, probeType !== 'startup');
      status.setPodStatus(w.pod, podStatus);

      setExec(m, 'failure');
      expectContinue(w, w.doProbe(), 'first probe');
      expectResult(w, 'Failure', 'first probe');
      assert.equal(w.onHold, true, `Prober should be on hold due to ${probeType} check failure`);

      setExec(m, 'success');
      expectContinue(w, w.doProbe(), 'while on hold');
      expectResult(w, 'Failure', 'while on hold');
      assert.equal(w.onHold, true, `Prober should be on hold due to ${probeType} check failure`);

      podStatus.containerStatuses![0].containerID = 'test://newCont_ID';
      status.setPodStatus(w.pod, podStatus);
      expectContinue(w, w.doProbe(), 'hold lifted');
      expectResult(w, 'Success', 'hold lifted');
      assert.equal(w.onHold, false, 'Prober should not be on hold anymore');
    });
  }
});

describe('TestResultRunOnLivenessCheckFailure', () => {
  it('resultRun counts repeats and resets to 0 when the failure threshold trips', () => {
    const { m, clock, status } = newTestManager();
    const w = newTestWorker(m, 'liveness', { successThreshold: 1, failureThreshold: 3 });
    status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, true));
    const steps: [ProbeOutcome, Result, number, string][] = [
      ['success', 'Success', 1, 'initial probe success'],
      ['failure', 'Success', 1, 'probe failure, result success'],
      ['failure', 'Success', 2, '2nd probe failure, result success'],
      ['failure', 'Failure', 0, '3rd probe failure, result failure'],
    ];
    for (const [outcome, expected, run, msg] of steps) {
      setExec(m, outcome);
      expectContinue(w, w.doProbe(), msg);
      expectResult(w, expected, msg);
      assert.equal(w.resultRun, run, msg);
    }
  });
});

describe('TestResultRunOnStartupCheckFailure', () => {
  it('startup stays Unknown below the threshold, then fails and resets resultRun', () => {
    const { m, clock, status } = newTestManager();
    const w = newTestWorker(m, 'startup', { successThreshold: 1, failureThreshold: 3 });
    status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, false));
    setExec(m, 'failure');
    const steps: [Result, number, string][] = [
      ['Unknown', 1, 'probe failure, result unknown'],
      ['Unknown', 2, '2nd probe failure, result unknown'],
      ['Failure', 0, '3rd probe failure, result failure'],
    ];
    for (const [expected, run, msg] of steps) {
      expectContinue(w, w.doProbe(), msg);
      expectResult(w, expected, msg);
      assert.equal(w.resultRun, run, msg);
    }
  });
});

describe('TestLivenessProbeDisabledByStarted', () => {
  it('liveness does not probe until the container has started', () => {
    const { m, clock, status } = newTestManager();
    const w = newTestWorker(m, 'liveness', { successThreshold: 1, failureThreshold: 1 });
    status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, false));
    setExec(m, 'failure');
    expectContinue(w, w.doProbe(), 'Not started, probe failure, result success');
    expectResult(w, 'Success', 'Not started, probe failure, result success');
    status.setContainerStartup(TEST_POD_UID, w.containerID, true);
    expectContinue(w, w.doProbe(), 'Started, probe failure, result failure');
    expectResult(w, 'Failure', 'Started, probe failure, result failure');
  });
});

describe('TestStartupProbeDisabledByStarted', () => {
  it('startup stops probing once the container has started', () => {
    const { m, clock, status } = newTestManager();
    const w = newTestWorker(m, 'startup', { successThreshold: 1, failureThreshold: 2 });
    status.setPodStatus(w.pod, getTestRunningStatusWithStarted(clock, false));
    setExec(m, 'failure');
    expectContinue(w, w.doProbe(), 'Not started, probe failure, result unknown');
    expectResult(w, 'Unknown', 'Not started, probe failure, result unknown');
    setExec(m, 'success');
    expectContinue(w, w.doProbe(), 'Started, probe success, result success');
    expectResult(w, 'Success', 'Started, probe success, result success');
    status.setContainerStartup(TEST_POD_UID, w.containerID, true);
    setExec(m, 'failure');
    expectContinue(w, w.doProbe(), 'Started, probe failure, result success');
    expectResult(w, 'Success', 'Started, probe failure, result success');
  });
});

// ---- prober_test.go -------------------------------------------------------------------------

describe('TestGetURLParts', () => {
  const cases: [number | string, string, string, boolean, string, number, string][] = [
    [-1, '', '', false, '', -1, ''],
    ['', '', '', false, '', -1, ''],
    ['-1', '', '', false, '', -1, ''],
    ['not-found', '', '', false, '', -1, ''],
    ['found', '', '', true, '127.0.0.1', 93, ''],
    [76, '', '', true, '127.0.0.1', 76, ''],
    ['118', '', '', true, '127.0.0.1', 118, ''],
    [76, 'hostname', 'path', true, 'hostname', 76, 'path'],
  ];
  cases.forEach(([port, host, path, ok, wantHost, wantPort, wantPath], i) => {
    it(`case ${i}: port ${JSON.stringify(port)} host ${JSON.stringify(host)}`, () => {
      const container: Container = { name: 'c', ports: [{ name: 'found', containerPort: 93 }] };
      const podIP = '127.0.0.1';
      const resolved = resolveContainerPort(port, container);
      assert.equal(resolved.error === undefined, ok);
      if (ok) assert.deepEqual([host || podIP, resolved.port, path], [wantHost, wantPort, wantPath]);

      // The same request as the prober builds it.
      const targets: unknown[] = [];
      const prober = new Prober({ http: (t) => (targets.push(t), { result: 'success', output: '' }) });
      const pod = getTestPod();
      const probed = { ...container, livenessProbe: { httpGet: { port, host, path }, timeoutSeconds: 1 } };
      const r = prober.probe('liveness', pod, { podIP }, probed, testContainerID);
      assert.equal(r.error === undefined, ok);
      if (ok) assert.deepEqual(targets[0], { scheme: 'http', host: wantHost, port: wantPort, path: wantPath });
    });
  });
});

describe('TestGetTCPAddrParts', () => {
  const cases: [number | string, boolean, string, number][] = [
    [-1, false, '', -1],
    ['', false, '', -1],
    ['-1', false, '', -1],
    ['not-found', false, '', -1],
    ['found', true, '1.2.3.4', 93],
    [76, true, '1.2.3.4', 76],
    ['118', true, '1.2.3.4', 118],
  ];
  cases.forEach(([port, ok, wantHost, wantPort], i) => {
    it(`case ${i}: port ${JSON.stringify(port)}`, () => {
      const container: Container = { name: 'c', ports: [{ name: 'found', containerPort: 93 }] };
      const calls: [string, number][] = [];
      const prober = new Prober({ tcp: (h, p) => (calls.push([h, p]), { result: 'success', output: '' }) });
      const probed = { ...container, livenessProbe: { tcpSocket: { port }, timeoutSeconds: 1 } };
      const r = prober.probe('liveness', getTestPod(), { podIP: '1.2.3.4' }, probed, testContainerID);
      assert.equal(r.error === undefined, ok);
      if (ok) assert.deepEqual(calls[0], [wantHost, wantPort]);
    });
  });
});

describe('TestProbe', () => {
  const execProbe: Probe = { exec: {} };
  type Case = {
    name: string;
    probe?: Probe;
    env?: { name: string; value: string }[];
    execError?: boolean;
    expectError?: boolean;
    execResult?: ProbeOutcome;
    expectedResult: Result;
    expectCommand?: string[];
  };
  const cases: Case[] = [
    { name: 'No probe', expectedResult: 'Success' },
    { name: 'No handler', probe: {}, expectError: true, expectedResult: 'Failure' },
    { name: 'Probe fails', probe: execProbe, execResult: 'failure', expectedResult: 'Failure' },
    { name: 'Probe succeeds', probe: execProbe, execResult: 'success', expectedResult: 'Success' },
    { name: 'Probe result is warning', probe: execProbe, execResult: 'warning', expectedResult: 'Success' },
    { name: 'Probe result is unknown', probe: execProbe, execResult: 'unknown', expectedResult: 'Failure' },
    { name: 'Probe has an error', probe: execProbe, execError: true, expectError: true, execResult: 'unknown', expectedResult: 'Failure' },
    {
      name: 'Probe arguments are passed through',
      probe: { exec: { command: ['/bin/bash', '-c', 'some script'] } },
      expectCommand: ['/bin/bash', '-c', 'some script'],
      execResult: 'success',
      expectedResult: 'Success',
    },
    {
      name: 'Probe arguments are passed through (env expansion)',
      probe: { exec: { command: ['/bin/bash', '-c', 'some $(A) $(B)'] } },
      env: [{ name: 'A', value: 'script' }],
      expectCommand: ['/bin/bash', '-c', 'some script $(B)'],
      execResult: 'success',
      expectedResult: 'Success',
    },
  ];
  cases.forEach((tc, i) => {
    for (const probeType of ALL_TYPES) {
      it(`${i}-${probeType}: ${tc.name}`, () => {
        const commands: ExecCommand[] = [];
        const result = tc.execResult ?? 'unknown';
        const prober = new Prober({
          exec: (cmd) => (commands.push(cmd), tc.execError ? { result, output: '', error: new Error('exec error') } : { result, output: '' }),
        });
        const container: ProbedContainer = { name: '', env: tc.env, [FIELD[probeType]]: tc.probe };
        const r = prober.probe(probeType, { metadata: {}, spec: { containers: [] } }, {}, container, { type: 'test', id: 'foobar' });
        assert.equal(r.error !== undefined, tc.expectError === true, 'error');
        assert.equal(r.result, tc.expectedResult);
        if (tc.execError) assert.equal(commands.length, 3, 'an erroring probe is tried three times');
        if (tc.expectCommand) assert.deepEqual(commands[0].command, tc.expectCommand);
      });
    }
  });
});

describe('Prober events beyond the Go tests', () => {
  it('failures and warnings are recorded as container events with the field path', () => {
    const prober = new Prober({ exec: () => ({ result: 'failure', output: 'boom' }) });
    const pod = getTestPod();
    const c: ProbedContainer = { ...pod.spec.containers[0], readinessProbe: { exec: {} } };
    prober.probe('readiness', pod, {}, c, testContainerID);
    prober.handlers.exec = () => ({ result: 'warning', output: 'slow' });
    prober.probe('readiness', pod, {}, c, testContainerID);
    assert.deepEqual(prober.events, [
      { eventType: 'Warning', reason: 'Unhealthy', message: 'Readiness probe failed: boom', fieldPath: `spec.containers{${TEST_CONTAINER_NAME}}` },
      { eventType: 'Warning', reason: 'ProbeWarning', message: 'Readiness probe warning: slow', fieldPath: `spec.containers{${TEST_CONTAINER_NAME}}` },
    ]);
  });
});

// ---- results/results_manager_test.go --------------------------------------------------------

describe('TestCacheOperations', () => {
  it('get/set/remove', () => {
    const m = new ResultsManager();
    const unsetID = { type: 'test', id: 'unset' };
    const setID = { type: 'test', id: 'set' };
    assert.equal(m.get(unsetID), undefined, 'unset result found');
    m.set(setID, 'Success', { metadata: {} });
    assert.equal(m.get(setID), 'Success', 'set result');
    m.remove(setID);
    assert.equal(m.get(setID), undefined, 'removed result found');
  });
});

describe('TestUpdates', () => {
  it('only new or changed results are published', () => {
    const m = new ResultsManager();
    const pod = { metadata: { name: 'test-pod' } };
    const fooID = { type: 'test', id: 'foo' };
    const barID = { type: 'test', id: 'bar' };
    m.set(fooID, 'Success', pod);
    assert.deepEqual(m.drainUpdates(), [{ containerID: fooID, result: 'Success', podUID: '' }], 'new success');
    m.set(barID, 'Failure', pod);
    assert.deepEqual(m.drainUpdates(), [{ containerID: barID, result: 'Failure', podUID: '' }], 'new failure');
    m.set(fooID, 'Success', pod);
    assert.deepEqual(m.drainUpdates(), [], 'unchanged foo');
    m.set(barID, 'Failure', pod);
    assert.deepEqual(m.drainUpdates(), [], 'unchanged bar');
    m.set(fooID, 'Failure', pod);
    assert.deepEqual(m.drainUpdates(), [{ containerID: fooID, result: 'Failure', podUID: '' }], 'changed foo');
    m.set(barID, 'Success', pod);
    assert.deepEqual(m.drainUpdates(), [{ containerID: barID, result: 'Success', podUID: '' }], 'changed bar');
  });
});

// ---- prober_manager_test.go -----------------------------------------------------------------

const defaultProbe: Probe = { exec: {}, timeoutSeconds: 1, periodSeconds: 1, successThreshold: 1, failureThreshold: 3 };

function expectProbes(m: ProbeManager, expected: [string, string, ProbeType][]): void {
  assert.deepEqual([...m.workers.keys()].sort(), expected.map(([u, c, t]) => probeKey(u, c, t)).sort());
}

/** waitForWorkerExit: give stopped workers their turn, then check they are gone. */
function waitForWorkerExit(m: ProbeManager, keys: [string, string, ProbeType][]): void {
  m.step();
  for (const [u, c, t] of keys) assert.equal(m.getWorker(u, c, t), undefined, `worker ${probeKey(u, c, t)} still running`);
}

/** cleanup(): stop everything and check no worker is left. */
function cleanup(m: ProbeManager): void {
  m.cleanupPods(new Set());
  m.step();
  assert.equal(m.workerCount(), 0);
}

describe('TestAddRemovePods', () => {
  it('workers follow pods with probes in and out', () => {
    const noProbePod: Pod = { metadata: { uid: 'no_probe_pod' }, spec: { containers: [{ name: 'no_probe1' }, { name: 'no_probe2' }, { name: 'no_probe3' }] } };
    const probePod: Pod = {
      metadata: { uid: 'probe_pod' },
      spec: {
        containers: [
          { name: 'probe1' },
          { name: 'readiness', readinessProbe: defaultProbe },
          { name: 'probe2' },
          { name: 'liveness', livenessProbe: defaultProbe },
          { name: 'probe3' },
          { name: 'startup', startupProbe: defaultProbe },
        ],
      },
    };
    const { m } = newTestManager();
    expectProbes(m, []);
    m.addPod(noProbePod);
    expectProbes(m, []);
    m.addPod(probePod);
    const probePaths: [string, string, ProbeType][] = [
      ['probe_pod', 'readiness', 'readiness'],
      ['probe_pod', 'liveness', 'liveness'],
      ['probe_pod', 'startup', 'startup'],
    ];
    expectProbes(m, probePaths);
    m.removePod(noProbePod);
    expectProbes(m, probePaths);
    m.removePod(probePod);
    waitForWorkerExit(m, probePaths);
    expectProbes(m, []);
    m.removePod(probePod);
    expectProbes(m, []);
    cleanup(m);
  });
});

describe('TestAddRemovePodsWithRestartableInitContainer', () => {
  for (const [desc, sidecar] of [
    ['pod with sidecar (no sidecar containers feature enabled)', false],
    ['pod with sidecar (sidecar containers feature enabled)', true],
  ] as const) {
    it(desc, () => {
      const { m } = newTestManager();
      const probePaths: [string, string, ProbeType][] = sidecar
        ? [
            ['restartable_init_container_pod', 'restartable-init', 'liveness'],
            ['restartable_init_container_pod', 'restartable-init', 'readiness'],
            ['restartable_init_container_pod', 'restartable-init', 'startup'],
          ]
        : [];
      const probePod: Pod = {
        metadata: { uid: 'restartable_init_container_pod' },
        spec: {
          initContainers: [
            { name: 'init' },
            { name: 'restartable-init', livenessProbe: defaultProbe, readinessProbe: defaultProbe, startupProbe: defaultProbe, ...(sidecar ? { restartPolicy: 'Always' as const } : {}) },
          ],
          containers: [{ name: 'main' }],
        },
      };
      m.addPod(probePod);
      expectProbes(m, probePaths);
      m.removePod(probePod);
      waitForWorkerExit(m, probePaths);
      expectProbes(m, []);
      m.removePod(probePod);
      expectProbes(m, []);
      cleanup(m);
    });
  }
});

describe('TestCleanupPods', () => {
  it('workers of pods that are not desired stop; the others stay', () => {
    const { m } = newTestManager();
    const pod = (uid: string): Pod => ({
      metadata: { uid },
      spec: {
        containers: [
          { name: 'prober1', readinessProbe: defaultProbe },
          { name: 'prober2', livenessProbe: defaultProbe },
          { name: 'prober3', startupProbe: defaultProbe },
        ],
      },
    });
    m.addPod(pod('pod_cleanup'));
    m.addPod(pod('pod_keep'));
    m.cleanupPods(new Set(['pod_keep']));
    waitForWorkerExit(m, [
      ['pod_cleanup', 'prober1', 'readiness'],
      ['pod_cleanup', 'prober2', 'liveness'],
      ['pod_cleanup', 'prober3', 'startup'],
    ]);
    expectProbes(m, [
      ['pod_keep', 'prober1', 'readiness'],
      ['pod_keep', 'prober2', 'liveness'],
      ['pod_keep', 'prober3', 'startup'],
    ]);
    cleanup(m);
  });
});

describe('TestCleanupRepeated', () => {
  it('repeated cleanups of 100 pods are harmless', () => {
    const { m } = newTestManager();
    for (let i = 0; i < 100; i++) {
      m.addPod({ metadata: { uid: String(i) }, spec: { containers: [{ name: 'prober1', readinessProbe: defaultProbe, livenessProbe: defaultProbe, startupProbe: defaultProbe }] } });
    }
    assert.equal(m.workerCount(), 300);
    for (let i = 0; i < 10; i++) m.cleanupPods(new Set());
    cleanup(m);
  });
});

/** A stand-in for the Go test's empty `&worker{}` entries: a worker registered under the key. */
function putWorker(m: ProbeManager, containerName: string, probeType: ProbeType): void {
  const container: Container = { name: containerName, [FIELD[probeType]]: defaultProbe };
  const pod: Pod = { metadata: { uid: TEST_POD_UID }, spec: { containers: [container] } };
  m.workers.set(probeKey(TEST_POD_UID, containerName, probeType), new Worker(m, probeType, pod, container));
}

function cs(name: string, state: ContainerStatus['state']): ContainerStatus {
  return { name, containerID: `test://${name}_id`, state, ready: false, restartCount: 0 };
}

describe('TestUpdatePodStatus', () => {
  it('readiness comes from probe results, workers and startup state', () => {
    const running = { running: {} };
    const statuses = [
      cs('unprobed_container', running),
      cs('probed_container_ready', running),
      cs('probed_container_pending', running),
      cs('probed_container_unready', running),
      cs('not_started_container_no_readiness', running),
      cs('started_container_no_readiness', running),
      cs('terminated_container', { terminated: { exitCode: 0 } }),
    ];
    const podStatus: PodStatus = { phase: 'Running', containerStatuses: statuses };
    const { m } = newTestManager();
    putWorker(m, 'unprobed_container', 'liveness');
    putWorker(m, 'probed_container_ready', 'readiness');
    putWorker(m, 'probed_container_pending', 'readiness');
    putWorker(m, 'probed_container_unready', 'readiness');
    putWorker(m, 'not_started_container_no_readiness', 'startup');
    putWorker(m, 'started_container_no_readiness', 'startup');
    putWorker(m, 'terminated_container', 'readiness');
    const id = (s: ContainerStatus) => ({ type: 'test', id: `${s.name}_id` });
    m.readinessManager.set(id(statuses[1]), 'Success', { metadata: {} });
    m.readinessManager.set(id(statuses[3]), 'Failure', { metadata: {} });
    m.startupManager.set(id(statuses[5]), 'Success', { metadata: {} });
    m.readinessManager.set(id(statuses[6]), 'Success', { metadata: {} });

    m.updatePodStatus({ metadata: { uid: TEST_POD_UID }, spec: { containers: statuses.map((s) => ({ name: s.name })) } }, podStatus);

    const expected: Record<string, boolean> = {
      unprobed_container: true,
      probed_container_ready: true,
      probed_container_pending: false,
      probed_container_unready: false,
      not_started_container_no_readiness: false,
      started_container_no_readiness: true,
      terminated_container: false,
    };
    for (const c of podStatus.containerStatuses!) assert.equal(c.ready, expected[c.name], `readiness of ${c.name}`);
  });
});

describe('TestUpdatePodStatusWithInitContainers', () => {
  const cases = [
    {
      desc: 'init containers',
      sidecar: false,
      started: { not_started_container: false, started_container: true, terminated_container: false },
      ready: { not_started_container: false, started_container: false, terminated_container: true },
    },
    {
      desc: 'init container with SidecarContainers feature',
      sidecar: true,
      started: { not_started_container: false, started_container: true, terminated_container: false },
      ready: { not_started_container: false, started_container: true, terminated_container: false },
    },
  ];
  for (const tc of cases) {
    it(tc.desc, () => {
      const { m } = newTestManager();
      putWorker(m, 'not_started_container', 'startup');
      putWorker(m, 'started_container', 'startup');
      m.startupManager.set({ type: 'test', id: 'started_container_id' }, 'Success', { metadata: {} });
      const podStatus: PodStatus = {
        phase: 'Running',
        initContainerStatuses: [
          cs('not_started_container', { running: {} }),
          cs('started_container', { running: {} }),
          cs('terminated_container', { terminated: { exitCode: 0 } }),
        ],
      };
      const init = (name: string): Container => ({ name, ...(tc.sidecar ? { restartPolicy: 'Always' as const } : {}) });
      m.updatePodStatus(
        { metadata: { uid: TEST_POD_UID }, spec: { containers: [], initContainers: [init('not_started_container'), init('started_container'), init('terminated_container')] } },
        podStatus,
      );
      for (const c of podStatus.initContainerStatuses!) {
        const name = c.name as keyof typeof tc.started;
        assert.equal(c.started, tc.started[name], `started of ${c.name}`);
        assert.equal(c.ready, tc.ready[name], `ready of ${c.name}`);
      }
    });
  }
});

describe('TestUpdateReadiness', () => {
  it('readiness results flow into the pod status as the clock advances', () => {
    const testPod = getTestPod();
    setTestProbe(testPod, 'readiness', {});
    const { m, clock, status } = newTestManager();
    let outcome: ProbeOutcome = 'success';
    m.prober.handlers.exec = () => ({ result: outcome, output: '' });
    status.setPodStatus(testPod, getTestRunningStatusWithStarted(clock, true));
    m.addPod(testPod);
    expectProbes(m, [[TEST_POD_UID, TEST_CONTAINER_NAME, 'readiness']]);

    /** One pass of the kubelet sync loop's readiness branch (extractedReadinessHandling). */
    const syncOnce = () => {
      m.step();
      for (const u of m.readinessManager.drainUpdates()) status.setContainerReadiness(u.podUID, u.containerID, u.result === 'Success');
      clock.step(SECOND);
    };
    const waitForReadyStatus = (ready: boolean) => {
      for (let i = 0; i < 10; i++) {
        syncOnce();
        const s = status.getPodStatus(TEST_POD_UID)!;
        assert.equal(s.containerStatuses!.length, 1);
        assert.equal(s.containerStatuses![0].containerID, containerIDString(testContainerID));
        if (s.containerStatuses![0].ready === ready) return;
      }
      assert.fail(`container never became ready=${ready}`);
    };
    waitForReadyStatus(true);
    outcome = 'failure';
    waitForReadyStatus(false);
    cleanup(m);
  });
});

// ---- behaviour the brief asks for beyond the Go tables ---------------------------------------

describe('Worker stepping on the fake clock', () => {
  function setup(periodSeconds: number) {
    const { m, clock, status } = newTestManager();
    const pod: Pod = {
      metadata: { name: 'web', namespace: 'default', uid: 'web-uid' },
      spec: { containers: [{ name: 'app', readinessProbe: { exec: { command: ['true'] }, periodSeconds } }], restartPolicy: 'Always' },
    };
    let probes = 0;
    m.prober.handlers.exec = () => (probes++, { result: 'success', output: '' });
    status.setPodStatus(pod, {
      phase: 'Running',
      containerStatuses: [{ name: 'app', containerID: 'test://app', state: { running: { startedAt: iso(clock.now()) } }, started: true, ready: false, restartCount: 0 }],
    });
    m.addPod(pod);
    return { m, clock, status, pod, count: () => probes };
  }

  it('probes once at start, then once per period (10s default is overridden to 5s here)', () => {
    const { m, clock, count } = setup(5);
    m.step();
    assert.equal(count(), 1);
    clock.step(4 * SECOND);
    m.step();
    assert.equal(count(), 1);
    clock.step(1 * SECOND);
    m.step();
    assert.equal(count(), 2);
    clock.step(17 * SECOND); // missed ticks collapse into one
    m.step();
    assert.equal(count(), 3);
    clock.step(3 * SECOND); // next boundary was at 25s; now is 25s
    m.step();
    assert.equal(count(), 4);
  });

  it('updatePodStatus triggers a not-yet-ready container to be probed before its period', () => {
    const { m, clock, status, pod } = setup(10);
    let probes = 0;
    m.prober.handlers.exec = () => (probes++, { result: 'failure', output: '' });
    m.step(); // probe 1 fails, below the threshold of 3: readiness keeps its initial Failure
    const s = structuredClone(status.getPodStatus('web-uid')!);
    m.updatePodStatus(pod, s);
    assert.equal(s.containerStatuses![0].ready, false);
    clock.step(1 * SECOND);
    m.step();
    assert.equal(probes, 2, 'the manual trigger probed 9s early');
    clock.step(1 * SECOND);
    m.step();
    assert.equal(probes, 2, 'one trigger gives one early probe');
  });

  it('the worker exits and clears its result once the pod phase is terminal', () => {
    const { m, status, pod } = setup(1);
    m.step();
    assert.equal(m.readinessManager.get({ type: 'test', id: 'app' }), 'Success');
    status.setPodStatus(pod, { ...status.getPodStatus('web-uid')!, phase: 'Succeeded' });
    m.getWorker('web-uid', 'app', 'readiness')!.trigger();
    m.step();
    assert.equal(m.workerCount(), 0);
    assert.equal(m.readinessManager.get({ type: 'test', id: 'app' }), undefined);
  });

  it('a terminated container of a Never pod ends the worker; under Always it keeps going', () => {
    for (const [policy, remaining] of [['Never', 0], ['Always', 1]] as const) {
      const { m, clock, status, pod } = setup(1);
      pod.spec.restartPolicy = policy;
      m.step();
      status.setPodStatus(pod, {
        phase: 'Running',
        containerStatuses: [{ name: 'app', containerID: 'test://app', state: { terminated: { exitCode: 1 } }, ready: false, restartCount: 0 }],
      });
      clock.step(SECOND);
      m.step();
      assert.equal(m.workerCount(), remaining, policy);
    }
  });
});

describe('Probe spec validation in addPod', () => {
  const { m } = newTestManager();
  const podWith = (probe: Partial<Container>): Pod => ({ metadata: { uid: 'bad' }, spec: { containers: [{ name: 'a' }, { name: 'b', ...probe }] } });
  it('negative failureThreshold is rejected with its field path', () => {
    assert.throws(() => m.addPod(podWith({ livenessProbe: { exec: {}, failureThreshold: -1 } })), (e: unknown) => e instanceof ProbeSpecError && e.field === 'spec.containers[1].livenessProbe.failureThreshold');
  });
  it('liveness successThreshold must be 1', () => {
    assert.throws(() => m.addPod(podWith({ livenessProbe: { exec: {}, successThreshold: 2 } })), /spec\.containers\[1\]\.livenessProbe\.successThreshold: Invalid value: 2: must be 1/);
  });
  it('a probe needs exactly one handler', () => {
    assert.throws(() => m.addPod(podWith({ readinessProbe: {} })), /readinessProbe: Required value: must specify a handler type/);
    assert.throws(() => m.addPod(podWith({ readinessProbe: { exec: {}, tcpSocket: { port: 80 } } })), /readinessProbe\.tcpSocket: Forbidden/);
  });
  it('nothing is registered when a spec is rejected, and defaults fill the rest', () => {
    assert.equal(m.workerCount(), 0);
    m.addPod(podWith({ readinessProbe: { httpGet: { port: 8080 } } }));
    const w = m.getWorker('bad', 'b', 'readiness')!;
    assert.deepEqual([w.spec.timeoutSeconds, w.spec.periodSeconds, w.spec.successThreshold, w.spec.failureThreshold], [1, 10, 1, 3]);
  });
});
