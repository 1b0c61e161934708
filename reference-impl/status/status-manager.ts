/**
 * The kubelet's source of truth for pod status (pkg/kubelet/status/status_manager.go).
 *
 * It caches one versioned status per pod UID, refuses updates that would resurrect a container that
 * may not restart, and pushes changed statuses to the API server: at once when something changed,
 * and every 10 s for everything (which also repairs drift). Static pods are reported through their
 * mirror pod; a pod being deleted is removed from the API once the kubelet has finished with it.
 */
import type { Clock, ContainerStatus, Pod, PodCondition, PodStatus } from '../api/index.js';
import { isMirrorPod, isStaticPod, type ResolvedPodUID, type MirrorPodUID } from '../pod-manager/index.js';
import type { PodStatusClient } from './api-client.js';
import {
  ContainersReady,
  DisruptionTarget,
  PodInitialized,
  PodReady,
  PodReadyToStartContainers,
  PodScheduled,
  generateContainersReadyCondition,
  generatePodReadyCondition,
  isPodPhaseTerminal,
  nowRFC3339,
} from './conditions.js';
import { semanticEqual } from './equality.js';
import { DEFAULT_GATES, type StatusFeatureGates } from './gates.js';
import { mergePodStatus } from './merge.js';
import { isPodStatusByKubeletEqual, normalizeStatus } from './normalize.js';
import { isRestartableInitContainer } from './phase.js';
import { updateLastTransitionTime } from './transition.js';

/** The subset of the pod manager the status manager reads. @go k8s.io/kubernetes/pkg/kubelet/status.PodManager */
export interface PodManager {
  getPodByUID(uid: string): Pod | undefined;
  getMirrorPodByPod(pod: Pod): Pod | undefined;
  translatePodUID(uid: string): ResolvedPodUID;
  getUIDTranslations(): { podToMirror: Map<ResolvedPodUID, MirrorPodUID>; mirrorToPod: Map<MirrorPodUID, ResolvedPodUID> };
}

/** @go k8s.io/kubernetes/pkg/kubelet/status.PodDeletionSafetyProvider */
export interface PodDeletionSafetyProvider {
  podCouldHaveRunningContainers(pod: Pod): boolean;
}

/** @go k8s.io/kubernetes/pkg/kubelet/status.versionedPodStatus */
export interface VersionedPodStatus {
  /** Increases by one per accepted update of this pod; the API holds the last version sent. */
  version: number;
  podName: string;
  podNamespace: string;
  /** When the oldest unsent change was made (ms); 0 when none is pending. */
  at: number;
  /** Set by the final update after the pod's containers and volumes were torn down. */
  podIsFinished: boolean;
  status: PodStatus;
}

export const syncPeriodMs = 10_000;

const UNKNOWN_TERMINATED = {
  reason: 'ContainerStatusUnknown',
  message: 'The container could not be located when the pod was terminated',
  exitCode: 137,
};

export interface StatusManagerOptions {
  /** Without a client nothing is sent (the kubelet bootstrapping its own control plane). */
  kubeClient?: PodStatusClient;
  podManager: PodManager;
  podDeletionSafety: PodDeletionSafetyProvider;
  clock: Clock;
  gates?: Partial<StatusFeatureGates>;
}

/**
 * Simplified: no goroutine and no lock. Where Go signals a channel, this sets a flag that
 * {@link StatusManager.consumeUpdates} or {@link StatusManager.tick} drains; no pod-resize checkpoint.
 * @go k8s.io/kubernetes/pkg/kubelet/status.manager
 */
export class StatusManager {
  readonly podStatuses = new Map<string, VersionedPodStatus>();
  /** Keyed by the UID the API server knows (the mirror's, for static pods). */
  readonly apiStatusVersions = new Map<MirrorPodUID, number>();
  /** Updates refused as illegal, newest last (Go logs them). */
  readonly errors: string[] = [];
  private readonly kubeClient?: PodStatusClient;
  private readonly podManager: PodManager;
  private readonly podDeletionSafety: PodDeletionSafetyProvider;
  private readonly clock: Clock;
  readonly gates: StatusFeatureGates;
  /** Go's one-slot podStatusChannel. */
  private updatePending = false;
  private nextFullSync: number;

