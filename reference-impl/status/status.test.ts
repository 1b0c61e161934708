import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, MINUTE, type Container, type ContainerStatus, type Pod, type PodCondition, type PodPhase, type PodStatus } from '../api/index.js';
import { BasicManager, ConfigMirrorAnnotationKey, ConfigSourceAnnotationKey } from '../pod-manager/index.js';
import {
  StatusManager,
  FakePodStatusClient,
  getPhase,
  mergePodStatus,
  generateAPIPodStatus,
  convertToAPIContainerStatuses,
  normalizeStatus,
  isPodStatusByKubeletEqual,
  updateLastTransitionTime,
  semanticEqual,
  nowRFC3339,
  DEFAULT_GATES,
  MaxPodTerminationMessageLogLength,
  type PodStatusClient,
  type RuntimePodStatus,
  type StatusFeatureGates,
} from './index.js';

// ---------------------------------------------------------------------------------------------
// Container status builders (kubelet_pods_test.go helpers). Go's zero values are spelled out
// where the TypeScript type requires them: ready false, restart count 0.

const cs = (name: string, extra: Partial<ContainerStatus> = {}): ContainerStatus => ({ name, ready: false, restartCount: 0, ...extra });
const waitingState = (name: string) => cs(name, { state: { waiting: {} } });
const waitingStateWithReason = (name: string, reason: string) => cs(name, { state: { waiting: { reason } } });
const waitingStateWithLastTermination = (name: string) => cs(name, { state: { waiting: {} }, lastState: { terminated: { exitCode: 0 } } });
const waitingStateWithNonZeroTermination = (name: string) => cs(name, { state: { waiting: {} }, lastState: { terminated: { exitCode: -1 } } });
const runningState = (name: string) => cs(name, { state: { running: {} } });
const startedState = (name: string) => cs(name, { state: { running: {} }, started: true });
const runningStateWithStartedAt = (name: string, startedAt: string) => cs(name, { state: { running: { startedAt } } });
const stoppedState = (name: string) => cs(name, { state: { terminated: { exitCode: 0 } } });
const succeededState = (name: string) => cs(name, { state: { terminated: { exitCode: 0 } } });
const failedState = (name: string) => cs(name, { state: { terminated: { exitCode: -1 } } });
const waitingWithLastTerminationUnknown = (name: string, restartCount: number) =>
  cs(name, {
    state: { waiting: { reason: 'ContainerCreating' } },
    lastState: {
      terminated: {
        reason: 'ContainerStatusUnknown',
        message: 'The container could not be located when the pod was deleted.  The container used to be Running',
        exitCode: 137,
      },
    },
    restartCount,
  });
const ready = (s: ContainerStatus): ContainerStatus => ({ ...s, ready: true });
const withID = (s: ContainerStatus, id: string): ContainerStatus => ({ ...s, containerID: id });

// ---------------------------------------------------------------------------------------------
// TestPodPhaseWith* (pkg/kubelet/kubelet_pods_test.go): 64 cases of getPhase.

type PhaseCase = [name: string, init: ContainerStatus[], regular: ContainerStatus[], expected: PodPhase, podIsTerminal?: boolean];

function phaseSuite(testName: string, restartPolicy: Pod['spec']['restartPolicy'], init: Container[] | undefined, cases: PhaseCase[]) {
  describe(testName, () => {
    const spec = { nodeName: 'machine', initContainers: init, containers: [{ name: 'containerA' }, { name: 'containerB' }], restartPolicy };
    for (const [name, initStatuses, statuses, expected, podIsTerminal] of cases) {
      it(name, () => {
        const pod: Pod = { metadata: {}, spec, status: { initContainerStatuses: initStatuses, containerStatuses: statuses } };
        assert.equal(getPhase(pod, [...initStatuses, ...statuses], podIsTerminal ?? false), expected);
      });
    }
  });
}

const X = 'containerX';
const A = 'containerA';
const B = 'containerB';
const sidecar: Container[] = [{ name: X, restartPolicy: 'Always' }];

phaseSuite('TestPodPhaseWithRestartAlways', 'Always', undefined, [
  ['waiting', [], [], 'Pending'],
  ['all running', [], [runningState(A), runningState(B)], 'Running'],
  ['all stopped with restart always', [], [stoppedState(A), stoppedState(B)], 'Running'],
  ['all succeeded with restart always, but the pod is terminal', [], [succeededState(A), succeededState(B)], 'Succeeded', true],
  ['all stopped with restart always, but the pod is terminal', [], [succeededState(A), failedState(B)], 'Failed', true],
  ['mixed state #1 with restart always', [], [runningState(A), stoppedState(B)], 'Running'],
  ['mixed state #2 with restart always', [], [runningState(A)], 'Pending'],
  ['mixed state #3 with restart always', [], [runningState(A), waitingState(B)], 'Pending'],
  ['backoff crashloop container with restart always', [], [runningState(A), waitingStateWithLastTermination(B)], 'Running'],
]);

