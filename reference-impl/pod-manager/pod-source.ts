/**
 * Where a pod came from, read off its annotations. The kubelet learns about pods from files, an
 * HTTP endpoint and the API server; everything that did not come from the API server is "static".
 * Mirrors pkg/kubelet/types/pod_update.go.
 */
import type { Pod } from '../api/index.js';

export const ConfigSourceAnnotationKey = 'kubernetes.io/config.source';
export const ConfigMirrorAnnotationKey = 'kubernetes.io/config.mirror';
export const ConfigFirstSeenAnnotationKey = 'kubernetes.io/config.seen';
export const ConfigHashAnnotationKey = 'kubernetes.io/config.hash';

export const FileSource = 'file';
export const HTTPSource = 'http';
export const ApiserverSource = 'api';
/** Stands for all three sources in a kubelet flag. */
export const AllSource = '*';

/** Thrown when a source name or a pod's source annotation is unusable. */
export class PodSourceError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'PodSourceError';
  }
}

/**
 * Expands `*`, drops empty names and rejects unknown ones.
 * @go k8s.io/kubernetes/pkg/kubelet/types.GetValidatedSources
 */
export function getValidatedSources(sources: string[]): string[] {
  const validated: string[] = [];
  for (const source of sources) {
    if (source === AllSource) return [FileSource, HTTPSource, ApiserverSource];
    if (source === FileSource || source === HTTPSource || source === ApiserverSource) validated.push(source);
    else if (source !== '') {
      throw new PodSourceError('sources', `Unsupported value: "${source}": supported values: "file", "http", "api", "*"`);
    }
  }
  return validated;
}

/**
 * The value of the config.source annotation; a pod without one has no known source.
 * @go k8s.io/kubernetes/pkg/kubelet/types.GetPodSource
 */
export function getPodSource(pod: Pod): string {
  const source = pod.metadata.annotations?.[ConfigSourceAnnotationKey];
  if (source === undefined) {
    throw new PodSourceError(`metadata.annotations[${ConfigSourceAnnotationKey}]`, `cannot get source of pod "${pod.metadata.uid ?? ''}"`);
  }
  return source;
}

/**
 * A mirror pod is the API-server copy the kubelet creates for a static pod; it carries the mirror annotation.
 * @go k8s.io/kubernetes/pkg/kubelet/types.IsMirrorPod
 */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[ConfigMirrorAnnotationKey] !== undefined;
}

/**
 * Static means "has a source, and it is not the API server".
 * @go k8s.io/kubernetes/pkg/kubelet/types.IsStaticPod
 */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[ConfigSourceAnnotationKey];
  return source !== undefined && source !== ApiserverSource;
}