  /** @go k8s.io/kubernetes/pkg/kubelet/status.NewManager */
  constructor(opts: StatusManagerOptions) {
    this.kubeClient = opts.kubeClient;
    this.podManager = opts.podManager;
    this.podDeletionSafety = opts.podDeletionSafety;
    this.clock = opts.clock;
    this.gates = { ...DEFAULT_GATES, ...opts.gates };
    this.nextFullSync = this.clock.now() + syncPeriodMs;
  }

  /**
   * One turn of the sync loop Go runs from Start: send what changed, and everything once per period.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).Start
   */
  tick(): void {
    if (!this.kubeClient) return;
    if (this.updatePending) {
      this.updatePending = false;
      this.syncBatch(false);
    }
    if (this.clock.now() >= this.nextFullSync) {
      this.nextFullSync = this.clock.now() + syncPeriodMs;
      this.syncBatch(true);
    }
  }

  /** Drains pending change signals; returns how many statuses were sent (the Go tests' helper). */
  consumeUpdates(): number {
    let updates = 0;
    while (this.updatePending) {
      this.updatePending = false;
      updates += this.syncBatch(false);
    }
    return updates;
  }

  /** Mirror UIDs are translated, so either UID of a static pod finds its status. @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).GetPodStatus */
  getPodStatus(uid: string): PodStatus | undefined {
    return this.podStatuses.get(this.podManager.translatePodUID(uid))?.status;
  }

  /**
   * A pod with a deletion timestamp always gets a new version, so its deletion can proceed even if
   * nothing else changed.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).SetPodStatus
   */
  setPodStatus(pod: Pod, status: PodStatus): void {
    this.updateStatusInternal(pod, structuredClone(status), pod.metadata.deletionTimestamp !== undefined, false);
  }

  /**
   * Called by the probe manager; recomputes Ready and ContainersReady along with the flag.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).SetContainerReadiness
   */
  setContainerReadiness(podUID: string, containerID: string, ready: boolean): void {
    const pod = this.podManager.getPodByUID(podUID);
    const old = pod && this.podStatuses.get(pod.metadata.uid as string);
    if (!pod || !old) return;
    const found = findContainerStatus(old.status, containerID);
    if (!found || found.status.ready === ready) return;

    const status = structuredClone(old.status);
    (findContainerStatus(status, containerID) as { status: ContainerStatus }).status.ready = ready;
    const replace = (type: string, condition: PodCondition) => {
      const conditions = (status.conditions ??= []);
      const i = conditions.findIndex((c) => c.type === type);
      if (i >= 0) conditions[i] = condition;
      else conditions.push(condition);
    };
    const all = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
    replace(PodReady, generatePodReadyCondition(pod.spec, status.conditions, all, status.phase));
    replace(ContainersReady, generateContainersReadyCondition(pod.spec, all, status.phase));
    this.updateStatusInternal(pod, status, false, false);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).SetContainerStartup */
  setContainerStartup(podUID: string, containerID: string, started: boolean): void {
    const pod = this.podManager.getPodByUID(podUID);
    const old = pod && this.podStatuses.get(pod.metadata.uid as string);
    if (!pod || !old) return;
    const found = findContainerStatus(old.status, containerID);
    if (!found || found.status.started === started) return;
    const status = structuredClone(old.status);
    (findContainerStatus(status, containerID) as { status: ContainerStatus }).status.started = started;
    this.updateStatusInternal(pod, status, false, false);
  }

