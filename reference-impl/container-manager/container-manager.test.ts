import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { milliValue, QuantityError } from '../api/index.js';
import type { Container, Pod, ResourceList } from '../api/index.js';
import {
  getPodQOS,
  hugePageLimits,
  milliCPUToQuota,
  milliCPUToShares,
  NodeAllocatable,
  QOSContainerManager,
  resourceConfigForPod,
  type EvictionThreshold,
  type ResourceConfig,
} from './index.js';

// ---- fixtures shaped like the Go helpers getResourceList / newContainer / newPod ----

function rl(cpu: string, memory: string): ResourceList {
  const out: ResourceList = {};
  if (cpu !== '') out.cpu = cpu;
  if (memory !== '') out.memory = memory;
  return out;
}
function withResource(name: string, value: string, list: ResourceList): ResourceList {
  return { ...list, [name]: value };
}
function ctr(name: string, requests: ResourceList, limits: ResourceList): Container {
  return { name, resources: { requests, limits } };
}
function pod(name: string, containers: Container[], initContainers?: Container[]): Pod {
  return { metadata: { name }, spec: { containers, ...(initContainers ? { initContainers } : {}) } };
}

describe('TestGetPodQOS', () => {
  const cases: [Pod, string][] = [
    [pod('guaranteed', [ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))]), 'Guaranteed'],
    [pod('guaranteed-guaranteed', [ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi')), ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))]), 'Guaranteed'],
    [pod('best-effort-best-effort', [ctr('best-effort', rl('', ''), rl('', '')), ctr('best-effort', rl('', ''), rl('', ''))]), 'BestEffort'],
    [pod('best-effort', [ctr('best-effort', rl('', ''), rl('', ''))]), 'BestEffort'],
    [pod('best-effort-burstable', [ctr('best-effort', rl('', ''), rl('', '')), ctr('burstable', rl('1', ''), rl('2', ''))]), 'Burstable'],
    [pod('best-effort-guaranteed', [ctr('best-effort', rl('', ''), rl('', '')), ctr('guaranteed', rl('10m', '100Mi'), rl('10m', '100Mi'))]), 'Burstable'],
    [pod('burstable-cpu-guaranteed-memory', [ctr('burstable', rl('', '100Mi'), rl('', '100Mi'))]), 'Burstable'],
    [pod('burstable-no-limits', [ctr('burstable', rl('100m', '100Mi'), rl('', ''))]), 'Burstable'],
    [pod('burstable-guaranteed', [ctr('burstable', rl('1', '100Mi'), rl('2', '100Mi')), ctr('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))]), 'Burstable'],
    [pod('burstable-unbounded-but-requests-match-limits', [ctr('burstable', rl('100m', '100Mi'), rl('200m', '200Mi')), ctr('burstable-unbounded', rl('100m', '100Mi'), rl('', ''))]), 'Burstable'],
    [pod('burstable-1', [ctr('burstable', rl('10m', '100Mi'), rl('100m', '200Mi'))]), 'Burstable'],
    [pod('burstable-2', [ctr('burstable', rl('0', '0'), rl('100m', '200Mi'))]), 'Burstable'],
    [pod('best-effort-hugepages', [ctr('best-effort', withResource('hugepages-2Mi', '1Gi', rl('0', '0')), withResource('hugepages-2Mi', '1Gi', rl('0', '0')))]), 'BestEffort'],
    [pod('init-container', [ctr('best-effort', rl('', ''), rl('', ''))], [ctr('burstable', rl('10m', '100Mi'), rl('100m', '200Mi'))]), 'Burstable'],
  ];
  cases.forEach(([p, expected], i) => {
    it(`case ${i}: ${p.metadata.name}`, () => assert.equal(getPodQOS(p), expected));
  });
});

// ---- ResourceConfigForPod tables ----

const DEFAULT_PERIOD = 100000;
const TUNED_PERIOD = 5000;
const MEM_100MI = 104857600;
const MEM_200MI = 209715200;

interface RCCase { pod: Pod; enforceCPULimits: boolean; quotaPeriod: number; expected: ResourceConfig }
const one = (req: ResourceList, lim: ResourceList): Pod => pod('', [ctr('', req, lim)]);
const two = (a: [ResourceList, ResourceList], b: [ResourceList, ResourceList]): Pod => pod('', [ctr('', ...a), ctr('', ...b)]);
const partial = () => two([rl('100m', '100Mi'), rl('200m', '200Mi')], [rl('100m', '100Mi'), rl('', '')]);

/** The twelve cases shared by the three Go ResourceConfigForPod tests, with the quota for tuned periods as a parameter. */
function sharedCases(quota: { burstableTuned: number; guaranteedTuned: number }): Record<string, RCCase> {
  return {
    besteffort: { pod: one(rl('', ''), rl('', '')), enforceCPULimits: true, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 2 } },
    'burstable-no-limits': { pod: one(rl('100m', '100Mi'), rl('', '')), enforceCPULimits: true, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 102 } },
    'burstable-with-limits': { pod: one(rl('100m', '100Mi'), rl('200m', '200Mi')), enforceCPULimits: true, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 102, cpuQuota: 20000, cpuPeriod: DEFAULT_PERIOD, memory: MEM_200MI } },
    'burstable-with-limits-no-cpu-enforcement': { pod: one(rl('100m', '100Mi'), rl('200m', '200Mi')), enforceCPULimits: false, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 102, cpuQuota: -1, cpuPeriod: DEFAULT_PERIOD, memory: MEM_200MI } },
    'burstable-partial-limits': { pod: partial(), enforceCPULimits: true, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 204 } },
    'burstable-with-limits-with-tuned-quota': { pod: one(rl('100m', '100Mi'), rl('200m', '200Mi')), enforceCPULimits: true, quotaPeriod: TUNED_PERIOD, expected: { cpuShares: 102, cpuQuota: quota.burstableTuned, cpuPeriod: TUNED_PERIOD, memory: MEM_200MI } },
    'burstable-with-limits-no-cpu-enforcement-with-tuned-quota': { pod: one(rl('100m', '100Mi'), rl('200m', '200Mi')), enforceCPULimits: false, quotaPeriod: TUNED_PERIOD, expected: { cpuShares: 102, cpuQuota: -1, cpuPeriod: TUNED_PERIOD, memory: MEM_200MI } },
    'burstable-partial-limits-with-tuned-quota': { pod: partial(), enforceCPULimits: true, quotaPeriod: TUNED_PERIOD, expected: { cpuShares: 204 } },
    guaranteed: { pod: one(rl('100m', '100Mi'), rl('100m', '100Mi')), enforceCPULimits: true, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 102, cpuQuota: 10000, cpuPeriod: DEFAULT_PERIOD, memory: MEM_100MI } },
    'guaranteed-no-cpu-enforcement': { pod: one(rl('100m', '100Mi'), rl('100m', '100Mi')), enforceCPULimits: false, quotaPeriod: DEFAULT_PERIOD, expected: { cpuShares: 102, cpuQuota: -1, cpuPeriod: DEFAULT_PERIOD, memory: MEM_100MI } },
    'guaranteed-with-tuned-quota': { pod: one(rl('100m', '100Mi'), rl('100m', '100Mi')), enforceCPULimits: true, quotaPeriod: TUNED_PERIOD, expected: { cpuShares: 102, cpuQuota: quota.guaranteedTuned, cpuPeriod: TUNED_PERIOD, memory: MEM_100MI } },
    'guaranteed-no-cpu-enforcement-with-tuned-quota': { pod: one(rl('100m', '100Mi'), rl('100m', '100Mi')), enforceCPULimits: false, quotaPeriod: TUNED_PERIOD, expected: { cpuShares: 102, cpuQuota: -1, cpuPeriod: TUNED_PERIOD, memory: MEM_100MI } },
  };
}