phaseSuite('TestPodPhaseWithRestartAlwaysInitContainers', 'Always', [{ name: X }], [
  ['empty, waiting', [], [], 'Pending'],
  ['init container running', [runningState(X)], [], 'Pending'],
  ['init container terminated non-zero', [failedState(X)], [], 'Pending'],
  ['init container waiting, terminated zero', [waitingStateWithLastTermination(X)], [], 'Pending'],
  ['init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination(X)], [], 'Pending'],
  ['init container waiting, not terminated', [waitingState(X)], [], 'Pending'],
  ['init container succeeded', [succeededState(X)], [runningState(A), runningState(B)], 'Running'],
]);

phaseSuite('TestPodPhaseWithRestartAlwaysRestartableInitContainers', 'Always', sidecar, [
  ['empty, waiting', [], [], 'Pending'],
  ['restartable init container running', [runningState(X)], [], 'Pending'],
  ['restartable init container stopped', [stoppedState(X)], [], 'Pending'],
  ['restartable init container waiting, terminated zero', [waitingStateWithLastTermination(X)], [], 'Pending'],
  ['restartable init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination(X)], [], 'Pending'],
  ['restartable init container waiting, not terminated', [waitingState(X)], [], 'Pending'],
  ['restartable init container started, 1/2 regular container running', [startedState(X)], [runningState(A)], 'Pending'],
  ['restartable init container started, all regular containers running', [startedState(X)], [runningState(A), runningState(B)], 'Running'],
  ['restartable init container running, all regular containers running', [runningState(X)], [runningState(A), runningState(B)], 'Running'],
  ['restartable init container stopped, all regular containers running', [stoppedState(X)], [runningState(A), runningState(B)], 'Running'],
  ['backoff crashloop restartable init container, all regular containers running', [waitingStateWithLastTermination(X)], [runningState(A), runningState(B)], 'Running'],
  [
    'all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal',
    [failedState(X)],
    [succeededState(A), succeededState(B)],
    'Succeeded',
    true,
  ],
  [
    'all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal',
    [succeededState(X)],
    [succeededState(A), succeededState(B)],
    'Succeeded',
    true,
  ],
]);

phaseSuite('TestPodPhaseWithRestartNever', 'Never', undefined, [
  ['waiting', [], [], 'Pending'],
  ['all running with restart never', [], [runningState(A), runningState(B)], 'Running'],
  ['all succeeded with restart never', [], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['all failed with restart never', [], [failedState(A), failedState(B)], 'Failed'],
  ['mixed state #1 with restart never', [], [runningState(A), succeededState(B)], 'Running'],
  ['mixed state #2 with restart never', [], [runningState(A)], 'Pending'],
  ['mixed state #3 with restart never', [], [runningState(A), waitingState(B)], 'Pending'],
]);

phaseSuite('TestPodPhaseWithRestartNeverInitContainers', 'Never', [{ name: X }], [
  ['empty, waiting', [], [], 'Pending'],
  ['init container running', [runningState(X)], [], 'Pending'],
  ['init container terminated non-zero', [failedState(X)], [], 'Failed'],
  ['init container waiting, terminated zero', [waitingStateWithLastTermination(X)], [], 'Pending'],
  ['init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination(X)], [], 'Failed'],
  ['init container waiting, not terminated', [waitingState(X)], [], 'Pending'],
  ['init container succeeded', [succeededState(X)], [runningState(A), runningState(B)], 'Running'],
]);

phaseSuite('TestPodPhaseWithRestartNeverRestartableInitContainers', 'Never', sidecar, [
  ['empty, waiting', [], [], 'Pending'],
  ['restartable init container running', [runningState(X)], [], 'Pending'],
  ['restartable init container stopped', [stoppedState(X)], [], 'Pending'],
  ['restartable init container waiting, terminated zero', [waitingStateWithLastTermination(X)], [], 'Pending'],
  ['restartable init container waiting, terminated non-zero', [waitingStateWithNonZeroTermination(X)], [], 'Pending'],
  ['restartable init container waiting, not terminated', [waitingState(X)], [], 'Pending'],
  ['restartable init container started, one main container running', [startedState(X)], [runningState(A)], 'Pending'],
  ['restartable init container started, main containers succeeded', [startedState(X)], [succeededState(A), succeededState(B)], 'Running'],
  ['restartable init container running, main containers succeeded', [runningState(X)], [succeededState(A), succeededState(B)], 'Running'],
  ['all containers succeeded', [succeededState(X)], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['restartable init container terminated non-zero, main containers succeeded', [failedState(X)], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['backoff crashloop restartable init container, main containers succeeded', [waitingStateWithLastTermination(X)], [succeededState(A), succeededState(B)], 'Succeeded'],
  [
    'backoff crashloop with non-zero restartable init container, main containers succeeded',
    [waitingStateWithNonZeroTermination(X)],
    [succeededState(A), succeededState(B)],
    'Succeeded',
  ],
]);

phaseSuite('TestPodPhaseWithRestartOnFailure', 'OnFailure', undefined, [
  ['waiting', [], [], 'Pending'],
  ['all running with restart onfailure', [], [runningState(A), runningState(B)], 'Running'],
  ['all succeeded with restart onfailure', [], [succeededState(A), succeededState(B)], 'Succeeded'],
  ['all failed with restart never', [], [failedState(A), failedState(B)], 'Running'],
  ['mixed state #1 with restart onfailure', [], [runningState(A), succeededState(B)], 'Running'],
  ['mixed state #2 with restart onfailure', [], [runningState(A)], 'Pending'],
  ['mixed state #3 with restart onfailure', [], [runningState(A), waitingState(B)], 'Pending'],
  ['backoff crashloop container with restart onfailure', [], [runningState(A), waitingStateWithLastTermination(B)], 'Running'],
]);

// ---------------------------------------------------------------------------------------------
// status_manager_test.go

const clockStart = Date.UTC(2023, 7, 15, 0, 0, 0);
let randomCounter = 0;
/** getRandomPodStatus: only the message, which differs every time. */
const randomStatus = (): PodStatus => ({ message: String(++randomCounter) });
const testPod = (): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { uid: '12345678', name: 'foo', namespace: 'new' }, spec: { containers: [] } });

function newTestManager(client: PodStatusClient = new FakePodStatusClient(), opts: { gates?: Partial<StatusFeatureGates>; hasRunning?: boolean } = {}) {
  const clock = new FakeClock(clockStart);
  const podManager = new BasicManager();
  podManager.addPod(testPod());
  const m = new StatusManager({ kubeClient: client, podManager, podDeletionSafety: { podCouldHaveRunningContainers: () => opts.hasRunning ?? false }, clock, gates: opts.gates });
  return { m, podManager, clock, client };
}

function expectPodStatus(m: StatusManager, pod: Pod): PodStatus {
  const status = m.getPodStatus(pod.metadata.uid as string);
  assert.ok(status, `expected a status for ${pod.metadata.uid}`);
  return status;
}

/** verifyActions: drain pending updates, compare "verb resource[/subresource]" and clear. */
function verifyActions(m: StatusManager, client: FakePodStatusClient, expected: string[]) {
  m.consumeUpdates();
  assert.deepEqual(client.actions.map((a) => `${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''}`), expected);
  client.clearActions();
}
const GET = 'get pods';
const PATCH = 'patch pods/status';
const DELETE = 'delete pods';

/** testSyncBatch: make the pod manager's copies match the cache first, so nothing needs reconciling. */
function testSyncBatch(m: StatusManager, podManager: BasicManager) {
  for (const [uid, v] of m.podStatuses) {
    const pod = podManager.getPodByUID(uid);
    if (pod) pod.status = structuredClone(v.status);
    const mirror = pod && podManager.getMirrorPodByPod(pod);
    if (mirror) mirror.status = structuredClone(v.status);
  }
  m.syncBatch(true);
}

describe('TestNewStatus', () => {
  it('sets a start time and produces one update', () => {
    const { m } = newTestManager();
    const pod = testPod();
    m.setPodStatus(pod, randomStatus());
    assert.equal(m.consumeUpdates(), 1);
    assert.ok(expectPodStatus(m, pod).startTime);
  });
});

describe('TestNewStatusPreservesPodStartTime', () => {
  it('keeps the start time the pod already had', () => {
    const { m, clock } = newTestManager();
    const startTime = nowRFC3339({ now: () => clock.now() - MINUTE });
    const pod: Pod = { ...testPod(), status: { startTime } };
    m.setPodStatus(pod, randomStatus());
    assert.equal(expectPodStatus(m, pod).startTime, startTime);
  });
});

const readyPodStatus = (): PodStatus => ({ conditions: [{ type: 'Ready', status: 'True' }] });
const readyCondition = (s: PodStatus) => s.conditions?.find((c) => c.type === 'Ready') as PodCondition;

describe('TestNewStatusSetsReadyTransitionTime', () => {
  it('stamps the Ready condition', () => {
    const { m } = newTestManager();
    const pod = testPod();
    m.setPodStatus(pod, readyPodStatus());
    assert.equal(m.consumeUpdates(), 1);
    assert.ok(readyCondition(expectPodStatus(m, pod)).lastTransitionTime);
  });
});

describe('TestChangedStatus', () => {
  it('each changed status is one update', () => {
    const { m } = newTestManager();
    m.setPodStatus(testPod(), randomStatus());
    assert.equal(m.consumeUpdates(), 1);
    m.setPodStatus(testPod(), randomStatus());
    assert.equal(m.consumeUpdates(), 1);
  });
});

describe('TestChangedStatusKeepsStartTime', () => {
  it('the first start time survives later updates, at second precision', () => {
    const { m, clock } = newTestManager();
    clock.step(250); // sub-second part that normalization drops
    const now = new Date(clock.now()).toISOString();
    m.setPodStatus(testPod(), { ...randomStatus(), startTime: now });
    assert.equal(m.consumeUpdates(), 1);
    clock.step(5 * SECOND);
    m.setPodStatus(testPod(), randomStatus());
    assert.equal(m.consumeUpdates(), 1);
    assert.equal(expectPodStatus(m, testPod()).startTime, now.replace(/\.\d{3}Z$/, 'Z'));
  });
});

describe('TestChangedStatusUpdatesLastTransitionTime', () => {
  it('a flipped condition gets a newer transition time', () => {
    const { m, clock } = newTestManager();
    const pod = testPod();
    m.setPodStatus(pod, readyPodStatus());
    assert.equal(m.consumeUpdates(), 1);
    const old = readyCondition(expectPodStatus(m, pod));
    clock.step(SECOND);
    m.setPodStatus(pod, { conditions: [{ type: 'Ready', status: 'False' }] });
    assert.equal(m.consumeUpdates(), 1);
    const now = readyCondition(expectPodStatus(m, pod));
    assert.ok(now.lastTransitionTime);
    assert.ok(Date.parse(now.lastTransitionTime) >= Date.parse(old.lastTransitionTime as string));
  });
});

describe('TestUnchangedStatus', () => {
  it('the same status twice is one update', () => {
    const { m } = newTestManager();
    const status = randomStatus();
    m.setPodStatus(testPod(), status);
    m.setPodStatus(testPod(), status);
    assert.equal(m.consumeUpdates(), 1);
  });
});

describe('TestUnchangedStatusPreservesLastTransitionTime', () => {
  it('no update, and the transition time stays', () => {
    const { m, clock } = newTestManager();
    const pod = testPod();
    m.setPodStatus(pod, readyPodStatus());
    assert.equal(m.consumeUpdates(), 1);
    const old = readyCondition(expectPodStatus(m, pod));
    clock.step(SECOND);
    m.setPodStatus(pod, readyPodStatus());
    assert.equal(m.consumeUpdates(), 0);
    assert.equal(readyCondition(expectPodStatus(m, pod)).lastTransitionTime, old.lastTransitionTime);
  });
});

describe('TestSyncPodIgnoresNotFound', () => {
  it('only a get when the pod is not on the server', () => {
    const client = new FakePodStatusClient();
    const { m } = newTestManager(client);
    m.setPodStatus(testPod(), randomStatus());
    verifyActions(m, client, [GET]);
  });
});

describe('TestSyncPod', () => {
  it('get then patch', () => {
    const client = new FakePodStatusClient([testPod()]);
    const { m } = newTestManager(client);
    m.setPodStatus(testPod(), randomStatus());
    verifyActions(m, client, [GET, PATCH]);
  });
});

describe('TestSyncPodChecksMismatchedUID', () => {
  it('a pod recreated under the same name is not patched', () => {
    const first = { ...testPod(), metadata: { ...testPod().metadata, uid: 'first' } };
    const second = { ...testPod(), metadata: { ...testPod().metadata, uid: 'second' } };
    const client = new FakePodStatusClient([first]);
    const { m, podManager } = newTestManager(client);
    podManager.addPod(first);
    podManager.addPod(second);
    m.setPodStatus(second, randomStatus());
    verifyActions(m, client, [GET]);
    assert.equal(m.getPodStatus('second'), undefined, 'the stale status is dropped');
  });
});

describe('TestSyncPodNoDeadlock', () => {
  it('walks through not found, recreated, success, terminating, terminated and an error', () => {
    let ret: Pod | undefined;
    let err: Error | undefined;
    const actions: string[] = [];
    const client: PodStatusClient = {
      getPod: () => {
        actions.push(GET);
        if (err) throw err;
        return ret && structuredClone(ret);
      },
      patchPodStatus: () => {
        actions.push(PATCH);
        return structuredClone(ret as Pod);
      },
      deletePod: () => void actions.push(DELETE),
    };
    const { m } = newTestManager(client);
    const pod = testPod();
    pod.status = { containerStatuses: [cs('', { state: { running: {} } })] };
    const step = (expected: string[]) => {
      m.consumeUpdates();
      assert.deepEqual(actions.splice(0), expected);
    };

    ret = undefined; // not found
    m.setPodStatus(pod, randomStatus());
    step([GET]);

    ret = { ...testPod(), metadata: { ...testPod().metadata, uid: 'other_pod' } }; // recreated
    m.setPodStatus(pod, randomStatus());
    step([GET]);

    ret = testPod(); // success
    m.setPodStatus(pod, randomStatus());
    step([GET, PATCH]);

    pod.metadata.deletionTimestamp = nowRFC3339({ now: () => clockStart });
    m.setPodStatus(pod, randomStatus()); // terminated, still running
    step([GET, PATCH]);

    pod.status.containerStatuses = [cs('', { state: { terminated: { exitCode: 0 } } })];
    m.setPodStatus(pod, randomStatus()); // terminated successfully
    step([GET, PATCH]);

    ret = undefined;
    err = new Error('intentional test error');
    m.setPodStatus(pod, randomStatus());
    step([GET]);
  });
});

describe('TestStaleUpdates', () => {
  it('only the newest version is sent, and an unchanged stale status is not patched again', () => {
    const pod = testPod();
    const client = new FakePodStatusClient([pod]);
    const { m } = newTestManager(client);
    const status: PodStatus = { message: 'initial status' };
    m.setPodStatus(pod, status);
    status.message = 'first version bump';
    m.setPodStatus(pod, status);
    status.message = 'second version bump';
    m.setPodStatus(pod, status);

    m.syncBatch(true);
    assert.equal(m.consumeUpdates(), 0);
    verifyActions(m, client, [GET, PATCH]);
    verifyActions(m, client, []);

    m.setPodStatus(pod, status);
    assert.equal(m.consumeUpdates(), 0, 'unchanged status sends nothing');

    const uid = pod.metadata.uid as string;
    m.apiStatusVersions.set(uid, (m.apiStatusVersions.get(uid) ?? 0) - 1);
    m.setPodStatus(pod, status);
    m.syncBatch(true);
    verifyActions(m, client, [GET]);
    assert.equal(m.consumeUpdates(), 0);
  });
});

describe('TestStatusEquality', () => {
  it('container order and conditions the kubelet does not own do not matter', () => {
    const pod: Pod = { metadata: {}, spec: { containers: [] } };
    const statuses = Array.from({ length: 10 }, (_, i) => cs(`container${i}`));
    let podStatus: PodStatus = { containerStatuses: structuredClone(statuses) };
    for (let i = 0; i < 10; i++) {
      // A fixed rotation instead of Go's random shuffle.
      const shuffled = [...statuses.slice(i), ...statuses.slice(0, i)].reverse();
      const oldPodStatus: PodStatus = { containerStatuses: structuredClone(shuffled) };
      normalizeStatus(pod, oldPodStatus);
      normalizeStatus(pod, podStatus);
      assert.ok(isPodStatusByKubeletEqual(oldPodStatus, podStatus, DEFAULT_GATES));
    }
    const oldPodStatus = structuredClone(podStatus);
    podStatus = { ...podStatus, conditions: [{ type: 'www.example.com/feature', status: 'True' }] };
    oldPodStatus.conditions = [...(podStatus.conditions ?? []), { type: 'www.example.com/feature', status: 'False' }];
    normalizeStatus(pod, oldPodStatus);
    normalizeStatus(pod, podStatus);
    assert.ok(isPodStatusByKubeletEqual(oldPodStatus, podStatus, DEFAULT_GATES));
  });
});

describe('TestStatusNormalizationEnforcesMaxBytes', () => {
  it('termination messages stay within the pod budget', () => {
    const pod: Pod = { metadata: {}, spec: { containers: [] } };
    const statuses = Array.from({ length: 48 }, (_, i) => cs(`container${i}`, { lastState: { terminated: { exitCode: 0, message: 'abcdefgh'.repeat(24 + (i % 3)) } } }));
    const result = normalizeStatus(pod, { initContainerStatuses: statuses.slice(0, 24), containerStatuses: statuses.slice(24) });
    let count = 0;
    for (const s of result.initContainerStatuses ?? []) {
      const l = s.lastState?.terminated?.message?.length ?? 0;
      assert.ok(l >= 192 && l <= 256, `message length ${l}`);
      count += l;
    }
    assert.ok(count <= MaxPodTerminationMessageLogLength);
  });

  it('port: with containers in the spec, each gets an equal share', () => {
    const pod: Pod = { metadata: {}, spec: { containers: Array.from({ length: 48 }, (_, i) => ({ name: `c${i}` })) } };
    const result = normalizeStatus(pod, { containerStatuses: [cs('c0', { state: { terminated: { exitCode: 1, message: 'x'.repeat(1000) } } })] });
    assert.equal(result.containerStatuses?.[0].state?.terminated?.message?.length, 256);
  });
});

describe('TestStaticPod', () => {
  it('is reported through its mirror pod, and not to a mirror with a new UID', () => {
    const staticPod: Pod = { ...testPod(), metadata: { ...testPod().metadata, annotations: { [ConfigSourceAnnotationKey]: 'file' } } };
    const mirrorPod: Pod = {
      ...testPod(),
      metadata: { ...testPod().metadata, uid: 'mirror-12345678', annotations: { [ConfigSourceAnnotationKey]: 'api', [ConfigMirrorAnnotationKey]: 'mirror' } },
    };
    const client = new FakePodStatusClient([mirrorPod]);
    const { m, podManager, clock } = newTestManager(client);
    podManager.addPod(staticPod);

    const status: PodStatus = { ...randomStatus(), startTime: nowRFC3339(clock) };
    m.setPodStatus(staticPod, status);
    const retrieved = expectPodStatus(m, staticPod);
    normalizeStatus(staticPod, status);
    assert.ok(isPodStatusByKubeletEqual(status, retrieved, m.gates));

    m.syncBatch(true);
    assert.deepEqual(client.actions, [], 'no mirror pod yet');

    podManager.addPod(mirrorPod);
    assert.equal(podManager.translatePodUID('mirror-12345678'), '12345678');
    assert.ok(isPodStatusByKubeletEqual(status, m.getPodStatus('mirror-12345678') as PodStatus, m.gates));

    assert.equal(m.syncBatch(true), 1);
    verifyActions(m, client, [GET, PATCH]);

    testSyncBatch(m, podManager);
    verifyActions(m, client, []);

    podManager.removePod(mirrorPod);
    mirrorPod.metadata.uid = 'new-mirror-pod';
    mirrorPod.status = {};
    podManager.addPod(mirrorPod);
    assert.equal(m.syncBatch(true), 1);
    verifyActions(m, client, [GET]);
  });
});

const UNKNOWN_STATE = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 } };

function terminateSetup(firstInit: ContainerStatus[], firstRegular: ContainerStatus[]) {
  const { m } = newTestManager();
  const pod = testPod();
  pod.spec.initContainers = [{ name: 'init-test-1' }, { name: 'init-test-2' }, { name: 'init-test-3' }];
  pod.spec.containers = [{ name: 'test-1' }, { name: 'test-2' }, { name: 'test-3' }];
  const firstStatus: PodStatus = { ...randomStatus(), phase: 'Failed', initContainerStatuses: firstInit, containerStatuses: firstRegular };
  m.setPodStatus(pod, firstStatus);
  // A stale pod, as if the API still said Running.
  pod.status = {
    ...randomStatus(),
    phase: 'Running',
    initContainerStatuses: [cs('test-1'), cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }), cs('init-test-3', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } })],
    containerStatuses: ['test-1', 'test-2', 'test-3'].map((n) => cs(n, { state: { running: {} } })),
  };
  m.terminatePod(pod);
  return { status: expectPodStatus(m, pod), firstStatus };
}