  /**
   * The pod's last word: any container whose outcome is unknown is recorded as failed (exit 137), so
   * a pod is never reported successful by mistake, and a non-static pod gets a terminal phase.
   * Regular containers are defaulted only if the pod had initialized; of the init containers, all but
   * a trailing run of never-started ones are defaulted.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).TerminatePod
   */
  terminatePod(pod: Pod): void {
    const cached = this.podStatuses.get(pod.metadata.uid as string);
    const status = structuredClone(cached ? cached.status : pod.status ?? {});

    if (hasPodInitialized(pod)) {
      for (const cs of status.containerStatuses ?? []) {
        if (cs.state?.terminated) continue;
        cs.state = { terminated: { ...UNKNOWN_TERMINATED } };
      }
    }
    const inits = status.initContainerStatuses ?? [];
    for (let i = 0; i < initializedContainers(inits).length; i++) {
      if (inits[i].state?.terminated) continue;
      inits[i].state = { terminated: { ...UNKNOWN_TERMINATED } };
    }

    // Static pods are left out for now (kubernetes#116484).
    if (!isStaticPod(pod) && !isPodPhaseTerminal(status.phase)) status.phase = 'Failed';

    this.updateStatusInternal(pod, status, true, true);
  }

  /**
   * Caches `status` as the pod's next version unless it is illegal or unchanged.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).updateStatusInternal
   */
  private updateStatusInternal(pod: Pod, status: PodStatus, forceUpdate: boolean, podIsFinished: boolean): void {
    const uid = pod.metadata.uid as string;
    const cached = this.podStatuses.get(uid);
    let oldStatus: PodStatus;
    if (cached) {
      oldStatus = cached.status;
      // Once finished, always finished.
      if (!isStaticPod(pod) && cached.podIsFinished && !podIsFinished) podIsFinished = true;
    } else {
      oldStatus = this.podManager.getMirrorPodByPod(pod)?.status ?? pod.status ?? {};
    }

    try {
      checkContainerStateTransition(oldStatus, status, pod.spec);
    } catch (err) {
      this.errors.push(`Status update on pod ${pod.metadata.namespace}/${pod.metadata.name} aborted: ${(err as Error).message}`);
      return;
    }

    for (const type of [ContainersReady, PodReady, PodInitialized, PodReadyToStartContainers, PodScheduled]) {
      updateLastTransitionTime(status, oldStatus, type, this.clock);
    }
    if (this.gates.PodDisruptionConditions) updateLastTransitionTime(status, oldStatus, DisruptionTarget, this.clock);

    // The start time is set once and never moves.
    if (oldStatus.startTime) status.startTime = oldStatus.startTime;
    else if (!status.startTime) status.startTime = nowRFC3339(this.clock);

    normalizeStatus(pod, status);

    // Keeps concurrent writers from flip-flopping the phase: identical statuses are dropped.
    if (cached && isPodStatusByKubeletEqual(cached.status, status, this.gates) && !forceUpdate) return;

    this.podStatuses.set(uid, {
      status,
      version: (cached?.version ?? 0) + 1,
      podName: pod.metadata.name ?? '',
      podNamespace: pod.metadata.namespace ?? '',
      podIsFinished,
      at: cached?.at ? cached.at : this.clock.now(),
    });
    this.updatePending = true;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).deletePodStatus */
  private deletePodStatus(uid: string): void {
    this.podStatuses.delete(uid);
  }

  /** Forgets every pod not in `podUIDs`. @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).RemoveOrphanedStatuses */
  removeOrphanedStatuses(podUIDs: Set<string>): void {
    for (const uid of [...this.podStatuses.keys()]) if (!podUIDs.has(uid)) this.podStatuses.delete(uid);
  }

  /**
   * Sends statuses: with `all` false only those newer than what the API has; with `all` true also
   * those the API has but which drifted, or which are ready to be deleted. Returns how many were sent.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).syncBatch
   */
  syncBatch(all: boolean): number {
    const { podToMirror, mirrorToPod } = this.podManager.getUIDTranslations();
    if (all) {
      for (const uid of [...this.apiStatusVersions.keys()]) {
        if (!this.podStatuses.has(uid) && !mirrorToPod.has(uid)) this.apiStatusVersions.delete(uid);
      }
    }

    const updates: [string, VersionedPodStatus][] = [];
    for (const [uid, status] of this.podStatuses) {
      // Static pods are known to the API only through their mirror.
      let uidOfStatus = uid;
      const mirrorUID = podToMirror.get(uid);
      if (mirrorUID !== undefined) {
        if (mirrorUID === '') continue; // no mirror pod yet
        uidOfStatus = mirrorUID;
      }
      if (!all) {
        if ((this.apiStatusVersions.get(uidOfStatus) ?? 0) >= status.version) continue;
        updates.push([uid, status]);
      } else if (this.needsUpdate(uidOfStatus, status)) {
        updates.push([uid, status]);
      } else if (this.needsReconcile(uid, status.status)) {
        // Forget the sent version so the update goes out.
        this.apiStatusVersions.delete(uidOfStatus);
        updates.push([uid, status]);
      }
    }
    for (const [uid, status] of updates) this.syncPod(uid, status);
    return updates.length;
  }

