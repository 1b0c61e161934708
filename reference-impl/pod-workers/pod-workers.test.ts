import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND } from '../api/index.js';
import type { Pod } from '../api/index.js';
import type { RuntimePodStatus } from '../kuberuntime/index.js';
import {
  CONFIG_SOURCE_ANNOTATION,
  FILE_SOURCE,
  killPodNow,
  PodSyncStatus,
  PodWorkers,
  type PodCache,
  type RunningPod,
  type SyncPodType,
  type UpdatePodOptions,
  type WorkQueue,
} from './index.js';

// ---- fixtures mirroring pod_workers_test.go ----

function newNamedPod(uid: string, namespace: string, name: string, isStatic: boolean): Pod {
  const pod: Pod = { metadata: { uid, namespace, name }, spec: { containers: [], terminationGracePeriodSeconds: 30 } };
  if (isStatic) pod.metadata.annotations = { [CONFIG_SOURCE_ANNOTATION]: FILE_SOURCE };
  return pod;
}
function newStaticPod(uid: string, name: string): Pod {
  return { metadata: { uid, name, annotations: { [CONFIG_SOURCE_ANNOTATION]: FILE_SOURCE } }, spec: { containers: [], terminationGracePeriodSeconds: 30 } };
}
function newPodWithPhase(uid: string, name: string, phase: 'Succeeded' | 'Failed'): Pod {
  const pod = newNamedPod(uid, 'ns', name, false);
  pod.status = { phase };
  return pod;
}

interface SyncPodRecord {
  name: string;
  updateType?: SyncPodType;
  runningPod?: RunningPod;
  terminated?: boolean;
  gracePeriod?: number;
}

class FakeQueue implements WorkQueue {
  readonly items: { uid: string; delay: number }[] = [];
  private currentStart = 0;
  enqueue(uid: string, delay: number): void {
    this.items.push({ uid, delay });
  }
  /** UIDs enqueued since the last getWork. */
  set(): Set<string> {
    return new Set(this.items.slice(this.currentStart).map((i) => i.uid));
  }
  getWork(): string[] {
    const work = this.items.slice(this.currentStart).map((i) => i.uid);
    this.currentStart = this.items.length;
    return work;
  }
}

/** containertest.FakeRuntime behind a fake cache: one status and one error for every pod. */
class FakeRuntimeCache implements PodCache {
  podStatus: RuntimePodStatus = { sandboxStatuses: [], containerStatuses: [] };
  err?: Error;
  get(): RuntimePodStatus {
    if (this.err) throw this.err;
    return this.podStatus;
  }
  getNewerThan(): RuntimePodStatus {
    return this.get();
  }
}

/** createPodWorkers: a fake clock at Unix(1), resync 1s, backoff 1ms, every sync recorded. */
function createPodWorkers(syncPodTerminal: (uid: string) => boolean = () => false) {
  const processed = new Map<string, SyncPodRecord[]>();
  const record = (uid: string, r: SyncPodRecord) => processed.set(uid, [...(processed.get(uid) ?? []), r]);
  const clock = new FakeClock(1 * SECOND);
  const cache = new FakeRuntimeCache();
  const queue = new FakeQueue();
  const w = new PodWorkers({
    podSyncer: {
      syncPod: (_ctx, updateType, pod) => {
        record(pod.metadata.uid!, { name: pod.metadata.name!, updateType });
        return syncPodTerminal(pod.metadata.uid!);
      },
      syncTerminatingPod: (_ctx, pod, _status, gracePeriod) => record(pod.metadata.uid!, { name: pod.metadata.name!, updateType: 'SyncPodKill', gracePeriod }),
      syncTerminatingRuntimePod: (_ctx, runningPod) => record(runningPod.id, { name: runningPod.name, updateType: 'SyncPodKill', runningPod }),
      syncTerminatedPod: (_ctx, pod) => record(pod.metadata.uid!, { name: pod.metadata.name!, terminated: true }),
    },
    workQueue: queue,
    podCache: cache,
    clock,
    resyncInterval: SECOND,
    backOffPeriod: 1,
    jitter: (d) => d,
  });
  return { w, clock, cache, queue, processed };
}

/**
 * createTimeIncrementingPodWorkers: every UpdatePod and every worker turn advances the clock by one
 * second, and workers can be held back.
 */
class TimeIncrementingWorkers {
  readonly holds = new Set<string>();
  constructor(readonly w: PodWorkers, readonly clock: FakeClock, readonly cache: FakeRuntimeCache) {}
  updatePod(options: UpdatePodOptions, ...afterFns: (() => void)[]): void {
    this.w.updatePod(options);
    this.clock.step(SECOND);
    for (const fn of afterFns) fn();
    this.drainUnpausedWorkers();
  }
  pauseWorkers(...uids: string[]): void {
    for (const u of uids) this.holds.add(u);
  }
  releaseWorkers(...uids: string[]): void {
    for (const u of uids) this.holds.delete(u);
  }
  drainUnpausedWorkers(): void {
    this.w.runPending({ skip: this.holds, beforeEach: () => this.clock.step(SECOND) });
  }
}
function createTimeIncrementingPodWorkers() {
  const { w, clock, cache, processed } = createPodWorkers();
  return { tw: new TimeIncrementingWorkers(w, clock, cache), processed };
}

/**
 * reflect.DeepEqual treats zero values as absent; the port uses undefined/false/0/''/[] for them and
 * SyncPodSync is the zero SyncPodType. Drop them all so expectations can list only what Go lists.
 */
