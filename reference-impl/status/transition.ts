import type { Clock, PodStatus } from '../api/index.js';
import { getPodCondition, nowRFC3339 } from './conditions.js';

/**
 * Stamps a condition's lastTransitionTime: now if its status flipped (or it is new), else the old time.
 * @go k8s.io/kubernetes/pkg/kubelet/status.updateLastTransitionTime
 */
export function updateLastTransitionTime(status: PodStatus, oldStatus: PodStatus, type: string, clock: Clock): void {
  const condition = getPodCondition(status, type);
  if (!condition) return;
  const old = getPodCondition(oldStatus, type);
  const time = old && old.status === condition.status ? old.lastTransitionTime : nowRFC3339(clock);
  if (time === undefined || time === null) delete condition.lastTransitionTime;
  else condition.lastTransitionTime = time;
}