  /**
   * Fetches the API pod, merges, patches if anything changed, records the version and deletes the pod
   * if it is finished.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).syncPod
   */
  syncPod(uid: string, status: VersionedPodStatus): void {
    if (!this.kubeClient) return;
    let pod: Pod | undefined;
    try {
      pod = this.kubeClient.getPod(status.podNamespace, status.podName);
    } catch (err) {
      this.errors.push(`Failed to get status for pod ${status.podNamespace}/${status.podName}: ${(err as Error).message}`);
      return;
    }
    if (!pod) return; // deleted: RemoveOrphanedStatuses will drop the cache entry

    const translated = this.podManager.translatePodUID(pod.metadata.uid as string);
    if (translated !== '' && translated !== uid) {
      // Same name, new UID: the pod was deleted and recreated.
      this.deletePodStatus(uid);
      return;
    }

    const merged = mergePodStatus(pod.status ?? {}, status.status, this.podDeletionSafety.podCouldHaveRunningContainers(pod), {
      clock: this.clock,
      gates: this.gates,
    });
    // Go sends a patch only when it is not empty.
    if (!semanticEqual(pod.status ?? {}, merged)) {
      try {
        pod = this.kubeClient.patchPodStatus(pod.metadata.namespace ?? '', pod.metadata.name ?? '', pod.metadata.uid as string, merged);
      } catch (err) {
        this.errors.push(`Failed to update status for pod ${pod.metadata.namespace}/${pod.metadata.name}: ${(err as Error).message}`);
        return;
      }
    }
    this.apiStatusVersions.set(pod.metadata.uid as string, status.version);

    if (this.canBeDeleted(pod, status.status, status.podIsFinished)) {
      try {
        this.kubeClient.deletePod(pod.metadata.namespace ?? '', pod.metadata.name ?? '', pod.metadata.uid as string);
      } catch (err) {
        this.errors.push(`Failed to delete status for pod ${pod.metadata.name}: ${(err as Error).message}`);
        return;
      }
      this.deletePodStatus(uid);
    }
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).needsUpdate */
  private needsUpdate(uid: string, status: VersionedPodStatus): boolean {
    const latest = this.apiStatusVersions.get(uid);
    if (latest === undefined || latest < status.version) return true;
    const pod = this.podManager.getPodByUID(uid);
    return pod !== undefined && this.canBeDeleted(pod, status.status, status.podIsFinished);
  }

  /**
   * Only a pod marked for deletion, not a mirror, whose API phase is already terminal, and whose
   * kubelet-side teardown has finished.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).canBeDeleted
   */
  canBeDeleted(pod: Pod, _status: PodStatus, podIsFinished: boolean): boolean {
    if (pod.metadata.deletionTimestamp === undefined || isMirrorPod(pod)) return false;
    if (!isPodPhaseTerminal(pod.status?.phase)) return false;
    return podIsFinished;
  }

  /**
   * Whether the API copy (the mirror's, for a static pod) differs from the cache in what the kubelet owns.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).needsReconcile
   */
  private needsReconcile(uid: string, status: PodStatus): boolean {
    let pod = this.podManager.getPodByUID(uid);
    if (!pod) return false;
    if (isStaticPod(pod)) {
      pod = this.podManager.getMirrorPodByPod(pod);
      if (!pod) return false;
    }
    const podStatus = normalizeStatus(pod, structuredClone(pod.status ?? {}));
    return !isPodStatusByKubeletEqual(podStatus, status, this.gates);
  }
}