function assertCgroupFields(actual: ResourceConfig, expected: ResourceConfig): void {
  assert.equal(actual.cpuPeriod, expected.cpuPeriod, 'cpu period');
  assert.equal(actual.cpuQuota, expected.cpuQuota, 'cpu quota');
  assert.equal(actual.cpuShares, expected.cpuShares, 'cpu shares');
  assert.equal(actual.memory, expected.memory, 'memory');
}

describe('TestResourceConfigForPod', () => {
  // CPUCFSQuotaPeriod is off, so a tuned period still yields the quota for 100ms.
  const cases: Record<string, RCCase> = {
    ...sharedCases({ burstableTuned: 20000, guaranteedTuned: 10000 }),
    'burstable-partial-limits-with-init-containers': {
      pod: pod(
        '',
        [ctr('', rl('100m', '100m'), rl('100m', '100Mi')), ctr('', rl('100m', '100m'), rl('', ''))],
        [ctr('', rl('100m', '100m'), rl('100m', '100Mi')), ctr('', rl('100m', '100m'), rl('', ''))],
      ),
      enforceCPULimits: true,
      quotaPeriod: TUNED_PERIOD,
      expected: { cpuShares: 204 },
    },
  };
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => assertCgroupFields(resourceConfigForPod(tc.pod, tc.enforceCPULimits, tc.quotaPeriod, false), tc.expected));
  }
});

