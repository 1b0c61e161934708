/**
 * Whether the pod needs a new sandbox, and with which attempt number.
 */
import type { Pod } from '../api/index.js';
import type { NamespaceMode, RuntimePodStatus } from './runtime-types.js';

export interface SandboxDecision {
  changed: boolean;
  attempt: number;
  /** The sandbox to reuse (or to kill when changed); empty when there is none or its netns is wrong. */
  sandboxID: string;
}

/**
 * A new sandbox is needed when there is none, when more than one is ready, when the newest is not
 * ready, when its network namespace mode no longer matches hostNetwork, or when a pod-network
 * sandbox has no IP. The attempt counts up from the newest sandbox's attempt.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime/util.PodSandboxChanged
 */
export function podSandboxChanged(pod: Pod, podStatus: RuntimePodStatus): SandboxDecision {
  const sandboxes = podStatus.sandboxStatuses;
  if (sandboxes.length === 0) return { changed: true, attempt: 0, sandboxID: '' };

  const ready = sandboxes.filter((s) => s.state === 'SANDBOX_READY').length;
  const newest = sandboxes[0];
  const next = newest.metadata.attempt + 1;
  if (ready > 1) return { changed: true, attempt: next, sandboxID: newest.id };
  if (newest.state !== 'SANDBOX_READY') return { changed: true, attempt: next, sandboxID: newest.id };
  if ((newest.networkNamespace ?? 'POD') !== networkNamespaceForPod(pod)) return { changed: true, attempt: next, sandboxID: '' };
  if (!pod.spec.hostNetwork && newest.network !== undefined && newest.network.ip === '') {
    return { changed: true, attempt: next, sandboxID: newest.id };
  }
  return { changed: false, attempt: newest.metadata.attempt, sandboxID: newest.id };
}

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime/util.NetworkNamespaceForPod */
export function networkNamespaceForPod(pod: Pod): NamespaceMode {
  return pod.spec.hostNetwork ? 'NODE' : 'POD';
}
