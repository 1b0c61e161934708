// Cases from pkg/kubelet/eviction/helpers_test.go (v1.28.0).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseThresholdConfig,
  parsePercentage,
  addAllocatableThresholds,
  makeSignalObservations,
  thresholdsUpdatedStats,
  type Summary,
  thresholdsMet,
  thresholdsFirstObservedAt,
  thresholdsMetGracePeriod,
  nodeConditions,
  nodeConditionsLastObservedAt,
  nodeConditionsObservedSince,
  hasNodeCondition,
  compareThresholdValue,
  sortByEvictionPriority,
  getReclaimableThreshold,
  orderedBy,
  exceedMemoryRequests,
  exceedDiskRequests,
  priority,
  memory,
  disk,
  process,
  ThresholdConfigError,
  type Threshold,
  type SignalObservations,
  type Signal,
  type ThresholdValue,
  type EvictionPod,
  type PodStats,
  type NodeConditionType,
  type FsStatsType,
} from './index.js';
import { QuantityError } from '../api/index.js';
import {
  q,
  newPod,
  newContainer,
  newResourceList,
  emptyDirVolume,
  newPodMemoryStats,
  newPodDiskStats,
  newPodInodeStats,
  newPodProcessStats,
  statsFnFrom,
  thresholdsEqual,
  thresholdListEqual,
} from './builders.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const lowPriority = -1;
const defaultPriority = 0;
const highPriority = 1;

const qty = (v: string): ThresholdValue => ({ quantity: q(v), percentage: 0 });
const pct = (p: number): ThresholdValue => ({ percentage: Math.fround(p) });
const threshold = (signal: Signal, value: ThresholdValue, minReclaim?: ThresholdValue, gracePeriod = 0): Threshold => ({
  signal,
  operator: 'LessThan',
  value,
  gracePeriod,
  minReclaim,
});