/** @go k8s.io/kubernetes/pkg/kubelet/status.findContainerStatus */
function findContainerStatus(status: PodStatus, containerID: string): { status: ContainerStatus; init: boolean } | undefined {
  const regular = status.containerStatuses?.find((c) => c.containerID === containerID);
  if (regular) return { status: regular, init: false };
  const init = status.initContainerStatuses?.find((c) => c.containerID === containerID);
  return init ? { status: init, init: true } : undefined;
}

/**
 * Whether the pod ever got past its init containers, judged from the pod's (API) status: a regular
 * container that left Waiting, or a last init container that exited 0 (or, for a sidecar, started).
 * @go k8s.io/kubernetes/pkg/kubelet/status.hasPodInitialized
 */
export function hasPodInitialized(pod: Pod): boolean {
  const initContainers = pod.spec.initContainers ?? [];
  if (initContainers.length === 0) return true;
  for (const s of pod.status?.containerStatuses ?? []) {
    if (s.lastState?.terminated || !s.state?.waiting) return true;
  }
  const inits = pod.status?.initContainerStatuses ?? [];
  const l = inits.length;
  if (l > 0) {
    const container = getContainerByIndex(initContainers, inits, l - 1);
    if (!container) return false;
    const s = inits[l - 1];
    if (isRestartableInitContainer(container)) {
      if (s.state?.running && s.started === true) return true;
    } else {
      if (s.lastState?.terminated?.exitCode === 0) return true;
      if (s.state?.terminated?.exitCode === 0) return true;
    }
  }
  return false;
}

/** The spec container at `idx` if the status at `idx` has the same name. @go k8s.io/kubernetes/pkg/kubelet/util.GetContainerByIndex */
function getContainerByIndex<C extends { name: string }>(containers: C[], statuses: ContainerStatus[], idx: number): C | undefined {
  if (idx < 0 || idx >= containers.length || idx >= statuses.length) return undefined;
  return statuses[idx].name === containers[idx].name ? containers[idx] : undefined;
}

/**
 * All statuses up to the last one that ever started (not Waiting, or with a previous termination);
 * at least the first one.
 * @go k8s.io/kubernetes/pkg/kubelet/status.initializedContainers
 */
export function initializedContainers(containers: ContainerStatus[]): ContainerStatus[] {
  for (let i = containers.length - 1; i >= 0; i--) {
    if (!containers[i].state?.waiting || containers[i].lastState?.terminated) return containers.slice(0, i + 1);
  }
  return containers.slice(0, 1);
}

/**
 * Throws if a container that may not restart goes from terminated back to not terminated. Always
 * allows it under RestartPolicy=Always, and for a non-zero exit under OnFailure; sidecars may always restart.
 * @go k8s.io/kubernetes/pkg/kubelet/status.checkContainerStateTransition
 */
export function checkContainerStateTransition(oldStatuses: PodStatus, newStatuses: PodStatus, spec: Pod['spec']): void {
  if (spec.restartPolicy === 'Always') return;
  const mayRestart = (exitCode: number) => exitCode !== 0 && spec.restartPolicy === 'OnFailure';
  for (const old of oldStatuses.containerStatuses ?? []) {
    const terminated = old.state?.terminated;
    if (!terminated || mayRestart(terminated.exitCode)) continue;
    for (const s of newStatuses.containerStatuses ?? []) {
      if (old.name === s.name && !s.state?.terminated) {
        throw new Error(`terminated container ${s.name} attempted illegal transition to non-terminated state`);
      }
    }
  }
  const oldInits = oldStatuses.initContainerStatuses ?? [];
  oldInits.forEach((old, i) => {
    const container = getContainerByIndex(spec.initContainers ?? [], oldInits, i);
    if (!container) throw new Error(`init container status ${old.name} does not line up with the pod spec`);
    if (isRestartableInitContainer(container)) return;
    const terminated = old.state?.terminated;
    if (!terminated || mayRestart(terminated.exitCode)) return;
    for (const s of newStatuses.initContainerStatuses ?? []) {
      if (old.name === s.name && !s.state?.terminated) {
        throw new Error(`terminated init container ${s.name} attempted illegal transition to non-terminated state`);
      }
    }
  });
}
