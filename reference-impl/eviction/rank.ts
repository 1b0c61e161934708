/**
 * Which pod to evict first. Pods are sorted by a chain of comparisons: using more than requested
 * first, then lower priority first, then the largest usage above request first. Disk and inode
 * pressure measure different filesystems depending on whether the runtime has its own imagefs.
 */
import type { Pod } from '../api/index.js';
import type { Signal } from './api.js';
import { getResourceRequestQuantity, localVolumeNames, podPriority, type EvictionPod } from './pod-helpers.js';
import { goSort } from './sort.js';
import type { FsStats, MemoryStats, PodStats } from './stats.js';
import type { StatsFunc } from './thresholds.js';

/** <0: p1 is evicted before p2; >0: after; 0: undecided. @go k8s.io/kubernetes/pkg/kubelet/eviction.cmpFunc */
export type CmpFunc = (p1: EvictionPod, p2: EvictionPod) => number;

/** Sorts pods in eviction order in place. @go k8s.io/kubernetes/pkg/kubelet/eviction.rankFunc */
export type RankFunc = (pods: EvictionPod[], stats: StatsFunc) => void;

/** Which per-pod disk usage counts. @go k8s.io/kubernetes/pkg/kubelet/eviction.fsStatsType */
export type FsStatsType = 'localVolumeSource' | 'logs' | 'root';

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.multiSorter */
export interface MultiSorter {
  /** @go k8s.io/kubernetes/pkg/kubelet/eviction.(*multiSorter).Sort */
  sort(pods: EvictionPod[]): void;
}

/**
 * Compares with each function in turn until one decides; the last one has the final word.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.orderedBy
 */
export function orderedBy(...cmp: CmpFunc[]): MultiSorter {
  /** @go k8s.io/kubernetes/pkg/kubelet/eviction.(*multiSorter).Less */
  const less = (p1: EvictionPod, p2: EvictionPod): boolean => {
    let k = 0;
    for (; k < cmp.length - 1; k++) {
      const r = cmp[k](p1, p2);
      if (r < 0) return true;
      if (r > 0) return false;
    }
    return cmp[k](p1, p2) < 0;
  };
  return { sort: (pods) => void goSort(pods, less) };
}

/** true before false. @go k8s.io/kubernetes/pkg/kubelet/eviction.cmpBool */
export function cmpBool(a: boolean, b: boolean): number {
  if (a === b) return 0;
  return b ? 1 : -1;
}

const sign = (n: number): number => (n > 0 ? 1 : n < 0 ? -1 : 0);

