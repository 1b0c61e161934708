/**
 * The last step before a status is patched to the API server: combine what the API server has with
 * what the kubelet computed.
 */
import type { Clock, PodStatus } from '../api/index.js';
import type { StatusFeatureGates } from './gates.js';
import {
  DisruptionTarget,
  generateContainersReadyConditionForTerminalPhase,
  generatePodReadyConditionForTerminalPhase,
  getPodConditionFromList,
  isContainersReadyConditionTrue,
  isPodPhaseTerminal,
  isPodReadyConditionTrue,
  podConditionByKubelet,
  podConditionSharedByKubelet,
  replaceOrAppendPodCondition,
  updatePodCondition,
} from './conditions.js';
import { updateLastTransitionTime } from './transition.js';

/**
 * - Conditions the kubelet does not own are taken from the old (API) status; the kubelet's own from the new one.
 * - A shared condition (DisruptionTarget) is sent only together with the terminal phase, and only once no
 *   container can still be running.
 * - A move to a terminal phase is held back (phase, reason and message stay old) while containers may
 *   still run: the pod must not look finished while it holds exclusive resources.
 * - A terminal phase forces Ready and ContainersReady to False.
 * Neither argument is modified.
 * Simplified: Go reads gates and the time globally; here they are passed in.
 * @go k8s.io/kubernetes/pkg/kubelet/status.mergePodStatus
 */
export function mergePodStatus(
  oldPodStatus: PodStatus,
  newPodStatus: PodStatus,
  couldHaveRunningContainers: boolean,
  opts: { clock: Clock; gates: StatusFeatureGates },
): PodStatus {
  const oldStatus = structuredClone(oldPodStatus);
  const newStatus = structuredClone(newPodStatus);
  const { clock, gates } = opts;

  const podConditions = (oldStatus.conditions ?? []).filter((c) => !podConditionByKubelet(c.type, gates));
  const transitioningToTerminalPhase = !isPodPhaseTerminal(oldStatus.phase) && isPodPhaseTerminal(newStatus.phase);

  for (const c of newStatus.conditions ?? []) {
    if (podConditionByKubelet(c.type, gates)) podConditions.push(c);
    else if (podConditionSharedByKubelet(c.type, gates) && c.type === DisruptionTarget) {
      if (transitioningToTerminalPhase && !couldHaveRunningContainers) {
        // The transition time set earlier is stale: sending was delayed until the containers stopped.
        updateLastTransitionTime(newStatus, oldStatus, c.type, clock);
        const updated = getPodConditionFromList(newStatus.conditions, c.type);
        if (updated) replaceOrAppendPodCondition(podConditions, updated);
      }
    }
  }
  newStatus.conditions = podConditions;

  if (transitioningToTerminalPhase && couldHaveRunningContainers) {
    restore(newStatus, oldStatus, 'phase');
    restore(newStatus, oldStatus, 'reason');
    restore(newStatus, oldStatus, 'message');
  }

  if (isPodPhaseTerminal(newStatus.phase) && (isPodReadyConditionTrue(newStatus) || isContainersReadyConditionTrue(newStatus))) {
    const phase = newStatus.phase as 'Failed' | 'Succeeded';
    updatePodCondition(newStatus, generateContainersReadyConditionForTerminalPhase(phase), clock);
    updatePodCondition(newStatus, generatePodReadyConditionForTerminalPhase(phase), clock);
  }
  return newStatus;
}

function restore(target: PodStatus, source: PodStatus, field: 'phase' | 'reason' | 'message'): void {
  if (source[field] === undefined) delete target[field];
  else (target as Record<string, unknown>)[field] = source[field];
}
