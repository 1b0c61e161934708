import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, MINUTE } from '../api/index.js';
import {
  EventChannel,
  GenericPLEG,
  PodStatusCache,
  type ContainerState,
  type PodLifecycleEvent,
  type PodStatusResult,
  type Runtime,
  type RuntimeContainer,
  type RuntimePod,
  type RuntimePodStatus,
} from './index.js';

const TEST_RUNTIME = 'fooRuntime';
const LARGE_CHANNEL_CAP = 100;

function container(id: string, state: ContainerState): RuntimeContainer {
  return { id: { type: TEST_RUNTIME, id }, state };
}

/** Like containertest.FakeRuntime: returns whatever allPodList holds. */
class FakeRuntime implements Runtime {
  allPodList: RuntimePod[] = [];
  getPods(): RuntimePod[] {
    return this.allPodList;
  }
  getPodStatus(uid: string): PodStatusResult {
    return { status: { id: uid } };
  }
}

/** Like the gomock MockRuntime: each expected call is consumed once; anything else is recorded. */
class MockRuntime implements Runtime {
  private podLists: { pods: RuntimePod[]; sticky: boolean }[] = [];
  private statuses: { uid: string; result: PodStatusResult }[] = [];
  readonly unexpected: string[] = [];
  expectGetPods(pods: RuntimePod[], sticky = false): void {
    this.podLists.push({ pods, sticky });
  }
  expectGetPodStatus(uid: string, status: RuntimePodStatus, error?: Error): void {
    this.statuses.push({ uid, result: error ? { status, error } : { status } });
  }
  getPods(all: boolean): RuntimePod[] {
    assert.equal(all, true);
    const next = this.podLists[0];
    if (!next) {
      this.unexpected.push('GetPods');
      throw new Error('unexpected GetPods');
    }
    if (!next.sticky) this.podLists.shift();
    return next.pods;
  }
  getPodStatus(uid: string, name: string, namespace: string): PodStatusResult {
    assert.deepEqual([name, namespace], ['', '']);
    const i = this.statuses.findIndex((s) => s.uid === uid);
    if (i < 0) {
      this.unexpected.push(`GetPodStatus(${uid})`);
      throw new Error(`unexpected GetPodStatus(${uid})`);
    }
    return this.statuses.splice(i, 1)[0].result;
  }
  /** gomock's Finish: no surprise calls, no missing ones. */
  verify(): void {
    assert.deepEqual(this.unexpected, []);
    assert.deepEqual(this.statuses.map((s) => s.uid), []);
    assert.deepEqual(this.podLists.filter((p) => !p.sticky).length, 0);
  }
}

function newTestGenericPLEG(channelCap = LARGE_CHANNEL_CAP) {
  const runtime = new FakeRuntime();
  const clock = new FakeClock();
  const pleg = new GenericPLEG(runtime, new EventChannel(channelCap), { relistPeriod: 60 * MINUTE, relistThreshold: 3 * MINUTE }, undefined, clock);
  return { pleg, runtime, clock };
}

function newTestGenericPLEGWithRuntimeMock(runtime: MockRuntime) {
  const cache = new PodStatusCache();
  const pleg = new GenericPLEG(runtime, new EventChannel(1000), { relistPeriod: 60 * MINUTE, relistThreshold: 120 * MINUTE }, cache, new FakeClock());
  return { pleg, cache };
}

function sorted(events: PodLifecycleEvent[]): PodLifecycleEvent[] {
  return [...events].sort((a, b) => (a.id !== b.id ? (a.id < b.id ? -1 : 1) : a.data < b.data ? -1 : a.data > b.data ? 1 : 0));
}

function verifyEvents(expected: PodLifecycleEvent[], actual: PodLifecycleEvent[]): void {
  assert.deepEqual(sorted(actual), sorted(expected));
}

const firstListing = (key: 'containers' | 'sandboxes'): RuntimePod[] => [
  { id: '1234', [key]: [container('c1', 'exited'), container('c2', 'running'), container('c3', 'unknown')] },
  { id: '4567', [key]: [container('c1', 'exited')] },
];
const secondListing = (key: 'containers' | 'sandboxes'): RuntimePod[] => [
  { id: '1234', [key]: [container('c2', 'exited'), container('c3', 'running')] },
  { id: '4567', [key]: [container('c4', 'running')] },
];
const firstEvents: PodLifecycleEvent[] = [
  { id: '1234', type: 'ContainerStarted', data: 'c2' },
  { id: '4567', type: 'ContainerDied', data: 'c1' },
  { id: '1234', type: 'ContainerDied', data: 'c1' },
];
const secondEvents: PodLifecycleEvent[] = [
  { id: '1234', type: 'ContainerRemoved', data: 'c1' },
  { id: '1234', type: 'ContainerDied', data: 'c2' },
  { id: '1234', type: 'ContainerStarted', data: 'c3' },
  { id: '4567', type: 'ContainerRemoved', data: 'c1' },
  { id: '4567', type: 'ContainerStarted', data: 'c4' },
];

