/**
 * The plan computePodActions produces for one pod: what to kill, what to (re)create, what to start.
 */
import type { Container } from '../api/index.js';

/** Why a running container is being killed. */
export type ContainerKillReason = '' | 'StartupProbe' | 'LivenessProbe' | 'FailedPostStartHook' | 'Unknown';

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containerToKillInfo */
export interface ContainerToKillInfo {
  container: Container;
  name: string;
  /** Human-readable explanation (wording is the port's own). */
  message: string;
  reason: ContainerKillReason;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.podActions
 * Lists are always arrays: Go's nil-versus-empty slice distinction is not kept.
 * Simplified: no ContainersToUpdate/UpdatePodResources (in-place resize, alpha and off in v1.28).
 */
export interface PodActions {
  /** Stop every container and the sandbox. */
  killPod: boolean;
  createSandbox: boolean;
  sandboxID: string;
  attempt: number;
  /** Indexes into spec.initContainers, in start order. */
  initContainersToStart: number[];
  /** Indexes into spec.containers. */
  containersToStart: number[];
  /** Keyed by runtime container ID. */
  containersToKill: Map<string, ContainerToKillInfo>;
  /** Indexes into spec.ephemeralContainers. */
  ephemeralContainersToStart: number[];
}

export function emptyActions(): PodActions {
  return {
    killPod: false,
    createSandbox: false,
    sandboxID: '',
    attempt: 0,
    initContainersToStart: [],
    containersToStart: [],
    containersToKill: new Map(),
    ephemeralContainersToStart: [],
  };
}
