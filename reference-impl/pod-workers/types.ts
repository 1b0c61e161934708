/**
 * Shapes exchanged with the pod workers: update requests, kill options, and the per-pod sync state.
 */
import type { Pod, PodStatus } from '../api/index.js';
import type { RuntimePodStatus } from '../kuberuntime/index.js';

/** @go k8s.io/kubernetes/pkg/kubelet/types.SyncPodType */
export type SyncPodType = 'SyncPodSync' | 'SyncPodUpdate' | 'SyncPodCreate' | 'SyncPodKill';

/** Where a pod is in its lifecycle as seen by its worker. @go k8s.io/kubernetes/pkg/kubelet.PodWorkerState */
export type PodWorkerState = 'sync' | 'terminating' | 'terminated';

/** A pod known only from the runtime (no config): enough to kill it. @go k8s.io/kubernetes/pkg/kubelet/container.Pod */
export interface RunningPod {
  id: string;
  name: string;
  namespace: string;
  containers?: { name: string; image?: string }[];
}

/** @go k8s.io/kubernetes/pkg/kubelet.KillPodOptions */
export interface KillPodOptions {
  /** Called once the kill completes (Go closes CompletedCh). */
  completed?: () => void;
  /** The kill is an eviction: resources are reclaimed more eagerly. */
  evict?: boolean;
  /** Rewrites the pod status at the time of the kill. */
  podStatusFunc?: (status: PodStatus) => void;
  podTerminationGracePeriodSecondsOverride?: number;
}

/** @go k8s.io/kubernetes/pkg/kubelet.UpdatePodOptions */
export interface UpdatePodOptions {
  updateType: SyncPodType;
  /** When the update was created (ms); only used for latency metrics in Go. */
  startTime?: number;
  pod?: Pod;
  mirrorPod?: Pod;
  /** Required when pod is absent; ignored when pod is set. */
  runningPod?: RunningPod;
  killPodOptions?: KillPodOptions;
}

/** Cancellation handle for one sync; the port never interrupts a sync, it only records the request. */
export interface SyncContext {
  cancelled: boolean;
}

/**
 * Per-pod state of the three-phase lifecycle. Times are ms on the injected clock; undefined is Go's
 * zero time.
 * @go k8s.io/kubernetes/pkg/kubelet.podSyncStatus
 */
export class PodSyncStatus {
  ctx?: SyncContext;
  cancelFn?: () => void;
  fullname = '';
  /** The worker has something to do (queued or in progress). */
  working = false;
  /** The newest update, not yet picked up by the worker; a newer one replaces it. */
  pendingUpdate?: UpdatePodOptions;
  /** What the worker is reconciling towards; visible to the rest of the kubelet once started. */
  activeUpdate?: UpdatePodOptions;
  syncedAt?: number;
  startedAt?: number;
  terminatingAt?: number;
  terminatedAt?: number;
  gracePeriod = 0;
  notifyPostTerminating: (() => void)[] = [];
  statusPostTerminating: ((status: PodStatus) => void)[] = [];
  startedTerminating = false;
  deleted = false;
  evicted = false;
  finished = false;
  restartRequested = false;
  observedRuntime = false;

  constructor(init: Partial<PodSyncStatus> = {}) {
    Object.assign(this, init);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsWorking */
  isWorking(): boolean { return this.working; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsTerminationRequested */
  isTerminationRequested(): boolean { return this.terminatingAt !== undefined; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsTerminationStarted */
  isTerminationStarted(): boolean { return this.startedTerminating; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsTerminated */
  isTerminated(): boolean { return this.terminatedAt !== undefined; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsFinished */
  isFinished(): boolean { return this.finished; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsEvicted */
  isEvicted(): boolean { return this.evicted; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsDeleted */
  isDeleted(): boolean { return this.deleted; }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).IsStarted */
  isStarted(): boolean { return this.startedAt !== undefined; }

  /** @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).WorkType */
  workType(): PodWorkerState {
    if (this.isTerminated()) return 'terminated';
    if (this.isTerminationRequested()) return 'terminating';
    return 'sync';
  }

  /**
   * Folds an update into activeUpdate: the pod is replaced unless the update only carries a runtime
   * pod and a real pod is already known; a missing mirror pod keeps the previous one; kill options
   * keep only eviction and the grace override. The update type is not copied, so it stays at Go's
   * zero value, SyncPodSync.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podSyncStatus).mergeLastUpdate
   */
  mergeLastUpdate(other: UpdatePodOptions): void {
    const opts = (this.activeUpdate ??= { updateType: 'SyncPodSync' });
    if (opts.pod === undefined || other.runningPod === undefined) opts.pod = other.pod;
    opts.runningPod = other.runningPod;
    if (other.mirrorPod !== undefined) opts.mirrorPod = other.mirrorPod;
    if (other.killPodOptions !== undefined) {
      opts.killPodOptions = {};
      if (other.killPodOptions.evict) opts.killPodOptions.evict = true;
      const override = other.killPodOptions.podTerminationGracePeriodSecondsOverride;
      if (override !== undefined) opts.killPodOptions.podTerminationGracePeriodSecondsOverride = override;
    }
  }
}

/**
 * What the pod workers call to act on a pod (implemented by the Kubelet).
 * Errors are thrown; throwing ContextCanceledError means the sync was cancelled by a newer update.
 * @go k8s.io/kubernetes/pkg/kubelet.podSyncer
 */
export interface PodSyncer {
  /** Returns true when the pod reached a terminal phase on its own. */
  syncPod(ctx: SyncContext, updateType: SyncPodType, pod: Pod, mirrorPod: Pod | undefined, podStatus: RuntimePodStatus | undefined): boolean;
  syncTerminatingPod(ctx: SyncContext, pod: Pod, podStatus: RuntimePodStatus | undefined, gracePeriod: number | undefined, podStatusFn: ((s: PodStatus) => void) | undefined): void;
  syncTerminatingRuntimePod(ctx: SyncContext, runningPod: RunningPod): void;
  syncTerminatedPod(ctx: SyncContext, pod: Pod, podStatus: RuntimePodStatus | undefined): void;
}

/** Go's context.Canceled as seen by the worker loop. */
export class ContextCanceledError extends Error {
  constructor() {
    super('context canceled');
    this.name = 'ContextCanceledError';
  }
}

/** Delayed re-sync requests for pods. @go k8s.io/kubernetes/pkg/kubelet/util/queue.WorkQueue */
export interface WorkQueue {
  enqueue(uid: string, delayMs: number): void;
}

/**
 * The runtime status cache.
 * Simplified: getNewerThan returns at once instead of blocking until the PLEG refreshes the entry.
 * @go k8s.io/kubernetes/pkg/kubelet/container.Cache
 */
export interface PodCache {
  /** Throws when the runtime has no record of the pod. */
  get(uid: string): RuntimePodStatus;
  getNewerThan(uid: string, minTime: number): RuntimePodStatus;
}
