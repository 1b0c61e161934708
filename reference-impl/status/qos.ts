import { parseQuantity, type Pod, type PodQOSClass } from '../api/index.js';

const QOS_RESOURCES = new Set(['cpu', 'memory']);

/**
 * BestEffort without any cpu/memory request or limit; Guaranteed when every container limits both
 * and the summed requests equal the summed limits; Burstable otherwise. Init containers count too.
 * @go k8s.io/kubernetes/pkg/apis/core/v1/helper/qos.GetPodQOS
 */
export function getPodQOS(pod: Pod): PodQOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  const all = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
  all.forEach((container, i) => {
    const at = `${i < pod.spec.containers.length ? `spec.containers[${i}]` : `spec.initContainers[${i - pod.spec.containers.length}]`}.resources`;
    for (const [name, q] of Object.entries(container.resources?.requests ?? {})) {
      if (!QOS_RESOURCES.has(name)) continue;
      const v = parseQuantity(q, `${at}.requests[${name}]`);
      if (v > 0) requests.set(name, (requests.get(name) ?? 0) + v);
    }
    const found = new Set<string>();
    for (const [name, q] of Object.entries(container.resources?.limits ?? {})) {
      if (!QOS_RESOURCES.has(name)) continue;
      const v = parseQuantity(q, `${at}.limits[${name}]`);
      if (v > 0) {
        found.add(name);
        limits.set(name, (limits.get(name) ?? 0) + v);
      }
    }
    if (!found.has('memory') || !found.has('cpu')) isGuaranteed = false;
  });
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (lim === undefined || Math.abs(lim - req) > 1e-9 * Math.max(1, Math.abs(req))) {
        isGuaranteed = false;
        break;
      }
    }
  }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