function zeroStripped(v: unknown): unknown {
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(zeroStripped);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) {
      if (typeof val === 'function') continue;
      if (k === 'updateType' && val === 'SyncPodSync') continue;
      const s = zeroStripped(val);
      if (s !== undefined) out[k] = s;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (v === false || v === 0 || v === '' || v === undefined) return undefined;
  return v;
}

/** expectPodSyncStatus: context and cancel function are compared by presence only. */
function expectPodSyncStatus(expected: (Partial<PodSyncStatus> & { hasContext?: boolean }) | undefined, status: PodSyncStatus | undefined): void {
  if (expected === undefined || status === undefined) {
    assert.equal(status, expected);
    return;
  }
  const { hasContext = false, ...fields } = expected;
  assert.equal(status.ctx !== undefined, hasContext, 'context');
  assert.equal(status.cancelFn !== undefined, hasContext, 'cancelFn');
  const { ctx: _ctx, cancelFn: _c, ...actual } = status;
  assert.deepEqual(zeroStripped({ ...actual }), zeroStripped(fields));
}

const at = (sec: number) => sec * SECOND;

describe('TestUpdatePod', () => {
  interface Case {
    name: string;
    update: UpdatePodOptions;
    runtimeStatus?: RuntimePodStatus;
    prepare?: (tw: TimeIncrementingWorkers) => (() => void) | undefined;
    expect?: Partial<PodSyncStatus> & { hasContext?: boolean };
    expectBeforeWorker?: Partial<PodSyncStatus>;
    expectKnownTerminated?: boolean;
  }
  const withLabel = (pod: Pod, k: string, v: string) => ({ ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, [k]: v } } });
  const withDeletionTimestamp = (pod: Pod, ts: number, grace: number) => ({
    ...pod,
    metadata: { ...pod.metadata, deletionTimestamp: new Date(ts).toISOString(), deletionGracePeriodSeconds: grace },
  });
  const running = () => newNamedPod('1', 'ns', 'running-pod', false);
  const orphan: RunningPod = { id: '1', name: 'orphaned-pod', namespace: 'ns' };

  const cases: Case[] = [
    {
      name: 'a new pod is recorded and started',
      update: { updateType: 'SyncPodCreate', pod: running() },
      expect: { hasContext: true, fullname: 'running-pod_ns', syncedAt: at(1), startedAt: at(3), activeUpdate: { updateType: 'SyncPodSync', pod: running() } },
    },
    {
      name: 'a new pod is recorded and started unless it is a duplicate of an existing terminating pod UID',
      update: { updateType: 'SyncPodCreate', pod: withLabel(running(), 'updated', 'value') },
      prepare: (tw) => {
        tw.updatePod({ updateType: 'SyncPodCreate', pod: running() });
        tw.pauseWorkers('1');
        tw.updatePod({ updateType: 'SyncPodKill', pod: running() });
        return () => tw.releaseWorkers('1');
      },
      expect: {
        hasContext: true,
        fullname: 'running-pod_ns',
        syncedAt: at(1),
        startedAt: at(3),
        terminatingAt: at(3),
        terminatedAt: at(6),
        gracePeriod: 30,
        startedTerminating: true,
        restartRequested: true,
        finished: true,
        activeUpdate: { updateType: 'SyncPodSync', pod: running(), killPodOptions: { podTerminationGracePeriodSecondsOverride: 30 } },
      },
      expectKnownTerminated: true,
    },
    {
      name: 'a new pod is recorded and started and running pod is ignored',
      update: { updateType: 'SyncPodCreate', pod: running(), runningPod: orphan },
      expect: { hasContext: true, fullname: 'running-pod_ns', syncedAt: at(1), startedAt: at(3), activeUpdate: { updateType: 'SyncPodSync', pod: running() } },
    },
    {
      name: 'a running pod is terminated when an update contains a deletionTimestamp',
      update: { updateType: 'SyncPodUpdate', pod: withDeletionTimestamp(running(), at(1), 15) },
      prepare: (tw) => {
        tw.updatePod({ updateType: 'SyncPodCreate', pod: running() });
        return undefined;
      },
      expect: {
        hasContext: true,
        fullname: 'running-pod_ns',
        syncedAt: at(1),
        startedAt: at(3),
        terminatingAt: at(3),
        terminatedAt: at(5),
        gracePeriod: 15,
        startedTerminating: true,
        finished: true,
        deleted: true,
        activeUpdate: { updateType: 'SyncPodSync', pod: withDeletionTimestamp(running(), at(1), 15), killPodOptions: { podTerminationGracePeriodSecondsOverride: 15 } },
      },
      expectKnownTerminated: true,
    },
    {
      name: 'a running pod is terminated when an eviction is requested',
      update: { updateType: 'SyncPodKill', pod: running(), killPodOptions: { evict: true } },
      prepare: (tw) => {
        tw.updatePod({ updateType: 'SyncPodCreate', pod: running() });
        return undefined;
      },
      expect: {
        hasContext: true,
        fullname: 'running-pod_ns',
        syncedAt: at(1),
        startedAt: at(3),
        terminatingAt: at(3),
        terminatedAt: at(5),
        gracePeriod: 30,
        startedTerminating: true,
        finished: true,
        evicted: true,
        activeUpdate: { updateType: 'SyncPodSync', pod: running(), killPodOptions: { podTerminationGracePeriodSecondsOverride: 30, evict: true } },
      },
      expectKnownTerminated: true,
    },
    {
      name: 'a pod that is terminal and has never started must be terminated if the runtime does not have a cached terminal state',
      update: { updateType: 'SyncPodCreate', pod: newPodWithPhase('1', 'done-pod', 'Succeeded') },
      expect: {
        hasContext: true,
        fullname: 'done-pod_ns',
        syncedAt: at(1),
        terminatingAt: at(1),
        startedAt: at(3),
        terminatedAt: at(3),
        activeUpdate: { updateType: 'SyncPodSync', pod: newPodWithPhase('1', 'done-pod', 'Succeeded'), killPodOptions: { podTerminationGracePeriodSecondsOverride: 30 } },
        gracePeriod: 30,
        startedTerminating: true,
        finished: true,
      },
      expectKnownTerminated: true,
    },
    {
      name: 'a pod that is terminal and has never started advances to finished if the runtime has a cached terminal state',
      update: { updateType: 'SyncPodCreate', pod: newPodWithPhase('1', 'done-pod', 'Succeeded') },
      runtimeStatus: { sandboxStatuses: [], containerStatuses: [] },
      expectBeforeWorker: {
        fullname: 'done-pod_ns',
        syncedAt: at(1),
        terminatingAt: at(1),
        terminatedAt: at(1),
        pendingUpdate: { updateType: 'SyncPodCreate', pod: newPodWithPhase('1', 'done-pod', 'Succeeded') },
        finished: false,
        startedTerminating: true,
        working: true,
      },
      expect: {
        hasContext: true,
        fullname: 'done-pod_ns',
        syncedAt: at(1),
        terminatingAt: at(1),
        terminatedAt: at(1),
        startedAt: at(3),
        startedTerminating: true,
        finished: true,
        activeUpdate: { updateType: 'SyncPodSync', pod: newPodWithPhase('1', 'done-pod', 'Succeeded') },
        restartRequested: false,
      },
      expectKnownTerminated: true,
    },
    {
      name: 'an orphaned running pod we have not seen is marked terminating and advances to finished and then is removed',
      update: { updateType: 'SyncPodKill', runningPod: orphan },
      expectBeforeWorker: {
        fullname: 'orphaned-pod_ns',
        syncedAt: at(1),
        terminatingAt: at(1),
        pendingUpdate: { updateType: 'SyncPodKill', runningPod: orphan, killPodOptions: { podTerminationGracePeriodSecondsOverride: 1 } },
        gracePeriod: 1,
        deleted: true,
        observedRuntime: true,
        working: true,
      },
      expectKnownTerminated: false,
    },
    {
      name: 'an orphaned running pod with a non-kill update type does nothing',
      update: { updateType: 'SyncPodCreate', runningPod: orphan },
      expect: undefined,
    },
  ];

  for (const tc of cases) {
    it(tc.name, () => {
      const uid = tc.update.pod?.metadata.uid ?? tc.update.runningPod!.id;
      const { tw } = createTimeIncrementingPodWorkers();
      const fns: (() => void)[] = [];
      if (tc.expectBeforeWorker) fns.push(() => expectPodSyncStatus(tc.expectBeforeWorker, tw.w.podSyncStatuses.get(uid)));
      const after = tc.prepare?.(tw);
      if (after) fns.push(after);
      // The runtime answers the first-sight cache lookup; it is reset before any worker runs.
      if (tc.runtimeStatus) {
        tw.cache.podStatus = tc.runtimeStatus;
        tw.cache.err = undefined;
      } else {
        tw.cache.podStatus = { sandboxStatuses: [], containerStatuses: [] };
        tw.cache.err = new Error('NotFound: No such pod');
      }
      fns.push(() => {
        tw.cache.podStatus = { sandboxStatuses: [], containerStatuses: [] };
        tw.cache.err = undefined;
      });
      tw.updatePod(tc.update, ...fns);
      assert.equal(tw.w.isPodKnownTerminated(uid), tc.expectKnownTerminated ?? false, 'IsPodKnownTerminated');
      expectPodSyncStatus(tc.expect, tw.w.podSyncStatuses.get(uid));
    });
  }
});

