/**
 * How the kubelet decides that a mirror pod still reflects its static pod: same name and namespace,
 * and the mirror annotation holds the static pod's config hash. A mismatch (the static manifest
 * changed) makes the kubelet delete and recreate the mirror.
 */
import type { Pod } from '../api/index.js';
import { ConfigHashAnnotationKey, ConfigMirrorAnnotationKey } from './pod-source.js';

/** @go k8s.io/kubernetes/pkg/kubelet/pod.getHashFromMirrorPod */
export function getHashFromMirrorPod(pod: Pod): string | undefined {
  return pod.metadata.annotations?.[ConfigMirrorAnnotationKey];
}

/** Every static pod carries the hash annotation, set by the config source. @go k8s.io/kubernetes/pkg/kubelet/pod.getPodHash */
export function getPodHash(pod: Pod): string {
  return pod.metadata.annotations?.[ConfigHashAnnotationKey] ?? '';
}

/** @go k8s.io/kubernetes/pkg/kubelet/pod.IsMirrorPodOf */
export function isMirrorPodOf(mirrorPod: Pod, pod: Pod): boolean {
  if (pod.metadata.name !== mirrorPod.metadata.name || pod.metadata.namespace !== mirrorPod.metadata.namespace) return false;
  const hash = getHashFromMirrorPod(mirrorPod);
  return hash !== undefined && hash === getPodHash(pod);
}
