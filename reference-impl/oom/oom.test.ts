import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Container, ObjectReference, Pod } from '../api/index.js';
import { QuantityError } from '../api/index.js';
import {
  FakeRecorder,
  RealWatcher,
  getContainerOOMScoreAdjust,
  MemoryCapacityError,
  SYSTEM_CRITICAL_PRIORITY,
  SYSTEM_CLUSTER_CRITICAL,
  SYSTEM_NODE_CRITICAL,
  type OomInstance,
  type OomStreamer,
} from './index.js';

/** Hands over a fixed list of instances, like the Go test's fakeStreamer. */
class FakeStreamer implements OomStreamer {
  constructor(private readonly instances: OomInstance[]) {}
  streamOoms(out: (i: OomInstance) => void): void {
    for (const i of this.instances) out(i);
  }
}

const T = '2023-08-15T00:00:00Z';
const systemOom: OomInstance = { pid: 1000, processName: 'fakeProcess', timeOfDeath: T, containerName: '/some-container', victimContainerName: '/' };
const containerOom: OomInstance = { pid: 1000, processName: 'fakeProcess', timeOfDeath: T, containerName: '/kubepods/some-container', victimContainerName: '/kubepods' };
const node: ObjectReference = {};

function recordedEvents(instances: OomInstance[]): string[] {
  const recorder = new FakeRecorder();
  new RealWatcher(recorder, new FakeStreamer(instances)).start(node);
  return recorder.events;
}

describe('TestWatcherRecordsEventsForOomEvents', () => {
  it('one system OOM gives one event', () => {
    assert.equal(recordedEvents([systemOom]).length, 1);
  });
});

describe('TestWatcherRecordsEventsForOomEventsCorrectContainerName', () => {
  it('only the victim container "/" is recorded', () => {
    assert.deepEqual(recordedEvents([systemOom, containerOom]).length, 1);
  });
});

describe('TestWatcherRecordsEventsForOomEventsWithAdditionalInfo', () => {
  it('the event names the reason, pid and victim process', () => {
    const [event] = recordedEvents([systemOom]);
    assert.ok(event.includes('SystemOOM'));
    assert.ok(event.includes('pid: 1000'));
    assert.ok(event.includes('victim process: fakeProcess'));
    assert.equal(event, 'Warning SystemOOM System OOM encountered, victim process: fakeProcess, pid: 1000');
  });
});

describe('OOM watcher beyond the Go tests', () => {
  it('without a process name or pid the message is the bare sentence', () => {
    assert.deepEqual(recordedEvents([{ ...systemOom, processName: '' }, { ...systemOom, pid: 0 }]), [
      'Warning SystemOOM System OOM encountered',
      'Warning SystemOOM System OOM encountered',
    ]);
  });
});

function podWith(resources: Container['resources'], spec: Partial<Pod['spec']> = {}): Pod {
  return { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', resources }], ...spec } };
}

const STANDARD_MEMORY = 8_000_000_000;
const cpuLimit = podWith({ limits: { cpu: '10' } });
const memoryLimitCPURequest = podWith({ requests: { cpu: '0' }, limits: { memory: '10G' } });
const zeroMemoryLimit = podWith({ limits: { memory: '0' } });
const noRequestLimit = podWith({});
const equalRequestLimitCPUMemory = podWith({ requests: { memory: '10G', cpu: '5m' }, limits: { cpu: '5m', memory: '10G' } });
const cpuUnlimitedMemoryLimitedWithRequests = podWith({ requests: { memory: String(STANDARD_MEMORY / 2), cpu: '5m' }, limits: { memory: '10G' } });
const requestNoLimit = podWith({ requests: { memory: String(STANDARD_MEMORY - 1), cpu: '5m' } });
const clusterCritical = podWith({}, { priorityClassName: SYSTEM_CLUSTER_CRITICAL, priority: SYSTEM_CRITICAL_PRIORITY });
const nodeCritical = podWith({}, { priorityClassName: SYSTEM_NODE_CRITICAL, priority: SYSTEM_CRITICAL_PRIORITY + 1000 });

describe('TestGetContainerOOMScoreAdjust', () => {
  const cases: [string, Pod, number, number, number][] = [
    ['case 0: cpuLimit', cpuLimit, 4_000_000_000, 999, 999],
    ['case 1: memoryLimitCPURequest', memoryLimitCPURequest, 8_000_000_000, 999, 999],
    ['case 2: zeroMemoryLimit', zeroMemoryLimit, 7_230_457_451, 1000, 1000],
    ['case 3: noRequestLimit', noRequestLimit, 4_000_000_000, 1000, 1000],
    ['case 4: equalRequestLimitCPUMemory', equalRequestLimitCPUMemory, 123_456_789, -997, -997],
    ['case 5: cpuUnlimitedMemoryLimitedWithRequests', cpuUnlimitedMemoryLimitedWithRequests, STANDARD_MEMORY, 495, 505],
    ['case 6: requestNoLimit', requestNoLimit, STANDARD_MEMORY, 3, 3],
    ['case 7: clusterCritical', clusterCritical, 4_000_000_000, 1000, 1000],
    ['case 8: nodeCritical', nodeCritical, 4_000_000_000, -997, -997],
  ];
  for (const [name, pod, capacity, low, high] of cases) {
    it(name, () => {
      const adj = getContainerOOMScoreAdjust(pod, pod.spec.containers[0], capacity);
      assert.ok(adj >= low && adj <= high, `oom_score_adj should be between ${low} and ${high}, but was ${adj}`);
    });
  }
});

describe('OOM score beyond the Go tests', () => {
  it('half of memory requested gives exactly 500', () => {
    assert.equal(getContainerOOMScoreAdjust(cpuUnlimitedMemoryLimitedWithRequests, cpuUnlimitedMemoryLimitedWithRequests.spec.containers[0], STANDARD_MEMORY), 500);
  });
  it('a static pod in system-node-critical is node-critical without a priority value', () => {
    const pod = podWith({}, { priorityClassName: SYSTEM_NODE_CRITICAL });
    pod.metadata.annotations = { 'kubernetes.io/config.source': 'file' };
    assert.equal(getContainerOOMScoreAdjust(pod, pod.spec.containers[0], 1), -997);
  });
  it('a malformed memory request is rejected with its field path', () => {
    const pod = podWith({ requests: { memory: '100Mx' } });
    assert.throws(() => getContainerOOMScoreAdjust(pod, pod.spec.containers[0], STANDARD_MEMORY), (e: unknown) => e instanceof QuantityError && e.field === 'spec.containers[0].resources.requests[memory]');
  });
  it('a zero memory capacity is rejected for burstable pods', () => {
    assert.throws(() => getContainerOOMScoreAdjust(requestNoLimit, requestNoLimit.spec.containers[0], 0), MemoryCapacityError);
  });
});
