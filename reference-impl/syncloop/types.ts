/**
 * What flows into the sync loop: config updates, PLEG events, probe results, ticks.
 */
import type { Pod } from '../api/index.js';

/** @go k8s.io/kubernetes/pkg/kubelet/types.PodOperation */
export type PodOperation = 'SET' | 'ADD' | 'DELETE' | 'REMOVE' | 'UPDATE' | 'RECONCILE';

/** A batch of pods from one config source. @go k8s.io/kubernetes/pkg/kubelet/types.PodUpdate */
export interface PodUpdate {
  pods: Pod[];
  op: PodOperation;
  source: string;
}

/** @go k8s.io/kubernetes/pkg/kubelet/pleg.PodLifeCycleEventType */
export type PodLifeCycleEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'PodSync' | 'ContainerChanged';

/** @go k8s.io/kubernetes/pkg/kubelet/pleg.PodLifecycleEvent */
export interface PodLifecycleEvent {
  /** Pod UID. */
  id: string;
  type: PodLifeCycleEventType;
  /** The container ID for container events. */
  data?: unknown;
}

/** @go k8s.io/kubernetes/pkg/kubelet/prober/results.Result */
export type ProbeResult = 'Unknown' | 'Success' | 'Failure';

/** @go k8s.io/kubernetes/pkg/kubelet/prober/results.Update */
export interface ProbeUpdate {
  containerID: string;
  result: ProbeResult;
  podUID: string;
}

/**
 * The callbacks the loop dispatches to (implemented by the Kubelet).
 * @go k8s.io/kubernetes/pkg/kubelet.SyncHandler
 */
export interface SyncHandler {
  handlePodAdditions(pods: Pod[]): void;
  handlePodUpdates(pods: Pod[]): void;
  handlePodRemoves(pods: Pod[]): void;
  handlePodReconcile(pods: Pod[]): void;
  handlePodSyncs(pods: Pod[]): void;
  /** Throwing is logged by the loop, never fatal. */
  handlePodCleanups(): void;
}

/** Extra reasons to sync a pod, asked of every pod on each sync tick. @go k8s.io/kubernetes/pkg/kubelet/lifecycle.PodSyncLoopHandler */
export interface PodSyncLoopHandler {
  shouldSync(pod: Pod): boolean;
}

/** The pods the kubelet is configured to run. @go k8s.io/kubernetes/pkg/kubelet/pod.Manager */
export interface PodManager {
  getPods(): Pod[];
  getPodByUID(uid: string): Pod | undefined;
}

/** Where probe results land. @go k8s.io/kubernetes/pkg/kubelet/status.Manager */
export interface ContainerStatusSetter {
  setContainerReadiness(podUID: string, containerID: string, ready: boolean): void;
  setContainerStartup(podUID: string, containerID: string, started: boolean): void;
}