describe('TestRelisting', () => {
  it('first relist reports running/exited containers, second nothing, third only transitions', () => {
    const { pleg, runtime } = newTestGenericPLEG();
    const ch = pleg.watch();
    runtime.allPodList = firstListing('containers');
    pleg.relist();
    verifyEvents(firstEvents, ch.drain());

    pleg.relist();
    assert.equal(ch.drain().length, 0, 'no container has changed, event length should be 0');

    runtime.allPodList = secondListing('containers');
    pleg.relist();
    verifyEvents(secondEvents, ch.drain());
  });
});

describe('TestEventChannelFull', () => {
  it('a channel of 4 keeps 4 of the 5 events and drops the rest', () => {
    const { pleg, runtime } = newTestGenericPLEG(4);
    const ch = pleg.watch();
    runtime.allPodList = firstListing('containers');
    pleg.relist();
    verifyEvents(firstEvents, ch.drain());

    runtime.allPodList = secondListing('containers');
    pleg.relist();
    const actual = ch.drain();
    assert.equal(actual.length, 4, 'channel length should be 4');
    for (const e of actual) assert.ok(secondEvents.some((x) => x.id === e.id && x.type === e.type && x.data === e.data), `unexpected ${JSON.stringify(e)}`);
  });
});

describe('TestDetectingContainerDeaths', () => {
  function reportMissingContainers(numRelists: number): void {
    const { pleg, runtime } = newTestGenericPLEG();
    const ch = pleg.watch();
    runtime.allPodList = [{ id: '1234', containers: [container('c1', 'running'), container('c2', 'running'), container('c3', 'exited')] }];
    for (let i = 0; i < numRelists; i++) {
      pleg.relist();
      ch.drain();
    }
    // c2 stopped and was removed between relists; the exited c3 was garbage-collected.
    runtime.allPodList = [{ id: '1234', containers: [container('c1', 'running')] }];
    pleg.relist();
    verifyEvents(
      [
        { id: '1234', type: 'ContainerDied', data: 'c2' },
        { id: '1234', type: 'ContainerRemoved', data: 'c2' },
        { id: '1234', type: 'ContainerRemoved', data: 'c3' },
      ],
      ch.drain(),
    );
  }

  function reportMissingPods(numRelists: number): void {
    const { pleg, runtime } = newTestGenericPLEG();
    const ch = pleg.watch();
    runtime.allPodList = [{ id: '1234', containers: [container('c2', 'running')] }];
    for (let i = 0; i < numRelists; i++) {
      pleg.relist();
      ch.drain();
    }
    runtime.allPodList = [];
    pleg.relist();
    verifyEvents(
      [
        { id: '1234', type: 'ContainerDied', data: 'c2' },
        { id: '1234', type: 'ContainerRemoved', data: 'c2' },
      ],
      ch.drain(),
    );
  }

  it('testReportMissingContainers(1)', () => reportMissingContainers(1));
  it('testReportMissingPods(1)', () => reportMissingPods(1));
  it('testReportMissingContainers(3)', () => reportMissingContainers(3));
  it('testReportMissingPods(3)', () => reportMissingPods(3));
});

/** createTestPodsStatusesAndEvents: n pods, each with one running container c<i>. */
function createTestPodsStatusesAndEvents(n: number) {
  const pods: RuntimePod[] = [];
  const statuses: RuntimePodStatus[] = [];
  const events: PodLifecycleEvent[] = [];
  for (let i = 0; i < n; i++) {
    const id = `test-pod-${i}`;
    const c = container(`c${i}`, 'running');
    pods.push({ id, containers: [c] });
    statuses.push({ id, containerStatuses: [{ id: c.id, state: 'running' }] });
    events.push({ id, type: 'ContainerStarted', data: c.id.id });
  }
  return { pods, statuses, events };
}

