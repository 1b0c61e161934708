/**
 * The text an evicted pod's status carries ("The node was low on resource: memory. …") and the event
 * annotations naming the containers that used more than they requested.
 */
import type { Pod } from '../api/index.js';
import { parseQuantity } from '../api/index.js';
import { getThresholdQuantity, type Threshold } from './api.js';
import { signalToResource, type ReclaimResource } from './signals.js';
import type { SignalObservations, StatsFunc } from './thresholds.js';

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.OffendingContainersKey */
export const OffendingContainersKey = 'offending_containers';
/** @go k8s.io/kubernetes/pkg/kubelet/eviction.OffendingContainersUsageKey */
export const OffendingContainersUsageKey = 'offending_containers_usage';
/** @go k8s.io/kubernetes/pkg/kubelet/eviction.StarvedResourceKey */
export const StarvedResourceKey = 'starved_resource';

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_SUFFIXES = ['', 'k', 'M', 'G', 'T', 'P', 'E'];

/**
 * An integer printed the way a Kubernetes quantity prints: with the largest suffix that divides it
 * exactly ("1500Mi", "2Gi", "150k"); small or indivisible values are bare numbers.
 * @go k8s.io/apimachinery/pkg/api/resource.(*Quantity).String
 * Simplified: integers only; bytes use binary suffixes and counts (inodes, PIDs) decimal ones.
 */
export function formatQuantity(value: number, binary: boolean): string {
  const base = binary ? 1024 : 1000;
  const suffixes = binary ? BINARY_SUFFIXES : DECIMAL_SUFFIXES;
  if (binary && Math.abs(value) < 1024) return String(value);
  let n = value;
  let k = 0;
  while (n !== 0 && k < suffixes.length - 1 && Number.isInteger(n / base)) {
    n /= base;
    k++;
  }
  return `${n}${suffixes[k]}`;
}

const isBytes = (resource: string): boolean => resource === 'memory' || resource === 'ephemeral-storage';

/**
 * The threshold and observed amount for the first met threshold on `resource`.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.getThresholdMetInfo
 */
export function getThresholdMetInfo(resource: ReclaimResource, thresholds: Threshold[], observations: SignalObservations): [number, number] | undefined {
  for (const t of thresholds) {
    if (signalToResource[t.signal] !== resource) continue;
    const observed = observations[t.signal];
    if (observed !== undefined) return [getThresholdQuantity(t.value, observed.capacity), observed.available];
  }
  return undefined;
}

/**
 * The eviction message and event annotations for one pod.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.evictionMessage
 * The InPlacePodVerticalScaling feature is alpha and off by default in v1.28.
 * Simplified: the InPlacePodVerticalScaling branch (allocated resources) is left out.
 */
export function evictionMessage(
  resource: ReclaimResource,
  pod: Pod,
  stats: StatsFunc,
  thresholds: Threshold[],
  observations: SignalObservations,
): { message: string; annotations: Record<string, string> } {
  const annotations: Record<string, string> = {};
  let message = `The node was low on resource: ${resource}. `;
  const met = getThresholdMetInfo(resource, thresholds, observations);
  const binary = isBytes(resource);
  if (met !== undefined) {
    message += `Threshold quantity: ${formatQuantity(met[0], binary)}, available: ${formatQuantity(met[1], binary)}. `;
  }
  const podStats = stats(pod);
  if (podStats === undefined) return { message, annotations };
  const containers: string[] = [];
  const usages: string[] = [];
  for (const cs of podStats.containers ?? []) {
    for (const container of pod.spec.containers) {
      if (container.name !== cs.name) continue;
      const requestText = container.resources?.requests?.[resource];
      const request = requestText === undefined ? 0 : parseQuantity(requestText, `spec.containers[${container.name}].resources.requests[${resource}]`);
      let usage: number | undefined;
      if (resource === 'ephemeral-storage') {
        if (cs.rootfs?.usedBytes !== undefined && cs.logs?.usedBytes !== undefined) usage = cs.rootfs.usedBytes + cs.logs.usedBytes;
      } else if (resource === 'memory') {
        usage = cs.memory?.workingSetBytes;
      }
      if (usage !== undefined && usage > request) {
        const used = formatQuantity(usage, true);
        const requested = Number.isInteger(request) ? formatQuantity(request, true) : (requestText ?? '0');
        message += `Container ${container.name} was using ${used}, request is ${requested}, has larger consumption of ${resource}. `;
        containers.push(container.name);
        usages.push(used);
      }
    }
  }
  annotations[OffendingContainersKey] = containers.join(',');
  annotations[OffendingContainersUsageKey] = usages.join(',');
  annotations[StarvedResourceKey] = resource;
  return { message, annotations };
}