describe('Test_allowPodStart', () => {
  interface Case {
    desc: string;
    pod: Pod;
    podSyncStatuses?: Record<string, Partial<PodSyncStatus>>;
    started?: Record<string, string>;
    waiting?: Record<string, string[]>;
    expectedStarted?: Record<string, string>;
    expectedWaiting?: Record<string, string[]>;
    allowed: boolean;
    allowedEver: boolean;
  }
  const now = at(1000);
  const cases: Case[] = [
    { desc: 'non-static pod', pod: newNamedPod('uid-0', 'ns', 'test', false), podSyncStatuses: { 'uid-0': { fullname: 'test_' }, 'uid-1': { fullname: 'test_' } }, allowed: true, allowedEver: true },
    {
      desc: 'non-static pod when there is a started static pod with the same full name',
      pod: newNamedPod('uid-0', 'ns', 'test', false),
      podSyncStatuses: { 'uid-0': { fullname: 'test_' }, 'uid-1': { fullname: 'test_' } },
      started: { test_: 'uid-1' },
      expectedStarted: { test_: 'uid-1' },
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod when there is a started non-static pod with the same full name',
      pod: newNamedPod('uid-0', 'ns', 'test', false),
      podSyncStatuses: { 'uid-0': { fullname: 'test_' }, 'uid-1': { fullname: 'test_' } },
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod when there are no started static pods with the same full name',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_' }, 'uid-1': { fullname: 'bar_' } },
      started: { bar_: 'uid-1' },
      expectedStarted: { foo_: 'uid-0', bar_: 'uid-1' },
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod when there is a started static pod with the same full name',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_' }, 'uid-1': { fullname: 'foo_' } },
      started: { foo_: 'uid-1' },
      expectedStarted: { foo_: 'uid-1' },
      allowed: false,
      allowedEver: true,
    },
    {
      desc: 'static pod if the static pod has already started',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_' } },
      started: { foo_: 'uid-0' },
      expectedStarted: { foo_: 'uid-0' },
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod if the static pod is the first pod waiting to start',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_' } },
      waiting: { foo_: ['uid-0'] },
      expectedStarted: { foo_: 'uid-0' },
      expectedWaiting: {},
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod if the static pod is not the first pod waiting to start',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_' }, 'uid-1': { fullname: 'foo_' } },
      waiting: { foo_: ['uid-1', 'uid-0'] },
      expectedStarted: {},
      expectedWaiting: { foo_: ['uid-1', 'uid-0'] },
      allowed: false,
      allowedEver: true,
    },
    {
      desc: 'static pod if the static pod is the first valid pod waiting to start / clean up until picking the first valid pod',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_' }, 'uid-1': { fullname: 'foo_' } },
      waiting: { foo_: ['uid-2', 'uid-2', 'uid-3', 'uid-0', 'uid-1'] },
      expectedStarted: { foo_: 'uid-0' },
      expectedWaiting: { foo_: ['uid-1'] },
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod if the static pod is the first pod that is not termination requested and waiting to start',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: {
        'uid-0': { fullname: 'foo_' },
        'uid-1': { fullname: 'foo_' },
        'uid-2': { fullname: 'foo_', terminatingAt: now },
        'uid-3': { fullname: 'foo_', terminatedAt: now },
      },
      waiting: { foo_: ['uid-2', 'uid-3', 'uid-0', 'uid-1'] },
      expectedStarted: { foo_: 'uid-0' },
      expectedWaiting: { foo_: ['uid-1'] },
      allowed: true,
      allowedEver: true,
    },
    {
      desc: 'static pod if there is no sync status for the pod should be denied',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: {
        'uid-1': { fullname: 'foo_' },
        'uid-2': { fullname: 'foo_', terminatingAt: now },
        'uid-3': { fullname: 'foo_', terminatedAt: now },
      },
      waiting: { foo_: ['uid-1'] },
      expectedStarted: {},
      expectedWaiting: { foo_: ['uid-1'] },
      allowed: false,
      allowedEver: false,
    },
    {
      desc: 'static pod if the static pod is terminated should not be allowed',
      pod: newStaticPod('uid-0', 'foo'),
      podSyncStatuses: { 'uid-0': { fullname: 'foo_', terminatingAt: now } },
      waiting: { foo_: ['uid-2', 'uid-3', 'uid-0', 'uid-1'] },
      expectedStarted: {},
      expectedWaiting: { foo_: ['uid-2', 'uid-3', 'uid-0', 'uid-1'] },
      allowed: false,
      allowedEver: false,
    },
  ];
  for (const tc of cases) {
    it(tc.desc, () => {
      const { w } = createPodWorkers();
      for (const [uid, s] of Object.entries(tc.podSyncStatuses ?? {})) w.podSyncStatuses.set(uid, new PodSyncStatus(s));
      if (tc.started) w.startedStaticPodsByFullname = new Map(Object.entries(tc.started));
      if (tc.waiting) w.waitingToStartStaticPodsByFullname = new Map(Object.entries(tc.waiting));
      const [allowed, allowedEver] = w.allowPodStart(tc.pod);
      assert.equal(allowed, tc.allowed, 'allowed');
      assert.equal(allowedEver, tc.allowedEver, 'allowedEver');
      // Go compares unless both maps are empty (nil and empty count as the same).
      assert.deepEqual(w.startedStaticPodsByFullname, new Map(Object.entries(tc.expectedStarted ?? {})));
      assert.deepEqual(w.waitingToStartStaticPodsByFullname, new Map(Object.entries(tc.expectedWaiting ?? tc.waiting ?? {})));
    });
  }
});

