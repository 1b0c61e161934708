/**
 * Which pods count as critical. Static and mirror pods always do; API pods do when their priority is
 * at least the system-critical value.
 */
import type { Pod } from '../api/index.js';

/** @go k8s.io/kubernetes/pkg/apis/scheduling.SystemCriticalPriority */
export const SYSTEM_CRITICAL_PRIORITY = 2 * 1_000_000_000;
/** @go k8s.io/kubernetes/pkg/apis/scheduling.SystemNodeCritical */
export const SYSTEM_NODE_CRITICAL = 'system-node-critical';
/** @go k8s.io/kubernetes/pkg/apis/scheduling.SystemClusterCritical */
export const SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical';

const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const API_SERVER_SOURCE = 'api';

/**
 * A pod that came from a file or URL rather than the API server (its source annotation says so).
 * @go k8s.io/kubernetes/pkg/kubelet/types.IsStaticPod
 */
export function isStaticPod(pod: Pod): boolean {
  const source = pod.metadata.annotations?.[CONFIG_SOURCE_ANNOTATION];
  return source !== undefined && source !== API_SERVER_SOURCE;
}

/**
 * The API-server copy of a static pod.
 * @go k8s.io/kubernetes/pkg/kubelet/types.IsMirrorPod
 */
export function isMirrorPod(pod: Pod): boolean {
  return pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] !== undefined;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/types.IsCriticalPod
 */
export function isCriticalPod(pod: Pod): boolean {
  if (isStaticPod(pod) || isMirrorPod(pod)) return true;
  return pod.spec.priority !== undefined && pod.spec.priority >= SYSTEM_CRITICAL_PRIORITY;
}

/**
 * Critical and in the system-node-critical priority class. Being cluster-critical is not enough.
 * @go k8s.io/kubernetes/pkg/kubelet/types.IsNodeCriticalPod
 */
export function isNodeCriticalPod(pod: Pod): boolean {
  return isCriticalPod(pod) && pod.spec.priorityClassName === SYSTEM_NODE_CRITICAL;
}
