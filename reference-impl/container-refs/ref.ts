/**
 * Builds the ObjectReference that kubelet events use to point at one container of a pod
 * (the "involvedObject" of events such as Pulling, Started, Unhealthy).
 */
import type { Container, ObjectMeta, ObjectReference, Pod } from '../api/index.js';

/** ObjectMeta.resourceVersion is not in the shared API shapes; references copy it, so we add it here. */
export type PodWithVersion = Pod & { metadata: ObjectMeta & { resourceVersion?: string } };

/**
 * Prefix used when the container is not in the pod spec (the kubelet starts it on its own, like the
 * sandbox/infra container).
 * @go k8s.io/kubernetes/pkg/kubelet/container.ImplicitContainerPrefix
 */
export const IMPLICIT_CONTAINER_PREFIX = 'implicitly required container ';

/** The container is not listed in containers, initContainers or ephemeralContainers. */
export class ContainerNotInPodError extends Error {
  constructor(readonly containerName: string, pod: Pod) {
    super(`container "${containerName}" not found in pod ${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`);
    this.name = 'ContainerNotInPodError';
  }
}

/**
 * A reference to `container` inside `pod`. A container the spec does not list still gets a
 * reference, whose fieldPath is the implicit prefix followed by its name.
 * @go k8s.io/kubernetes/pkg/kubelet/container.GenerateContainerRef
 */
export function generateContainerRef(pod: PodWithVersion, container: Pick<Container, 'name'>): ObjectReference {
  let path: string;
  try {
    path = fieldPath(pod, container);
  } catch (e) {
    if (!(e instanceof ContainerNotInPodError)) throw e;
    path = IMPLICIT_CONTAINER_PREFIX + container.name;
  }
  return getPartialReference(pod, path);
}

/**
 * Where the container sits in the pod spec: `spec.containers{name}`, or `spec.containers[i]` when the
 * name is empty. The three lists are searched in order: containers, initContainers, ephemeralContainers.
 * Matching is by name only, so an empty name matches the first unnamed entry.
 * @go k8s.io/kubernetes/pkg/kubelet/container.fieldPath
 */
export function fieldPath(pod: Pod, container: Pick<Container, 'name'>): string {
  const lists: [string, Pick<Container, 'name'>[] | undefined][] = [
    ['containers', pod.spec.containers],
    ['initContainers', pod.spec.initContainers],
    ['ephemeralContainers', pod.spec.ephemeralContainers],
  ];
  for (const [listName, list] of lists) {
    const i = (list ?? []).findIndex((c) => c.name === container.name);
    if (i < 0) continue;
    return container.name === '' ? `spec.${listName}[${i}]` : `spec.${listName}{${container.name}}`;
  }
  throw new ContainerNotInPodError(container.name, pod);
}

/**
 * The pod's identity plus a fieldPath. Kind and apiVersion come from the object; when both are
 * absent the scheme's answer for a core Pod ("Pod", "v1") is used.
 * @go k8s.io/client-go/tools/reference.GetPartialReference
 * Simplified: no runtime.Scheme; the only object kind referenced here is a Pod.
 */
export function getPartialReference(pod: PodWithVersion, path: string): ObjectReference {
  const typeMetaEmpty = !pod.kind && !pod.apiVersion;
  return {
    kind: typeMetaEmpty ? 'Pod' : (pod.kind ?? ''),
    apiVersion: typeMetaEmpty ? 'v1' : (pod.apiVersion ?? ''),
    name: pod.metadata.name ?? '',
    namespace: pod.metadata.namespace ?? '',
    uid: pod.metadata.uid ?? '',
    resourceVersion: pod.metadata.resourceVersion ?? '',
    fieldPath: path,
  };
}