describe('TestTerminatePod', () => {
  it('defaults unknown states, keeps known terminations and the earlier phase', () => {
    const { status, firstStatus } = terminateSetup(
      [cs('init-test-1'), cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }), cs('init-test-3', { state: { terminated: { reason: 'InitTest', exitCode: 3 } } })],
      [cs('test-1'), cs('test-2', { state: { terminated: { reason: 'Test', exitCode: 2 } } }), cs('test-3', { state: { terminated: { reason: 'Test', exitCode: 0 } } })],
    );
    for (const s of [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])]) assert.ok(s.state?.terminated);
    const inits = status.initContainerStatuses as ContainerStatus[];
    const regular = status.containerStatuses as ContainerStatus[];
    assert.deepEqual(inits[0].state, UNKNOWN_STATE);
    assert.deepEqual(inits[1].state, firstStatus.initContainerStatuses?.[1].state);
    assert.deepEqual(inits[2].state, firstStatus.initContainerStatuses?.[2].state);
    assert.deepEqual(regular[0].state, UNKNOWN_STATE);
    assert.deepEqual(regular[1].state, firstStatus.containerStatuses?.[1].state);
    assert.deepEqual(regular[2].state, firstStatus.containerStatuses?.[2].state);
    assert.equal(status.phase, firstStatus.phase);
    assert.equal(status.message, firstStatus.message);
  });
});

