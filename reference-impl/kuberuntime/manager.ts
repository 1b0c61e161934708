/**
 * The runtime manager's decision-making half: it owns the probe results it consults and the
 * container restart backoff.
 */
import type { Container, Pod } from '../api/index.js';
import type { PodActions } from './actions.js';
import type { Backoff } from './backoff.js';
import { doBackOff, type BackOffDecision } from './crashloop.js';
import { computeInitContainerActions } from './init-containers.js';
import { computePodActions } from './pod-actions.js';
import { ProbeResults, type RuntimePodStatus } from './runtime-types.js';

export interface RecordedEvent {
  reason: string;
  message: string;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.kubeGenericRuntimeManager
 * The caller carries out the plan from computePodActions and asks doBackOff before each start.
 * Simplified: no CRI calls; SyncPod itself is not ported.
 */
export class KubeGenericRuntimeManager {
  readonly livenessManager = new ProbeResults();
  readonly startupManager = new ProbeResults();
  readonly events: RecordedEvent[] = [];

  /** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computePodActions */
  computePodActions(pod: Pod, podStatus: RuntimePodStatus): PodActions {
    return computePodActions(this, pod, podStatus);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computeInitContainerActions */
  computeInitContainerActions(pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): boolean {
    return computeInitContainerActions(this, pod, podStatus, changes);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).doBackOff */
  doBackOff(pod: Pod, container: Container, podStatus: RuntimePodStatus, backOff: Backoff): BackOffDecision {
    return doBackOff(pod, container, podStatus, backOff, (reason, message) => this.events.push({ reason, message }));
  }
}
