/**
 * Builders shared by the eviction tests, mirroring the helpers at the bottom of the Go test files
 * (newPod, newContainer, newPodMemoryStats, makeMemoryStats …). Not part of the public entry.
 */
import { intValue, type Container, type ResourceList } from '../api/index.js';
import type { Threshold } from './api.js';
import { localVolumeNames, type EvictionPod, type EvictionVolume } from './pod-helpers.js';
import type { PodStats, Summary, SummaryProvider } from './stats.js';
import { compareThresholdValue, hasThreshold, type StatsFunc } from './thresholds.js';

/** A quantity string as an integer number of base units, like resource.MustParse(v).Value(). */
export const q = (v: string): number => intValue(v);

export function newResourceList(cpu: string, memory: string, disk: string): ResourceList {
  const res: ResourceList = {};
  if (cpu !== '') res.cpu = cpu;
  if (memory !== '') res.memory = memory;
  if (disk !== '') res['ephemeral-storage'] = disk;
  return res;
}

export function newContainer(name: string, requests?: ResourceList, limits?: ResourceList): Container {
  return { name, resources: { requests, limits } };
}

/** The pod's UID is its name, so names must be unique within a test. */
export function newPod(name: string, priority: number, containers: Container[], volumes?: EvictionVolume[]): EvictionPod {
  return { metadata: { name, uid: name }, spec: { containers, volumes, priority } };
}

export const emptyDirVolume = (name: string): EvictionVolume => ({ name, emptyDir: {} });

const podRef = (pod: EvictionPod) => ({ name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', uid: pod.metadata.uid ?? '' });

export function newPodMemoryStats(pod: EvictionPod, workingSet: string): PodStats {
  return { podRef: podRef(pod), memory: { workingSetBytes: q(workingSet) } };
}

export function newPodProcessStats(pod: EvictionPod, num: number): PodStats {
  return { podRef: podRef(pod), processStats: { processCount: num } };
}

/** Every container uses `rootFs` and `logs`; every local volume uses `perLocalVolume`. */
export function newPodDiskStats(pod: EvictionPod, rootFs: string, logs: string, perLocalVolume: string): PodStats {
  return {
    podRef: podRef(pod),
    containers: pod.spec.containers.map((c) => ({ name: c.name, rootfs: { usedBytes: q(rootFs) }, logs: { usedBytes: q(logs) } })),
    volumeStats: localVolumeNames(pod).map((name) => ({ name, fsStats: { usedBytes: q(perLocalVolume) } })),
  };
}

export function newPodInodeStats(pod: EvictionPod, rootFs: string, logs: string, perLocalVolume: string): PodStats {
  return {
    podRef: podRef(pod),
    containers: pod.spec.containers.map((c) => ({ name: c.name, rootfs: { inodesUsed: q(rootFs) }, logs: { inodesUsed: q(logs) } })),
    volumeStats: localVolumeNames(pod).map((name) => ({ name, fsStats: { inodesUsed: q(perLocalVolume) } })),
  };
}

/** A stats function backed by a pod → stats map (pods absent from it have no stats). */
export function statsFnFrom(stats: Map<EvictionPod, PodStats>): StatsFunc {
  return (pod) => stats.get(pod as EvictionPod);
}

/** Node memory: available = working set = the given amount, for the node and the "pods" cgroup. */
export function makeMemoryStats(nodeAvailableBytes: string, podStats: Iterable<PodStats>): Summary {
  const v = q(nodeAvailableBytes);
  return {
    node: {
      memory: { availableBytes: v, workingSetBytes: v },
      systemContainers: [{ name: 'pods', memory: { availableBytes: v, workingSetBytes: v } }],
    },
    pods: [...podStats],
  };
}

/** Pod with one container of the same name and pod-level memory stats. */
export function makePodWithMemoryStats(name: string, priority: number, requests: ResourceList, limits: ResourceList, memoryWorkingSet: string): [EvictionPod, PodStats] {
  const pod = newPod(name, priority, [newContainer(name, requests, limits)]);
  return [pod, newPodMemoryStats(pod, memoryWorkingSet)];
}

export class FakeSummaryProvider implements SummaryProvider {
  constructor(public result: Summary) {}
  get(): Summary {
    return this.result;
  }
}

/** Order-independent comparison by value, min-reclaim included (Go's thresholdsEqual). */
export function thresholdsEqual(expected: Threshold[], actual: Threshold[]): boolean {
  if (expected.length !== actual.length) return false;
  const same = (a: Threshold, b: Threshold) =>
    a.gracePeriod === b.gracePeriod &&
    a.operator === b.operator &&
    a.signal === b.signal &&
    compareThresholdValue(a.value, b.value) &&
    (a.minReclaim === undefined ? b.minReclaim === undefined : b.minReclaim !== undefined && compareThresholdValue(a.minReclaim, b.minReclaim));
  return expected.every((a) => actual.some((b) => same(a, b))) && actual.every((a) => expected.some((b) => same(a, b)));
}

/** Order-independent comparison ignoring min-reclaim (Go's thresholdList.Equal). */
export function thresholdListEqual(a: Threshold[], b: Threshold[]): boolean {
  return a.length === b.length && a.every((t) => hasThreshold(b, t));
}
