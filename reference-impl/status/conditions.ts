/**
 * Pod conditions: which ones the kubelet owns, small list helpers (pkg/api/v1/pod, pkg/util/pod) and
 * the generators for the kubelet-owned ones (pkg/kubelet/status/generate.go).
 */
import type { Clock, Container, ContainerStatus, PodCondition, PodPhase, PodSpec, PodStatus } from '../api/index.js';
import type { StatusFeatureGates } from './gates.js';
import { getContainerStatus, hasAnyRegularContainerStarted, isRestartableInitContainer } from './phase.js';

export const PodScheduled = 'PodScheduled';
export const PodReady = 'Ready';
export const PodInitialized = 'Initialized';
export const ContainersReady = 'ContainersReady';
export const DisruptionTarget = 'DisruptionTarget';
export const PodReadyToStartContainers = 'PodReadyToStartContainers';

// Reasons the generators put on conditions.
export const UnknownContainerStatuses = 'UnknownContainerStatuses';
export const PodCompleted = 'PodCompleted';
export const PodFailed = 'PodFailed';
export const ContainersNotReady = 'ContainersNotReady';
export const ContainersNotInitialized = 'ContainersNotInitialized';
export const ReadinessGatesNotReady = 'ReadinessGatesNotReady';

/** A readiness gate names a condition that a controller sets; the pod is Ready only when it is True. */
export type PodSpecWithReadinessGates = PodSpec & { readinessGates?: { conditionType: string }[] };