describe('TestTerminatePodWaiting', () => {
  it('a trailing waiting init container stays waiting; waiting regular containers are defaulted', () => {
    const { status, firstStatus } = terminateSetup(
      [cs('init-test-1'), cs('init-test-2', { state: { terminated: { reason: 'InitTest', exitCode: 0 } } }), cs('init-test-3', { state: { waiting: { reason: 'InitTest' } } })],
      [cs('test-1'), cs('test-2', { state: { terminated: { reason: 'Test', exitCode: 2 } } }), cs('test-3', { state: { waiting: { reason: 'Test' } } })],
    );
    const inits = status.initContainerStatuses as ContainerStatus[];
    const regular = status.containerStatuses as ContainerStatus[];
    for (const s of regular) assert.ok(s.state?.terminated);
    for (const s of inits.slice(0, 2)) assert.ok(s.state?.terminated);
    for (const s of inits.slice(2)) assert.ok(s.state?.waiting);
    assert.deepEqual(inits[0].state, UNKNOWN_STATE);
    assert.deepEqual(inits[1].state, firstStatus.initContainerStatuses?.[1].state);
    assert.deepEqual(inits[2].state, firstStatus.initContainerStatuses?.[2].state);
    assert.deepEqual(regular[0].state, UNKNOWN_STATE);
    assert.deepEqual(regular[1].state, firstStatus.containerStatuses?.[1].state);
    assert.deepEqual(regular[2].state, UNKNOWN_STATE);
    assert.equal(status.phase, firstStatus.phase);
    assert.equal(status.message, firstStatus.message);
  });
});