describe('TestRelistWithCache', () => {
  it('a pod whose inspection fails gets no event until it is inspected successfully', () => {
    const runtime = new MockRuntime();
    const { pleg, cache } = newTestGenericPLEGWithRuntimeMock(runtime);
    const ch = pleg.watch();
    const { pods, statuses, events } = createTestPodsStatusesAndEvents(2);
    runtime.expectGetPods(pods, true);
    runtime.expectGetPodStatus(pods[0].id, statuses[0]);
    const statusErr = new Error('unable to get status');
    runtime.expectGetPodStatus(pods[1].id, { id: '' }, statusErr);

    pleg.relist();
    let actual = ch.drain();
    assert.deepEqual(cache.get(pods[0].id), { status: statuses[0] }, 'test[0]');
    assert.deepEqual(cache.get(pods[1].id), { status: { id: '' }, error: statusErr }, 'test[1]');
    assert.deepEqual(actual, [events[0]]);

    runtime.expectGetPodStatus(pods[1].id, statuses[1]);
    pleg.relist();
    actual = ch.drain();
    assert.deepEqual(cache.get(pods[0].id), { status: statuses[0] }, 'test[0]');
    assert.deepEqual(cache.get(pods[1].id), { status: statuses[1] }, 'test[1]');
    assert.deepEqual(actual, [events[1]]);
    runtime.verify();
  });
});

describe('TestRemoveCacheEntry', () => {
  it('a pod gone from the runtime loses its cache entry', () => {
    const runtime = new MockRuntime();
    const { pleg, cache } = newTestGenericPLEGWithRuntimeMock(runtime);
    const { pods, statuses } = createTestPodsStatusesAndEvents(1);
    runtime.expectGetPods(pods);
    runtime.expectGetPodStatus(pods[0].id, statuses[0]);
    pleg.relist();
    runtime.expectGetPods([]);
    pleg.relist();
    assert.deepEqual(cache.get(pods[0].id), { status: { id: pods[0].id } });
    runtime.verify();
  });
});

describe('TestHealthy', () => {
  it('unhealthy before any relist, healthy within the threshold, unhealthy past it', () => {
    const { pleg, clock } = newTestGenericPLEG();
    assert.equal(pleg.healthy().ok, false, 'pleg should be unhealthy');
    clock.step(10 * MINUTE);
    assert.equal(pleg.healthy().ok, false, 'pleg should be unhealthy');
    pleg.relist();
    clock.step(1 * MINUTE);
    assert.equal(pleg.healthy().ok, true, 'pleg should be healthy');
    clock.step(3 * MINUTE);
    assert.equal(pleg.healthy().ok, false, 'pleg should be unhealthy');
  });
});

describe('TestRelistWithReinspection', () => {
  it('a failed inspection is retried on the next relist without repeating events', () => {
    const runtime = new MockRuntime();
    const { pleg, cache } = newTestGenericPLEGWithRuntimeMock(runtime);
    const ch = pleg.watch();
    const infra = container('infra', 'running');
    const podID = 'test-pod';
    const pods: RuntimePod[] = [{ id: podID, containers: [infra] }];
    const goodStatus: RuntimePodStatus = { id: podID, containerStatuses: [{ id: infra.id, state: infra.state }] };
    const goodEvent: PodLifecycleEvent = { id: podID, type: 'ContainerStarted', data: 'infra' };

    // listing 1: everything fine.
    runtime.expectGetPods(pods);
    runtime.expectGetPodStatus(podID, goodStatus);
    pleg.relist();
    assert.deepEqual(ch.drain(), [goodEvent]);
    assert.deepEqual(cache.get(podID), { status: goodStatus });

    // listing 2: a half-created container and a failing inspection.
    const transient = container('transient', 'unknown');
    runtime.expectGetPods([{ id: podID, containers: [infra, transient] }]);
    const badStatus: RuntimePodStatus = { id: podID, containerStatuses: [] };
    const inspectionError = new Error('inspection error');
    runtime.expectGetPodStatus(podID, badStatus, inspectionError);
    pleg.relist();
    assert.deepEqual(ch.drain(), []);
    assert.deepEqual(cache.get(podID), { status: badStatus, error: inspectionError });

    // listing 3: the transient container is gone; the pod is reinspected, nothing changed since #1.
    runtime.expectGetPods(pods);
    runtime.expectGetPodStatus(podID, goodStatus);
    pleg.relist();
    assert.deepEqual(ch.drain(), []);
    assert.deepEqual(cache.get(podID), { status: goodStatus });
    runtime.verify();
  });
});

describe('TestRelistingWithSandboxes', () => {
  it('sandboxes produce the same events as containers', () => {
    const { pleg, runtime } = newTestGenericPLEG();
    const ch = pleg.watch();
    runtime.allPodList = firstListing('sandboxes');
    pleg.relist();
    verifyEvents(firstEvents, ch.drain());

    // The Go test re-checks the previous events here; the intent is "no new events".
    pleg.relist();
    assert.deepEqual(ch.drain(), []);

    runtime.allPodList = secondListing('sandboxes');
    pleg.relist();
    verifyEvents(secondEvents, ch.drain());
  });
});