describe('TestResourceConfigForPodWithCustomCPUCFSQuotaPeriod', () => {
  const cases = sharedCases({ burstableTuned: 1000, guaranteedTuned: 1000 });
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => assertCgroupFields(resourceConfigForPod(tc.pod, tc.enforceCPULimits, tc.quotaPeriod, false, { CPUCFSQuotaPeriod: true }), tc.expected));
  }
});

describe('TestResourceConfigForPodWithEnforceMemoryQoS', () => {
  const cases = sharedCases({ burstableTuned: 20000, guaranteedTuned: 10000 });
  const memoryMin: Record<string, string | undefined> = {
    besteffort: undefined,
    'burstable-partial-limits': String(MEM_200MI),
    'burstable-partial-limits-with-tuned-quota': String(MEM_200MI),
  };
  for (const [name, tc] of Object.entries(cases)) {
    it(name, () => {
      const expected = name in memoryMin ? memoryMin[name] : String(MEM_100MI);
      const actual = resourceConfigForPod(tc.pod, tc.enforceCPULimits, tc.quotaPeriod, true);
      assert.deepEqual(actual.unified, expected === undefined ? undefined : { 'memory.min': expected });
    });
  }
});

describe('TestMilliCPUToQuota', () => {
  const cases: [number, number, number][] = [
    [0, 0, 0], [5, 1000, 100000], [9, 1000, 100000], [10, 1000, 100000],
    [200, 20000, 100000], [500, 50000, 100000], [1000, 100000, 100000], [1500, 150000, 100000],
  ];
  cases.forEach(([input, quota, period], i) => {
    it(`case ${i}: ${input}m over ${period}us`, () => assert.equal(milliCPUToQuota(input, period), quota));
  });
});

describe('TestSharesToMilliCPU', () => {
  // Only the MilliCPUToShares half; the reverse (kuberuntime sharesToMilliCPU) is listed in CASES.md.
  it('sharesToMilliCPUTest: known MilliCPUToShares values', () => {
    const known: Record<number, number> = { 0: 2, 1: 2, 2: 2, 3: 3, 4: 4, 32: 32, 64: 65, 100: 102, 250: 256, 500: 512, 1000: 1024, 1500: 1536, 2000: 2048 };
    for (const [milli, shares] of Object.entries(known)) assert.equal(milliCPUToShares(Number(milli)), shares, `${milli}m`);
  });
});

describe('TestHugePageLimits', () => {
  const Mi = 1024 * 1024;
  const cases: { name: string; inputs: [string, string][]; expected: [number, number][] }[] = [
    { name: 'no valid hugepages', inputs: [['2Mi', '128']], expected: [] },
    { name: '2Mi only', inputs: [['hugepages-2Mi', '128']], expected: [[2 * Mi, 128]] },
    {
      name: '2Mi and 4Mi',
      inputs: [['hugepages-2Mi', '128'], [`hugepages-${2 * Mi}`, '256'], ['hugepages-4Mi', '512'], ['4Mi', '1024']],
      expected: [[2 * Mi, 384], [4 * Mi, 512]],
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const list: ResourceList = Object.fromEntries(tc.inputs);
      assert.deepEqual(hugePageLimits(list), new Map(tc.expected));
      const p = pod('', [{ name: '', resources: { requests: list } }]);
      assert.deepEqual(resourceConfigForPod(p, false, 0, false).hugePageLimit, new Map(tc.expected));
    });
  }
});