describe('TestParseThresholdConfig', () => {
  const gracePeriod = 30 * SECOND;
  type Case = {
    allocatableConfig: string[];
    evictionHard?: Record<string, string>;
    evictionSoft?: Record<string, string>;
    evictionSoftGracePeriod?: Record<string, string>;
    evictionMinReclaim?: Record<string, string>;
    expectErr: boolean;
    expectThresholds: Threshold[];
  };
  const cases: Record<string, Case> = {
    'no values': { allocatableConfig: [], evictionHard: {}, evictionSoft: {}, evictionSoftGracePeriod: {}, evictionMinReclaim: {}, expectErr: false, expectThresholds: [] },
    'all memory eviction values': {
      allocatableConfig: ['pods'],
      evictionHard: { 'memory.available': '150Mi' },
      evictionSoft: { 'memory.available': '300Mi' },
      evictionSoftGracePeriod: { 'memory.available': '30s' },
      evictionMinReclaim: { 'memory.available': '0' },
      expectErr: false,
      expectThresholds: [
        threshold('allocatableMemory.available', qty('150Mi'), qty('0')),
        threshold('memory.available', qty('150Mi'), qty('0')),
        threshold('memory.available', qty('300Mi'), qty('0'), gracePeriod),
      ],
    },
    'all memory eviction values in percentages': {
      allocatableConfig: [],
      evictionHard: { 'memory.available': '10%' },
      evictionSoft: { 'memory.available': '30%' },
      evictionSoftGracePeriod: { 'memory.available': '30s' },
      evictionMinReclaim: { 'memory.available': '5%' },
      expectErr: false,
      expectThresholds: [threshold('memory.available', pct(0.1), pct(0.05)), threshold('memory.available', pct(0.3), pct(0.05), gracePeriod)],
    },
    'disk eviction values': {
      allocatableConfig: [],
      evictionHard: { 'imagefs.available': '150Mi', 'nodefs.available': '100Mi' },
      evictionSoft: { 'imagefs.available': '300Mi', 'nodefs.available': '200Mi' },
      evictionSoftGracePeriod: { 'imagefs.available': '30s', 'nodefs.available': '30s' },
      evictionMinReclaim: { 'imagefs.available': '2Gi', 'nodefs.available': '1Gi' },
      expectErr: false,
      expectThresholds: [
        threshold('imagefs.available', qty('150Mi'), qty('2Gi')),
        threshold('nodefs.available', qty('100Mi'), qty('1Gi')),
        threshold('imagefs.available', qty('300Mi'), qty('2Gi'), gracePeriod),
        threshold('nodefs.available', qty('200Mi'), qty('1Gi'), gracePeriod),
      ],
    },
    'disk eviction values in percentages': {
      allocatableConfig: [],
      evictionHard: { 'imagefs.available': '15%', 'nodefs.available': '10.5%' },
      evictionSoft: { 'imagefs.available': '30%', 'nodefs.available': '20.5%' },
      evictionSoftGracePeriod: { 'imagefs.available': '30s', 'nodefs.available': '30s' },
      evictionMinReclaim: { 'imagefs.available': '10%', 'nodefs.available': '5%' },
      expectErr: false,
      expectThresholds: [
        threshold('imagefs.available', pct(0.15), pct(0.1)),
        threshold('nodefs.available', pct(0.105), pct(0.05)),
        threshold('imagefs.available', pct(0.3), pct(0.1), gracePeriod),
        threshold('nodefs.available', pct(0.205), pct(0.05), gracePeriod),
      ],
    },
    'inode eviction values': {
      allocatableConfig: [],
      evictionHard: { 'imagefs.inodesFree': '150Mi', 'nodefs.inodesFree': '100Mi' },
      evictionSoft: { 'imagefs.inodesFree': '300Mi', 'nodefs.inodesFree': '200Mi' },
      evictionSoftGracePeriod: { 'imagefs.inodesFree': '30s', 'nodefs.inodesFree': '30s' },
      evictionMinReclaim: { 'imagefs.inodesFree': '2Gi', 'nodefs.inodesFree': '1Gi' },
      expectErr: false,
      expectThresholds: [
        threshold('imagefs.inodesFree', qty('150Mi'), qty('2Gi')),
        threshold('nodefs.inodesFree', qty('100Mi'), qty('1Gi')),
        threshold('imagefs.inodesFree', qty('300Mi'), qty('2Gi'), gracePeriod),
        threshold('nodefs.inodesFree', qty('200Mi'), qty('1Gi'), gracePeriod),
      ],
    },
    'disable via 0%': { allocatableConfig: [], evictionHard: { 'memory.available': '0%' }, evictionSoft: { 'memory.available': '0%' }, expectErr: false, expectThresholds: [] },
    'disable via 100%': { allocatableConfig: [], evictionHard: { 'memory.available': '100%' }, evictionSoft: { 'memory.available': '100%' }, expectErr: false, expectThresholds: [] },
    'invalid-signal': { allocatableConfig: [], evictionHard: { 'mem.available': '150Mi' }, expectErr: true, expectThresholds: [] },
    'hard-signal-negative': { allocatableConfig: [], evictionHard: { 'memory.available': '-150Mi' }, expectErr: true, expectThresholds: [] },
    'hard-signal-negative-percentage': { allocatableConfig: [], evictionHard: { 'memory.available': '-15%' }, expectErr: true, expectThresholds: [] },
    'hard-signal-percentage-greater-than-100%': { allocatableConfig: [], evictionHard: { 'memory.available': '150%' }, expectErr: true, expectThresholds: [] },
    'soft-signal-negative': { allocatableConfig: [], evictionSoft: { 'memory.available': '-150Mi' }, expectErr: true, expectThresholds: [] },
    'valid-and-invalid-signal': { allocatableConfig: [], evictionHard: { 'memory.available': '150Mi', 'invalid.foo': '150Mi' }, expectErr: true, expectThresholds: [] },
    'soft-no-grace-period': { allocatableConfig: [], evictionSoft: { 'memory.available': '150Mi' }, expectErr: true, expectThresholds: [] },
    'soft-negative-grace-period': {
      allocatableConfig: [],
      evictionSoft: { 'memory.available': '150Mi' },
      evictionSoftGracePeriod: { 'memory.available': '-30s' },
      expectErr: true,
      expectThresholds: [],
    },
    'negative-reclaim': { allocatableConfig: [], evictionMinReclaim: { 'memory.available': '-300Mi' }, expectErr: true, expectThresholds: [] },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      let thresholds: Threshold[] = [];
      let err: unknown;
      try {
        thresholds = parseThresholdConfig(c.allocatableConfig, c.evictionHard, c.evictionSoft, c.evictionSoftGracePeriod, c.evictionMinReclaim);
      } catch (e) {
        err = e;
      }
      assert.equal(err !== undefined, c.expectErr, `error expected: ${c.expectErr}, got: ${String(err)}`);
      assert.ok(thresholdsEqual(c.expectThresholds, thresholds), `thresholds: ${JSON.stringify(thresholds)}`);
    });
  }
});

describe('TestGetReclaimableThreshold', () => {
  it('(unnamed case)', () => {
    const thresholds = [
      threshold('allocatableMemory.available', qty('150Mi'), qty('0')),
      threshold('memory.available', qty('150Mi'), qty('0')),
      threshold('imagefs.available', qty('150Mi'), qty('2Gi')),
      threshold('nodefs.available', qty('100Mi'), qty('1Gi')),
    ];
    sortByEvictionPriority(thresholds);
    assert.notEqual(getReclaimableThreshold(thresholds), undefined);
  });
});

