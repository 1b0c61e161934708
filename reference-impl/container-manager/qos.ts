/**
 * The pod QoS class, derived from cpu and memory requests and limits only.
 */
import type { Pod, PodQOSClass } from '../api/index.js';
import { parseResourceList, sameQuantity } from './quantities.js';

const QOS_RESOURCES = new Set(['cpu', 'memory']);

/**
 * BestEffort when no container asks for cpu or memory at all; Guaranteed when every container
 * (init containers included) sets both cpu and memory limits and the pod-wide request sums equal the
 * limit sums; Burstable otherwise. Zero quantities count as unset.
 * @go k8s.io/kubernetes/pkg/apis/core/v1/helper/qos.GetPodQOS
 */
export function getPodQOS(pod: Pod): PodQOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let guaranteed = true;
  const all = [
    ...pod.spec.containers.map((c, i) => ({ c, at: `spec.containers[${i}]` })),
    ...(pod.spec.initContainers ?? []).map((c, i) => ({ c, at: `spec.initContainers[${i}]` })),
  ];
  for (const { c, at } of all) {
    for (const [name, v] of parseResourceList(c.resources?.requests, `${at}.resources.requests`)) {
      if (QOS_RESOURCES.has(name) && v > 0) requests.set(name, (requests.get(name) ?? 0) + v);
    }
    const limited = new Set<string>();
    for (const [name, v] of parseResourceList(c.resources?.limits, `${at}.resources.limits`)) {
      if (QOS_RESOURCES.has(name) && v > 0) {
        limited.add(name);
        limits.set(name, (limits.get(name) ?? 0) + v);
      }
    }
    if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
  }

  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || !sameQuantity(lim, req)) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
