// Cases from pkg/kubelet/eviction/eviction_manager_test.go (v1.28.0).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, MINUTE, type ObjectReference, type PodStatus, type ResourceList } from '../api/index.js';
import {
  EvictionManager,
  SystemCriticalPriority,
  type ContainerGC,
  type EvictionConfig,
  type EvictionPod,
  type EventRecorder,
  type ImageGC,
  type KillPodFunc,
  type PodStats,
  type Summary,
  type Threshold,
} from './index.js';
import { FakeSummaryProvider, makeMemoryStats, makePodWithMemoryStats, newContainer, newPod, newPodDiskStats, newResourceList, q } from './builders.js';

const lowPriority = -1;
const defaultPriority = 0;
const highPriority = 1;

/** Records the last pod killed, as the Go mockPodKiller does. */
class MockPodKiller {
  pod: EvictionPod | undefined;
  evict: boolean | undefined;
  gracePeriodOverride: number | undefined;
  statusFn: ((status: PodStatus) => void) | undefined;
  readonly killPodNow: KillPodFunc = (pod, evict, gracePeriodOverride, statusFn) => {
    this.pod = pod;
    this.evict = evict;
    this.gracePeriodOverride = gracePeriodOverride;
    this.statusFn = statusFn;
  };
}

/** Records GC calls and can make the next stats read show the effect of GC. */
class MockDiskGC implements ImageGC, ContainerGC {
  imageGCInvoked = false;
  containerGCInvoked = false;
  summaryAfterGC: Summary | undefined;
  constructor(private readonly fakeSummaryProvider?: FakeSummaryProvider) {}
  deleteUnusedImages(): void {
    this.imageGCInvoked = true;
    if (this.summaryAfterGC && this.fakeSummaryProvider) this.fakeSummaryProvider.result = this.summaryAfterGC;
  }
  deleteAllUnusedContainers(): void {
    this.containerGCInvoked = true;
    if (this.summaryAfterGC && this.fakeSummaryProvider) this.fakeSummaryProvider.result = this.summaryAfterGC;
  }
}

class NullRecorder implements EventRecorder {
  event(): void {}
}

const nodeRef: ObjectReference = { kind: 'Node', name: 'test', uid: 'test', namespace: '' };
const diskInfoProvider = (dedicatedImageFs: boolean) => ({ hasDedicatedImageFs: () => dedicatedImageFs });

const hard = (signal: Threshold['signal'], value: string, minReclaim?: string): Threshold => ({
  signal,
  operator: 'LessThan',
  value: { quantity: q(value), percentage: 0 },
  gracePeriod: 0,
  minReclaim: minReclaim === undefined ? undefined : { quantity: q(minReclaim), percentage: 0 },
});
const soft = (signal: Threshold['signal'], value: string, gracePeriod: number): Threshold => ({ ...hard(signal, value), gracePeriod });

interface PodToMake {
  name: string;
  priority?: number;
  requests: ResourceList;
  limits: ResourceList;
  memoryWorkingSet?: string;
  rootFsUsed?: string;
  logsFsUsed?: string;
  perLocalVolumeUsed?: string;
}

function makeMemoryPods(podsToMake: PodToMake[]) {
  const pods: EvictionPod[] = [];
  const podStats = new Map<EvictionPod, PodStats>();
  for (const p of podsToMake) {
    const [pod, stats] = makePodWithMemoryStats(p.name, p.priority ?? 0, p.requests, p.limits, p.memoryWorkingSet ?? '0');
    pods.push(pod);
    podStats.set(pod, stats);
  }
  return { pods, podStats };
}

function newManager(config: EvictionConfig, summaryProvider: FakeSummaryProvider, podKiller: MockPodKiller, diskGC: MockDiskGC, clock: FakeClock, podDisruptionConditions = true) {
  return new EvictionManager({
    clock,
    killPodFunc: podKiller.killPodNow,
    imageGC: diskGC,
    containerGC: diskGC,
    config,
    recorder: new NullRecorder(),
    summaryProvider,
    nodeRef,
    podDisruptionConditions,
  });
}