describe('TestTerminatePod_DefaultUnknownStatus', () => {
  type Case = { name: string; pod: Pod; expect?: (status: PodStatus) => void };
  const newPod = (inits: number, containers: number, fn: (pod: Pod) => void): Pod => {
    const pod = testPod();
    pod.spec.initContainers = inits > 0 ? Array.from({ length: inits }, (_, i) => ({ name: `init-${i}` })) : undefined;
    pod.spec.containers = Array.from({ length: containers }, (_, i) => ({ name: `${i}` }));
    pod.status = { startTime: '1970-01-01T00:00:01Z' };
    fn(pod);
    return pod;
  };
  const expectTerminatedUnknown = (s: ContainerStatus | undefined) => {
    const t = s?.state?.terminated;
    assert.ok(t && !s?.state?.running && !s?.state?.waiting, `unexpected state ${JSON.stringify(s?.state)}`);
    assert.ok(t.exitCode === 137 && t.reason === 'ContainerStatusUnknown' && (t.message ?? '').length > 0);
  };
  const expectTerminated = (s: ContainerStatus | undefined, exitCode: number) => {
    assert.ok(s?.state?.terminated && !s.state.running && !s.state.waiting);
    assert.equal(s.state.terminated.exitCode, exitCode);
  };
  const expectWaiting = (s: ContainerStatus | undefined) => assert.ok(s?.state?.waiting && !s.state.running && !s.state.terminated);
  const W = (name: string, extra: Partial<ContainerStatus> = {}) => cs(name, { state: { waiting: {} }, ...extra });
  const T = (name: string, exitCode: number, reason?: string) => cs(name, { state: { terminated: { exitCode, reason } } });
  const never = (fn: (pod: Pod) => void) => (pod: Pod) => {
    pod.spec.restartPolicy = 'Never';
    fn(pod);
  };

  const cases: Case[] = [
    { name: 'case 0 (unnamed)', pod: newPod(0, 1, (p) => void ((p.status as PodStatus).phase = 'Failed')) },
    {
      // Go's check here is a no-op; the phase the Go code produces is asserted instead.
      name: 'case 1 (unnamed)',
      pod: newPod(0, 1, (p) => void ((p.status as PodStatus).phase = 'Running')),
      expect: (s) => assert.equal(s.phase, 'Failed'),
    },
    {
      name: 'case 2 (unnamed)',
      pod: newPod(0, 1, (p) => Object.assign(p.status as PodStatus, { phase: 'Running', containerStatuses: [T('0', 2, 'Test')] })),
      expect: (s) => assert.equal(s.phase, 'Failed'),
    },
    {
      name: 'last termination state set',
      pod: newPod(0, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Running', containerStatuses: [W('0', { lastState: { terminated: { reason: 'Test', exitCode: 2 } } })] }))),
      expect: (s) => {
        assert.equal(s.containerStatuses?.[0].lastState?.terminated?.exitCode, 2);
        expectTerminatedUnknown(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'no previous state',
      pod: newPod(0, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Running', containerStatuses: [W('0')] }))),
      expect: (s) => expectTerminatedUnknown(s.containerStatuses?.[0]),
    },
    {
      name: 'uninitialized pod defaults the first init container',
      pod: newPod(1, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Pending', initContainerStatuses: [W('init-0')], containerStatuses: [W('0')] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectWaiting(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'uninitialized pod defaults only the first init container',
      pod: newPod(2, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Pending', initContainerStatuses: [W('init-0'), W('init-1')], containerStatuses: [W('0')] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectWaiting(s.initContainerStatuses?.[1]);
        expectWaiting(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'uninitialized pod defaults gaps',
      pod: newPod(4, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Pending', initContainerStatuses: [W('init-0'), W('init-1'), T('init-2', 1), W('init-3')], containerStatuses: [W('0')] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminatedUnknown(s.initContainerStatuses?.[1]);
        expectTerminated(s.initContainerStatuses?.[2], 1);
        expectWaiting(s.initContainerStatuses?.[3]);
        expectWaiting(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'failed last container is uninitialized',
      pod: newPod(3, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Pending', initContainerStatuses: [W('init-0'), W('init-1'), T('init-2', 1)], containerStatuses: [W('0')] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminatedUnknown(s.initContainerStatuses?.[1]);
        expectTerminated(s.initContainerStatuses?.[2], 1);
        expectWaiting(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'successful last container is initialized',
      pod: newPod(3, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Running', initContainerStatuses: [W('init-0'), W('init-1'), T('init-2', 0)], containerStatuses: [W('0')] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminatedUnknown(s.initContainerStatuses?.[1]);
        expectTerminated(s.initContainerStatuses?.[2], 0);
        expectTerminatedUnknown(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'successful last previous container is initialized, and container state is overwritten',
      pod: newPod(3, 1, never((p) =>
        Object.assign(p.status as PodStatus, {
          phase: 'Running',
          initContainerStatuses: [W('init-0'), W('init-1'), W('init-2', { lastState: { terminated: { exitCode: 0 } } })],
          containerStatuses: [W('0')],
        }),
      )),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminatedUnknown(s.initContainerStatuses?.[1]);
        expectTerminatedUnknown(s.initContainerStatuses?.[2]);
        expectTerminatedUnknown(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'running container proves initialization',
      pod: newPod(1, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Running', initContainerStatuses: [W('init-0')], containerStatuses: [cs('0', { state: { running: {} } })] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminatedUnknown(s.containerStatuses?.[0]);
      },
    },
    {
      name: 'evidence of terminated container proves initialization',
      pod: newPod(1, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Running', initContainerStatuses: [W('init-0')], containerStatuses: [T('0', 0)] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminated(s.containerStatuses?.[0], 0);
      },
    },
    {
      name: 'evidence of previously terminated container proves initialization',
      pod: newPod(1, 1, never((p) => Object.assign(p.status as PodStatus, { phase: 'Running', initContainerStatuses: [W('init-0')], containerStatuses: [cs('0', { lastState: { terminated: { exitCode: 0 } } })] }))),
      expect: (s) => {
        expectTerminatedUnknown(s.initContainerStatuses?.[0]);
        expectTerminatedUnknown(s.containerStatuses?.[0]);
      },
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const m = new StatusManager({ kubeClient: new FakePodStatusClient(), podManager: new BasicManager(), podDeletionSafety: { podCouldHaveRunningContainers: () => false }, clock: new FakeClock(clockStart) });
      const original = structuredClone(tc.pod);
      m.setPodStatus(original, original.status ?? {});
      const copied = structuredClone(tc.pod);
      const expected = structuredClone(copied);
      m.terminatePod(copied);
      const status = expectPodStatus(m, tc.pod);
      if (tc.expect) tc.expect(status);
      else assert.deepEqual(status, expected.status);
    });
  }
});

describe('TestTerminatePod_EnsurePodPhaseIsTerminal', () => {
  const cases: [string, string, PodPhase][] = [
    ['Pending pod', 'Pending', 'Failed'],
    ['Running pod', 'Running', 'Failed'],
    ['Succeeded pod', 'Succeeded', 'Succeeded'],
    ['Failed pod', 'Failed', 'Failed'],
    ['Unknown pod', 'Unknown', 'Failed'],
    ['Unknown phase pod', 'SomeUnknownPhase', 'Failed'],
  ];
  for (const [name, phase, want] of cases) {
    it(name, () => {
      const m = new StatusManager({ kubeClient: new FakePodStatusClient(), podManager: new BasicManager(), podDeletionSafety: { podCouldHaveRunningContainers: () => false }, clock: new FakeClock(clockStart) });
      const pod: Pod = { ...testPod(), status: { phase: phase as PodPhase } };
      m.terminatePod(pod);
      const { startTime: _ignored, ...got } = expectPodStatus(m, pod);
      assert.deepEqual(got, { phase: want });
    });
  }
});

describe('TestSetContainerReadiness', () => {
  it('container readiness drives the Ready condition', () => {
    const { m, podManager } = newTestManager();
    const pod = testPod();
    pod.spec.containers = [{ name: 'c1' }, { name: 'c2' }];
    podManager.addPod(pod);
    const initial: PodStatus = { containerStatuses: [cs('c1', { containerID: 'test://1' }), cs('c2', { containerID: 'test://2' })], conditions: [{ type: 'Ready', status: 'False' }] };
    const verify = (step: string, c1: boolean, c2: boolean, podReady: boolean) => {
      const s = expectPodStatus(m, pod);
      for (const c of s.containerStatuses ?? []) {
        if (c.containerID === 'test://1') assert.equal(c.ready, c1, step);
        else if (c.containerID === 'test://2') assert.equal(c.ready, c2, step);
        else assert.fail(`[${step}] unexpected container ${c.name}`);
      }
      assert.equal(s.conditions?.[0].type, 'Ready', step);
      assert.equal(s.conditions?.[0].status === 'True', podReady, step);
    };

    m.setContainerReadiness('12345678', 'test://1', true);
    assert.equal(m.consumeUpdates(), 0, 'before any status');
    assert.equal(m.getPodStatus('12345678'), undefined);

    m.setPodStatus(pod, initial);
    assert.equal(m.consumeUpdates(), 1);
    verify('initial', false, false, false);

    m.setContainerReadiness('12345678', 'test://1', false);
    assert.equal(m.consumeUpdates(), 0);
    verify('unchanged', false, false, false);

    m.setContainerReadiness('12345678', 'test://1', true);
    assert.equal(m.consumeUpdates(), 1);
    verify('c1 ready', true, false, false);

    m.setContainerReadiness('12345678', 'test://2', true);
    assert.equal(m.consumeUpdates(), 1);
    verify('all ready', true, true, true);

    m.setContainerReadiness('12345678', 'test://foo', true);
    assert.equal(m.consumeUpdates(), 0);
    verify('ignore non-existent', true, true, true);
  });
});

describe('TestSetContainerStartup', () => {
  it('started flags are recorded; unset → false counts as a change', () => {
    const { m, podManager } = newTestManager();
    const pod = testPod();
    pod.spec.containers = [{ name: 'c1' }, { name: 'c2' }];
    podManager.addPod(pod);
    const initial: PodStatus = { containerStatuses: [cs('c1', { containerID: 'test://1' }), cs('c2', { containerID: 'test://2' })], conditions: [{ type: 'Ready', status: 'False' }] };
    const verify = (c1: boolean, c2: boolean) => {
      for (const c of expectPodStatus(m, pod).containerStatuses ?? []) {
        assert.equal(c.started === true, c.containerID === 'test://1' ? c1 : c2);
      }
    };
    m.setContainerStartup('12345678', 'test://1', true);
    assert.equal(m.consumeUpdates(), 0);
    assert.equal(m.getPodStatus('12345678'), undefined);
    m.setPodStatus(pod, initial);
    assert.equal(m.consumeUpdates(), 1);
    verify(false, false);
    m.setContainerStartup('12345678', 'test://1', false);
    assert.equal(m.consumeUpdates(), 1);
    verify(false, false);
    m.setContainerStartup('12345678', 'test://1', true);
    assert.equal(m.consumeUpdates(), 1);
    verify(true, false);
    m.setContainerStartup('12345678', 'test://2', true);
    assert.equal(m.consumeUpdates(), 1);
    verify(true, true);
    m.setContainerStartup('12345678', 'test://foo', true);
    assert.equal(m.consumeUpdates(), 0);
    verify(true, true);
  });
});

describe('TestSyncBatchCleanupVersions', () => {
  it('forgets API versions of pods it no longer knows, keeps the others', () => {
    const { m, podManager } = newTestManager();
    const pod = testPod();
    const mirrorPod: Pod = {
      ...testPod(),
      metadata: { ...testPod().metadata, uid: 'mirror-uid', name: 'mirror_pod', annotations: { [ConfigSourceAnnotationKey]: 'api', [ConfigMirrorAnnotationKey]: 'mirror' } },
    };
    m.apiStatusVersions.set('12345678', 100);
    m.apiStatusVersions.set('mirror-uid', 200);
    m.syncBatch(true);
    assert.equal(m.apiStatusVersions.has('12345678'), false);
    assert.equal(m.apiStatusVersions.has('mirror-uid'), false);

    m.setPodStatus(pod, randomStatus());
    podManager.addPod(mirrorPod);
    podManager.addPod({ ...mirrorPod, metadata: { ...mirrorPod.metadata, uid: 'static-uid', annotations: { [ConfigSourceAnnotationKey]: 'file' } } });
    m.apiStatusVersions.set('12345678', 100);
    m.apiStatusVersions.set('mirror-uid', 200);
    testSyncBatch(m, podManager);
    assert.equal(m.apiStatusVersions.has('12345678'), true);
    assert.equal(m.apiStatusVersions.has('mirror-uid'), true);
  });
});

describe('TestReconcilePodStatus', () => {
  it('a full sync patches only when the API copy drifted', () => {
    const pod = testPod();
    const client = new FakePodStatusClient([pod]);
    const { m, podManager } = newTestManager(client);
    m.setPodStatus(pod, randomStatus());
    m.syncBatch(true);
    client.clearActions();

    const podStatus = expectPodStatus(m, pod);
    const managed = podManager.getPodByUID('12345678') as Pod;
    managed.status = structuredClone(podStatus);
    m.setPodStatus(managed, podStatus);
    m.syncBatch(true);
    verifyActions(m, client, []);

    // Times are already at second precision here; the Go step re-normalizing them is the same check.
    m.setPodStatus(managed, podStatus);
    m.syncBatch(true);
    verifyActions(m, client, []);

    m.setPodStatus(managed, randomStatus());
    m.syncBatch(true);
    verifyActions(m, client, [GET, PATCH]);
  });
});

describe('TestDeletePodBeforeFinished', () => {
  it('no delete while the kubelet has not finished with the pod', () => {
    const pod: Pod = { ...testPod(), metadata: { ...testPod().metadata, deletionTimestamp: nowRFC3339({ now: () => clockStart }) } };
    const client = new FakePodStatusClient([pod]);
    const { m, podManager } = newTestManager(client);
    podManager.addPod(pod);
    m.setPodStatus(pod, { ...randomStatus(), phase: 'Failed' });
    verifyActions(m, client, [GET, PATCH]);
  });
});

describe('TestDeletePodFinished', () => {
  it('TerminatePod lets the pod be deleted', () => {
    const pod: Pod = { ...testPod(), metadata: { ...testPod().metadata, deletionTimestamp: nowRFC3339({ now: () => clockStart }) } };
    const client = new FakePodStatusClient([pod]);
    const { m, podManager } = newTestManager(client);
    podManager.addPod(pod);
    m.terminatePod(pod);
    verifyActions(m, client, [GET, PATCH, DELETE]);
  });
});

describe('TestDoNotDeleteMirrorPods', () => {
  it('a mirror pod with a deletion timestamp is not deleted by the status manager', () => {
    const staticPod: Pod = { ...testPod(), metadata: { ...testPod().metadata, annotations: { [ConfigSourceAnnotationKey]: 'file' } } };
    const mirrorPod: Pod = {
      ...testPod(),
      metadata: {
        ...testPod().metadata,
        uid: 'mirror-12345678',
        annotations: { [ConfigSourceAnnotationKey]: 'api', [ConfigMirrorAnnotationKey]: 'mirror' },
        deletionTimestamp: nowRFC3339({ now: () => clockStart }),
      },
    };
    const client = new FakePodStatusClient([mirrorPod]);
    const { m, podManager, clock } = newTestManager(client);
    podManager.addPod(staticPod);
    podManager.addPod(mirrorPod);
    assert.equal(podManager.translatePodUID('mirror-12345678'), '12345678');
    m.setPodStatus(staticPod, { ...randomStatus(), startTime: nowRFC3339(clock) });
    verifyActions(m, client, [GET, PATCH]);
  });
});

describe('TestUpdateLastTransitionTime', () => {
  const clock = new FakeClock(clockStart);
  const old = nowRFC3339({ now: () => clock.now() - SECOND });
  const cases: [string, PodCondition | undefined, PodCondition | undefined, boolean][] = [
    ['should do nothing if no corresponding condition', undefined, undefined, false],
    ['should update last transition time if no old condition', { type: 'test-type', status: 'True' }, undefined, true],
    ['should update last transition time if condition is changed', { type: 'test-type', status: 'True' }, { type: 'test-type', status: 'False', lastTransitionTime: old }, true],
    ['should keep last transition time if condition is not changed', { type: 'test-type', status: 'False' }, { type: 'test-type', status: 'False', lastTransitionTime: old }, false],
  ];
  for (const [name, condition, oldCondition, expectUpdate] of cases) {
    it(name, () => {
      const status: PodStatus = condition ? { conditions: [{ ...condition }] } : {};
      const oldStatus: PodStatus = oldCondition ? { conditions: [oldCondition] } : {};
      updateLastTransitionTime(status, oldStatus, 'test-type', clock);
      if (expectUpdate) assert.ok(Date.parse(status.conditions?.[0].lastTransitionTime as string) > Date.parse(old));
      else if (condition) assert.equal(status.conditions?.[0].lastTransitionTime, old);
      else assert.deepEqual(status, {});
    });
  }
});

// ---------------------------------------------------------------------------------------------
// TestMergePodStatus: conditions compared as a set by type (status and reason), the rest exactly.

describe('TestMergePodStatus', () => {
  const base = (): PodStatus => ({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], message: 'Message' });
  const same = (s: PodStatus) => s;
  const add = (c: PodCondition, extra: Partial<PodStatus> = {}) => (s: PodStatus): PodStatus => ({ ...s, ...extra, conditions: [...(s.conditions ?? []), c] });
  const dtKubelet: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet' };
  const dtEviction: PodCondition = { type: 'DisruptionTarget', status: 'True', reason: 'EvictedByEvictionAPI' };
  const feature: PodCondition = { type: 'example.com/feature', status: 'True' };
  const readyFalse = (s: PodStatus): PodStatus => ({ ...s, conditions: [{ ...(s.conditions as PodCondition[])[0], status: 'False' }, ...(s.conditions as PodCondition[]).slice(1)] });
  const C = (type: string, status: 'True' | 'False', reason?: string): PodCondition => (reason ? { type, status, reason } : { type, status });
  const running = (conditions: PodCondition[], extra: Partial<PodStatus> = {}): PodStatus => ({ phase: 'Running', conditions, message: 'Message', ...extra });
  const failedConds = [C('Ready', 'False', 'PodFailed'), C('ContainersReady', 'False', 'PodFailed'), C('PodScheduled', 'True')];

  const cases: [desc: string, gate: boolean, hasRunning: boolean, oldFn: (s: PodStatus) => PodStatus, newFn: (s: PodStatus) => PodStatus, expected: PodStatus][] = [
    ['no change', false, false, same, same, base()],
    [
      'add DisruptionTarget condition when transitioning into failed phase; PodDisruptionConditions enabled',
      true, false, same, add(dtKubelet, { phase: 'Failed' }),
      { phase: 'Failed', conditions: [dtKubelet, ...failedConds], message: 'Message' },
    ],
    [
      "don't add DisruptionTarget condition when transitioning into failed phase, but there are might still be running containers; PodDisruptionConditions enabled",
      true, true, same, add(dtKubelet, { phase: 'Failed' }),
      running([C('Ready', 'True'), C('PodScheduled', 'True')]),
    ],
    ['preserve DisruptionTarget condition; PodDisruptionConditions enabled', true, false, add(dtKubelet), same, running([C('Ready', 'True'), C('PodScheduled', 'True'), dtKubelet])],
    ['preserve DisruptionTarget condition; PodDisruptionConditions disabled', false, false, add(dtKubelet), same, running([C('Ready', 'True'), C('PodScheduled', 'True'), dtKubelet])],
    [
      'override DisruptionTarget condition; PodDisruptionConditions enabled',
      true, false, add(dtEviction), add(dtKubelet, { phase: 'Failed' }),
      { phase: 'Failed', conditions: [...failedConds, dtKubelet], message: 'Message' },
    ],
    [
      "don't override DisruptionTarget condition when remaining in running phase; PodDisruptionConditions enabled",
      true, false, add(dtEviction), add(dtKubelet),
      running([dtEviction, C('Ready', 'True'), C('PodScheduled', 'True')]),
    ],
    [
      "don't override DisruptionTarget condition when transitioning to failed phase but there might still be running containers; PodDisruptionConditions enabled",
      true, true, add(dtEviction), add(dtKubelet, { phase: 'Failed' }),
      running([dtEviction, C('Ready', 'True'), C('PodScheduled', 'True')]),
    ],
    ['readiness changes', false, false, same, readyFalse, running([C('Ready', 'False'), C('PodScheduled', 'True')])],
    ['additional pod condition', false, false, add(feature), same, running([C('Ready', 'True'), C('PodScheduled', 'True'), feature])],
    ['additional pod condition and readiness changes', false, false, add(feature), readyFalse, running([C('Ready', 'False'), C('PodScheduled', 'True'), feature])],
    [
      'additional pod condition changes',
      false, false, add(feature), add({ type: 'example.com/feature', status: 'False' }),
      running([C('Ready', 'True'), C('PodScheduled', 'True'), feature]),
    ],
    [
      'phase is transitioning to failed and no containers running',
      false, false,
      (s) => ({ ...s, phase: 'Running', reason: 'Unknown', message: 'Message' }),
      (s) => ({ ...s, phase: 'Failed', reason: 'Evicted', message: 'Was Evicted' }),
      { phase: 'Failed', conditions: failedConds, reason: 'Evicted', message: 'Was Evicted' },
    ],
    [
      'phase is transitioning to failed and containers running',
      false, true,
      (s) => ({ ...s, phase: 'Running', reason: 'Unknown', message: 'Message' }),
      (s) => ({ ...s, phase: 'Failed', reason: 'Evicted', message: 'Was Evicted' }),
      running([C('Ready', 'True'), C('PodScheduled', 'True')], { reason: 'Unknown' }),
    ],
  ];

  const conditionsEqual = (left: PodCondition[] = [], right: PodCondition[] = []) =>
    left.length === right.length &&
    left.every((l) => {
      const r = right.find((c) => c.type === l.type);
      return r !== undefined && r.status === l.status && (r.reason ?? '') === (l.reason ?? '');
    });

  for (const [desc, gate, hasRunning, oldFn, newFn, expected] of cases) {
    it(desc, () => {
      const gates = { ...DEFAULT_GATES, PodDisruptionConditions: gate };
      const output = mergePodStatus(oldFn(base()), newFn(base()), hasRunning, { clock: new FakeClock(clockStart), gates });
      assert.ok(conditionsEqual(output.conditions, expected.conditions), `conditions ${JSON.stringify(output.conditions)}`);
      const { conditions: _a, ...restOut } = output;
      const { conditions: _b, ...restExpected } = expected;
      assert.deepEqual(restOut, restExpected);
    });
  }

  it('port: neither argument is modified', () => {
    const oldStatus = base();
    const newStatus: PodStatus = { ...base(), phase: 'Failed' };
    const before = structuredClone([oldStatus, newStatus]);
    mergePodStatus(oldStatus, newStatus, false, { clock: new FakeClock(clockStart), gates: DEFAULT_GATES });
    assert.deepEqual([oldStatus, newStatus], before);
  });
});

// ---------------------------------------------------------------------------------------------
// Test_generateAPIPodStatus (kubelet_pods_test.go): 9 cases, each run with the
// PodReadyToStartContainersCondition gate off and on.

describe('Test_generateAPIPodStatus', () => {
  const now = nowRFC3339({ now: () => clockStart });
  const desiredState = (): Pod['spec'] => ({ nodeName: 'machine', containers: [{ name: A }, { name: B }], restartPolicy: 'Always' });
  const sandboxReady: RuntimePodStatus = { sandboxStatuses: [{ ip: '10.0.0.10', attempt: 0, state: 'SANDBOX_READY' }] };
  const hostIPs = (enabled: boolean) => (enabled ? { hostIPs: [{ ip: '127.0.0.1' }, { ip: '::1' }] } : {});
  const conds = (...c: PodCondition[]) => c;
  const C = (type: string, status: 'True' | 'False', reason?: string): PodCondition => (reason ? { type, status, reason } : { type, status });
  const runningConds = conds(C('Initialized', 'True'), C('Ready', 'True'), C('ContainersReady', 'True'), C('PodScheduled', 'True'));
  const completedConds = conds(C('Initialized', 'True', 'PodCompleted'), C('Ready', 'False', 'PodCompleted'), C('ContainersReady', 'False', 'PodCompleted'), C('PodScheduled', 'True'));
  const disruption: PodCondition = { type: 'DisruptionTarget', status: 'True', lastTransitionTime: now };

  interface Case {
    name: string;
    hostIPs: boolean;
    pod: Pod;
    currentStatus: RuntimePodStatus;
    previousStatus: PodStatus;
    isPodTerminal?: boolean;
    disruptionConditions?: boolean;
    expected: PodStatus & { hostIPs?: { ip: string }[] };
    expectedDisruption?: PodCondition;
    readyToStart: 'True' | 'False';
  }
  const cases: Case[] = [
    {
      name: 'pod disruption condition is copied over and the phase is set to failed when deleted; PodDisruptionConditions enabled',
      hostIPs: false,
      pod: { metadata: { name: 'my-pod', deletionTimestamp: now }, spec: desiredState(), status: { containerStatuses: [runningState(A), runningState(B)], conditions: [disruption] } },
      currentStatus: sandboxReady,
      previousStatus: { containerStatuses: [runningState(A), runningState(B)], conditions: [disruption] },
      isPodTerminal: true,
      disruptionConditions: true,
      expected: {
        phase: 'Failed',
        hostIP: '127.0.0.1',
        qosClass: 'BestEffort',
        conditions: conds(C('Initialized', 'True'), C('Ready', 'False', 'PodFailed'), C('ContainersReady', 'False', 'PodFailed'), C('PodScheduled', 'True')),
        containerStatuses: [ready(waitingWithLastTerminationUnknown(A, 0)), ready(waitingWithLastTerminationUnknown(B, 0))],
      },
      expectedDisruption: disruption,
      readyToStart: 'True',
    },
    {
      name: 'current status ready, with previous statuses and deletion',
      hostIPs: true,
      pod: { metadata: { name: 'my-pod', deletionTimestamp: now }, spec: desiredState(), status: { containerStatuses: [runningState(A), runningState(B)] } },
      currentStatus: sandboxReady,
      previousStatus: { containerStatuses: [runningState(A), runningState(B)] },
      expected: {
        phase: 'Running',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: runningConds,
        containerStatuses: [ready(waitingWithLastTerminationUnknown(A, 0)), ready(waitingWithLastTerminationUnknown(B, 0))],
      },
      readyToStart: 'True',
    },
    {
      name: 'current status ready, with previous statuses and no deletion',
      hostIPs: true,
      pod: { metadata: {}, spec: desiredState(), status: { containerStatuses: [runningState(A), runningState(B)] } },
      currentStatus: sandboxReady,
      previousStatus: { containerStatuses: [runningState(A), runningState(B)] },
      expected: {
        phase: 'Running',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: runningConds,
        containerStatuses: [ready(waitingWithLastTerminationUnknown(A, 1)), ready(waitingWithLastTerminationUnknown(B, 1))],
      },
      readyToStart: 'True',
    },
    {
      name: 'terminal phase cannot be changed (apiserver previous is succeeded)',
      hostIPs: true,
      pod: { metadata: {}, spec: desiredState(), status: { phase: 'Succeeded', containerStatuses: [runningState(A), runningState(B)] } },
      currentStatus: {},
      previousStatus: { containerStatuses: [runningState(A), runningState(B)] },
      expected: {
        phase: 'Succeeded',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: completedConds,
        containerStatuses: [ready(waitingWithLastTerminationUnknown(A, 1)), ready(waitingWithLastTerminationUnknown(B, 1))],
      },
      readyToStart: 'False',
    },
    {
      name: 'terminal phase from previous status must remain terminal, restartAlways',
      hostIPs: true,
      pod: { metadata: {}, spec: desiredState(), status: { phase: 'Running', containerStatuses: [runningState(A), runningState(B)] } },
      currentStatus: {},
      previousStatus: { phase: 'Succeeded', containerStatuses: [runningState(A), runningState(B)], reason: 'Test', message: 'test' },
      expected: {
        phase: 'Succeeded',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: completedConds,
        containerStatuses: [ready(waitingWithLastTerminationUnknown(A, 1)), ready(waitingWithLastTerminationUnknown(B, 1))],
        reason: 'Test',
        message: 'test',
      },
      readyToStart: 'False',
    },
    {
      name: 'terminal phase from previous status must remain terminal, restartNever',
      hostIPs: true,
      pod: { metadata: {}, spec: { ...desiredState(), restartPolicy: 'Never' }, status: { phase: 'Running', containerStatuses: [runningState(A), runningState(B)] } },
      currentStatus: {},
      previousStatus: { phase: 'Succeeded', containerStatuses: [succeededState(A), succeededState(B)], reason: 'Test', message: 'test' },
      expected: {
        phase: 'Succeeded',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: completedConds,
        containerStatuses: [ready(succeededState(A)), ready(succeededState(B))],
        reason: 'Test',
        message: 'test',
      },
      readyToStart: 'False',
    },
    {
      name: 'running can revert to pending',
      hostIPs: true,
      pod: { metadata: {}, spec: desiredState(), status: { phase: 'Running', containerStatuses: [runningState(A), runningState(B)] } },
      currentStatus: sandboxReady,
      previousStatus: { containerStatuses: [waitingState(A), waitingState(B)] },
      expected: {
        phase: 'Pending',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: runningConds,
        containerStatuses: [ready(waitingStateWithReason(A, 'ContainerCreating')), ready(waitingStateWithReason(B, 'ContainerCreating'))],
      },
      readyToStart: 'True',
    },
    {
      name: "reason and message are preserved when phase doesn't change",
      hostIPs: true,
      pod: { metadata: {}, spec: desiredState(), status: { phase: 'Running', containerStatuses: [waitingState(A), waitingState(B)] } },
      currentStatus: { ...sandboxReady, containerStatuses: [{ id: { type: '', id: 'foo' }, name: B, startedAt: '1970-01-01T00:00:01Z', state: 'running' }] },
      previousStatus: { phase: 'Pending', reason: 'Test', message: 'test', containerStatuses: [waitingState(A), runningState(B)] },
      expected: {
        phase: 'Pending',
        reason: 'Test',
        message: 'test',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: runningConds,
        containerStatuses: [ready(waitingStateWithReason(A, 'ContainerCreating')), ready(withID(runningStateWithStartedAt(B, '1970-01-01T00:00:01Z'), '://foo'))],
      },
      readyToStart: 'True',
    },
    {
      name: 'reason and message are cleared when phase changes',
      hostIPs: true,
      pod: { metadata: {}, spec: desiredState(), status: { phase: 'Pending', containerStatuses: [waitingState(A), waitingState(B)] } },
      currentStatus: {
        ...sandboxReady,
        containerStatuses: [
          { id: { type: '', id: 'c1' }, name: A, startedAt: '1970-01-01T00:00:01Z', state: 'running' },
          { id: { type: '', id: 'c2' }, name: B, startedAt: '1970-01-01T00:00:02Z', state: 'running' },
        ],
      },
      previousStatus: { phase: 'Pending', reason: 'Test', message: 'test', containerStatuses: [runningState(A), runningState(B)] },
      expected: {
        phase: 'Running',
        hostIP: '127.0.0.1',
        ...hostIPs(true),
        qosClass: 'BestEffort',
        conditions: runningConds,
        containerStatuses: [
          ready(withID(runningStateWithStartedAt(A, '1970-01-01T00:00:01Z'), '://c1')),
          ready(withID(runningStateWithStartedAt(B, '1970-01-01T00:00:02Z'), '://c2')),
        ],
      },
      readyToStart: 'True',
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      for (const readyToStartGate of [false, true]) {
        const gates: StatusFeatureGates = { PodDisruptionConditions: tc.disruptionConditions ?? false, PodHostIPs: tc.hostIPs, PodReadyToStartContainersCondition: readyToStartGate };
        const pod = structuredClone(tc.pod);
        pod.metadata.uid ??= 'test-pod-uid';
        const statusManager = new StatusManager({ podManager: new BasicManager(), podDeletionSafety: { podCouldHaveRunningContainers: () => false }, clock: new FakeClock(clockStart), gates });
        statusManager.setPodStatus(pod, tc.previousStatus);
        const actual = generateAPIPodStatus(pod, tc.currentStatus, tc.isPodTerminal ?? false, {
          statusManager,
          gates,
          nodeIPs: ['127.0.0.1', '::1'],
          // prober/testing.FakeManager marks every regular container ready.
          probeManager: { updatePodStatus: (_pod, s) => s.containerStatuses?.forEach((c) => (c.ready = true)) },
        });
        const expected = structuredClone(tc.expected);
        if (readyToStartGate) expected.conditions = [{ type: 'PodReadyToStartContainers', status: tc.readyToStart }, ...(expected.conditions ?? [])];
        if (tc.disruptionConditions && tc.expectedDisruption) expected.conditions = [tc.expectedDisruption, ...(expected.conditions ?? [])];
        assert.ok(semanticEqual(actual, expected), `gate ${readyToStartGate}:\n${JSON.stringify(actual, null, 1)}\n!=\n${JSON.stringify(expected, null, 1)}`);
      }
    });
  }
});

describe('TestConvertToAPIContainerStatuses', () => {
  const spec = (): Pod['spec'] => ({ nodeName: 'machine', containers: [{ name: A }, { name: B }], restartPolicy: 'Always' });
  const cases: [string, Pod, number][] = [
    ['no current status, with previous statuses and deletion', { metadata: { name: 'my-pod', deletionTimestamp: nowRFC3339({ now: () => clockStart }) }, spec: spec(), status: { containerStatuses: [runningState(A), runningState(B)] } }, 0],
    ['no current status, with previous statuses and no deletion', { metadata: {}, spec: spec(), status: { containerStatuses: [runningState(A), runningState(B)] } }, 1],
  ];
  for (const [name, pod, restarts] of cases) {
    it(name, () => {
      const statuses = convertToAPIContainerStatuses(pod, {}, [runningState(A), runningState(B)], pod.spec.containers, false, false);
      assert.deepEqual(statuses, [waitingWithLastTerminationUnknown(A, restarts), waitingWithLastTerminationUnknown(B, restarts)]);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Port checks: rules the Go tests above only cover indirectly.

describe('port: no-regression rules', () => {
  it('a terminated container that may not restart cannot become running again', () => {
    const { m } = newTestManager();
    const pod = testPod();
    pod.spec = { containers: [{ name: 'c' }], restartPolicy: 'Never' };
    m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { terminated: { exitCode: 0 } } })] });
    m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { running: {} } })] });
    assert.ok(expectPodStatus(m, pod).containerStatuses?.[0].state?.terminated, 'the illegal update was dropped');
    assert.match(m.errors[0], /terminated container c attempted illegal transition/);
  });

  it('OnFailure lets a failed container restart but not a succeeded one', () => {
    const { m } = newTestManager();
    const pod = testPod();
    pod.spec = { containers: [{ name: 'c' }], restartPolicy: 'OnFailure' };
    m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { terminated: { exitCode: 1 } } })] });
    m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { running: {} } })] });
    assert.ok(expectPodStatus(m, pod).containerStatuses?.[0].state?.running);
    m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { terminated: { exitCode: 0 } } })] });
    m.setPodStatus(pod, { containerStatuses: [cs('c', { state: { running: {} } })] });
    assert.ok(expectPodStatus(m, pod).containerStatuses?.[0].state?.terminated);
  });

  it("the API server's terminal phase is never left", () => {
    const pod: Pod = { metadata: { uid: 'u' }, spec: desired('Always'), status: { phase: 'Failed' } };
    const sm = new StatusManager({ podManager: new BasicManager(), podDeletionSafety: { podCouldHaveRunningContainers: () => false }, clock: new FakeClock(clockStart) });
    const s = generateAPIPodStatus(pod, { containerStatuses: [{ name: A, state: 'running' }, { name: B, state: 'running' }] }, false, { statusManager: sm });
    assert.equal(s.phase, 'Failed');
  });

  it('unknown restart policies are rejected with the field named', () => {
    const pod: Pod = { metadata: {}, spec: { containers: [{ name: A }], restartPolicy: 'Sometimes' as 'Always' } };
    assert.throws(() => getPhase(pod, [], false), /spec\.restartPolicy: Unsupported value: "Sometimes"/);
  });

  it('a full sync happens every 10 s on the injected clock', () => {
    const pod = testPod();
    const client = new FakePodStatusClient([pod]);
    const { m, clock } = newTestManager(client);
    const verbs = () => client.actions.map((a) => a.verb);
    m.setPodStatus(pod, randomStatus());
    m.tick();
    assert.deepEqual(verbs(), ['get', 'patch']);
    client.clearActions();
    (client.peek('new', 'foo') as Pod).status = {}; // someone else overwrote the status
    clock.step(9 * SECOND);
    m.tick();
    assert.deepEqual(verbs(), []);
    clock.step(SECOND);
    m.tick();
    assert.deepEqual(verbs(), ['get', 'patch'], 'the drift is repaired by the periodic sync');
  });
});

function desired(restartPolicy: 'Always' | 'Never'): Pod['spec'] {
  return { containers: [{ name: A }, { name: B }], restartPolicy };
}
