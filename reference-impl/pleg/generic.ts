/**
 * The generic PLEG: it finds container changes by listing the runtime periodically and diffing the
 * listing against the previous one, then tells the sync loop which pods need attention.
 */
import type { Clock } from '../api/index.js';
import { MINUTE, SECOND } from '../api/index.js';
import { EventChannel, type PodLifecycleEvent } from './event.js';
import { PodRecords } from './pod-records.js';
import type { PodStatusCache } from './cache.js';
import {
  findContainerByID,
  findSandboxByID,
  type ContainerID,
  type ContainerState,
  type Runtime,
  type RuntimeContainer,
  type RuntimePod,
  type RuntimePodStatus,
} from './runtime-types.js';

/** @go k8s.io/kubernetes/pkg/kubelet/pleg.RelistDuration */
export interface RelistDuration {
  /** Milliseconds between relists. */
  relistPeriod: number;
  /** Healthy() fails once the last relist is older than this many milliseconds. */
  relistThreshold: number;
}

/** The kubelet's settings for the generic PLEG (kubelet.go genericPlegRelistPeriod/Threshold). */
export const DEFAULT_RELIST_DURATION: RelistDuration = { relistPeriod: 1 * SECOND, relistThreshold: 3 * MINUTE };
/** kubelet.go plegChannelCapacity. */
export const PLEG_CHANNEL_CAPACITY = 1000;

/** kubecontainer.State plus "non-existent" for a container missing from one snapshot. */
type PlegContainerState = 'running' | 'exited' | 'unknown' | 'non-existent';

/**
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.convertState
 */
export function convertState(state: ContainerState): PlegContainerState {
  switch (state) {
    case 'created':
      // The kubelet does not act on "created" yet.
      return 'unknown';
    case 'running':
      return 'running';
    case 'exited':
      return 'exited';
    case 'unknown':
      return 'unknown';
    default:
      throw new Error(`unrecognized container state: ${String(state)}`);
  }
}

/**
 * The events for one container whose state went from `oldState` to `newState`. A container that
 * vanished without being seen to exit gets both ContainerDied and ContainerRemoved.
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.generateEvents
 */
export function generateEvents(podID: string, cid: string, oldState: PlegContainerState, newState: PlegContainerState): PodLifecycleEvent[] {
  if (newState === oldState) return [];
  switch (newState) {
    case 'running':
      return [{ id: podID, type: 'ContainerStarted', data: cid }];
    case 'exited':
      return [{ id: podID, type: 'ContainerDied', data: cid }];
    case 'unknown':
      return [{ id: podID, type: 'ContainerChanged', data: cid }];
    case 'non-existent':
      if (oldState === 'exited') return [{ id: podID, type: 'ContainerRemoved', data: cid }];
      return [
        { id: podID, type: 'ContainerDied', data: cid },
        { id: podID, type: 'ContainerRemoved', data: cid },
      ];
  }
}

/**
 * Containers and sandboxes of all given snapshots, each ID once (first seen wins).
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.getContainersFromPods
 */