const memoryPodsToMake: PodToMake[] = [
  { name: 'guaranteed-low-priority-high-usage', priority: lowPriority, requests: newResourceList('100m', '1Gi', ''), limits: newResourceList('100m', '1Gi', ''), memoryWorkingSet: '900Mi' },
  { name: 'burstable-below-requests', priority: defaultPriority, requests: newResourceList('100m', '100Mi', ''), limits: newResourceList('200m', '1Gi', ''), memoryWorkingSet: '50Mi' },
  { name: 'burstable-above-requests', priority: defaultPriority, requests: newResourceList('100m', '100Mi', ''), limits: newResourceList('200m', '1Gi', ''), memoryWorkingSet: '400Mi' },
  { name: 'best-effort-high-priority-high-usage', priority: highPriority, requests: newResourceList('', '', ''), limits: newResourceList('', '', ''), memoryWorkingSet: '400Mi' },
  { name: 'best-effort-low-priority-low-usage', priority: lowPriority, requests: newResourceList('', '', ''), limits: newResourceList('', '', ''), memoryWorkingSet: '100Mi' },
];

describe('TestMemoryPressure_VerifyPodStatus', () => {
  for (const enablePodDisruptionConditions of [false, true]) {
    it(`eviction due to memory pressure;PodDisruptionConditions=${enablePodDisruptionConditions}`, () => {
      const { pods, podStats } = makeMemoryPods([
        { name: 'below-requests', requests: newResourceList('', '1Gi', ''), limits: newResourceList('', '1Gi', ''), memoryWorkingSet: '900Mi' },
        { name: 'above-requests', requests: newResourceList('', '100Mi', ''), limits: newResourceList('', '1Gi', ''), memoryWorkingSet: '700Mi' },
      ]);
      const clock = new FakeClock();
      const podKiller = new MockPodKiller();
      const config: EvictionConfig = { pressureTransitionPeriod: 5 * MINUTE, maxPodGracePeriodSeconds: 0, thresholds: [hard('memory.available', '2Gi')] };
      const summaryProvider = new FakeSummaryProvider(makeMemoryStats('1500Mi', podStats.values()));
      const manager = newManager(config, summaryProvider, podKiller, new MockDiskGC(), clock, enablePodDisruptionConditions);

      manager.synchronize(diskInfoProvider(false), () => pods);
      assert.ok(manager.isUnderMemoryPressure(), 'Manager should have detected memory pressure');
      assert.ok(podKiller.pod !== undefined && podKiller.statusFn !== undefined, 'Manager should have selected a pod for eviction');

      const message = 'The node was low on resource: memory. Threshold quantity: 2Gi, available: 1500Mi. ';
      const want: PodStatus = { phase: 'Failed', reason: 'Evicted', message };
      if (enablePodDisruptionConditions) {
        want.conditions = [{ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message }];
      }
      const got: PodStatus = {};
      podKiller.statusFn(got);
      for (const c of got.conditions ?? []) delete c.lastTransitionTime; // ignored by the Go comparison too
      assert.deepEqual(got, want);
    });
  }
});

