/**
 * What the runtime reports about a pod, as the kubelet sees it after asking the CRI: sandboxes and
 * containers with their runtime states. These are local extension types (not API objects); the shapes
 * follow kubecontainer.PodStatus and runtimeapi.PodSandboxStatus.
 */
import type { Pod, RestartPolicy } from '../api/index.js';

/** @go k8s.io/kubernetes/pkg/kubelet/container.State */
export type RuntimeContainerState = 'created' | 'running' | 'exited' | 'unknown';

/** One container as the runtime knows it. @go k8s.io/kubernetes/pkg/kubelet/container.Status */
export interface RuntimeContainerStatus {
  /** Runtime container ID (ContainerID.ID; the type prefix is dropped). */
  id: string;
  name: string;
  state: RuntimeContainerState;
  exitCode?: number;
  /** hashContainer() of the spec the container was created from. */
  hash?: number;
  /** When the container exited, ms since the epoch. */
  finishedAt?: number;
  reason?: string;
}

export type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

/** @go k8s.io/cri-api/pkg/apis/runtime/v1.PodSandboxStatus */
export interface SandboxStatus {
  id: string;
  state: SandboxState;
  metadata: { name?: string; namespace?: string; uid?: string; attempt: number };
  network?: { ip: string };
  /** linux.namespaces.options.network; absent reads as POD, like the CRI's zero value. */
  networkNamespace?: NamespaceMode;
}

/** Runtime view of one pod; sandboxes are newest first. @go k8s.io/kubernetes/pkg/kubelet/container.PodStatus */
export interface RuntimePodStatus {
  id?: string;
  name?: string;
  namespace?: string;
  sandboxStatuses: SandboxStatus[];
  containerStatuses: RuntimeContainerStatus[];
}

/**
 * The first status with that container name (statuses are newest first).
 * @go k8s.io/kubernetes/pkg/kubelet/container.(*PodStatus).FindContainerStatusByName
 */
export function findContainerStatusByName(status: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined {
  return status.containerStatuses.find((c) => c.name === name);
}

const RESTART_POLICIES: readonly string[] = ['Always', 'OnFailure', 'Never'];

/**
 * The pod's restart policy; unset behaves like Always (Go compares against "" nowhere), an unknown
 * value is rejected the way the API server would.
 */
export function restartPolicyOf(pod: Pod): RestartPolicy | undefined {
  const p = pod.spec.restartPolicy;
  if (p !== undefined && !RESTART_POLICIES.includes(p)) {
    throw new Error(`spec.restartPolicy: Unsupported value: "${p}": supported values: "Always", "OnFailure", "Never"`);
  }
  return p;
}

/** Probe outcome as kept by the liveness/startup result managers. @go k8s.io/kubernetes/pkg/kubelet/prober/results.Result */
export type ProbeResult = 'Unknown' | 'Success' | 'Failure';

/**
 * Latest probe result per container ID.
 * Simplified: a plain map; the Go manager also publishes changes on an updates channel.
 * @go k8s.io/kubernetes/pkg/kubelet/prober/results.Manager
 */
export class ProbeResults {
  private readonly results = new Map<string, ProbeResult>();
  /** @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Get */
  get(containerID: string): ProbeResult | undefined {
    return this.results.get(containerID);
  }
  /** @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Set */
  set(containerID: string, result: ProbeResult): void {
    this.results.set(containerID, result);
  }
  /** @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Remove */
  remove(containerID: string): void {
    this.results.delete(containerID);
  }
}