describe('Test_removeTerminatedWorker', () => {
  const podUID = 'pod-uid';
  const podNamed = (name: string): UpdatePodOptions => ({ updateType: 'SyncPodSync', pod: { metadata: { uid: podUID, name }, spec: { containers: [] } } });
  interface Case {
    desc: string;
    orphan?: boolean;
    status: Partial<PodSyncStatus>;
    started?: Record<string, string>;
    waiting?: Record<string, string[]>;
    removed: boolean;
    expectPending?: UpdatePodOptions;
  }
  const cases: Case[] = [
    { desc: 'finished worker', status: { finished: true }, removed: true },
    {
      desc: 'waiting to start worker because of another started pod with the same fullname',
      status: { finished: false, fullname: 'fake-fullname' },
      started: { 'fake-fullname': 'another-pod-uid' },
      waiting: { 'fake-fullname': [podUID] },
      removed: false,
    },
    { desc: 'not yet started worker', status: { finished: false, fullname: 'fake-fullname' }, started: {}, waiting: { 'fake-fullname': [podUID] }, removed: false },
    { desc: 'orphaned not started worker', status: { finished: false, fullname: 'fake-fullname' }, orphan: true, removed: true },
    { desc: 'orphaned started worker', status: { startedAt: at(1), finished: false, fullname: 'fake-fullname' }, orphan: true, removed: false },
    { desc: 'orphaned terminating worker with no activeUpdate', status: { startedAt: at(1), terminatingAt: at(2), finished: false, fullname: 'fake-fullname' }, orphan: true, removed: false },
    {
      desc: 'orphaned terminating worker',
      status: { startedAt: at(1), terminatingAt: at(2), finished: false, fullname: 'fake-fullname', activeUpdate: podNamed('1') },
      orphan: true,
      removed: false,
      expectPending: podNamed('1'),
    },
    {
      desc: 'orphaned terminating worker with pendingUpdate',
      status: { startedAt: at(1), terminatingAt: at(2), finished: false, fullname: 'fake-fullname', working: true, pendingUpdate: podNamed('2'), activeUpdate: podNamed('1') },
      orphan: true,
      removed: false,
      expectPending: podNamed('2'),
    },
    { desc: 'orphaned terminated worker with no activeUpdate', status: { startedAt: at(1), terminatingAt: at(2), terminatedAt: at(3), finished: false, fullname: 'fake-fullname' }, orphan: true, removed: false },
    {
      desc: 'orphaned terminated worker',
      status: { startedAt: at(1), terminatingAt: at(2), terminatedAt: at(3), finished: false, fullname: 'fake-fullname', activeUpdate: podNamed('1') },
      orphan: true,
      removed: false,
      expectPending: podNamed('1'),
    },
    {
      desc: 'orphaned terminated worker with pendingUpdate',
      status: { startedAt: at(1), terminatingAt: at(2), terminatedAt: at(3), finished: false, working: true, fullname: 'fake-fullname', pendingUpdate: podNamed('2'), activeUpdate: podNamed('1') },
      orphan: true,
      removed: false,
      expectPending: podNamed('2'),
    },
  ];
  for (const tc of cases) {
    it(tc.desc, () => {
      const { w } = createPodWorkers();
      const status = new PodSyncStatus(tc.status);
      w.podSyncStatuses.set(podUID, status);
      w.podUpdates.set(podUID, { signalled: status.working, lastSyncTime: 0 });
      if (tc.started) w.startedStaticPodsByFullname = new Map(Object.entries(tc.started));
      if (tc.waiting) w.waitingToStartStaticPodsByFullname = new Map(Object.entries(tc.waiting));

      w.removeTerminatedWorker(podUID, status, tc.orphan ?? false);
      const after = w.podSyncStatuses.get(podUID);
      assert.equal(after === undefined, tc.removed, tc.removed ? 'expected the worker to be removed' : 'expected the worker to stay');
      if (tc.removed) return;
      assert.deepEqual(after!.pendingUpdate, tc.expectPending);
      if (tc.expectPending) {
        assert.ok(after!.working, 'should be working');
        assert.ok(w.hasSignal(podUID), 'should have one entry in podUpdates');
      }
    });
  }
});