describe('TestThresholdsMet', () => {
  const hardThreshold = threshold('memory.available', qty('1Gi'), qty('500Mi'));
  const cases: Record<string, { enforceMinReclaim: boolean; thresholds: Threshold[]; observations: SignalObservations; result: Threshold[] }> = {
    empty: { enforceMinReclaim: false, thresholds: [], observations: {}, result: [] },
    'threshold-met-memory': { enforceMinReclaim: false, thresholds: [hardThreshold], observations: { 'memory.available': { available: q('500Mi') } }, result: [hardThreshold] },
    'threshold-not-met': { enforceMinReclaim: false, thresholds: [hardThreshold], observations: { 'memory.available': { available: q('2Gi') } }, result: [] },
    'threshold-met-with-min-reclaim': {
      enforceMinReclaim: true,
      thresholds: [hardThreshold],
      observations: { 'memory.available': { available: q('1.05Gi') } },
      result: [hardThreshold],
    },
    'threshold-not-met-with-min-reclaim': { enforceMinReclaim: true, thresholds: [hardThreshold], observations: { 'memory.available': { available: q('2Gi') } }, result: [] },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => assert.ok(thresholdListEqual(thresholdsMet(c.thresholds, c.observations, c.enforceMinReclaim), c.result)));
  }
});

describe('TestPercentageThresholdsMet', () => {
  const specific = [threshold('memory.available', pct(0.2), pct(0.05)), threshold('nodefs.available', pct(0.3))];
  const obs = (memAvail: string, diskAvail?: string): SignalObservations => ({
    'memory.available': { available: q(memAvail), capacity: q('1000Mi') },
    ...(diskAvail === undefined ? {} : { 'nodefs.available': { available: q(diskAvail), capacity: q('1000Gi') } }),
  });
  const cases: Record<string, { enforceMinReclaim: boolean; observations: SignalObservations; result: Threshold[] }> = {
    BothMet: { enforceMinReclaim: false, observations: obs('100Mi', '100Gi'), result: specific },
    NoneMet: { enforceMinReclaim: false, observations: obs('300Mi', '400Gi'), result: [] },
    DiskMet: { enforceMinReclaim: false, observations: obs('300Mi', '100Gi'), result: [specific[1]] },
    MemoryMet: { enforceMinReclaim: false, observations: obs('100Mi', '400Gi'), result: [specific[0]] },
    MemoryMetWithMinReclaim: { enforceMinReclaim: true, observations: obs('225Mi'), result: [specific[0]] },
    MemoryNotMetWithMinReclaim: { enforceMinReclaim: true, observations: obs('300Mi'), result: [] },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => assert.ok(thresholdListEqual(thresholdsMet(specific, c.observations, c.enforceMinReclaim), c.result)));
  }
});

describe('TestThresholdsFirstObservedAt', () => {
  const hardThreshold = threshold('memory.available', qty('1Gi'));
  const now = Date.UTC(2023, 7, 15);
  const oldTime = now - MINUTE;
  it('empty', () => assert.deepEqual(thresholdsFirstObservedAt([], new Map(), now), new Map()));
  it('no-previous-observation', () => assert.deepEqual(thresholdsFirstObservedAt([hardThreshold], new Map(), now), new Map([[hardThreshold, now]])));
  it('previous-observation', () =>
    assert.deepEqual(thresholdsFirstObservedAt([hardThreshold], new Map([[hardThreshold, oldTime]]), now), new Map([[hardThreshold, oldTime]])));
});

describe('TestThresholdsMetGracePeriod', () => {
  const now = Date.UTC(2023, 7, 15);
  const hardThreshold = threshold('memory.available', qty('1Gi'));
  const softThreshold = threshold('memory.available', qty('2Gi'), undefined, MINUTE);
  const oldTime = now - 2 * MINUTE;
  const cases: Record<string, { observedAt: Map<Threshold, number>; result: Threshold[] }> = {
    empty: { observedAt: new Map(), result: [] },
    'hard-threshold-met': { observedAt: new Map([[hardThreshold, now]]), result: [hardThreshold] },
    'soft-threshold-not-met': { observedAt: new Map([[softThreshold, now]]), result: [] },
    'soft-threshold-met': { observedAt: new Map([[softThreshold, oldTime]]), result: [softThreshold] },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => assert.ok(thresholdListEqual(thresholdsMetGracePeriod(c.observedAt, now), c.result)));
  }
});

const sameConditions = (a: NodeConditionType[], b: NodeConditionType[]) => a.length === b.length && a.every((c) => hasNodeCondition(b, c));

describe('TestNodeConditions', () => {
  it('empty-list', () => assert.ok(sameConditions(nodeConditions([]), [])));
  it('memory.available', () => assert.ok(sameConditions(nodeConditions([threshold('memory.available', qty('1Gi'))]), ['MemoryPressure'])));
});

