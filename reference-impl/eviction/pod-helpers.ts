/**
 * Pod facts eviction depends on, each a small helper from elsewhere in Kubernetes: priority,
 * criticality, QoS class, tolerations, summed requests and which volumes live on local disk.
 */
import { parseQuantity, type Pod, type PodSpec, type Volume } from '../api/index.js';

/** @go k8s.io/api/core/v1.Toleration */
export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** @go k8s.io/api/core/v1.Taint */
export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** Local extension of the shared Volume: gitRepo also counts as local ephemeral storage. */
export interface EvictionVolume extends Volume {
  gitRepo?: { repository: string };
}

/** Local extension of the shared PodSpec: tolerations, needed by Admit under memory pressure. */
export interface EvictionPodSpec extends PodSpec {
  tolerations?: Toleration[];
  volumes?: EvictionVolume[];
}

/** A Pod as eviction reads it; any shared Pod is one. */
export interface EvictionPod extends Pod {
  spec: EvictionPodSpec;
}

/** @go k8s.io/kubernetes/pkg/kubelet/types.ConfigSourceAnnotationKey */
export const ConfigSourceAnnotationKey = 'kubernetes.io/config.source';
/** @go k8s.io/api/core/v1.MirrorPodAnnotationKey */
export const MirrorPodAnnotationKey = 'kubernetes.io/config.mirror';
/** 2 × the highest user-definable priority (1e9). @go k8s.io/kubernetes/pkg/apis/scheduling.SystemCriticalPriority */
export const SystemCriticalPriority = 2_000_000_000;
/** @go k8s.io/api/core/v1.TaintNodeMemoryPressure */
export const TaintNodeMemoryPressure = 'node.kubernetes.io/memory-pressure';

/** A pod without a priority counts as 0. @go k8s.io/component-helpers/scheduling/corev1.PodPriority */
export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

/** Came from a file or URL rather than the API server. @go k8s.io/kubernetes/pkg/kubelet/types.IsStaticPod */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[ConfigSourceAnnotationKey];
  return source !== undefined && source !== 'api';
}

/** @go k8s.io/kubernetes/pkg/kubelet/types.IsMirrorPod */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[MirrorPodAnnotationKey] !== undefined;
}

/** Static, mirror, or system-critical priority. @go k8s.io/kubernetes/pkg/kubelet/types.IsCriticalPod */
export function isCriticalPod(pod: Pod): boolean {
  if (isStaticPod(pod) || isMirrorPod(pod)) return true;
  return pod.spec.priority !== undefined && pod.spec.priority >= SystemCriticalPriority;
}

/** The pod QoS class: the container manager port's, shared. */
export { getPodQOS } from '../container-manager/qos.js';

/**
 * An empty effect or key matches any; operator Exists ignores the value, Equal (the default) needs it.
 * @go k8s.io/api/core/v1.(*Toleration).ToleratesTaint
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? 'Equal') {
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** @go k8s.io/component-helpers/scheduling/corev1.TolerationsTolerateTaint */
export function tolerationsTolerateTaint(tolerations: Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/**
 * The pod's request for one resource: the sum over containers, raised to the largest init container
 * request, plus pod overhead when the total is non-zero.
 * @go k8s.io/kubernetes/pkg/api/v1/resource.GetResourceRequestQuantity
 */
export function getResourceRequestQuantity(pod: Pod, resourceName: string): number {
  let total = 0;
  pod.spec.containers.forEach((c, i) => {
    const q = c.resources?.requests?.[resourceName];
    if (q !== undefined) total += parseQuantity(q, `spec.containers[${i}].resources.requests[${resourceName}]`);
  });
  (pod.spec.initContainers ?? []).forEach((c, i) => {
    const q = c.resources?.requests?.[resourceName];
    if (q === undefined) return;
    const v = parseQuantity(q, `spec.initContainers[${i}].resources.requests[${resourceName}]`);
    if (total < v) total = v;
  });
  const overhead = pod.spec.overhead?.[resourceName];
  if (overhead !== undefined && total !== 0) total += parseQuantity(overhead, `spec.overhead[${resourceName}]`);
  return total;
}

/**
 * Volumes whose data sits on the node's disk: hostPath, gitRepo, configMap, and disk-backed emptyDir.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.localVolumeNames
 */
export function localVolumeNames(pod: EvictionPod): string[] {
  return (pod.spec.volumes ?? [])
    .filter((v) => v.hostPath !== undefined || isLocalEphemeralVolume(v))
    .map((v) => v.name);
}

/** @go k8s.io/kubernetes/pkg/volume/util.IsLocalEphemeralVolume */
export function isLocalEphemeralVolume(v: EvictionVolume): boolean {
  return v.gitRepo !== undefined || (v.emptyDir !== undefined && (v.emptyDir.medium ?? '') === '') || v.configMap !== undefined;
}