describe('TestMemoryPressure', () => {
  const { pods, podStats } = makeMemoryPods(memoryPodsToMake);
  const podToEvict = pods[4];
  const activePodsFunc = () => pods;
  const clock = new FakeClock();
  const podKiller = new MockPodKiller();
  const dip = diskInfoProvider(false);
  const config: EvictionConfig = {
    maxPodGracePeriodSeconds: 5,
    pressureTransitionPeriod: 5 * MINUTE,
    thresholds: [hard('memory.available', '1Gi'), soft('memory.available', '2Gi', 2 * MINUTE)],
  };
  const summaryProvider = new FakeSummaryProvider(makeMemoryStats('2Gi', podStats.values()));
  const manager = newManager(config, summaryProvider, podKiller, new MockDiskGC(), clock);
  // A best-effort and a burstable pod to test admission.
  const [bestEffortPodToAdmit] = makePodWithMemoryStats('best-admit', defaultPriority, newResourceList('', '', ''), newResourceList('', '', ''), '0Gi');
  const [burstablePodToAdmit] = makePodWithMemoryStats('burst-admit', defaultPriority, newResourceList('100m', '100Mi', ''), newResourceList('200m', '200Mi', ''), '0Gi');
  const admits = () => [bestEffortPodToAdmit, burstablePodToAdmit].map((p) => manager.admit(p).admit);
  const sync = (available: string) => {
    summaryProvider.result = makeMemoryStats(available, podStats.values());
    manager.synchronize(dip, activePodsFunc);
  };

  it('step 1: 2Gi available, no pressure, both pods admitted', () => {
    manager.synchronize(dip, activePodsFunc);
    assert.equal(manager.isUnderMemoryPressure(), false);
    assert.deepEqual(admits(), [true, true]);
  });
  it('step 2: soft threshold met (1500Mi), pressure but no kill before the grace period', () => {
    clock.step(MINUTE);
    sync('1500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, undefined);
  });
  it('step 3: past the grace period, the right pod is killed with MaxPodGracePeriodSeconds', () => {
    clock.step(3 * MINUTE);
    sync('1500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod?.metadata.name, podToEvict.metadata.name);
    assert.equal(podKiller.gracePeriodOverride, config.maxPodGracePeriodSeconds);
    podKiller.pod = undefined;
    podKiller.gracePeriodOverride = undefined;
  });
  it('step 4: pressure removed (3Gi)', () => {
    clock.step(20 * MINUTE);
    sync('3Gi');
    assert.equal(manager.isUnderMemoryPressure(), false);
  });
  it('step 5: hard threshold met (500Mi), killed with grace 0, best-effort rejected', () => {
    clock.step(MINUTE);
    sync('500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, podToEvict);
    assert.equal(podKiller.gracePeriodOverride, 0);
    assert.deepEqual(admits(), [false, true]);
  });
  it('step 6: pressure reduced (2Gi), condition kept for the transition period, no kill', () => {
    clock.step(MINUTE);
    podKiller.pod = undefined;
    sync('2Gi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, undefined);
    assert.deepEqual(admits(), [false, true]);
  });
  it('step 7: past the transition period, no pressure, all pods admitted', () => {
    clock.step(5 * MINUTE);
    podKiller.pod = undefined;
    sync('2Gi');
    assert.equal(manager.isUnderMemoryPressure(), false);
    assert.equal(podKiller.pod, undefined);
    assert.deepEqual(admits(), [true, true]);
  });
});

function makeContainersByQOS(qos: 'Guaranteed' | 'Burstable' | 'BestEffort') {
  const resource = newResourceList('100m', '1Gi', '');
  if (qos === 'Guaranteed') return [newContainer('guaranteed-container', resource, resource)];
  if (qos === 'Burstable') return [newContainer('burtable-container', resource, undefined)];
  return [newContainer('best-effort-container', undefined, undefined)];
}

describe('TestAdmitUnderNodeConditions', () => {
  const manager = newManager({ pressureTransitionPeriod: 0, maxPodGracePeriodSeconds: 0, thresholds: [] }, new FakeSummaryProvider({ node: {}, pods: [] }), new MockPodKiller(), new MockDiskGC(), new FakeClock());
  const pods = [
    newPod('guaranteed-pod', 0, makeContainersByQOS('Guaranteed')),
    newPod('burstable-pod', 0, makeContainersByQOS('Burstable')),
    newPod('best-effort-pod', 0, makeContainersByQOS('BestEffort')),
  ];
  const admits = () => pods.map((p) => manager.admit(p).admit);
  it('step 1: no node conditions, all admitted', () => {
    assert.deepEqual(admits(), [true, true, true]);
  });
  it('step 2: MemoryPressure, only best-effort rejected', () => {
    manager.nodeConditions = ['MemoryPressure'];
    assert.deepEqual(admits(), [true, true, false]);
  });
  it('step 3: MemoryPressure and DiskPressure, all rejected', () => {
    manager.nodeConditions = ['MemoryPressure', 'DiskPressure'];
    assert.deepEqual(admits(), [false, false, false]);
    assert.deepEqual(manager.admit(pods[0]), { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure DiskPressure]. ' });
  });
});

describe('TestMinReclaim', () => {
  const { pods, podStats } = makeMemoryPods(memoryPodsToMake);
  const podToEvict = pods[4];
  const clock = new FakeClock();
  const podKiller = new MockPodKiller();
  const dip = diskInfoProvider(false);
  const config: EvictionConfig = { maxPodGracePeriodSeconds: 5, pressureTransitionPeriod: 5 * MINUTE, thresholds: [hard('memory.available', '1Gi', '500Mi')] };
  const summaryProvider = new FakeSummaryProvider(makeMemoryStats('2Gi', podStats.values()));
  const manager = newManager(config, summaryProvider, podKiller, new MockDiskGC(), clock);
  const sync = (available: string) => {
    summaryProvider.result = makeMemoryStats(available, podStats.values());
    manager.synchronize(dip, () => pods);
  };

  it('step 1: no pressure', () => {
    manager.synchronize(dip, () => pods);
    assert.equal(manager.isUnderMemoryPressure(), false);
  });
  it('step 2: 500Mi available, pod killed with grace 0', () => {
    clock.step(MINUTE);
    sync('500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, podToEvict);
    assert.equal(podKiller.gracePeriodOverride, 0);
  });
  it('step 3: 1.2Gi is above 1Gi but not above 1Gi+500Mi, so another kill', () => {
    clock.step(MINUTE);
    podKiller.pod = undefined;
    sync('1.2Gi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, podToEvict);
    assert.equal(podKiller.gracePeriodOverride, 0);
  });
  it('step 4: 2Gi satisfies min-reclaim, no kill, condition still within transition', () => {
    clock.step(MINUTE);
    podKiller.pod = undefined;
    sync('2Gi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, undefined);
  });
  it('step 5: past the transition period, no pressure', () => {
    clock.step(5 * MINUTE);
    podKiller.pod = undefined;
    sync('2Gi');
    assert.equal(manager.isUnderMemoryPressure(), false);
    assert.equal(podKiller.pod, undefined);
  });
});

/** Node and image filesystems whose capacity is twice what is available. */
function makeDiskStats(rootFsAvailableBytes: string, imageFsAvailableBytes: string, podStats: Iterable<PodStats>): Summary {
  const root = q(rootFsAvailableBytes);
  const image = q(imageFsAvailableBytes);
  return {
    node: { fs: { availableBytes: root, capacityBytes: root * 2 }, runtime: { imageFs: { availableBytes: image, capacityBytes: image * 2 } } },
    pods: [...podStats],
  };
}

const diskPodsToMake: PodToMake[] = [
  { name: 'low-priority-high-usage', priority: lowPriority, requests: newResourceList('100m', '1Gi', ''), limits: newResourceList('100m', '1Gi', ''), rootFsUsed: '900Mi' },
  { name: 'below-requests', priority: defaultPriority, requests: newResourceList('100m', '100Mi', ''), limits: newResourceList('200m', '1Gi', ''), logsFsUsed: '50Mi' },
  { name: 'above-requests', priority: defaultPriority, requests: newResourceList('100m', '100Mi', ''), limits: newResourceList('200m', '1Gi', ''), rootFsUsed: '400Mi' },
  { name: 'high-priority-high-usage', priority: highPriority, requests: newResourceList('', '', ''), limits: newResourceList('', '', ''), perLocalVolumeUsed: '400Mi' },
  { name: 'low-priority-low-usage', priority: lowPriority, requests: newResourceList('', '', ''), limits: newResourceList('', '', ''), rootFsUsed: '100Mi' },
];

/** Pods with one container and no volumes, with per-container rootfs/logs usage (Go's makePodWithDiskStats). */
function makeDiskPods(podsToMake: PodToMake[]) {
  const pods: EvictionPod[] = [];
  const podStats = new Map<EvictionPod, PodStats>();
  for (const p of podsToMake) {
    const pod = newPod(p.name, p.priority ?? 0, [newContainer(p.name, p.requests, p.limits)]);
    pods.push(pod);
    podStats.set(pod, newPodDiskStats(pod, p.rootFsUsed || '0', p.logsFsUsed || '0', p.perLocalVolumeUsed || '0'));
  }
  return { pods, podStats };
}

describe('TestDiskPressureNodeFs', () => {
  const { pods, podStats } = makeDiskPods(diskPodsToMake);
  const podToEvict = pods[0];
  const clock = new FakeClock();
  const podKiller = new MockPodKiller();
  const dip = diskInfoProvider(false);
  const config: EvictionConfig = {
    maxPodGracePeriodSeconds: 5,
    pressureTransitionPeriod: 5 * MINUTE,
    thresholds: [hard('nodefs.available', '1Gi'), soft('nodefs.available', '2Gi', 2 * MINUTE)],
  };
  const summaryProvider = new FakeSummaryProvider(makeDiskStats('16Gi', '200Gi', podStats.values()));
  const manager = newManager(config, summaryProvider, podKiller, new MockDiskGC(), clock);
  const podToAdmit = newPod('pod-to-admit', defaultPriority, [newContainer('pod-to-admit', newResourceList('', '', ''), newResourceList('', '', ''))]);
  const sync = (nodeFsAvailable: string) => {
    summaryProvider.result = makeDiskStats(nodeFsAvailable, '200Gi', podStats.values());
    manager.synchronize(dip, () => pods);
  };

  it('step 1: no disk pressure, pod admitted', () => {
    manager.synchronize(dip, () => pods);
    assert.equal(manager.isUnderDiskPressure(), false);
    assert.equal(manager.admit(podToAdmit).admit, true);
  });
  it('step 2: soft threshold met (1.5Gi), no kill before the grace period', () => {
    clock.step(MINUTE);
    sync('1.5Gi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.equal(podKiller.pod, undefined);
  });
  it('step 3: past the grace period, the right pod is killed with MaxPodGracePeriodSeconds', () => {
    clock.step(3 * MINUTE);
    sync('1.5Gi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.equal(podKiller.pod, podToEvict);
    assert.equal(podKiller.gracePeriodOverride, config.maxPodGracePeriodSeconds);
    podKiller.pod = undefined;
    podKiller.gracePeriodOverride = undefined;
  });
  it('step 4: pressure removed', () => {
    clock.step(20 * MINUTE);
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), false);
  });
  it('step 5: hard threshold met (500Mi), killed with grace 0, pod rejected', () => {
    clock.step(MINUTE);
    sync('500Mi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.equal(podKiller.pod, podToEvict);
    assert.equal(podKiller.gracePeriodOverride, 0);
    assert.equal(manager.admit(podToAdmit).admit, false);
  });
  it('step 6: pressure reduced, condition kept, no kill, pod still rejected', () => {
    clock.step(MINUTE);
    podKiller.pod = undefined;
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.equal(podKiller.pod, undefined);
    assert.equal(manager.admit(podToAdmit).admit, false);
  });
  it('step 7: past the transition period, no pressure, pod admitted', () => {
    clock.step(5 * MINUTE);
    podKiller.pod = undefined;
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), false);
    assert.equal(podKiller.pod, undefined);
    assert.equal(manager.admit(podToAdmit).admit, true);
  });
});

describe('TestNodeReclaimFuncs', () => {
  const { pods, podStats } = makeDiskPods(diskPodsToMake);
  const podToEvict = pods[0];
  const clock = new FakeClock();
  const podKiller = new MockPodKiller();
  const dip = diskInfoProvider(false);
  const config: EvictionConfig = { maxPodGracePeriodSeconds: 5, pressureTransitionPeriod: 5 * MINUTE, thresholds: [hard('nodefs.available', '1Gi', '500Mi')] };
  const summaryProvider = new FakeSummaryProvider(makeDiskStats('16Gi', '200Gi', podStats.values()));
  const diskGC = new MockDiskGC(summaryProvider);
  const manager = newManager(config, summaryProvider, podKiller, diskGC, clock);
  const sync = (nodeFsAvailable: string, afterGC?: string) => {
    summaryProvider.result = makeDiskStats(nodeFsAvailable, '200Gi', podStats.values());
    diskGC.summaryAfterGC = afterGC === undefined ? diskGC.summaryAfterGC : makeDiskStats(afterGC, '200Gi', podStats.values());
    manager.synchronize(dip, () => pods);
  };
  const resetGC = () => {
    diskGC.imageGCInvoked = false;
    diskGC.containerGCInvoked = false;
  };

  it('step 1: no disk pressure', () => {
    manager.synchronize(dip, () => pods);
    assert.equal(manager.isUnderDiskPressure(), false);
  });
  it('step 2: hard threshold met, GC restores 16Gi, no pod killed', () => {
    clock.step(MINUTE);
    sync('.9Gi', '16Gi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.ok(diskGC.imageGCInvoked && diskGC.containerGCInvoked, 'image and container GC invoked');
    assert.equal(podKiller.pod, undefined);
    resetGC();
  });
  it('step 3: pressure removed', () => {
    clock.step(20 * MINUTE);
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), false);
    manager.synchronize(dip, () => pods);
    assert.equal(manager.isUnderDiskPressure(), false);
  });
  it('step 4: GC leaves 1.1Gi, below min-reclaim, so a pod is killed', () => {
    clock.step(MINUTE);
    sync('.9Gi', '1.1Gi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.ok(diskGC.imageGCInvoked && diskGC.containerGCInvoked);
    assert.notEqual(podKiller.pod, undefined);
    resetGC();
    podKiller.pod = undefined;
  });
  it('step 5: pressure removed', () => {
    clock.step(20 * MINUTE);
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), false);
  });
  it('step 6: 400Mi and GC reclaims nothing: the right pod is killed with grace 0', () => {
    clock.step(MINUTE);
    sync('400Mi', '400Mi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.ok(diskGC.imageGCInvoked && diskGC.containerGCInvoked);
    assert.equal(podKiller.pod, podToEvict);
    assert.equal(podKiller.gracePeriodOverride, 0);
  });
  it('step 7: pressure reduced, condition kept, no GC, no kill', () => {
    clock.step(MINUTE);
    resetGC();
    podKiller.pod = undefined;
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), true);
    assert.ok(!diskGC.imageGCInvoked && !diskGC.containerGCInvoked);
    assert.equal(podKiller.pod, undefined);
  });
  it('step 8: past the transition period, no pressure', () => {
    clock.step(5 * MINUTE);
    resetGC();
    podKiller.pod = undefined;
    sync('16Gi');
    assert.equal(manager.isUnderDiskPressure(), false);
    assert.ok(!diskGC.imageGCInvoked && !diskGC.containerGCInvoked);
    assert.equal(podKiller.pod, undefined);
  });
});

describe('TestStaticCriticalPodsAreNotEvicted', () => {
  const { pods, podStats } = makeMemoryPods([
    { name: 'critical', priority: SystemCriticalPriority, requests: newResourceList('100m', '1Gi', ''), limits: newResourceList('100m', '1Gi', ''), memoryWorkingSet: '800Mi' },
  ]);
  pods[0].metadata.annotations = { 'kubernetes.io/config.source': 'file' };
  pods[0].spec.priority = SystemCriticalPriority;
  pods[0].metadata.namespace = 'kube-system';
  const clock = new FakeClock();
  const podKiller = new MockPodKiller();
  const dip = diskInfoProvider(false);
  const config: EvictionConfig = {
    maxPodGracePeriodSeconds: 5,
    pressureTransitionPeriod: 5 * MINUTE,
    thresholds: [hard('memory.available', '1Gi'), soft('memory.available', '2Gi', 2 * MINUTE)],
  };
  const summaryProvider = new FakeSummaryProvider(makeMemoryStats('2Gi', podStats.values()));
  const manager = newManager(config, summaryProvider, podKiller, new MockDiskGC(), clock);
  const sync = (available: string) => {
    summaryProvider.result = makeMemoryStats(available, podStats.values());
    manager.synchronize(dip, () => pods);
  };

  it('step 1: soft threshold met, no kill yet', () => {
    clock.step(MINUTE);
    sync('1500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, undefined);
  });
  it('step 2: past the grace period, the critical static pod is still not killed', () => {
    clock.step(3 * MINUTE);
    sync('1500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.notEqual(podKiller.pod, pods[0]);
  });
  it('step 3: pressure removed', () => {
    clock.step(20 * MINUTE);
    sync('3Gi');
    assert.equal(manager.isUnderMemoryPressure(), false);
  });
  it('step 4: a static pod without priority under hard pressure: pressure reported', () => {
    pods[0].spec.priority = undefined;
    clock.step(MINUTE);
    sync('500Mi');
    assert.equal(manager.isUnderMemoryPressure(), true);
    assert.equal(podKiller.pod, undefined, 'static pods are critical whatever their priority');
  });
});

// ---- beyond the Go tests ----

describe('eviction manager: bad config', () => {
  const build = (config: EvictionConfig) => () => newManager(config, new FakeSummaryProvider({ node: {}, pods: [] }), new MockPodKiller(), new MockDiskGC(), new FakeClock());
  it('a negative grace period is rejected naming the threshold', () => {
    assert.throws(build({ pressureTransitionPeriod: 0, maxPodGracePeriodSeconds: 0, thresholds: [soft('memory.available', '1Gi', -1)] }), /thresholds\[0\]\.gracePeriod/);
  });
  it('a percentage above 1 is rejected', () => {
    const t: Threshold = { signal: 'nodefs.available', operator: 'LessThan', value: { percentage: 1.5 }, gracePeriod: 0 };
    assert.throws(build({ pressureTransitionPeriod: 0, maxPodGracePeriodSeconds: 0, thresholds: [t] }), /thresholds\[0\]\.value\.percentage/);
  });
  it('a negative transition period is rejected', () => {
    assert.throws(build({ pressureTransitionPeriod: -1, maxPodGracePeriodSeconds: 0, thresholds: [] }), /evictionPressureTransitionPeriod/);
  });
  it('a best-effort pod tolerating the memory-pressure taint is admitted under memory pressure', () => {
    const manager = build({ pressureTransitionPeriod: 0, maxPodGracePeriodSeconds: 0, thresholds: [] })();
    manager.nodeConditions = ['MemoryPressure'];
    const pod = newPod('tolerant', 0, [newContainer('c')]);
    pod.spec.tolerations = [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' }];
    assert.equal(manager.admit(pod).admit, true);
  });
});