describe('TestQoSContainerCgroup', () => {
  const activeTestPods = (): Pod[] => [
    { metadata: { uid: '12345678', name: 'guaranteed-pod', namespace: 'test' }, spec: { containers: [{ name: 'foo', image: 'busybox', resources: { requests: { memory: '128Mi', cpu: '1' }, limits: { memory: '128Mi', cpu: '1' } } }] } },
    { metadata: { uid: '87654321', name: 'burstable-pod-1', namespace: 'test' }, spec: { containers: [{ name: 'foo', image: 'busybox', resources: { requests: { memory: '128Mi', cpu: '1' }, limits: { memory: '256Mi', cpu: '2' } } }] } },
    { metadata: { uid: '01234567', name: 'burstable-pod-2', namespace: 'test' }, spec: { containers: [{ name: 'foo', image: 'busybox', resources: { requests: { memory: '256Mi', cpu: '2' } } }] } },
  ];
  it('memory.min of the QoS cgroups', () => {
    const m = new QOSContainerManager(activeTestPods);
    const configs = { Guaranteed: {}, Burstable: {}, BestEffort: {} };
    m.setMemoryQoS(configs);
    const burstableMin = 384 * 1024 * 1024;
    const guaranteedMin = 128 * 1024 * 1024;
    assert.deepEqual(configs, {
      Guaranteed: { unified: { 'memory.min': String(burstableMin + guaranteedMin) } },
      Burstable: { unified: { 'memory.min': String(burstableMin) } },
      BestEffort: {},
    });
  });
});

// ---- node allocatable ----

const ephemeral = (storage: string): ResourceList => (storage === '' ? {} : { 'ephemeral-storage': storage });
const memThreshold = (value: EvictionThreshold['value']): EvictionThreshold[] => [{ signal: 'memory.available', operator: 'LessThan', value }];
const fsThreshold = (value: EvictionThreshold['value']): EvictionThreshold[] => [{ signal: 'nodefs.available', operator: 'LessThan', value }];

/** The Go tests only look at the resources the function returned, comparing MilliValue. */
function assertReturnedMatch(actual: ResourceList, expected: ResourceList): void {
  for (const [name, v] of Object.entries(actual)) {
    assert.ok(name in expected, `unexpected resource ${name}`);
    assert.equal(milliValue(v), milliValue(expected[name]), name);
  }
}

interface CpuMemCase { kube: ResourceList; system: ResourceList; capacity: ResourceList; hard: EvictionThreshold['value']; expected: ResourceList }
const cpuMemCases = (expected: ResourceList[]): CpuMemCase[] => [
  { kube: rl('100m', '100Mi'), system: rl('50m', '50Mi'), capacity: rl('10', '10Gi'), hard: {}, expected: expected[0] },
  { kube: rl('100m', '100Mi'), system: rl('50m', '50Mi'), capacity: rl('10', '10Gi'), hard: { quantity: '100Mi' }, expected: expected[1] },
  { kube: rl('100m', '100Mi'), system: rl('50m', '50Mi'), capacity: rl('10', '10Gi'), hard: { percentage: 0.05 }, expected: expected[2] },
  { kube: {}, system: {}, capacity: rl('10', '10Gi'), hard: {}, expected: expected[3] },
  { kube: rl('', '100Mi'), system: rl('50m', '50Mi'), capacity: rl('10', '10Gi'), hard: {}, expected: expected[4] },
  { kube: rl('50m', '100Mi'), system: rl('', '50Mi'), capacity: rl('10', '10Gi'), hard: {}, expected: expected[5] },
  { kube: rl('', '100Mi'), system: rl('', '50Mi'), capacity: rl('10', ''), hard: {}, expected: expected[6] },
];