// ---- further pod_workers_test.go tests that run unchanged on the synchronous model ----

describe('TestUpdatePodParallel', () => {
  it('every pod is processed and the last update wins', () => {
    const { w, processed } = createPodWorkers();
    const numPods = 20;
    for (let i = 0; i < numPods; i++) {
      for (let j = i; j < numPods; j++) w.updatePod({ pod: newNamedPod(String(j), 'ns', String(i), false), updateType: 'SyncPodCreate' });
    }
    w.runPending();
    assert.equal(processed.size, numPods);
    for (let i = 0; i < numPods; i++) {
      const events = processed.get(String(i)) ?? [];
      assert.ok(events.length >= 1 && events.length <= i + 1, `pod ${i} processed ${events.length} times`);
      assert.equal(events.at(-1)!.name, String(i));
    }
  });
});

describe('TestUpdatePodForRuntimePod', () => {
  it('ignores a non-kill runtime update, then kills the synthetic pod', () => {
    const { w, processed } = createPodWorkers();
    w.updatePod({ updateType: 'SyncPodCreate', runningPod: { id: '1', name: '1', namespace: 'test' } });
    w.runPending();
    assert.equal(processed.size, 0);
    w.updatePod({ updateType: 'SyncPodKill', runningPod: { id: '1', name: '1', namespace: 'test' } });
    w.runPending();
    const updates = processed.get('1') ?? [];
    assert.equal(processed.size, 1);
    assert.equal(updates.length, 1);
    assert.ok(updates[0].runningPod !== undefined && updates[0].updateType === 'SyncPodKill' && updates[0].name === '1');
  });
});

describe('TestUpdatePodForTerminatedRuntimePod', () => {
  it('a runtime kill for an already terminated pod does nothing', () => {
    const { w, clock, processed } = createPodWorkers();
    const now = clock.now();
    w.podSyncStatuses.set('1', new PodSyncStatus({ startedTerminating: true, terminatedAt: now - SECOND, terminatingAt: now - 2 * SECOND, gracePeriod: 1 }));
    w.updatePod({ updateType: 'SyncPodKill', runningPod: { id: '1', name: '1', namespace: 'test' } });
    w.runPending();
    assert.equal(processed.size, 0);
  });
});