export function getContainersFromPods(...pods: (RuntimePod | undefined)[]): RuntimeContainer[] {
  const seen = new Set<string>();
  const containers: RuntimeContainer[] = [];
  const fill = (list: RuntimeContainer[] | undefined) => {
    for (const c of list ?? []) {
      if (seen.has(c.id.id)) continue;
      seen.add(c.id.id);
      containers.push(c);
    }
  };
  for (const p of pods) {
    if (!p) continue;
    fill(p.containers);
    // Sandboxes are tracked as if they were containers.
    fill(p.sandboxes);
  }
  return containers;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.getContainerState
 */
function getContainerState(pod: RuntimePod | undefined, cid: ContainerID): PlegContainerState {
  if (!pod) return 'non-existent';
  const c = findContainerByID(pod, cid) ?? findSandboxByID(pod, cid);
  return c ? convertState(c.state) : 'non-existent';
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.computeEvents
 */
export function computeEvents(oldPod: RuntimePod | undefined, newPod: RuntimePod | undefined, cid: ContainerID): PodLifecycleEvent[] {
  const pid = oldPod?.id ?? newPod?.id ?? '';
  return generateEvents(pid, cid.id, getContainerState(oldPod, cid), getContainerState(newPod, cid));
}

/** What the kubelet_running_containers and kubelet_running_pods gauges show after a relist. */
export interface RunningCounts {
  /** Containers (not sandboxes) per kubecontainer state. */
  containersByState: Partial<Record<ContainerState, number>>;
  /** Pods with at least one running sandbox. */
  runningPods: number;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.updateRunningPodAndContainerMetrics
 * Simplified: returns the gauge values instead of setting Prometheus metrics.
 */
export function runningPodAndContainerCounts(pods: RuntimePod[]): RunningCounts {
  const containersByState: Partial<Record<ContainerState, number>> = {};
  let runningPods = 0;
  for (const pod of pods) {
    for (const c of pod.containers ?? []) containersByState[c.state] = (containersByState[c.state] ?? 0) + 1;
    if ((pod.sandboxes ?? []).some((s) => s.state === 'running')) runningPods++;
  }
  return { containersByState, runningPods };
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.GenericPLEG
 * Simplified: no Start/Stop goroutine; whoever drives it calls relist() once per relistPeriod.
 * The EventedPLEG gate is off (its 1.28 default).
 */
export class GenericPLEG {
  private readonly podRecords = new PodRecords();
  private relistTime: number | undefined;
  private podsToReinspect = new Map<string, RuntimePod | undefined>();
  /** Gauge values from the last successful listing. */
  counts: RunningCounts = { containersByState: {}, runningPods: 0 };

  /** @go k8s.io/kubernetes/pkg/kubelet/pleg.NewGenericPLEG */
  constructor(
    private readonly runtime: Runtime,
    private readonly eventChannel: EventChannel,
    private relistDuration: RelistDuration,
    private readonly cache: PodStatusCache | undefined,
    private readonly clock: Clock,
  ) {}

  /** @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Watch */
  watch(): EventChannel {
    return this.eventChannel;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Update */
  update(relistDuration: RelistDuration): void {
    this.relistDuration = relistDuration;
  }

  /**
   * Unhealthy before the first successful relist and whenever the last one is older than the threshold.
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Healthy
   */
  healthy(): { ok: boolean; error?: string } {
    if (this.relistTime === undefined) return { ok: false, error: 'pleg has yet to be successful' };
    const elapsed = this.clock.now() - this.relistTime;
    if (elapsed > this.relistDuration.relistThreshold) {
      return { ok: false, error: `pleg was last seen active ${elapsed}ms ago; threshold is ${this.relistDuration.relistThreshold}ms` };
    }
    return { ok: true };
  }

  /**
   * Lists the runtime, diffs against the previous listing, refreshes the cache for pods that changed
   * and sends their events (ContainerChanged is never sent). A pod whose inspection fails keeps its
   * old snapshot so the same change is detected again next time, and is retried.
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist
   */
  relist(): void {
    const timestamp = this.clock.now();
    let podList: RuntimePod[];
    try {
      podList = this.runtime.getPods(true);
    } catch {
      // Listing failed: nothing changes, and the relist time is not advanced.
      return;
    }
    this.relistTime = timestamp;
    this.counts = runningPodAndContainerCounts(podList);
    this.podRecords.setCurrent(podList);

    const eventsByPodID = new Map<string, PodLifecycleEvent[]>();
    for (const pid of this.podRecords.uids()) {
      const oldPod = this.podRecords.getOld(pid);
      const pod = this.podRecords.getCurrent(pid);
      for (const container of getContainersFromPods(oldPod, pod)) {
        for (const e of computeEvents(oldPod, pod, container.id)) updateEvents(eventsByPodID, e);
      }
    }

    const needsReinspection = new Map<string, RuntimePod | undefined>();
    for (const [pid, events] of eventsByPodID) {
      const pod = this.podRecords.getCurrent(pid);
      if (this.cache) {
        const { error } = this.updateCache(pod, pid);
        if (error) {
          needsReinspection.set(pid, pod);
          continue;
        }
        // Inspected now, so the retry list below must not inspect it again.
        this.podsToReinspect.delete(pid);
      }
      this.podRecords.update(pid);
      for (const e of events) {
        if (e.type === 'ContainerChanged') continue;
        // A full channel drops the event; the periodic pod sync is the safety net.
        this.eventChannel.trySend(e);
      }
    }

    if (this.cache) {
      for (const [pid, pod] of this.podsToReinspect) {
        if (this.updateCache(pod, pid).error) needsReinspection.set(pid, pod);
      }
      // Only after every pod above is written may readers treat the whole cache as this fresh.
      this.cache.updateTime(timestamp);
    }
    this.podsToReinspect = needsReinspection;
  }

  /**
   * Inspects a pod through the runtime and caches the result (even a failed one). A pod that is no
   * longer listed loses its cache entry.
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).updateCache
   */
  private updateCache(pod: RuntimePod | undefined, pid: string): { error?: Error; updated: boolean } {
    const cache = this.cache;
    if (!cache) throw new Error('pod cache disabled');
    if (!pod) {
      cache.delete(pid);
      return { updated: true };
    }
    const timestamp = this.clock.now();
    const { status, error } = this.runtime.getPodStatus(pod.id, pod.name ?? '', pod.namespace ?? '');
    if (!error) status.ips = this.getPodIPs(pid, status);
    return { error, updated: cache.set(pod.id, status, error, timestamp) };
  }

  /**
   * Public form of updateCache, used by the evented PLEG and kubelet restarts.
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).UpdateCache
   */
  updateCacheFor(pod: RuntimePod | undefined, pid: string): { error?: Error; updated: boolean } {
    if (!this.cache) return { error: new Error('pod cache disabled'), updated: false };
    if (!pod) return { error: new Error('pod cannot be nil'), updated: false };
    return this.updateCache(pod, pid);
  }

  /**
   * A torn-down pod's status has no IPs, but the API should still show the IP it had; keep the
   * cached IPs unless a sandbox is ready (then the empty list is real).
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).getPodIPs
   */
  private getPodIPs(pid: string, status: RuntimePodStatus): string[] | undefined {
    if (status.ips && status.ips.length > 0) return status.ips;
    const old = this.cache?.get(pid);
    if (!old || old.error || !old.status.ips || old.status.ips.length === 0) return undefined;
    if ((status.sandboxStatuses ?? []).some((s) => s.state === 'SANDBOX_READY')) return status.ips;
    return old.status.ips;
  }
}

/** @go k8s.io/kubernetes/pkg/kubelet/pleg.updateEvents */
function updateEvents(eventsByPodID: Map<string, PodLifecycleEvent[]>, e: PodLifecycleEvent): void {
  const list = eventsByPodID.get(e.id);
  if (list) list.push(e);
  else eventsByPodID.set(e.id, [e]);
}
