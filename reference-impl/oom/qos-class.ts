/**
 * The pod QoS class, needed here only to choose the OOM score band. It follows the same rules as the
 * container manager's QoS port.
 */
import type { Container, Pod, PodQOSClass } from '../api/index.js';
import { parseQuantity } from '../api/index.js';

const QOS_RESOURCES = new Set(['cpu', 'memory']);

/**
 * BestEffort when no container sets a positive cpu/memory request or limit; Guaranteed when every
 * container limits both cpu and memory and the summed requests equal the summed limits; otherwise
 * Burstable. Init containers count like regular containers.
 * @go k8s.io/kubernetes/pkg/apis/core/v1/helper/qos.GetPodQOS
 */
export function getPodQOS(pod: Pod): PodQOSClass {
  const requests = new Map<string, number>();
  const limits = new Map<string, number>();
  let isGuaranteed = true;
  const all: [Container, string][] = [
    ...pod.spec.containers.map((c, i): [Container, string] => [c, `spec.containers[${i}]`]),
    ...(pod.spec.initContainers ?? []).map((c, i): [Container, string] => [c, `spec.initContainers[${i}]`]),
  ];
  for (const [container, at] of all) {
    for (const [name, q] of Object.entries(container.resources?.requests ?? {})) {
      if (!QOS_RESOURCES.has(name)) continue;
      const v = parseQuantity(q, `${at}.resources.requests[${name}]`);
      if (v > 0) requests.set(name, (requests.get(name) ?? 0) + v);
    }
    const limitsFound = new Set<string>();
    for (const [name, q] of Object.entries(container.resources?.limits ?? {})) {
      if (!QOS_RESOURCES.has(name)) continue;
      const v = parseQuantity(q, `${at}.resources.limits[${name}]`);
      if (v > 0) {
        limitsFound.add(name);
        limits.set(name, (limits.get(name) ?? 0) + v);
      }
    }
    if (!limitsFound.has('memory') || !limitsFound.has('cpu')) isGuaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (isGuaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        isGuaranteed = false;
        break;
      }
    }
  }
  return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