describe('TestRelistIPChange', () => {
  for (const [name, podID, podIPs] of [
    ['test-0', 'test-pod-0', ['192.168.1.5']],
    ['tets-1', 'test-pod-1', ['192.168.1.5/24', '2000::']],
  ] as const) {
    it(name, () => {
      const runtime = new MockRuntime();
      const { pleg, cache } = newTestGenericPLEGWithRuntimeMock(runtime);
      const ch = pleg.watch();
      let c = container('c0', 'running');
      let status: RuntimePodStatus = { id: podID, ips: [...podIPs], containerStatuses: [{ id: c.id, state: 'running' }] };
      runtime.expectGetPods([{ id: podID, containers: [c] }]);
      runtime.expectGetPodStatus(podID, status);
      pleg.relist();
      assert.deepEqual(ch.drain(), [{ id: podID, type: 'ContainerStarted', data: 'c0' }]);
      assert.deepEqual(cache.get(podID), { status });

      // The container exits and the new status has no IPs: the old IPs are kept.
      c = container('c0', 'exited');
      status = { id: podID, containerStatuses: [{ id: c.id, state: 'exited' }] };
      runtime.expectGetPods([{ id: podID, containers: [c] }]);
      runtime.expectGetPodStatus(podID, status);
      pleg.relist();
      assert.deepEqual(ch.drain(), [{ id: podID, type: 'ContainerDied', data: 'c0' }]);
      assert.deepEqual(cache.get(podID), { status: { ...status, ips: [...podIPs] } });
      runtime.verify();
    });
  }
});

describe('TestRunningPodAndContainerCount', () => {
  const { pleg, runtime } = newTestGenericPLEG();
  runtime.allPodList = [
    {
      id: '1234',
      containers: [container('c1', 'running'), container('c2', 'unknown'), container('c3', 'unknown')],
      sandboxes: [container('s1', 'running'), container('s2', 'running'), container('s3', 'unknown')],
    },
    {
      id: '4567',
      containers: [container('c1', 'exited')],
      sandboxes: [container('s1', 'running'), container('s2', 'exited')],
    },
  ];
  pleg.relist();

  it('test container count', () => {
    assert.deepEqual(pleg.counts.containersByState, { exited: 1, running: 1, unknown: 2 });
  });
  it('test pod count', () => {
    assert.equal(pleg.counts.runningPods, 2);
  });
});

describe('PLEG beyond the Go tests', () => {
  it('a created container counts as unknown: no event until it runs', () => {
    const { pleg, runtime } = newTestGenericPLEG();
    const ch = pleg.watch();
    runtime.allPodList = [{ id: 'p', containers: [container('c', 'created')] }];
    pleg.relist();
    assert.deepEqual(ch.drain(), []);
    runtime.allPodList = [{ id: 'p', containers: [container('c', 'running')] }];
    pleg.relist();
    assert.deepEqual(ch.drain(), [{ id: 'p', type: 'ContainerStarted', data: 'c' }]);
  });
  it('a failed listing changes nothing and does not count as a relist for Healthy', () => {
    const clock = new FakeClock();
    const runtime: Runtime = {
      getPods: () => {
        throw new Error('runtime down');
      },
      getPodStatus: (uid) => ({ status: { id: uid } }),
    };
    const pleg = new GenericPLEG(runtime, new EventChannel(10), { relistPeriod: 1000, relistThreshold: 3 * MINUTE }, undefined, clock);
    pleg.relist();
    assert.deepEqual(pleg.healthy(), { ok: false, error: 'pleg has yet to be successful' });
  });
  it('a ready sandbox means an empty IP list is real, not a teardown race', () => {
    const runtime = new MockRuntime();
    const { pleg, cache } = newTestGenericPLEGWithRuntimeMock(runtime);
    runtime.expectGetPods([{ id: 'p', containers: [container('c', 'running')] }]);
    runtime.expectGetPodStatus('p', { id: 'p', ips: ['10.0.0.1'] });
    pleg.relist();
    runtime.expectGetPods([{ id: 'p', containers: [container('c', 'exited')] }]);
    runtime.expectGetPodStatus('p', { id: 'p', sandboxStatuses: [{ state: 'SANDBOX_READY' }] });
    pleg.relist();
    assert.equal(cache.get('p').status.ips, undefined);
    runtime.verify();
  });
});
