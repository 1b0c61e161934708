/**
 * The container runtime's view of pods, as the kubelet's runtime layer reports it (kubecontainer
 * types, not the API's). A sandbox is listed like a container so the same state tracking covers it.
 */

/** "<type>://<id>", e.g. containerd://abc. kubecontainer.ContainerID. */
export interface ContainerID {
  type: string;
  id: string;
}

/** kubecontainer.State. The PLEG treats "created" like "unknown". */
export type ContainerState = 'created' | 'running' | 'exited' | 'unknown';

/** kubecontainer.Container, reduced to what the PLEG reads. */
export interface RuntimeContainer {
  id: ContainerID;
  name?: string;
  state: ContainerState;
}

/** kubecontainer.Pod: everything the runtime has for one pod UID, dead containers included. */
export interface RuntimePod {
  id: string;
  name?: string;
  namespace?: string;
  containers?: RuntimeContainer[];
  sandboxes?: RuntimeContainer[];
}

/** kubecontainer.Status, reduced. */
export interface RuntimeContainerStatus {
  id: ContainerID;
  name?: string;
  state: ContainerState;
  exitCode?: number;
}

/** runtimeapi.PodSandboxStatus, reduced to its state. */
export interface SandboxStatus {
  id?: string;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
}

/** kubecontainer.PodStatus: what the kubelet caches after inspecting a pod. */
export interface RuntimePodStatus {
  id: string;
  name?: string;
  namespace?: string;
  ips?: string[];
  containerStatuses?: RuntimeContainerStatus[];
  sandboxStatuses?: SandboxStatus[];
}

/**
 * Inspection result. Go returns (status, err) and the PLEG caches both, so an error still carries
 * whatever partial status the runtime produced.
 */
export interface PodStatusResult {
  status: RuntimePodStatus;
  error?: Error;
}

/**
 * The two runtime calls the PLEG makes.
 * @go k8s.io/kubernetes/pkg/kubelet/container.Runtime
 * Simplified: synchronous, no context; GetPods always asks for all pods (exited ones included).
 */
export interface Runtime {
  /** Throws when the runtime cannot be listed. */
  getPods(all: boolean): RuntimePod[];
  getPodStatus(uid: string, name: string, namespace: string): PodStatusResult;
}

export function sameContainerID(a: ContainerID, b: ContainerID): boolean {
  return a.type === b.type && a.id === b.id;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container.(*Pod).FindContainerByID
 */
export function findContainerByID(pod: RuntimePod, id: ContainerID): RuntimeContainer | undefined {
  return (pod.containers ?? []).find((c) => sameContainerID(c.id, id));
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container.(*Pod).FindSandboxByID
 */
export function findSandboxByID(pod: RuntimePod, id: ContainerID): RuntimeContainer | undefined {
  return (pod.sandboxes ?? []).find((c) => sameContainerID(c.id, id));
}
