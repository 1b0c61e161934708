/**
 * Static pod helpers: config-source annotation and full names.
 */
import type { Pod } from '../api/index.js';

export const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
export const API_SERVER_SOURCE = 'api';
export const FILE_SOURCE = 'file';

/** A pod with a config source other than the API server. @go k8s.io/kubernetes/pkg/kubelet/types.IsStaticPod */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[CONFIG_SOURCE_ANNOTATION];
  return source !== undefined && source !== API_SERVER_SOURCE;
}

/** name_namespace. @go k8s.io/kubernetes/pkg/kubelet/container.BuildPodFullName */
export function buildPodFullName(name: string, namespace: string): string {
  return `${name}_${namespace}`;
}