/** metav1.Now() as it reaches the API: RFC 3339 at second precision, from the injected clock. @go k8s.io/apimachinery/pkg/apis/meta/v1.Now */
export function nowRFC3339(clock: Clock): string {
  return new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** @go k8s.io/kubernetes/pkg/kubelet/types.PodConditionByKubelet */
export function podConditionByKubelet(type: string, gates: StatusFeatureGates): boolean {
  if ([PodScheduled, PodReady, PodInitialized, ContainersReady].includes(type)) return true;
  return gates.PodReadyToStartContainersCondition && type === PodReadyToStartContainers;
}

/** Shared conditions may be set by the kubelet and by the control plane. @go k8s.io/kubernetes/pkg/kubelet/types.PodConditionSharedByKubelet */
export function podConditionSharedByKubelet(type: string, gates: StatusFeatureGates): boolean {
  return gates.PodDisruptionConditions && type === DisruptionTarget;
}

/** @go k8s.io/kubernetes/pkg/api/v1/pod.IsPodPhaseTerminal */
export function isPodPhaseTerminal(phase: PodPhase | undefined): boolean {
  return phase === 'Failed' || phase === 'Succeeded';
}

/** The condition object itself (mutable), or undefined. @go k8s.io/kubernetes/pkg/api/v1/pod.GetPodConditionFromList */
export function getPodConditionFromList(conditions: PodCondition[] | undefined, type: string): PodCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** @go k8s.io/kubernetes/pkg/api/v1/pod.GetPodCondition */
export function getPodCondition(status: PodStatus, type: string): PodCondition | undefined {
  return getPodConditionFromList(status.conditions, type);
}

/** @go k8s.io/kubernetes/pkg/api/v1/pod.IsPodReadyConditionTrue */
export function isPodReadyConditionTrue(status: PodStatus): boolean {
  return getPodCondition(status, PodReady)?.status === 'True';
}

/** @go k8s.io/kubernetes/pkg/api/v1/pod.IsContainersReadyConditionTrue */
export function isContainersReadyConditionTrue(status: PodStatus): boolean {
  return getPodCondition(status, ContainersReady)?.status === 'True';
}

/**
 * Sets or adds a condition, keeping the old transition time when the status did not flip.
 * Returns whether anything changed.
 * @go k8s.io/kubernetes/pkg/api/v1/pod.UpdatePodCondition
 */
export function updatePodCondition(status: PodStatus, condition: PodCondition, clock: Clock): boolean {
  const updated: PodCondition = { ...condition, lastTransitionTime: nowRFC3339(clock) };
  const conditions = (status.conditions ??= []);
  const index = conditions.findIndex((c) => c.type === condition.type);
  if (index < 0) {
    conditions.push(updated);
    return true;
  }
  const old = conditions[index];
  if (updated.status === old.status) updated.lastTransitionTime = old.lastTransitionTime;
  const same =
    updated.status === old.status &&
    (updated.reason ?? '') === (old.reason ?? '') &&
    (updated.message ?? '') === (old.message ?? '') &&
    (updated.lastProbeTime ?? null) === (old.lastProbeTime ?? null) &&
    (updated.lastTransitionTime ?? null) === (old.lastTransitionTime ?? null);
  conditions[index] = updated;
  return !same;
}

/** @go k8s.io/kubernetes/pkg/util/pod.ReplaceOrAppendPodCondition */
export function replaceOrAppendPodCondition(conditions: PodCondition[], condition: PodCondition): PodCondition[] {
  const index = conditions.findIndex((c) => c.type === condition.type);
  if (index >= 0) conditions[index] = { ...condition };
  else conditions.push({ ...condition });
  return conditions;
}

/** Go's %s on a []string. */
const goList = (names: string[]) => `[${names.join(' ')}]`;

function cond(type: string, status: PodCondition['status'], reason?: string, message?: string): PodCondition {
  const c: PodCondition = { type, status };
  if (reason) c.reason = reason;
  if (message) c.message = message;
  return c;
}

/**
 * True when every regular container and every sidecar (restartable init container) is ready.
 * `undefined` statuses stand for Go's nil slice: nothing known at all.
 * @go k8s.io/kubernetes/pkg/kubelet/status.GenerateContainersReadyCondition
 */
export function generateContainersReadyCondition(spec: PodSpec, statuses: ContainerStatus[] | undefined, phase: PodPhase | undefined): PodCondition {
  if (statuses === undefined) return cond(ContainersReady, 'False', UnknownContainerStatuses);
  const unknown: string[] = [];
  const unready: string[] = [];
  const check = (c: Container) => {
    const s = getContainerStatus(statuses, c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  };
  (spec.initContainers ?? []).filter(isRestartableInitContainer).forEach(check);
  spec.containers.forEach(check);

  if (phase === 'Succeeded' && unknown.length === 0) return generateContainersReadyConditionForTerminalPhase(phase);
  // A failed pod's containers may still be terminating: never report them ready.
  if (phase === 'Failed') return generateContainersReadyConditionForTerminalPhase(phase);

  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (unready.length > 0) messages.push(`containers with unready status: ${goList(unready)}`);
  if (messages.length > 0) return cond(ContainersReady, 'False', ContainersNotReady, messages.join(', '));
  return cond(ContainersReady, 'True');
}

/**
 * ContainersReady, further held back by any readiness gate whose condition is missing or not True.
 * @go k8s.io/kubernetes/pkg/kubelet/status.GeneratePodReadyCondition
 */
export function generatePodReadyCondition(
  spec: PodSpecWithReadinessGates,
  conditions: PodCondition[] | undefined,
  statuses: ContainerStatus[] | undefined,
  phase: PodPhase | undefined,
): PodCondition {
  const containersReady = generateContainersReadyCondition(spec, statuses, phase);
  if (containersReady.status !== 'True') return cond(PodReady, containersReady.status, containersReady.reason, containersReady.message);

  const messages: string[] = [];
  for (const gate of spec.readinessGates ?? []) {
    const c = getPodConditionFromList(conditions, gate.conditionType);
    if (!c) messages.push(`corresponding condition of pod readiness gate ${JSON.stringify(gate.conditionType)} does not exist.`);
    else if (c.status !== 'True') messages.push(`the status of pod readiness gate ${JSON.stringify(gate.conditionType)} is not "True", but ${c.status}`);
  }
  if (messages.length > 0) return cond(PodReady, 'False', ReadinessGatesNotReady, messages.join(', '));
  return cond(PodReady, 'True');
}

/** A sidecar counts once it has started; a regular init container once it is "ready" (exited 0). */
function isInitContainerInitialized(container: Container, status: ContainerStatus): boolean {
  if (isRestartableInitContainer(container)) return status.started === true;
  return status.ready;
}

/** @go k8s.io/kubernetes/pkg/kubelet/status.GeneratePodInitializedCondition */
export function generatePodInitializedCondition(spec: PodSpec, statuses: ContainerStatus[] | undefined, phase: PodPhase | undefined): PodCondition {
  const initContainers = spec.initContainers ?? [];
  if (statuses === undefined && initContainers.length > 0) return cond(PodInitialized, 'False', UnknownContainerStatuses);

  const unknown: string[] = [];
  const incomplete: string[] = [];
  for (const c of initContainers) {
    const s = getContainerStatus(statuses ?? [], c.name);
    if (!s) unknown.push(c.name);
    else if (!isInitContainerInitialized(c, s)) incomplete.push(c.name);
  }
  if (phase === 'Succeeded' && unknown.length === 0) return cond(PodInitialized, 'True', PodCompleted);
  // A regular container that ever ran proves initialization, even while sidecars restart.
  if (hasAnyRegularContainerStarted(spec, statuses ?? [])) return cond(PodInitialized, 'True');

  const messages: string[] = [];
  if (unknown.length > 0) messages.push(`containers with unknown status: ${goList(unknown)}`);
  if (incomplete.length > 0) messages.push(`containers with incomplete status: ${goList(incomplete)}`);
  if (messages.length > 0) return cond(PodInitialized, 'False', ContainersNotInitialized, messages.join(', '));
  return cond(PodInitialized, 'True');
}

/**
 * True when no new sandbox is needed, i.e. the pod's network is already set up.
 * Simplified: takes the answer of PodSandboxChanged rather than the pod and its runtime status.
 * @go k8s.io/kubernetes/pkg/kubelet/status.GeneratePodReadyToStartContainersCondition
 */
export function generatePodReadyToStartContainersCondition(newSandboxNeeded: boolean): PodCondition {
  return cond(PodReadyToStartContainers, newSandboxNeeded ? 'False' : 'True');
}

/** @go k8s.io/kubernetes/pkg/kubelet/status.generateContainersReadyConditionForTerminalPhase */
export function generateContainersReadyConditionForTerminalPhase(phase: PodPhase): PodCondition {
  return cond(ContainersReady, 'False', phase === 'Failed' ? PodFailed : phase === 'Succeeded' ? PodCompleted : undefined);
}

/** @go k8s.io/kubernetes/pkg/kubelet/status.generatePodReadyConditionForTerminalPhase */
export function generatePodReadyConditionForTerminalPhase(phase: PodPhase): PodCondition {
  return cond(PodReady, 'False', phase === 'Failed' ? PodFailed : phase === 'Succeeded' ? PodCompleted : undefined);
}
