/**
 * A pod's "full name" is `name_namespace`. The underscore cannot occur in a pod name (DNS subdomain)
 * or a namespace, so the pair splits back unambiguously. A static pod and its mirror share it.
 */
import type { Pod } from '../api/index.js';

export class PodFullNameError extends Error {
  constructor(readonly value: string) {
    super(`podFullName: Invalid value: "${value}": must be "<name>_<namespace>" with both parts non-empty`);
    this.name = 'PodFullNameError';
  }
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.GetPodFullName */
export function getPodFullName(pod: Pod): string {
  return buildPodFullName(pod.metadata.name ?? '', pod.metadata.namespace ?? '');
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.BuildPodFullName */
export function buildPodFullName(name: string, namespace: string): string {
  return `${name}_${namespace}`;
}

/**
 * Splits a full name into [name, namespace].
 * @go k8s.io/kubernetes/pkg/kubelet/container.ParsePodFullName
 */
export function parsePodFullName(podFullName: string): [name: string, namespace: string] {
  const parts = podFullName.split('_');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw new PodFullNameError(podFullName);
  return [parts[0], parts[1]];
}