describe('TestNodeConditionsLastObservedAt', () => {
  const now = Date.UTC(2023, 7, 15);
  const oldTime = now - MINUTE;
  it('no-previous-observation', () => assert.deepEqual(nodeConditionsLastObservedAt(['MemoryPressure'], new Map(), now), new Map([['MemoryPressure', now]])));
  it('previous-observation', () =>
    assert.deepEqual(nodeConditionsLastObservedAt(['MemoryPressure'], new Map([['MemoryPressure', oldTime]]), now), new Map([['MemoryPressure', now]])));
  it('old-observation', () =>
    assert.deepEqual(nodeConditionsLastObservedAt([], new Map([['MemoryPressure', oldTime]]), now), new Map([['MemoryPressure', oldTime]])));
});

describe('TestNodeConditionsObservedSince', () => {
  const now = Date.UTC(2023, 7, 15);
  const observed = new Map<NodeConditionType, number>([['MemoryPressure', now - MINUTE]]);
  it('in-period', () => assert.ok(sameConditions(nodeConditionsObservedSince(observed, 2 * MINUTE, now), ['MemoryPressure'])));
  it('out-of-period', () => assert.ok(sameConditions(nodeConditionsObservedSince(observed, 30 * SECOND, now), [])));
});

describe('TestHasNodeConditions', () => {
  it('has-condition', () => assert.equal(hasNodeCondition(['Ready', 'DiskPressure', 'MemoryPressure'], 'MemoryPressure'), true));
  it('does-not-have-condition', () => assert.equal(hasNodeCondition(['Ready', 'DiskPressure'], 'MemoryPressure'), false));
});

describe('TestParsePercentage', () => {
  it('blah', () => assert.throws(() => parsePercentage('blah'), ThresholdConfigError));
  it('25.5%', () => assert.equal(parsePercentage('25.5%'), Math.fround(0.255)));
  it('foo%', () => assert.throws(() => parsePercentage('foo%'), ThresholdConfigError));
  it('12%345', () => assert.throws(() => parsePercentage('12%345'), ThresholdConfigError));
});

describe('TestCompareThresholdValue', () => {
  const cases: [ThresholdValue, ThresholdValue, boolean][] = [
    [{ quantity: 123, percentage: 0 }, { quantity: 123, percentage: 0 }, true],
    [{ quantity: 123, percentage: 0 }, { quantity: 456, percentage: 0 }, false],
    [{ quantity: 123, percentage: 0 }, pct(0.1), false],
    [pct(0.1), pct(0.1), true],
    [pct(0.2), pct(0.1), false],
  ];
  cases.forEach(([a, b, equal], i) => {
    it(`case ${i}`, () => {
      assert.equal(compareThresholdValue(a, b), equal);
      assert.equal(compareThresholdValue(b, a), equal);
    });
  });
});

describe('TestAddAllocatableThresholds', () => {
  const tenNs = 10e-6; // Go's GracePeriod: 10 is ten nanoseconds
  const t = (signal: Signal, value: string, minReclaim: string, gracePeriod = 0) => threshold(signal, qty(value), qty(minReclaim), gracePeriod);
  const cases: Record<string, { thresholds: Threshold[]; expected: Threshold[] }> = {
    'non-memory-signal': { thresholds: [t('imagefs.available', '150Mi', '0')], expected: [t('imagefs.available', '150Mi', '0')] },
    'memory-signal-with-grace': { thresholds: [t('memory.available', '150Mi', '0', tenNs)], expected: [t('memory.available', '150Mi', '0', tenNs)] },
    'memory-signal-without-grace': {
      thresholds: [t('memory.available', '150Mi', '0')],
      expected: [t('allocatableMemory.available', '150Mi', '0'), t('memory.available', '150Mi', '0')],
    },
    'memory-signal-without-grace-two-thresholds': {
      thresholds: [t('memory.available', '150Mi', '0'), t('memory.available', '200Mi', '1Gi')],
      expected: [
        t('allocatableMemory.available', '150Mi', '0'),
        t('memory.available', '150Mi', '0'),
        t('allocatableMemory.available', '200Mi', '1Gi'),
        t('memory.available', '200Mi', '1Gi'),
      ],
    },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => assert.ok(thresholdsEqual(c.expected, addAllocatableThresholds(c.thresholds))));
  }
});

