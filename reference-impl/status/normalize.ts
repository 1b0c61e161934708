/**
 * Making two statuses comparable: the API server stores times at second precision and the kubelet
 * caps termination messages, so the kubelet normalizes its own copy before comparing it with what
 * the API server returned; and it compares only what the kubelet owns.
 */
import type { ContainerState, ContainerStatus, Pod, PodStatus } from '../api/index.js';
import type { StatusFeatureGates } from './gates.js';
import { getPodCondition, podConditionByKubelet, podConditionSharedByKubelet } from './conditions.js';
import { semanticEqual } from './equality.js';

/** Bytes of termination message one pod may keep, shared out among its containers. */
export const MaxPodTerminationMessageLogLength = 1024 * 12;

/** @go k8s.io/apimachinery/pkg/apis/meta/v1.Time.Rfc3339Copy */
function toSeconds(time: string | undefined | null): string | undefined {
  if (!time) return undefined;
  const ms = Date.parse(time);
  if (Number.isNaN(ms)) throw new Error(`time: Invalid value: "${time}": must be RFC 3339`);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function setTime<T extends object, K extends keyof T>(obj: T, key: K): void {
  const v = toSeconds(obj[key] as string | undefined);
  if (v === undefined) delete obj[key];
  else obj[key] = v as T[K];
}

/**
 * In place: times to whole seconds, each termination message cut to its share of 12 KiB, regular
 * container statuses sorted by name and init container statuses put in spec order.
 * Simplified: the message is cut at a UTF-8 byte boundary like Go, then decoded again.
 * @go k8s.io/kubernetes/pkg/kubelet/status.normalizeStatus
 */
export function normalizeStatus(pod: Pod, status: PodStatus): PodStatus {
  const containers = pod.spec.containers.length + (pod.spec.initContainers?.length ?? 0);
  const bytesPerStatus = containers > 0 ? Math.floor(MaxPodTerminationMessageLogLength / containers) : MaxPodTerminationMessageLogLength;
  const normalizeState = (s: ContainerState | undefined) => {
    if (s?.running) setTime(s.running, 'startedAt');
    if (s?.terminated) {
      setTime(s.terminated, 'startedAt');
      setTime(s.terminated, 'finishedAt');
      const msg = s.terminated.message;
      if (msg && Buffer.byteLength(msg) > bytesPerStatus) s.terminated.message = Buffer.from(msg).subarray(0, bytesPerStatus).toString();
    }
  };

  setTime(status, 'startTime');
  for (const c of status.conditions ?? []) {
    setTime(c, 'lastProbeTime');
    setTime(c, 'lastTransitionTime');
  }
  for (const cs of status.containerStatuses ?? []) {
    normalizeState(cs.state);
    normalizeState(cs.lastState);
  }
  status.containerStatuses?.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const cs of status.initContainerStatuses ?? []) {
    normalizeState(cs.state);
    normalizeState(cs.lastState);
  }
  if (status.initContainerStatuses) sortInitContainerStatuses(pod, status.initContainerStatuses);
  return status;
}

/** In place, spec order first; statuses for names not in the spec end up after. @go k8s.io/kubernetes/pkg/kubelet/types.SortInitContainerStatuses */
export function sortInitContainerStatuses(pod: Pod, statuses: ContainerStatus[]): void {
  let current = 0;
  for (const container of pod.spec.initContainers ?? []) {
    for (let j = current; j < statuses.length; j++) {
      if (statuses[j].name === container.name) {
        [statuses[current], statuses[j]] = [statuses[j], statuses[current]];
        current++;
        break;
      }
    }
  }
}

/**
 * Equal apart from conditions the kubelet neither owns nor shares; for those it does, status,
 * reason and message must match (transition times are ignored).
 * @go k8s.io/kubernetes/pkg/kubelet/status.isPodStatusByKubeletEqual
 */
export function isPodStatusByKubeletEqual(oldStatus: PodStatus, status: PodStatus, gates: StatusFeatureGates): boolean {
  for (const c of status.conditions ?? []) {
    if (!podConditionByKubelet(c.type, gates) && !podConditionSharedByKubelet(c.type, gates)) continue;
    const oc = getPodCondition(oldStatus, c.type);
    if (!oc || oc.status !== c.status || (oc.message ?? '') !== (c.message ?? '') || (oc.reason ?? '') !== (c.reason ?? '')) return false;
  }
  return semanticEqual({ ...oldStatus, conditions: status.conditions }, status);
}
