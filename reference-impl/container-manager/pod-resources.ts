/**
 * Pod-level requests and limits: the sum over regular containers, raised to the largest need of any
 * single init container (counting the sidecars started before it), plus pod overhead.
 */
import type { Pod } from '../api/index.js';
import { addInto, maxInto, parseResourceList, type NumericResources } from './quantities.js';

export type ContainerKind = 'Containers' | 'InitContainers';

export interface PodResourcesOptions {
  /** Leave spec.overhead out of the result. */
  excludeOverhead?: boolean;
  /** Sees the effective resources of every container, in the order they are accounted. */
  containerFn?: (res: NumericResources, kind: ContainerKind) => void;
}

/**
 * Sum of container requests, at least the need of each init container, plus overhead.
 * @go k8s.io/kubernetes/pkg/api/v1/resource.PodRequests
 * Simplified: the InPlacePodVerticalScaling and NonMissingContainerRequests options are not modelled.
 */
export function podRequests(pod: Pod, opts: PodResourcesOptions = {}): NumericResources {
  return accumulate(pod, 'requests', opts);
}

/**
 * Like podRequests for limits; overhead is only added to limits that are already non-zero.
 * @go k8s.io/kubernetes/pkg/api/v1/resource.PodLimits
 */
export function podLimits(pod: Pod, opts: PodResourcesOptions = {}): NumericResources {
  return accumulate(pod, 'limits', opts);
}

function accumulate(pod: Pod, kind: 'requests' | 'limits', opts: PodResourcesOptions): NumericResources {
  const total: NumericResources = new Map();
  pod.spec.containers.forEach((c, i) => {
    const res = parseResourceList(c.resources?.[kind], `spec.containers[${i}].resources.${kind}`);
    opts.containerFn?.(res, 'Containers');
    addInto(total, res);
  });

  // A sidecar keeps running while the init containers after it run, so each later init container
  // needs its own resources on top of every sidecar declared before it.
  const sidecars: NumericResources = new Map();
  const initPeak: NumericResources = new Map();
  (pod.spec.initContainers ?? []).forEach((c, i) => {
    const own = parseResourceList(c.resources?.[kind], `spec.initContainers[${i}].resources.${kind}`);
    let effective: NumericResources;
    if (c.restartPolicy === 'Always') {
      addInto(total, own);
      addInto(sidecars, own);
      effective = sidecars;
    } else {
      effective = new Map(own);
      addInto(effective, sidecars);
    }
    opts.containerFn?.(effective, 'InitContainers');
    maxInto(initPeak, effective);
  });
  maxInto(total, initPeak);

  if (!opts.excludeOverhead && pod.spec.overhead) {
    const overhead = parseResourceList(pod.spec.overhead, 'spec.overhead');
    for (const [name, v] of overhead) {
      if (kind === 'requests') total.set(name, (total.get(name) ?? 0) + v);
      else if ((total.get(name) ?? 0) !== 0) total.set(name, total.get(name)! + v);
    }
  }
  return total;
}