describe('TestNodeAllocatableReservationForScheduling', () => {
  cpuMemCases([
    rl('150m', '150Mi'), rl('150m', '250Mi'), rl('150m', '694157320'), rl('', ''), rl('50m', '150Mi'), rl('50m', '150Mi'), rl('', '150Mi'),
  ]).forEach((tc, i) => {
    it(`cpu/memory case ${i + 1}`, () => {
      const na = new NodeAllocatable(tc.capacity, { kubeReserved: tc.kube, systemReserved: tc.system, hardEvictionThresholds: memThreshold(tc.hard) });
      assertReturnedMatch(na.getNodeAllocatableReservation(), tc.expected);
    });
  });
  const storage: { kube: ResourceList; capacity: ResourceList; hard: EvictionThreshold['value']; expected: ResourceList }[] = [
    { kube: ephemeral('100Mi'), capacity: ephemeral('10Gi'), hard: {}, expected: ephemeral('100Mi') },
    { kube: ephemeral('100Mi'), capacity: ephemeral('10Gi'), hard: { quantity: '100Mi' }, expected: ephemeral('200Mi') },
    { kube: ephemeral('150Mi'), capacity: ephemeral('10Gi'), hard: { percentage: 0.05 }, expected: ephemeral('694157320') },
    { kube: {}, capacity: ephemeral('10Gi'), hard: {}, expected: ephemeral('') },
  ];
  storage.forEach((tc, i) => {
    it(`ephemeral-storage case ${i + 1}`, () => {
      const na = new NodeAllocatable(tc.capacity, { kubeReserved: tc.kube, hardEvictionThresholds: fsThreshold(tc.hard) });
      assertReturnedMatch(na.getNodeAllocatableReservation(), tc.expected);
    });
  });
  it('the 5% threshold is taken in float32, as Go does (extra check)', () => {
    const na = new NodeAllocatable(rl('10', '10Gi'), { hardEvictionThresholds: memThreshold({ percentage: 0.05 }) });
    assert.deepEqual(na.getNodeAllocatableReservation(), { memory: '536870920' });
  });
});

describe('TestNodeAllocatableForEnforcement', () => {
  cpuMemCases([
    rl('9850m', '10090Mi'), rl('9850m', '10090Mi'), rl('9850m', '10090Mi'), rl('10', '10Gi'), rl('9950m', '10090Mi'), rl('9950m', '10090Mi'), rl('10', ''),
  ]).forEach((tc, i) => {
    it(`case ${i + 1}`, () => {
      const na = new NodeAllocatable(tc.capacity, { kubeReserved: tc.kube, systemReserved: tc.system, hardEvictionThresholds: memThreshold(tc.hard) });
      assertReturnedMatch(na.getNodeAllocatableAbsolute(), tc.expected);
    });
  });
});

describe('TestNodeAllocatableInputValidation', () => {
  const valid = cpuMemCases(Array(7).fill({}));
  valid.forEach((tc, i) => {
    it(`cpu/memory case ${i + 1} (valid)`, () => {
      const na = new NodeAllocatable(tc.capacity, { kubeReserved: tc.kube, systemReserved: tc.system, hardEvictionThresholds: memThreshold(tc.hard) });
      assert.doesNotThrow(() => na.validateNodeAllocatable());
    });
  });
  it('cpu/memory case 8 (invalid)', () => {
    const na = new NodeAllocatable(rl('10', '11Gi'), { kubeReserved: rl('5', '10Gi'), systemReserved: rl('5', '10Gi'), hardEvictionThresholds: memThreshold({ quantity: '2Gi' }) });
    assert.throws(() => na.validateNodeAllocatable(), /memory: reserved/);
  });
  it('ephemeral-storage case 1 (valid)', () => {
    const na = new NodeAllocatable(ephemeral('500Mi'), { kubeReserved: ephemeral('100Mi'), hardEvictionThresholds: fsThreshold({}) });
    assert.doesNotThrow(() => na.validateNodeAllocatable());
  });
  it('ephemeral-storage case 2 (invalid)', () => {
    const na = new NodeAllocatable(ephemeral('20Gi'), { kubeReserved: ephemeral('20Gi'), hardEvictionThresholds: fsThreshold({ quantity: '100Mi' }) });
    assert.throws(() => na.validateNodeAllocatable(), /ephemeral-storage: reserved/);
  });
});