describe('TestUpdatePodDoesNotForgetSyncPodKill', () => {
  it('create, kill, update in a row still terminates every pod', () => {
    const { w, processed } = createPodWorkers();
    const numPods = 20;
    for (let i = 0; i < numPods; i++) {
      const pod = newNamedPod(String(i), 'ns', String(i), false);
      w.updatePod({ pod, updateType: 'SyncPodCreate' });
      w.updatePod({ pod, updateType: 'SyncPodKill' });
      w.updatePod({ pod, updateType: 'SyncPodUpdate' });
    }
    w.runPending();
    assert.equal(processed.size, numPods);
    for (let i = 0; i < numPods; i++) {
      const uid = String(i);
      const possible: SyncPodRecord[][] = [
        [{ name: uid, updateType: 'SyncPodKill', gracePeriod: 30 }, { name: uid, terminated: true }],
        [{ name: uid, updateType: 'SyncPodCreate' }, { name: uid, updateType: 'SyncPodKill', gracePeriod: 30 }, { name: uid, terminated: true }],
      ];
      const got = zeroStripped(processed.get(uid));
      assert.ok(possible.some((p) => JSON.stringify(zeroStripped(p)) === JSON.stringify(got)), `unexpected history for pod ${i}: ${JSON.stringify(got)}`);
    }
  });
});

describe('TestTerminalPhaseTransition', () => {
  it('a sync that reports a terminal phase moves the pod to terminated', () => {
    const terminal = new Set<string>();
    const { w } = createPodWorkers((uid) => terminal.has(uid));
    const update = () => {
      w.updatePod({ pod: newNamedPod('1', 'test1', 'pod1', false), updateType: 'SyncPodUpdate' });
      w.runPending();
    };
    update();
    assert.ok(!w.podSyncStatuses.get('1')!.isTerminated());
    update();
    assert.ok(!w.podSyncStatuses.get('1')!.isTerminated());
    terminal.add('1');
    update();
    const s = w.podSyncStatuses.get('1')!;
    assert.ok(s.isTerminationRequested() && s.isTerminated());
  });
});

describe('TestSyncKnownPods', () => {
  it('orphans are driven to completion and then forgotten', () => {
    const { w } = createPodWorkers();
    const numPods = 20;
    for (let i = 0; i < numPods; i++) w.updatePod({ pod: newNamedPod(String(i), 'ns', 'name', false), updateType: 'SyncPodUpdate' });
    w.runPending();
    assert.equal(w.podUpdates.size, numPods);

    const desired = new Set(['2', '14']);
    const desiredPodList = [...desired].map((u) => newNamedPod(u, 'ns', 'name', false));
    for (let i = 0; i < numPods; i++) {
      const pod = newNamedPod(String(i), 'ns', 'name', false);
      if (desired.has(pod.metadata.uid!)) continue;
      if (i % 2 === 0) pod.metadata.deletionTimestamp = new Date(w.clock.now()).toISOString();
      w.updatePod({ pod, updateType: 'SyncPodKill' });
    }
    w.runPending();

    assert.ok(w.shouldPodContainersBeTerminating('0'));
    assert.ok(w.shouldPodContainersBeTerminating('1'));
    assert.ok(!w.shouldPodContainersBeTerminating('2'));
    assert.ok(w.isPodTerminationRequested('0'));
    assert.ok(!w.isPodTerminationRequested('2'));
    assert.ok(!w.couldHaveRunningContainers('0'));
    assert.ok(!w.couldHaveRunningContainers('1'));
    assert.ok(w.couldHaveRunningContainers('2'));
    assert.ok(w.shouldPodContentBeRemoved('0'));
    assert.ok(!w.shouldPodContentBeRemoved('1'));
    assert.ok(!w.shouldPodContentBeRemoved('2'));
    assert.ok(!w.shouldPodContainersBeTerminating('abc'));
    assert.ok(w.couldHaveRunningContainers('abc'));
    assert.ok(!w.shouldPodContentBeRemoved('abc'));

    w.syncKnownPods(desiredPodList);
    assert.equal(w.podUpdates.size, 2);
    assert.ok(w.podUpdates.has('2') && w.podUpdates.has('14'));
    assert.ok(!w.isPodTerminationRequested('2'));
    assert.ok(w.shouldPodContainersBeTerminating('abc'));
    assert.ok(!w.couldHaveRunningContainers('abc'));
    assert.ok(w.shouldPodContentBeRemoved('abc'));

    // Workers that are still running stay until they have terminated.
    w.syncKnownPods([]);
    w.runPending();
    assert.equal(w.podUpdates.size, 0);
    assert.equal(w.podSyncStatuses.size, 2);

    for (const uid of desired) w.updatePod({ pod: newNamedPod(uid, 'ns', 'name', false), updateType: 'SyncPodKill' });
    w.runPending();
    w.syncKnownPods([]);
    assert.equal(w.podUpdates.size, 0);
    assert.equal(w.podSyncStatuses.size, 0);
  });
});