/** Lower priority first. @go k8s.io/kubernetes/pkg/kubelet/eviction.priority */
export function priority(p1: Pod, p2: Pod): number {
  return sign(podPriority(p1) - podPriority(p2));
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.memoryUsage */
export function memoryUsage(memStats: MemoryStats | undefined): number {
  return memStats?.workingSetBytes ?? 0;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.processUsage */
export function processUsage(processStats: PodStats['processStats']): number {
  return processStats?.processCount ?? 0;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.diskUsage */
export function diskUsage(fsStats: FsStats | undefined): number {
  return fsStats?.usedBytes ?? 0;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.inodeUsage */
export function inodeUsage(fsStats: FsStats | undefined): number {
  return fsStats?.inodesUsed ?? 0;
}

/**
 * Runs `cmp` only when both pods have stats; a pod without stats goes first, since nothing shows it
 * is behaving.
 */
function withStats(stats: StatsFunc, cmp: (p1: EvictionPod, s1: PodStats, p2: EvictionPod, s2: PodStats) => number): CmpFunc {
  return (p1, p2) => {
    const s1 = stats(p1);
    const s2 = stats(p2);
    if (s1 === undefined || s2 === undefined) return cmpBool(s1 === undefined, s2 === undefined);
    return cmp(p1, s1, p2, s2);
  };
}

/** Pods whose working set exceeds their memory request first. @go k8s.io/kubernetes/pkg/kubelet/eviction.exceedMemoryRequests */
export function exceedMemoryRequests(stats: StatsFunc): CmpFunc {
  return withStats(stats, (p1, s1, p2, s2) => {
    const e1 = memoryUsage(s1.memory) > getResourceRequestQuantity(p1, 'memory');
    const e2 = memoryUsage(s2.memory) > getResourceRequestQuantity(p2, 'memory');
    return cmpBool(e1, e2);
  });
}

/** Largest working set above request first. @go k8s.io/kubernetes/pkg/kubelet/eviction.memory */
export function memory(stats: StatsFunc): CmpFunc {
  return withStats(stats, (p1, s1, p2, s2) => {
    const m1 = memoryUsage(s1.memory) - getResourceRequestQuantity(p1, 'memory');
    const m2 = memoryUsage(s2.memory) - getResourceRequestQuantity(p2, 'memory');
    return sign(m2 - m1);
  });
}

/** Most processes first. @go k8s.io/kubernetes/pkg/kubelet/eviction.process */
export function process(stats: StatsFunc): CmpFunc {
  return withStats(stats, (_p1, s1, _p2, s2) => sign(processUsage(s2.processStats) - processUsage(s1.processStats)));
}

/** Per-container rootfs and/or logs usage summed over the pod. @go k8s.io/kubernetes/pkg/kubelet/eviction.containerUsage */
export function containerUsage(podStats: PodStats, statsToMeasure: FsStatsType[]): { disk: number; inodes: number } {
  let disk = 0;
  let inodes = 0;
  for (const c of podStats.containers ?? []) {
    if (statsToMeasure.includes('root')) {
      disk += diskUsage(c.rootfs);
      inodes += inodeUsage(c.rootfs);
    }
    if (statsToMeasure.includes('logs')) {
      disk += diskUsage(c.logs);
      inodes += inodeUsage(c.logs);
    }
  }
  return { disk, inodes };
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.podLocalVolumeUsage */
export function podLocalVolumeUsage(volumeNames: string[], podStats: PodStats): { disk: number; inodes: number } {
  let disk = 0;
  let inodes = 0;
  for (const name of volumeNames) {
    const v = (podStats.volumeStats ?? []).find((s) => s.name === name);
    if (v === undefined) continue;
    disk += diskUsage(v.fsStats);
    inodes += inodeUsage(v.fsStats);
  }
  return { disk, inodes };
}

/** Disk bytes and inodes the pod uses on the measured filesystems. @go k8s.io/kubernetes/pkg/kubelet/eviction.podDiskUsage */
export function podDiskUsage(podStats: PodStats, pod: EvictionPod, statsToMeasure: FsStatsType[]): Record<'ephemeral-storage' | 'inodes', number> {
  const c = containerUsage(podStats, statsToMeasure);
  let disk = c.disk;
  let inodes = c.inodes;
  if (statsToMeasure.includes('localVolumeSource')) {
    const v = podLocalVolumeUsage(localVolumeNames(pod), podStats);
    disk += v.disk;
    inodes += v.inodes;
  }
  return { 'ephemeral-storage': disk, inodes };
}

type DiskResource = 'ephemeral-storage' | 'inodes';

/** Pods using more disk (or inodes) than they requested first. @go k8s.io/kubernetes/pkg/kubelet/eviction.exceedDiskRequests */
export function exceedDiskRequests(stats: StatsFunc, fsStatsToMeasure: FsStatsType[], diskResource: DiskResource): CmpFunc {
  return withStats(stats, (p1, s1, p2, s2) => {
    const e1 = podDiskUsage(s1, p1, fsStatsToMeasure)[diskResource] > getResourceRequestQuantity(p1, diskResource);
    const e2 = podDiskUsage(s2, p2, fsStatsToMeasure)[diskResource] > getResourceRequestQuantity(p2, diskResource);
    return cmpBool(e1, e2);
  });
}

/** Largest usage above request first. @go k8s.io/kubernetes/pkg/kubelet/eviction.disk */
export function disk(stats: StatsFunc, fsStatsToMeasure: FsStatsType[], diskResource: DiskResource): CmpFunc {
  return withStats(stats, (p1, s1, p2, s2) => {
    // Go subtracts the ephemeral-storage request even when ranking by inodes.
    const d1 = podDiskUsage(s1, p1, fsStatsToMeasure)[diskResource] - getResourceRequestQuantity(p1, 'ephemeral-storage');
    const d2 = podDiskUsage(s2, p2, fsStatsToMeasure)[diskResource] - getResourceRequestQuantity(p2, 'ephemeral-storage');
    return sign(d2 - d1);
  });
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.rankMemoryPressure */
export function rankMemoryPressure(pods: EvictionPod[], stats: StatsFunc): void {
  orderedBy(exceedMemoryRequests(stats), priority, memory(stats)).sort(pods);
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.rankPIDPressure */
export function rankPIDPressure(pods: EvictionPod[], stats: StatsFunc): void {
  orderedBy(priority, process(stats)).sort(pods);
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.rankDiskPressureFunc */
export function rankDiskPressureFunc(fsStatsToMeasure: FsStatsType[], diskResource: DiskResource): RankFunc {
  return (pods, stats) => orderedBy(exceedDiskRequests(stats, fsStatsToMeasure, diskResource), priority, disk(stats, fsStatsToMeasure, diskResource)).sort(pods);
}

/**
 * The rank function per signal. With a separate imagefs, nodefs pressure counts logs and local volumes
 * and imagefs pressure counts container root filesystems; on a shared disk both count everything.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.buildSignalToRankFunc
 */
export function buildSignalToRankFunc(withImageFs: boolean): Record<Signal, RankFunc> {
  const all: FsStatsType[] = ['root', 'logs', 'localVolumeSource'];
  const nodefs: FsStatsType[] = withImageFs ? ['logs', 'localVolumeSource'] : all;
  const imagefs: FsStatsType[] = withImageFs ? ['root'] : all;
  return {
    'memory.available': rankMemoryPressure,
    'allocatableMemory.available': rankMemoryPressure,
    'pid.available': rankPIDPressure,
    'nodefs.available': rankDiskPressureFunc(nodefs, 'ephemeral-storage'),
    'nodefs.inodesFree': rankDiskPressureFunc(nodefs, 'inodes'),
    'imagefs.available': rankDiskPressureFunc(imagefs, 'ephemeral-storage'),
    'imagefs.inodesFree': rankDiskPressureFunc(imagefs, 'inodes'),
  };
}

