/**
 * The slice of the kubelet status manager that probing touches: the worker reads the latest pod
 * status, and the sync loop writes probe verdicts back into it.
 */
import type { Pod, PodStatus } from '../api/index.js';
import { containerIDString, type ContainerID } from './container-id.js';

/** What a probe worker needs from the status manager. */
export interface PodStatusProvider {
  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).GetPodStatus */
  getPodStatus(uid: string): PodStatus | undefined;
}

/**
 * An in-memory status manager holding one status per pod UID.
 * Simplified: no versioning, API sync, conditions or mirror-pod UID translation.
 */
export class StatusStore implements PodStatusProvider {
  private readonly statuses = new Map<string, PodStatus>();

  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).GetPodStatus */
  getPodStatus(uid: string): PodStatus | undefined {
    return this.statuses.get(uid);
  }

  /**
   * Stores a deep copy, so later edits by the caller do not leak in.
   * @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).SetPodStatus
   */
  setPodStatus(pod: Pod, status: PodStatus): void {
    this.statuses.set(pod.metadata.uid ?? '', structuredClone(status));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).SetContainerStartup */
  setContainerStartup(podUID: string, containerID: ContainerID, started: boolean): void {
    const c = this.findContainerStatus(podUID, containerID);
    if (c) c.started = started;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/status.(*manager).SetContainerReadiness */
  setContainerReadiness(podUID: string, containerID: ContainerID, ready: boolean): void {
    const c = this.findContainerStatus(podUID, containerID);
    if (c) c.ready = ready;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/status.findContainerStatus */
  private findContainerStatus(podUID: string, containerID: ContainerID) {
    const status = this.statuses.get(podUID);
    const id = containerIDString(containerID);
    return [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? [])].find((c) => c.containerID === id);
  }
}
