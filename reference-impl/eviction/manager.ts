/**
 * The eviction manager. Every monitoring interval, synchronize() reads node stats, works out which
 * thresholds are met (honouring min-reclaim and grace periods), updates the node's pressure
 * conditions, tries node-level cleanup for disk pressure, and otherwise evicts at most one pod, chosen
 * by the rank function of the most urgent signal. Admit() turns pods away while pressure lasts.
 */
import type { Clock, ObjectReference, PodCondition, PodStatus } from '../api/index.js';
import type { Signal, Threshold } from './api.js';
import { evictionMessage } from './message.js';
import { getPodQOS, isCriticalPod, TaintNodeMemoryPressure, tolerationsTolerateTaint, type EvictionPod } from './pod-helpers.js';
import { buildSignalToRankFunc, type RankFunc } from './rank.js';
import type { NodeConditionType } from './signals.js';
import type { SummaryProvider } from './stats.js';
import {
  getReclaimableThreshold,
  hasNodeCondition,
  isHardEvictionThreshold,
  makeSignalObservations,
  mergeThresholds,
  nodeConditions as nodeConditionsFor,
  nodeConditionsLastObservedAt,
  nodeConditionsObservedSince,
  sortByEvictionPriority,
  thresholdsFirstObservedAt,
  thresholdsMet,
  thresholdsMetGracePeriod,
  thresholdsUpdatedStats,
  type NodeConditionsObservedAt,
  type SignalObservations,
  type ThresholdsObservedAt,
} from './thresholds.js';

/** The status reason of an evicted pod. @go k8s.io/kubernetes/pkg/kubelet/eviction.Reason */
export const Reason = 'Evicted';

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.Config */
export interface EvictionConfig {
  /** Milliseconds a pressure condition stays on after its last sighting (kubelet default 5m). */
  pressureTransitionPeriod: number;
  /** Grace period given to pods evicted for a soft threshold. */
  maxPodGracePeriodSeconds: number;
  thresholds: Threshold[];
}

/**
 * Kills a pod and applies `statusFn` to its status; throws on failure.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.KillPodFunc
 */