// ---- behaviour without a Go table ----

describe('QoS cgroup cpu.shares (port scenario, no Go test)', () => {
  it('burstable gets the shares of all burstable cpu requests, besteffort gets 2', () => {
    const pods: Pod[] = [
      pod('g', [ctr('c', rl('1', '1Gi'), rl('1', '1Gi'))]),
      pod('b1', [ctr('c', rl('1', '128Mi'), rl('2', '256Mi'))]),
      pod('b2', [ctr('c', rl('500m', ''), rl('', ''))]),
      pod('be', [ctr('c', rl('', ''), rl('', ''))]),
    ];
    const configs = new QOSContainerManager(() => pods).updateCgroups();
    assert.equal(configs.Burstable.cpuShares, 1536);
    assert.equal(configs.BestEffort.cpuShares, 2);
    assert.equal(configs.Guaranteed.cpuShares, undefined);
  });
  it('no burstable pods still means the minimum 2 shares', () => {
    assert.equal(new QOSContainerManager(() => []).updateCgroups().Burstable.cpuShares, 2);
  });
  it('shares are capped at 262144', () => {
    const big = pod('b', [ctr('c', rl('300', ''), rl('', ''))]);
    assert.equal(new QOSContainerManager(() => [big]).updateCgroups().Burstable.cpuShares, 262144);
  });
  it('qos-reserved memory caps burstable and besteffort', () => {
    const pods = [pod('g', [ctr('c', rl('1', '1Gi'), rl('1', '1Gi'))]), pod('b', [ctr('c', rl('1', '512Mi'), rl('', ''))])];
    const m = new QOSContainerManager(() => pods, { qosReserved: { memory: 50 }, getNodeAllocatable: () => ({ memory: '4Gi' }) });
    const configs = m.updateCgroups();
    assert.equal(configs.Burstable.memory, 4 * 2 ** 30 - 2 ** 29);
    assert.equal(configs.BestEffort.memory, 4 * 2 ** 30 - 2 ** 29 - 2 ** 28);
  });
});

describe('bad input (port-only)', () => {
  it('a malformed quantity names the field', () => {
    const p = pod('x', [ctr('c', { cpu: '100Mx' }, {})]);
    assert.throws(() => getPodQOS(p), (e: unknown) => e instanceof QuantityError && e.field === 'spec.containers[0].resources.requests[cpu]');
  });
  it('a malformed init container limit names the field', () => {
    const p = pod('x', [ctr('c', {}, {})], [ctr('i', {}, { memory: 'lots' })]);
    assert.throws(() => resourceConfigForPod(p, true, DEFAULT_PERIOD, false), /spec\.initContainers\[0\]\.resources\.limits\[memory\]/);
  });
  it('a reservation that does not parse names the field', () => {
    assert.throws(() => new NodeAllocatable(rl('1', '1Gi'), { kubeReserved: { memory: '1Gx' } }), /kubeReserved\[memory\]/);
  });
  it('a negative reservation is rejected', () => {
    assert.throws(() => new NodeAllocatable(rl('1', '1Gi'), { systemReserved: { cpu: '-1' } }), /systemReserved\[cpu\]/);
  });
  it('a percentage outside [0,1] is rejected', () => {
    const na = new NodeAllocatable(rl('1', '1Gi'), { hardEvictionThresholds: memThreshold({ percentage: 1.5 }) });
    assert.throws(() => na.getNodeAllocatableReservation(), /percentage/);
  });
  it('qos-reserved above 100% is rejected', () => {
    assert.throws(() => new QOSContainerManager(() => [], { qosReserved: { memory: 120 } }), /qosReserved\[memory\]/);
  });
});
