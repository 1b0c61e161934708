/**
 * From a stats summary to "which thresholds are met": observations per signal, the met test (with or
 * without min-reclaim), grace periods, node conditions and their transition period, and the order in
 * which met thresholds are handled.
 */
import type { Pod } from '../api/index.js';
import { getThresholdQuantity, type Signal, type Threshold, type ThresholdValue } from './api.js';
import { goSort } from './sort.js';
import { signalToNodeCondition, signalToResource, type NodeConditionType, type ReclaimResource } from './signals.js';
import { SystemContainerPods, type PodStats, type Summary } from './stats.js';

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.signalObservation */
export interface SignalObservation {
  available: number;
  capacity?: number;
  /** When the stat was collected; undefined is Go's zero time. */
  time?: number;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.signalObservations */
export type SignalObservations = Partial<Record<Signal, SignalObservation>>;

/** A pod's stats, if the summary had any for it. @go k8s.io/kubernetes/pkg/kubelet/eviction.statsFunc */
export type StatsFunc = (pod: Pod) => PodStats | undefined;

/** Keyed by threshold identity, as Go keys its map by the Threshold value (whose quantity is a pointer). */
export type ThresholdsObservedAt = Map<Threshold, number>;
export type NodeConditionsObservedAt = Map<NodeConditionType, number>;

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.cachedStatsFunc */
export function cachedStatsFunc(podStats: PodStats[]): StatsFunc {
  const byUID = new Map(podStats.map((s) => [s.podRef.uid, s] as const));
  return (pod) => byUID.get(pod.metadata.uid ?? '');
}

/**
 * One observation per signal the summary can answer. Memory capacity is available + working set;
 * PIDs available is max − running.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.makeSignalObservations
 */
export function makeSignalObservations(summary: Summary): [SignalObservations, StatsFunc] {
  const statsFunc = cachedStatsFunc(summary.pods);
  const result: SignalObservations = {};
  const { node } = summary;
  const memory = node.memory;
  if (memory?.availableBytes !== undefined && memory.workingSetBytes !== undefined) {
    result['memory.available'] = { available: memory.availableBytes, capacity: memory.availableBytes + memory.workingSetBytes, time: memory.time };
  }
  // Without the "pods" system container there is no allocatable signal (Go logs an error).
  const podsMemory = node.systemContainers?.find((c) => c.name === SystemContainerPods)?.memory;
  if (podsMemory?.availableBytes !== undefined && podsMemory.workingSetBytes !== undefined) {
    result['allocatableMemory.available'] = {
      available: podsMemory.availableBytes,
      capacity: podsMemory.availableBytes + podsMemory.workingSetBytes,
      time: podsMemory.time,
    };
  }
  const nodeFs = node.fs;
  if (nodeFs !== undefined) {
    if (nodeFs.availableBytes !== undefined && nodeFs.capacityBytes !== undefined) {
      result['nodefs.available'] = { available: nodeFs.availableBytes, capacity: nodeFs.capacityBytes, time: nodeFs.time };
    }
    if (nodeFs.inodesFree !== undefined && nodeFs.inodes !== undefined) {
      result['nodefs.inodesFree'] = { available: nodeFs.inodesFree, capacity: nodeFs.inodes, time: nodeFs.time };
    }
  }
  const imageFs = node.runtime?.imageFs;
  if (imageFs?.availableBytes !== undefined && imageFs.capacityBytes !== undefined) {
    result['imagefs.available'] = { available: imageFs.availableBytes, capacity: imageFs.capacityBytes, time: imageFs.time };
    // Only looked at when the byte counts are there, as in Go.
    if (imageFs.inodesFree !== undefined && imageFs.inodes !== undefined) {
      result['imagefs.inodesFree'] = { available: imageFs.inodesFree, capacity: imageFs.inodes, time: imageFs.time };
    }
  }
  const rlimit = node.rlimit;
  if (rlimit?.numOfRunningProcesses !== undefined && rlimit.maxPID !== undefined) {
    result['pid.available'] = { available: rlimit.maxPID - rlimit.numOfRunningProcesses, capacity: rlimit.maxPID, time: rlimit.time };
  }
  return [result, statsFunc];
}

/**
 * The thresholds whose signal is below the threshold now. With `enforceMinReclaim`, a threshold counts
 * as met until available rises above threshold + minReclaim (this keeps pressure on until enough is
 * reclaimed). Signals without an observation are skipped.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.thresholdsMet
 */
export function thresholdsMet(thresholds: Threshold[], observations: SignalObservations, enforceMinReclaim: boolean): Threshold[] {
  const results: Threshold[] = [];
  for (const threshold of thresholds) {
    const observed = observations[threshold.signal];
    if (observed === undefined) continue;
    let quantity = getThresholdQuantity(threshold.value, observed.capacity);
    if (enforceMinReclaim && threshold.minReclaim !== undefined) {
      quantity += getThresholdQuantity(threshold.minReclaim, observed.capacity);
    }
    let met = false;
    switch (threshold.operator) {
      case 'LessThan':
        met = quantity > observed.available;
        break;
    }
    if (met) results.push(threshold);
  }
  return results;
}

/**
 * Keeps the thresholds whose stats are newer than last cycle's (or undated), so one stale sample does
 * not evict twice.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.thresholdsUpdatedStats
 */
export function thresholdsUpdatedStats(thresholds: Threshold[], observations: SignalObservations, lastObservations: SignalObservations): Threshold[] {
  return thresholds.filter((threshold) => {
    const observed = observations[threshold.signal];
    if (observed === undefined) return false;
    const last = lastObservations[threshold.signal];
    return last === undefined || observed.time === undefined || observed.time > (last.time ?? -Infinity);
  });
}

/**
 * When each currently met threshold was first seen met: kept from the previous cycle, else `now`.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.thresholdsFirstObservedAt
 */
export function thresholdsFirstObservedAt(thresholds: Threshold[], lastObservedAt: ThresholdsObservedAt, now: number): ThresholdsObservedAt {
  const results: ThresholdsObservedAt = new Map();
  for (const t of thresholds) results.set(t, lastObservedAt.get(t) ?? now);
  return results;
}

/**
 * The thresholds met for at least their grace period (hard thresholds: at once).
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.thresholdsMetGracePeriod
 */
export function thresholdsMetGracePeriod(observedAt: ThresholdsObservedAt, now: number): Threshold[] {
  const results: Threshold[] = [];
  for (const [threshold, at] of observedAt) {
    if (now - at < threshold.gracePeriod) continue;
    results.push(threshold);
  }
  return results;
}

/** The node conditions the thresholds raise, without duplicates. @go k8s.io/kubernetes/pkg/kubelet/eviction.nodeConditions */
export function nodeConditions(thresholds: Threshold[]): NodeConditionType[] {
  const results: NodeConditionType[] = [];
  for (const t of thresholds) {
    const condition = signalToNodeCondition[t.signal];
    if (condition !== undefined && !hasNodeCondition(results, condition)) results.push(condition);
  }
  return results;
}

/**
 * Conditions seen now get `now`; the others keep their last time.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.nodeConditionsLastObservedAt
 */
export function nodeConditionsLastObservedAt(
  conditions: NodeConditionType[],
  lastObservedAt: NodeConditionsObservedAt,
  now: number,
): NodeConditionsObservedAt {
  const results: NodeConditionsObservedAt = new Map();
  for (const c of conditions) results.set(c, now);
  for (const [c, at] of lastObservedAt) if (!results.has(c)) results.set(c, at);
  return results;
}

/**
 * Conditions last seen less than `period` ago: a pressure condition stays reported for the whole
 * transition period after the signal recovers, so it does not flap.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.nodeConditionsObservedSince
 */
export function nodeConditionsObservedSince(observedAt: NodeConditionsObservedAt, period: number, now: number): NodeConditionType[] {
  const results: NodeConditionType[] = [];
  for (const [c, at] of observedAt) if (now - at < period) results.push(c);
  return results;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.hasNodeCondition */
export function hasNodeCondition(inputs: NodeConditionType[], item: NodeConditionType): boolean {
  return inputs.includes(item);
}

/** `a` plus those of `b` not already in it (by value). @go k8s.io/kubernetes/pkg/kubelet/eviction.mergeThresholds */
export function mergeThresholds(a: Threshold[], b: Threshold[]): Threshold[] {
  const results = [...a];
  for (const t of b) if (!hasThreshold(results, t)) results.push(t);
  return results;
}

/**
 * Same signal, operator, grace period and value; min-reclaim is not compared.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.hasThreshold
 */
export function hasThreshold(inputs: Threshold[], item: Threshold): boolean {
  return inputs.some(
    (t) => t.gracePeriod === item.gracePeriod && t.operator === item.operator && t.signal === item.signal && compareThresholdValue(t.value, item.value),
  );
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.compareThresholdValue */
export function compareThresholdValue(a: ThresholdValue, b: ThresholdValue): boolean {
  if (a.quantity !== undefined) return b.quantity !== undefined && a.quantity === b.quantity;
  if (b.quantity !== undefined) return false;
  return a.percentage === b.percentage;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.isHardEvictionThreshold */
export function isHardEvictionThreshold(threshold: Threshold): boolean {
  return threshold.gracePeriod === 0;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.isAllocatableEvictionThreshold */
export function isAllocatableEvictionThreshold(threshold: Threshold): boolean {
  return threshold.signal === 'allocatableMemory.available';
}

/**
 * The first threshold whose signal maps to a resource, with that resource.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.getReclaimableThreshold
 */
export function getReclaimableThreshold(thresholds: Threshold[]): [Threshold, ReclaimResource] | undefined {
  for (const t of thresholds) {
    const resource = signalToResource[t.signal];
    if (resource !== undefined) return [t, resource];
  }
  return undefined;
}

/**
 * Memory thresholds go first; thresholds without a reclaimable resource last.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.byEvictionPriority.Less
 */
export function byEvictionPriorityLess(a: Threshold, b: Threshold): boolean {
  const bHasResource = signalToResource[b.signal] !== undefined;
  return a.signal === 'memory.available' || a.signal === 'allocatableMemory.available' || !bHasResource;
}

/** Sorts in place, as `sort.Sort(byEvictionPriority(thresholds))`. */
export function sortByEvictionPriority(thresholds: Threshold[]): Threshold[] {
  return goSort(thresholds, byEvictionPriorityLess);
}