export type KillPodFunc = (pod: EvictionPod, isEvicted: boolean, gracePeriodOverride: number, statusFn: (status: PodStatus) => void) => void;

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.ActivePodsFunc */
export type ActivePodsFunc = () => EvictionPod[];

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.DiskInfoProvider */
export interface DiskInfoProvider {
  hasDedicatedImageFs(): boolean;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.ImageGC */
export interface ImageGC {
  deleteUnusedImages(): void;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.ContainerGC */
export interface ContainerGC {
  deleteAllUnusedContainers(): void;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.nodeReclaimFunc */
export type NodeReclaimFunc = () => void;

/** @go k8s.io/client-go/tools/record.EventRecorder */
export interface EventRecorder {
  event(object: ObjectReference | EvictionPod | undefined, eventType: 'Normal' | 'Warning', reason: string, message: string, annotations?: Record<string, string>): void;
}

/** @go k8s.io/kubernetes/pkg/kubelet/lifecycle.PodAdmitResult */
export interface PodAdmitResult {
  admit: boolean;
  reason?: string;
  message?: string;
}

export interface EvictionManagerOptions {
  summaryProvider: SummaryProvider;
  config: EvictionConfig;
  killPodFunc: KillPodFunc;
  imageGC: ImageGC;
  containerGC: ContainerGC;
  recorder: EventRecorder;
  nodeRef?: ObjectReference;
  clock: Clock;
  /** Feature gate PodDisruptionConditions (beta, on by default in v1.28). */
  podDisruptionConditions?: boolean;
}

/**
 * Disk reclaim steps per signal: delete dead containers, then unused images. With a separate imagefs,
 * nodefs pressure has no such step (only pod eviction frees logs and volumes).
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.buildSignalToNodeReclaimFuncs
 */
export function buildSignalToNodeReclaimFuncs(imageGC: ImageGC, containerGC: ContainerGC, withImageFs: boolean): Partial<Record<Signal, NodeReclaimFunc[]>> {
  const gc: NodeReclaimFunc[] = [() => containerGC.deleteAllUnusedContainers(), () => imageGC.deleteUnusedImages()];
  return {
    'nodefs.available': withImageFs ? [] : gc,
    'nodefs.inodesFree': withImageFs ? [] : gc,
    'imagefs.available': gc,
    'imagefs.inodesFree': gc,
  };
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.managerImpl */
export class EvictionManager {
  private readonly clock: Clock;
  private readonly config: EvictionConfig;
  private readonly killPodFunc: KillPodFunc;
  private readonly imageGC: ImageGC;
  private readonly containerGC: ContainerGC;
  private readonly recorder: EventRecorder;
  private readonly nodeRef: ObjectReference | undefined;
  private readonly summaryProvider: SummaryProvider;
  private readonly podDisruptionConditions: boolean;
  /** The pressure conditions currently reported; read by Admit and the node status. */
  nodeConditions: NodeConditionType[] = [];
  private nodeConditionsLastObservedAt: NodeConditionsObservedAt = new Map();
  private thresholdsFirstObservedAt: ThresholdsObservedAt = new Map();
  /** Thresholds met (grace period included) last cycle and not yet relieved by min-reclaim. */
  private thresholdsMet: Threshold[] = [];
  private signalToRankFunc: Record<Signal, RankFunc> | undefined;
  private signalToNodeReclaimFuncs: Partial<Record<Signal, NodeReclaimFunc[]>> = {};
  private lastObservations: SignalObservations = {};
  private dedicatedImageFs: boolean | undefined;

  /**
   * @go k8s.io/kubernetes/pkg/kubelet/eviction.NewManager
   * Local-storage limit eviction is absent, as if LocalStorageCapacityIsolation were off.
   * Simplified: no memcg threshold notifiers, no local-storage eviction; the clock is injected.
   */
  constructor(opts: EvictionManagerOptions) {
    validateConfig(opts.config);
    this.clock = opts.clock;
    this.config = opts.config;
    this.killPodFunc = opts.killPodFunc;
    this.imageGC = opts.imageGC;
    this.containerGC = opts.containerGC;
    this.recorder = opts.recorder;
    this.nodeRef = opts.nodeRef;
    this.summaryProvider = opts.summaryProvider;
    this.podDisruptionConditions = opts.podDisruptionConditions ?? true;
  }

  /**
   * No conditions: admit. Critical pods: always admit. Memory pressure alone: admit all but BestEffort
   * pods, and BestEffort pods that tolerate the memory-pressure taint. Any other pressure: reject.
   * @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).Admit
   */
  admit(pod: EvictionPod): PodAdmitResult {
    if (this.nodeConditions.length === 0) return { admit: true };
    if (isCriticalPod(pod)) return { admit: true };
    const onlyMemoryPressure = hasNodeCondition(this.nodeConditions, 'MemoryPressure') && this.nodeConditions.length === 1;
    if (onlyMemoryPressure) {
      if (getPodQOS(pod) !== 'BestEffort') return { admit: true };
      if (tolerationsTolerateTaint(pod.spec.tolerations, { key: TaintNodeMemoryPressure, effect: 'NoSchedule' })) return { admit: true };
    }
    return { admit: false, reason: Reason, message: `The node had condition: [${this.nodeConditions.join(' ')}]. ` };
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).IsUnderMemoryPressure */
  isUnderMemoryPressure(): boolean {
    return hasNodeCondition(this.nodeConditions, 'MemoryPressure');
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).IsUnderDiskPressure */
  isUnderDiskPressure(): boolean {
    return hasNodeCondition(this.nodeConditions, 'DiskPressure');
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).IsUnderPIDPressure */
  isUnderPIDPressure(): boolean {
    return hasNodeCondition(this.nodeConditions, 'PIDPressure');
  }

  /**
   * One control-loop pass. Returns the evicted pod (at most one), or undefined.
   * @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).synchronize
   * Stats or disk-info failures end the pass quietly, as the Go code does after logging.
   * Simplified: no metrics, no memcg notifier refresh, no local-storage eviction.
   */
  synchronize(diskInfoProvider: DiskInfoProvider, podFunc: ActivePodsFunc): EvictionPod[] | undefined {
    let thresholds = this.config.thresholds;
    if (thresholds.length === 0) return undefined;

    // The rank and reclaim tables depend on the disk layout, learned once.
    if (this.dedicatedImageFs === undefined) {
      let hasImageFs: boolean;
      try {
        hasImageFs = diskInfoProvider.hasDedicatedImageFs();
      } catch {
        return undefined;
      }
      this.dedicatedImageFs = hasImageFs;
      this.signalToRankFunc = buildSignalToRankFunc(hasImageFs);
      this.signalToNodeReclaimFuncs = buildSignalToNodeReclaimFuncs(this.imageGC, this.containerGC, hasImageFs);
    }

    const activePods = podFunc();
    let summary;
    try {
      summary = this.summaryProvider.get(true);
    } catch {
      return undefined;
    }

    const [observations, statsFunc] = makeSignalObservations(summary);

    // Met now, ignoring grace periods; plus last cycle's that have not yet recovered by min-reclaim.
    thresholds = thresholdsMet(thresholds, observations, false);
    if (this.thresholdsMet.length > 0) {
      const notYetResolved = thresholdsMet(this.thresholdsMet, observations, true);
      thresholds = mergeThresholds(thresholds, notYetResolved);
    }

    const now = this.clock.now();
    const firstObservedAt = thresholdsFirstObservedAt(thresholds, this.thresholdsFirstObservedAt, now);

    // Conditions stay on for the transition period after their last sighting.
    let conditions = nodeConditionsFor(thresholds);
    const conditionsLastObservedAt = nodeConditionsLastObservedAt(conditions, this.nodeConditionsLastObservedAt, now);
    conditions = nodeConditionsObservedSince(conditionsLastObservedAt, this.config.pressureTransitionPeriod, now);

    // Only thresholds past their grace period drive eviction.
    thresholds = thresholdsMetGracePeriod(firstObservedAt, now);

    this.nodeConditions = conditions;
    this.thresholdsFirstObservedAt = firstObservedAt;
    this.nodeConditionsLastObservedAt = conditionsLastObservedAt;
    this.thresholdsMet = thresholds;

    // Skip signals whose stats have not changed since the last pass.
    thresholds = thresholdsUpdatedStats(thresholds, observations, this.lastObservations);
    this.lastObservations = observations;

    if (thresholds.length === 0) return undefined;

    sortByEvictionPriority(thresholds);
    const reclaimable = getReclaimableThreshold(thresholds);
    if (reclaimable === undefined) return undefined;
    const [thresholdToReclaim, resourceToReclaim] = reclaimable;

    this.recorder.event(this.nodeRef, 'Warning', 'EvictionThresholdMet', `Attempting to reclaim ${resourceToReclaim}`);

    if (this.reclaimNodeLevelResources(thresholdToReclaim.signal)) return undefined;

    const rank = this.signalToRankFunc?.[thresholdToReclaim.signal];
    if (rank === undefined) return undefined;
    if (activePods.length === 0) return undefined;

    rank(activePods, statsFunc);

    // At most one pod per pass: the first one that is not critical.
    for (const pod of activePods) {
      const gracePeriodOverride = isHardEvictionThreshold(thresholdToReclaim) ? 0 : this.config.maxPodGracePeriodSeconds;
      const { message, annotations } = evictionMessage(resourceToReclaim, pod, statsFunc, thresholds, observations);
      const condition: PodCondition | undefined = this.podDisruptionConditions
        ? { type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message }
        : undefined;
      if (this.evictPod(pod, gracePeriodOverride, message, annotations, condition)) return [pod];
    }
    return undefined;
  }

  /**
   * Runs the signal's reclaim steps (dead containers, unused images), re-reads stats, and reports
   * whether every configured threshold is now clear by its min-reclaim margin.
   * @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).reclaimNodeLevelResources
   */
  private reclaimNodeLevelResources(signal: Signal): boolean {
    const funcs = this.signalToNodeReclaimFuncs[signal] ?? [];
    for (const reclaim of funcs) {
      try {
        reclaim();
      } catch {
        // Go logs and carries on with the next step.
      }
    }
    if (funcs.length === 0) return false;
    let summary;
    try {
      summary = this.summaryProvider.get(true);
    } catch {
      return false;
    }
    const [observations] = makeSignalObservations(summary);
    return thresholdsMet(this.config.thresholds, observations, true).length === 0;
  }

  /**
   * Kills the pod with the eviction status; critical pods are refused. A kill error is only logged:
   * the pod still counts as this pass's eviction.
   * @go k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).evictPod
   */
  private evictPod(
    pod: EvictionPod,
    gracePeriodOverride: number,
    evictMsg: string,
    annotations: Record<string, string>,
    condition: PodCondition | undefined,
  ): boolean {
    if (isCriticalPod(pod)) return false;
    this.recorder.event(pod, 'Warning', Reason, evictMsg, annotations);
    try {
      this.killPodFunc(pod, true, gracePeriodOverride, (status) => {
        status.phase = 'Failed';
        status.reason = Reason;
        status.message = evictMsg;
        if (condition !== undefined) updatePodCondition(status, condition, this.clock.now());
      });
    } catch {
      // Logged in Go; the eviction attempt still counts.
    }
    return true;
  }
}

/**
 * Adds or replaces the condition of the same type, keeping the old transition time when the status
 * did not change.
 * @go k8s.io/kubernetes/pkg/api/v1/pod.UpdatePodCondition
 */
export function updatePodCondition(status: PodStatus, condition: PodCondition, now: number): boolean {
  const next: PodCondition = { ...condition, lastTransitionTime: new Date(now).toISOString() };
  const conditions = (status.conditions ??= []);
  const index = conditions.findIndex((c) => c.type === condition.type);
  if (index === -1) {
    conditions.push(next);
    return true;
  }
  const old = conditions[index];
  if (next.status === old.status) next.lastTransitionTime = old.lastTransitionTime;
  const changed =
    next.status !== old.status || next.reason !== old.reason || next.message !== old.message || next.lastProbeTime !== old.lastProbeTime || next.lastTransitionTime !== old.lastTransitionTime;
  conditions[index] = next;
  return changed;
}

/** Rejects settings the kubelet's flag parsing would never produce. */
function validateConfig(config: EvictionConfig): void {
  if (!(config.pressureTransitionPeriod >= 0)) {
    throw new RangeError(`evictionPressureTransitionPeriod: Invalid value: ${config.pressureTransitionPeriod}: must not be negative`);
  }
  if (!(config.maxPodGracePeriodSeconds >= 0)) {
    throw new RangeError(`evictionMaxPodGracePeriod: Invalid value: ${config.maxPodGracePeriodSeconds}: must not be negative`);
  }
  config.thresholds.forEach((t, i) => {
    if (!(t.gracePeriod >= 0)) throw new RangeError(`thresholds[${i}].gracePeriod: Invalid value: ${t.gracePeriod}: must not be negative`);
    if (t.value.quantity !== undefined && !(t.value.quantity >= 0)) {
      throw new RangeError(`thresholds[${i}].value.quantity: Invalid value: ${t.value.quantity}: must not be negative`);
    }
    if (!(t.value.percentage >= 0 && t.value.percentage <= 1)) {
      throw new RangeError(`thresholds[${i}].value.percentage: Invalid value: ${t.value.percentage}: must be between 0 and 1`);
    }
  });
}