describe('TestStaticPodExclusion', () => {
  it('static pods with one full name start one at a time, in arrival order', () => {
    const { w, queue, processed } = createPodWorkers();
    const held = new Set<string>();
    const drainAll = () => w.runPending();
    const drainExcept = () => w.runPending({ skip: held });
    const upd = (uid: string, isStatic: boolean, updateType: SyncPodType) => w.updatePod({ pod: newNamedPod(uid, 'test1', 'pod1', isStatic), updateType });
    const started = (e: Record<string, string>) => assert.deepEqual(w.startedStaticPodsByFullname, new Map(Object.entries(e)));
    const waiting = (e: Record<string, string[]>) => assert.deepEqual(w.waitingToStartStaticPodsByFullname, new Map(Object.entries(e)));
    const status = (uid: string) => w.podSyncStatuses.get(uid)!;
    const synced = (uid: string) => processed.get(uid);
    const oneUpdate = [{ name: 'pod1', updateType: 'SyncPodUpdate' }];

    // a normal and a static pod with the same name both run
    upd('1-normal', false, 'SyncPodUpdate');
    upd('2-static', true, 'SyncPodUpdate');
    drainAll();
    assert.ok(!status('1-normal').isTerminated() && !status('2-static').isTerminated());
    assert.equal(processed.size, 2);
    assert.deepEqual(synced('2-static'), oneUpdate);
    started({ pod1_test1: '2-static' });

    // a second and third static pod wait
    upd('3-static', true, 'SyncPodUpdate');
    upd('4-static', true, 'SyncPodUpdate');
    drainAll();
    for (const u of ['1-normal', '2-static', '3-static', '4-static']) assert.ok(!status(u).isTerminated(), u);
    assert.equal(processed.size, 2);
    assert.equal(synced('3-static'), undefined);
    assert.equal(synced('4-static'), undefined);
    started({ pod1_test1: '2-static' });
    waiting({ pod1_test1: ['3-static', '4-static'] });
    assert.deepEqual(queue.set(), new Set(['1-normal', '2-static', '4-static', '3-static']));

    // an update for 3-static does not start it, it is requeued
    queue.getWork();
    upd('3-static', true, 'SyncPodUpdate');
    drainAll();
    started({ pod1_test1: '2-static' });
    waiting({ pod1_test1: ['3-static', '4-static'] });
    assert.deepEqual(new Set(queue.getWork()), new Set(['3-static']));

    // killing 3-static before it ever started terminates it at once
    queue.getWork();
    upd('3-static', true, 'SyncPodKill');
    drainAll();
    assert.ok(status('3-static').isTerminated());
    assert.deepEqual(queue.getWork(), []);
    started({ pod1_test1: '2-static' });
    waiting({ pod1_test1: ['3-static', '4-static'] });

    // terminating 2-static frees the name
    upd('2-static', true, 'SyncPodKill');
    drainAll();
    assert.ok(status('2-static').isTerminated());
    started({});
    waiting({ pod1_test1: ['3-static', '4-static'] });

    // a periodic sync of 4-static now starts it (3-static is gone)
    upd('4-static', true, 'SyncPodUpdate');
    drainAll();
    assert.ok(!status('4-static').isTerminated());
    started({ pod1_test1: '4-static' });
    waiting({});

    let state = w.syncKnownPods(['1-normal', '2-static', '3-static', '4-static'].map((u) => newNamedPod(u, 'test1', 'pod1', u.endsWith('static'))));
    drainAll();
    assert.deepEqual(state, new Map([
      ['1-normal', { state: 'sync', orphan: false, hasConfig: true, static: false }],
      ['2-static', { state: 'terminated', orphan: false, hasConfig: true, static: true }],
      ['3-static', { state: 'terminated', orphan: false, hasConfig: false, static: false }],
      ['4-static', { state: 'sync', orphan: false, hasConfig: true, static: true }],
    ]));
    const s3 = status('3-static');
    assert.ok(s3.terminatedAt !== undefined && s3.finished && !s3.working);

    state = w.syncKnownPods(['1-normal', '2-static', '4-static'].map((u) => newNamedPod(u, 'test1', 'pod1', u.endsWith('static'))));
    drainAll();
    assert.deepEqual(state, new Map([
      ['1-normal', { state: 'sync', orphan: false, hasConfig: true, static: false }],
      ['2-static', { state: 'terminated', orphan: false, hasConfig: true, static: true }],
      ['4-static', { state: 'sync', orphan: false, hasConfig: true, static: true }],
    ]));
    assert.equal(w.podSyncStatuses.has('3-static'), false);

    // 5-static waits; its kill is held back while 6-static queues behind it
    upd('5-static', true, 'SyncPodUpdate');
    drainAll();
    held.add('5-static');
    upd('5-static', true, 'SyncPodKill');
    upd('6-static', true, 'SyncPodUpdate');
    drainExcept();
    assert.ok(status('5-static').isTerminationRequested() && !status('5-static').isTerminated());
    started({ pod1_test1: '4-static' });
    waiting({ pod1_test1: ['5-static', '6-static'] });

    // ending 4-static lets 6-static start, skipping the terminating 5-static
    upd('4-static', true, 'SyncPodKill');
    drainExcept();
    upd('6-static', true, 'SyncPodUpdate');
    drainExcept();
    assert.ok(status('5-static').isTerminationRequested() && !status('5-static').isTerminated());
    started({ pod1_test1: '6-static' });
    waiting({});
    assert.deepEqual(synced('6-static'), oneUpdate);

    // the late kill for 5-static still finishes it
    held.delete('5-static');
    drainAll();
    assert.ok(status('5-static').isTerminated());

    // 7, 8, 9 wait; 6 is killed and re-created with the same UID; 8 tries to jump the line
    upd('7-static', true, 'SyncPodUpdate');
    upd('8-static', true, 'SyncPodUpdate');
    upd('9-static', true, 'SyncPodUpdate');
    drainAll();
    upd('6-static', true, 'SyncPodKill');
    drainAll();
    upd('6-static', true, 'SyncPodCreate');
    drainAll();
    upd('8-static', true, 'SyncPodUpdate');
    drainAll();
    assert.ok(status('6-static').restartRequested);
    started({});
    waiting({ pod1_test1: ['7-static', '8-static', '9-static'] });
    for (const u of ['7-static', '8-static', '9-static']) assert.equal(synced(u), undefined, u);

    // killing 7 lets 8 start
    upd('7-static', true, 'SyncPodKill');
    drainAll();
    upd('8-static', true, 'SyncPodUpdate');
    drainAll();
    assert.deepEqual(synced('8-static'), oneUpdate);

    state = w.syncKnownPods([newNamedPod('8-static', 'test1', 'pod1', true)]);
    drainAll();
    assert.deepEqual(state, new Map([
      ['1-normal', { state: 'terminating', orphan: true, hasConfig: true, static: false }],
      ['8-static', { state: 'sync', orphan: false, hasConfig: true, static: true }],
    ]));
  });
});