describe('TestMakeSignalObservations', () => {
  it('one observation per signal, and stats by pod UID', () => {
    const GiB = 1024 * 1024 * 1024;
    const nodeAvailableBytes = GiB;
    const nodeWorkingSetBytes = GiB;
    const summary: Summary = {
      node: {
        memory: { availableBytes: nodeAvailableBytes, workingSetBytes: nodeWorkingSetBytes },
        runtime: { imageFs: { availableBytes: 1024 * 1024, capacityBytes: 1024 * 1024 * 2, inodesFree: 1024, inodes: 1024 * 1024 } },
        fs: { availableBytes: 1024, capacityBytes: 1024 * 2, inodesFree: 1024, inodes: 1024 * 1024 },
        systemContainers: [{ name: 'pods', memory: { availableBytes: nodeAvailableBytes, workingSetBytes: nodeWorkingSetBytes } }],
      },
      pods: [],
    };
    const podMaker = (name: string, namespace: string, uid: string): EvictionPod => ({ metadata: { name, namespace, uid }, spec: { containers: [{ name: 'ctr0' }] } });
    const pods = [podMaker('pod1', 'ns1', 'uuid1'), podMaker('pod1', 'ns2', 'uuid2'), podMaker('pod3', 'ns3', 'uuid3')];
    const podWorkingSetBytes = GiB;
    for (const pod of pods) {
      summary.pods.push({ podRef: { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', uid: pod.metadata.uid ?? '' }, memory: { workingSetBytes: podWorkingSetBytes } });
    }
    // Allocatable thresholds are always 100%: 5Gi is the threshold and the capacity.
    assert.equal(q('5Gi'), 5 * GiB);
    const [obs, statsFunc] = makeSignalObservations(summary);
    assert.deepEqual(obs['allocatableMemory.available'], { available: nodeAvailableBytes, capacity: nodeAvailableBytes + nodeWorkingSetBytes, time: undefined });
    assert.deepEqual(obs['memory.available'], { available: nodeAvailableBytes, capacity: nodeAvailableBytes + nodeWorkingSetBytes, time: undefined });
    assert.deepEqual(obs['nodefs.available'], { available: 1024, capacity: 2048, time: undefined });
    assert.deepEqual(obs['nodefs.inodesFree'], { available: 1024, capacity: 1024 * 1024, time: undefined });
    assert.deepEqual(obs['imagefs.available'], { available: 1024 * 1024, capacity: 2 * 1024 * 1024, time: undefined });
    assert.deepEqual(obs['imagefs.inodesFree'], { available: 1024, capacity: 1024 * 1024, time: undefined });
    for (const pod of pods) {
      const s = statsFunc(pod);
      assert.ok(s, `Pod stats were not found for pod ${pod.metadata.uid}`);
      assert.equal(s.memory?.workingSetBytes, podWorkingSetBytes);
    }
  });
});

describe('TestThresholdsUpdatedStats', () => {
  const updated = threshold('memory.available', qty('1'));
  const t0 = Date.UTC(2016, 0, 1, 0, 0, 0);
  const t1 = Date.UTC(2016, 0, 1, 0, 1, 0);
  const cases: Record<string, { thresholds: Threshold[]; observations: SignalObservations; last: SignalObservations; result: Threshold[] }> = {
    empty: { thresholds: [], observations: {}, last: {}, result: [] },
    'no-time': { thresholds: [updated], observations: { 'memory.available': { available: 0 } }, last: {}, result: [updated] },
    'no-last-observation': { thresholds: [updated], observations: { 'memory.available': { available: 0, time: t0 } }, last: {}, result: [updated] },
    'time-machine': {
      thresholds: [updated],
      observations: { 'memory.available': { available: 0, time: t0 } },
      last: { 'memory.available': { available: 0, time: t1 } },
      result: [],
    },
    'same-observation': {
      thresholds: [updated],
      observations: { 'memory.available': { available: 0, time: t0 } },
      last: { 'memory.available': { available: 0, time: t0 } },
      result: [],
    },
    'new-observation': {
      thresholds: [updated],
      observations: { 'memory.available': { available: 0, time: t1 } },
      last: { 'memory.available': { available: 0, time: t0 } },
      result: [updated],
    },
  };
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => assert.ok(thresholdListEqual(thresholdsUpdatedStats(c.thresholds, c.observations, c.last), c.result)));
  }
});

// ---- ranking ----

function assertOrder(pods: EvictionPod[], expected: EvictionPod[]): void {
  assert.deepEqual(
    pods.map((p) => p.metadata.name),
    expected.map((p) => p.metadata.name),
  );
}
const ALL_FS: FsStatsType[] = ['root', 'logs', 'localVolumeSource'];

describe('TestOrderedByExceedsRequestMemory', () => {
  it('the pod above its request goes first', () => {
    const below = newPod('below-requests', -1, [newContainer('below-requests', newResourceList('', '200Mi', ''), newResourceList('', '', ''))]);
    const exceeds = newPod('exceeds-requests', 1, [newContainer('exceeds-requests', newResourceList('', '100Mi', ''), newResourceList('', '', ''))]);
    const stats = new Map<EvictionPod, PodStats>([
      [below, newPodMemoryStats(below, '199Mi')],
      [exceeds, newPodMemoryStats(exceeds, '101Mi')],
    ]);
    const pods = [below, exceeds];
    orderedBy(exceedMemoryRequests(statsFnFrom(stats))).sort(pods);
    assertOrder(pods, [exceeds, below]);
  });
});

describe('TestOrderedByExceedsRequestDisk', () => {
  it('the pod above its ephemeral-storage request goes first', () => {
    const below = newPod('below-requests', -1, [newContainer('below-requests', { 'ephemeral-storage': '200Mi' }, newResourceList('', '', ''))]);
    const exceeds = newPod('exceeds-requests', 1, [newContainer('exceeds-requests', { 'ephemeral-storage': '100Mi' }, newResourceList('', '', ''))]);
    const stats = new Map<EvictionPod, PodStats>([
      [below, newPodDiskStats(below, '100Mi', '99Mi', '0Mi')],
      [exceeds, newPodDiskStats(exceeds, '90Mi', '11Mi', '0Mi')],
    ]);
    const pods = [below, exceeds];
    orderedBy(exceedDiskRequests(statsFnFrom(stats), ALL_FS, 'ephemeral-storage')).sort(pods);
    assertOrder(pods, [exceeds, below]);
  });
});

describe('TestOrderedByPriority', () => {
  it('lowest priority first', () => {
    const low = newPod('low-priority', -134, [newContainer('low-priority', newResourceList('', '', ''), newResourceList('', '', ''))]);
    const medium = newPod('medium-priority', 1, [newContainer('medium-priority', newResourceList('100m', '100Mi', ''), newResourceList('200m', '200Mi', ''))]);
    const high = newPod('high-priority', 12534, [newContainer('high-priority', newResourceList('200m', '200Mi', ''), newResourceList('200m', '200Mi', ''))]);
    const pods = [high, medium, low];
    orderedBy(priority).sort(pods);
    assertOrder(pods, [low, medium, high]);
  });
});

/** A pod with one container named like the pod and one emptyDir volume. */
const diskPod = (name: string, prio: number, requests: string, limits = '') =>
  newPod(name, prio, [newContainer(name, newResourceList('', '', requests), newResourceList('', '', limits))], [emptyDirVolume('local-volume')]);

describe('TestOrderedbyDisk', () => {
  it('largest disk use above request first', () => {
    const pod1 = diskPod('best-effort-high', defaultPriority, '');
    const pod2 = diskPod('best-effort-low', defaultPriority, '');
    const pod3 = diskPod('burstable-high', defaultPriority, '100Mi', '400Mi');
    const pod4 = diskPod('burstable-low', defaultPriority, '100Mi', '400Mi');
    const pod5 = diskPod('guaranteed-high', defaultPriority, '400Mi', '400Mi');
    const pod6 = diskPod('guaranteed-low', defaultPriority, '400Mi', '400Mi');
    const stats = new Map<EvictionPod, PodStats>([
      [pod1, newPodDiskStats(pod1, '50Mi', '100Mi', '150Mi')], // 300Mi - 0 = 300Mi
      [pod2, newPodDiskStats(pod2, '25Mi', '25Mi', '50Mi')], // 100Mi - 0 = 100Mi
      [pod3, newPodDiskStats(pod3, '150Mi', '150Mi', '50Mi')], // 350Mi - 100Mi = 250Mi
      [pod4, newPodDiskStats(pod4, '25Mi', '35Mi', '50Mi')], // 110Mi - 100Mi = 10Mi
      [pod5, newPodDiskStats(pod5, '225Mi', '100Mi', '50Mi')], // 375Mi - 400Mi = -25Mi
      [pod6, newPodDiskStats(pod6, '25Mi', '45Mi', '50Mi')], // 120Mi - 400Mi = -280Mi
    ]);
    const pods = [pod1, pod2, pod3, pod4, pod5, pod6];
    orderedBy(disk(statsFnFrom(stats), ALL_FS, 'ephemeral-storage')).sort(pods);
    assertOrder(pods, [pod1, pod3, pod2, pod4, pod5, pod6]);
  });
});

describe('TestOrderedbyInodes', () => {
  it('most inodes first', () => {
    const low = diskPod('low', defaultPriority, '');
    const medium = diskPod('medium', defaultPriority, '');
    const high = diskPod('high', defaultPriority, '');
    const stats = new Map<EvictionPod, PodStats>([
      [low, newPodInodeStats(low, '50000', '100000', '50000')], // 200000
      [medium, newPodInodeStats(medium, '100000', '150000', '50000')], // 300000
      [high, newPodInodeStats(high, '200000', '150000', '50000')], // 400000
    ]);
    const pods = [low, medium, high];
    orderedBy(disk(statsFnFrom(stats), ALL_FS, 'inodes')).sort(pods);
    assertOrder(pods, [high, medium, low]);
  });
});

describe('TestOrderedByPriorityDisk', () => {
  it('above request, then priority, then usage', () => {
    const pod1 = diskPod('above-requests-low-priority-high-usage', lowPriority, '');
    const pod2 = diskPod('above-requests-low-priority-low-usage', lowPriority, '');
    const pod3 = diskPod('above-requests-high-priority-high-usage', highPriority, '100Mi');
    const pod4 = diskPod('above-requests-high-priority-low-usage', highPriority, '100Mi');
    const pod5 = diskPod('below-requests-low-priority-high-usage', lowPriority, '1Gi');
    const pod6 = diskPod('below-requests-low-priority-low-usage', lowPriority, '1Gi');
    const pod7 = diskPod('below-requests-high-priority-high-usage', highPriority, '1Gi');
    const pod8 = diskPod('below-requests-high-priority-low-usage', highPriority, '1Gi');
    const stats = new Map<EvictionPod, PodStats>([
      [pod1, newPodDiskStats(pod1, '200Mi', '100Mi', '200Mi')], // 500 relative to request
      [pod2, newPodDiskStats(pod2, '10Mi', '10Mi', '30Mi')], // 50
      [pod3, newPodDiskStats(pod3, '200Mi', '150Mi', '250Mi')], // 500
      [pod4, newPodDiskStats(pod4, '90Mi', '50Mi', '10Mi')], // 50
      [pod5, newPodDiskStats(pod5, '500Mi', '200Mi', '100Mi')], // -200
      [pod6, newPodDiskStats(pod6, '50Mi', '100Mi', '50Mi')], // -800
      [pod7, newPodDiskStats(pod7, '250Mi', '500Mi', '50Mi')], // -200
      [pod8, newPodDiskStats(pod8, '100Mi', '60Mi', '40Mi')], // -800
    ]);
    const statsFn = statsFnFrom(stats);
    const pods = [pod8, pod7, pod6, pod5, pod4, pod3, pod2, pod1];
    orderedBy(exceedDiskRequests(statsFn, ALL_FS, 'ephemeral-storage'), priority, disk(statsFn, ALL_FS, 'ephemeral-storage')).sort(pods);
    assertOrder(pods, [pod1, pod2, pod3, pod4, pod5, pod6, pod7, pod8]);
  });
});

describe('TestOrderedByPriorityInodes', () => {
  it('priority, then inodes', () => {
    const pod1 = diskPod('low-priority-high-usage', lowPriority, '');
    const pod2 = diskPod('low-priority-low-usage', lowPriority, '');
    const pod3 = diskPod('high-priority-high-usage', highPriority, '');
    const pod4 = diskPod('high-priority-low-usage', highPriority, '');
    const stats = new Map<EvictionPod, PodStats>([
      [pod1, newPodInodeStats(pod1, '50000', '100000', '250000')], // 400000
      [pod2, newPodInodeStats(pod2, '60000', '30000', '10000')], // 100000
      [pod3, newPodInodeStats(pod3, '150000', '150000', '50000')], // 350000
      [pod4, newPodInodeStats(pod4, '10000', '40000', '100000')], // 150000
    ]);
    const pods = [pod4, pod3, pod2, pod1];
    orderedBy(priority, disk(statsFnFrom(stats), ALL_FS, 'inodes')).sort(pods);
    assertOrder(pods, [pod1, pod2, pod3, pod4]);
  });
});

const memPod = (name: string, prio: number, request: string, limit: string) =>
  newPod(name, prio, [newContainer(name, newResourceList('', request, ''), newResourceList('', limit, ''))]);

describe('TestOrderedByMemory', () => {
  it('largest memory use above request first', () => {
    const pod1 = memPod('best-effort-high', defaultPriority, '', '');
    const pod2 = memPod('best-effort-low', defaultPriority, '', '');
    const pod3 = memPod('burstable-high', defaultPriority, '100Mi', '1Gi');
    const pod4 = memPod('burstable-low', defaultPriority, '100Mi', '1Gi');
    const pod5 = memPod('guaranteed-high', defaultPriority, '1Gi', '1Gi');
    const pod6 = memPod('guaranteed-low', defaultPriority, '1Gi', '1Gi');
    const stats = new Map<EvictionPod, PodStats>([
      [pod1, newPodMemoryStats(pod1, '500Mi')], // 500 relative to request
      [pod2, newPodMemoryStats(pod2, '300Mi')], // 300
      [pod3, newPodMemoryStats(pod3, '800Mi')], // 700
      [pod4, newPodMemoryStats(pod4, '300Mi')], // 200
      [pod5, newPodMemoryStats(pod5, '800Mi')], // -200
      [pod6, newPodMemoryStats(pod6, '200Mi')], // -800
    ]);
    const pods = [pod1, pod2, pod3, pod4, pod5, pod6];
    orderedBy(memory(statsFnFrom(stats))).sort(pods);
    assertOrder(pods, [pod3, pod1, pod2, pod4, pod5, pod6]);
  });
});

describe('TestOrderedByPriorityMemory', () => {
  it('above request, then priority, then memory above request', () => {
    const pod1 = memPod('above-requests-low-priority-high-usage', lowPriority, '', '');
    const pod2 = memPod('above-requests-low-priority-low-usage', lowPriority, '', '');
    const pod3 = memPod('above-requests-high-priority-high-usage', highPriority, '100Mi', '');
    const pod4 = memPod('above-requests-high-priority-low-usage', highPriority, '100Mi', '');
    const pod5 = memPod('below-requests-low-priority-high-usage', lowPriority, '1Gi', '');
    const pod6 = memPod('below-requests-low-priority-low-usage', lowPriority, '1Gi', '');
    const pod7 = memPod('below-requests-high-priority-high-usage', highPriority, '1Gi', '');
    const pod8 = memPod('below-requests-high-priority-low-usage', highPriority, '1Gi', '');
    const stats = new Map<EvictionPod, PodStats>([
      [pod1, newPodMemoryStats(pod1, '500Mi')], // 500 relative to request
      [pod2, newPodMemoryStats(pod2, '50Mi')], // 50
      [pod3, newPodMemoryStats(pod3, '600Mi')], // 500
      [pod4, newPodMemoryStats(pod4, '150Mi')], // 50
      [pod5, newPodMemoryStats(pod5, '800Mi')], // -200
      [pod6, newPodMemoryStats(pod6, '200Mi')], // -800
      [pod7, newPodMemoryStats(pod7, '800Mi')], // -200
      [pod8, newPodMemoryStats(pod8, '200Mi')], // -800
    ]);
    const statsFn = statsFnFrom(stats);
    const pods = [pod8, pod7, pod6, pod5, pod4, pod3, pod2, pod1];
    orderedBy(exceedMemoryRequests(statsFn), priority, memory(statsFn)).sort(pods);
    assertOrder(pods, [pod1, pod2, pod3, pod4, pod5, pod6, pod7, pod8]);
  });
});

describe('TestOrderedByPriorityProcess', () => {
  it('priority, then process count', () => {
    const pod1 = newPod('low-priority-high-usage', lowPriority, []);
    const pod2 = newPod('low-priority-low-usage', lowPriority, []);
    const pod3 = newPod('high-priority-high-usage', highPriority, []);
    const pod4 = newPod('high-priority-low-usage', highPriority, []);
    const stats = new Map<EvictionPod, PodStats>([
      [pod1, newPodProcessStats(pod1, 20)],
      [pod2, newPodProcessStats(pod2, 6)],
      [pod3, newPodProcessStats(pod3, 20)],
      [pod4, newPodProcessStats(pod4, 5)],
    ]);
    const pods = [pod4, pod3, pod2, pod1];
    orderedBy(priority, process(statsFnFrom(stats))).sort(pods);
    assertOrder(pods, [pod1, pod2, pod3, pod4]);
  });
});

describe('TestSortByEvictionPriority', () => {
  const only = (signal: Signal) => threshold(signal, qty('1'));
  const cases: [string, Signal[], Signal[]][] = [
    ['empty threshold list', [], []],
    ['memory first', ['nodefs.available', 'pid.available', 'memory.available'], ['memory.available', 'nodefs.available', 'pid.available']],
    [
      'allocatable memory first',
      ['nodefs.available', 'pid.available', 'allocatableMemory.available'],
      ['allocatableMemory.available', 'nodefs.available', 'pid.available'],
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      const thresholds = input.map(only);
      sortByEvictionPriority(thresholds);
      assert.deepEqual(
        thresholds.map((t) => t.signal),
        expected,
      );
    });
  }
});

// ---- beyond the Go tests: bad flag values name the flag and signal ----

describe('bad threshold flags', () => {
  it('a malformed quantity names the flag and signal', () => {
    assert.throws(() => parseThresholdConfig([], { 'memory.available': '100Mx' }), (e: unknown) => e instanceof QuantityError && e.field === 'evictionHard[memory.available]');
  });
  it('a grace period without a unit is rejected', () => {
    assert.throws(() => parseThresholdConfig([], {}, { 'memory.available': '1Gi' }, { 'memory.available': '30' }), /evictionSoftGracePeriod\[memory.available\].*missing unit/);
  });
  it('an unknown signal in min-reclaim is rejected', () => {
    assert.throws(() => parseThresholdConfig([], {}, {}, {}, { 'disk.available': '1Gi' }), /evictionMinimumReclaim\[disk.available\]: unsupported eviction signal/);
  });
  it('grace periods like 1m30s parse to milliseconds', () => {
    const [t] = parseThresholdConfig([], {}, { 'memory.available': '1Gi' }, { 'memory.available': '1m30s' });
    assert.equal(t.gracePeriod, 90 * SECOND);
  });
});