describe('TestKillPodNowFunc', () => {
  it('kills through the pod worker: terminating then terminated', () => {
    const { w, processed } = createPodWorkers();
    const pod = newNamedPod('test', 'ns', 'test', false);
    killPodNow(w)(pod, false, 0, (status) => {
      status.phase = 'Failed';
      status.reason = 'reason';
      status.message = 'message';
    });
    w.runPending();
    const records = processed.get('test') ?? [];
    assert.equal(processed.size, 1);
    assert.equal(records.length, 2);
    assert.equal(records[0].updateType, 'SyncPodKill');
    assert.ok(records[1].terminated);
  });
});

// ---- behaviour without a Go table ----

describe('calculateEffectiveGracePeriod and requeue delays (port scenarios, no Go test)', () => {
  it('the grace period only shrinks: 30 → 10 → (20 ignored) → 5', () => {
    const { w } = createPodWorkers();
    const pod = newNamedPod('g', 'ns', 'g', false);
    w.updatePod({ pod, updateType: 'SyncPodCreate' });
    w.runPending();
    const grace: number[] = [];
    for (const override of [undefined, 10, 20, 5]) {
      w.updatePod({ pod, updateType: 'SyncPodKill', killPodOptions: { podTerminationGracePeriodSecondsOverride: override } });
      grace.push(w.podSyncStatuses.get('g')!.gracePeriod);
    }
    assert.deepEqual(grace, [30, 10, 10, 5]);
  });
  it('completeWork: phase change → 0, success → resync+jitter, network not ready → 1s+jitter, error → backoff+jitter', () => {
    const queue = new FakeQueue();
    const w = new PodWorkers({
      podSyncer: { syncPod: () => false, syncTerminatingPod: () => {}, syncTerminatingRuntimePod: () => {}, syncTerminatedPod: () => {} },
      workQueue: queue,
      podCache: new FakeRuntimeCache(),
      clock: new FakeClock(),
      jitter: (d, f) => d + f * d, // always the maximum jitter
    });
    w.completeWork('a', true, undefined);
    w.completeWork('a', false, undefined);
    w.completeWork('a', false, new Error('network is not ready: cni config uninitialized'));
    w.completeWork('a', false, new Error('boom'));
    assert.deepEqual(queue.items.map((i) => i.delay), [0, 90_000, 1_500, 15_000]);
  });
  it('a second static pod with the same full name waits until the first has terminated', () => {
    const { w, processed } = createPodWorkers();
    const a = newNamedPod('a', 'kube-system', 'etcd', true);
    const b = newNamedPod('b', 'kube-system', 'etcd', true);
    w.updatePod({ pod: a, updateType: 'SyncPodCreate' });
    w.updatePod({ pod: b, updateType: 'SyncPodCreate' });
    w.runPending();
    assert.deepEqual([...processed.keys()], ['a']);
    assert.equal(w.podSyncStatuses.get('b')!.pendingUpdate?.updateType, 'SyncPodCreate');
    w.updatePod({ pod: a, updateType: 'SyncPodKill' });
    w.runPending();
    w.updatePod({ pod: b, updateType: 'SyncPodSync' }); // the work queue's retry
    w.runPending();
    assert.equal(processed.get('b')?.[0].updateType, 'SyncPodSync');
    assert.equal(w.startedStaticPodsByFullname.get('etcd_kube-system'), 'b');
  });
  it('a sync error is retried after the backoff and keeps the pod in sync state', () => {
    const queue = new FakeQueue();
    let fail = true;
    const w = new PodWorkers({
      podSyncer: { syncPod: () => { if (fail) throw new Error('image pull failed'); return false; }, syncTerminatingPod: () => {}, syncTerminatingRuntimePod: () => {}, syncTerminatedPod: () => {} },
      workQueue: queue,
      podCache: new FakeRuntimeCache(),
      clock: new FakeClock(),
      jitter: (d) => d,
    });
    w.updatePod({ pod: newNamedPod('e', 'ns', 'e', false), updateType: 'SyncPodCreate' });
    w.runPending();
    fail = false;
    w.updatePod({ pod: newNamedPod('e', 'ns', 'e', false), updateType: 'SyncPodSync' });
    w.runPending();
    assert.deepEqual(queue.items.map((i) => i.delay), [10_000, 60_000]);
    assert.equal(w.podSyncStatuses.get('e')!.workType(), 'sync');
  });
});

describe('bad input (port-only)', () => {
  it('an update without pod or runningPod is rejected', () => {
    const { w } = createPodWorkers();
    assert.throws(() => w.updatePod({ updateType: 'SyncPodCreate' }), /pod or runningPod is required/);
  });
  it('a negative terminationGracePeriodSeconds is rejected naming the field', () => {
    const { w } = createPodWorkers();
    const pod = newNamedPod('x', 'ns', 'x', false);
    pod.spec.terminationGracePeriodSeconds = -5;
    assert.throws(() => w.updatePod({ pod, updateType: 'SyncPodCreate' }), /spec\.terminationGracePeriodSeconds/);
  });
});
