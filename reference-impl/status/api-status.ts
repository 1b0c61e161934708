/**
 * Turning what the runtime reports into the API status the kubelet hands to the status manager
 * (Kubelet.generateAPIPodStatus and the converters below it in pkg/kubelet/kubelet_pods.go).
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Container, ContainerStatus, Pod, PodCondition, PodStatus } from '../api/index.js';
import {
  DisruptionTarget,
  PodScheduled,
  generateContainersReadyCondition,
  generatePodInitializedCondition,
  generatePodReadyCondition,
  generatePodReadyToStartContainersCondition,
  getPodConditionFromList,
  podConditionByKubelet,
  replaceOrAppendPodCondition,
} from './conditions.js';
import { DEFAULT_GATES, type StatusFeatureGates } from './gates.js';
import { getPhase } from './phase.js';
import { getPodQOS } from './qos.js';

// --- The runtime's view of a pod (kubecontainer.PodStatus), reduced to what is read here. ---

/** @go k8s.io/kubernetes/pkg/kubelet/container.State */
export type RuntimeContainerState = 'running' | 'created' | 'exited' | 'unknown';

/** @go k8s.io/kubernetes/pkg/kubelet/container.Status */
export interface RuntimeContainerStatus {
  /** Printed as `type://id`. */
  id?: { type: string; id: string };
  name: string;
  state: RuntimeContainerState;
  /** Milliseconds since the epoch; newer statuses of the same name win. */
  createdAt?: number;
  startedAt?: string;
  finishedAt?: string;
  exitCode?: number;
  reason?: string;
  message?: string;
  image?: string;
  imageID?: string;
  restartCount?: number;
}

export interface RuntimeSandboxStatus {
  id?: string;
  attempt: number;
  state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
  /** Absent: the runtime reported no network status; "": it reported no IP. */
  ip?: string;
  /** The sandbox's network namespace mode. */
  networkNamespace?: 'POD' | 'NODE';
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.PodStatus */
export interface RuntimePodStatus {
  ips?: string[];
  /** Newest first, as the runtime manager lists them. */
  sandboxStatuses?: RuntimeSandboxStatus[];
  containerStatuses?: RuntimeContainerStatus[];
}

/** The API status with the list fields types.ts leaves out. */
export type APIPodStatus = PodStatus & { podIPs?: { ip: string }[]; hostIPs?: { ip: string }[] };

export const ContainerCreating = 'ContainerCreating';
export const PodInitializing = 'PodInitializing';

/** What generateAPIPodStatus needs from the rest of the kubelet. */
export interface APIStatusDeps {
  statusManager: { getPodStatus(uid: string): PodStatus | undefined };
  gates?: Partial<StatusFeatureGates>;
  /** The node's IPs; leave undefined to model a kubelet without an API client (no host IPs). */
  nodeIPs?: string[];
  /** Last start failure per `${podUID}/${containerName}` (the kubelet's reasonCache). */
  reasonCache?: Map<string, { reason: string; message: string }>;
  /** Internal modules that can demand eviction (e.g. active deadline). */
  podSyncHandlers?: { shouldEvict(pod: Pod): { evict: boolean; reason?: string; message?: string } }[];
  /** Sets ready/started from probe results. */
  probeManager?: { updatePodStatus(pod: Pod, status: PodStatus): void };
}

/** Drops keys whose value is undefined, so built objects print like the API's omitempty JSON. */
function defined<T extends object>(obj: T): T {
  for (const k of Object.keys(obj) as (keyof T)[]) if (obj[k] === undefined) delete obj[k];
  return obj;
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.(*ContainerID).String */
function containerIDString(id: RuntimeContainerStatus['id']): string {
  return id ? `${id.type}://${id.id}` : '';
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.(*PodStatus).FindContainerStatusByName */
function findRuntimeStatusByName(podStatus: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined {
  return podStatus.containerStatuses?.find((s) => s.name === name);
}

/**
 * Never for a pod being deleted or a running container; always when there is no record or the state
 * is unknown/created; otherwise by RestartPolicy (OnFailure: only after a non-zero exit).
 * @go k8s.io/kubernetes/pkg/kubelet/container.ShouldContainerBeRestarted
 */
export function shouldContainerBeRestarted(container: Container, pod: Pod, podStatus: RuntimePodStatus): boolean {
  if (pod.metadata.deletionTimestamp !== undefined) return false;
  const status = findRuntimeStatusByName(podStatus, container.name);
  if (!status) return true;
  if (status.state === 'running') return false;
  if (status.state === 'unknown' || status.state === 'created') return true;
  if (pod.spec.restartPolicy === 'Never') return false;
  if (pod.spec.restartPolicy === 'OnFailure' && (status.exitCode ?? 0) === 0) return false;
  return true;
}

/**
 * Whether the kubelet would have to create a new sandbox (none, several ready, the newest not ready,
 * wrong network namespace, or no IP).
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime/util.PodSandboxChanged
 */
export function podSandboxChanged(pod: Pod, podStatus: RuntimePodStatus): boolean {
  const sandboxes = podStatus.sandboxStatuses ?? [];
  if (sandboxes.length === 0) return true;
  const ready = sandboxes.filter((s) => s.state === 'SANDBOX_READY').length;
  const latest = sandboxes[0];
  if (ready > 1 || latest.state !== 'SANDBOX_READY') return true;
  if ((latest.networkNamespace ?? 'POD') !== (pod.spec.hostNetwork ? 'NODE' : 'POD')) return true;
  if (!pod.spec.hostNetwork && latest.ip === '') return true;
  return false;
}

/**
 * One IP of the node's primary family first, then one of the other family.
 * @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).sortPodIPs
 */
export function sortPodIPs(podIPs: string[], nodeIPs: string[] = []): string[] {
  const v4First = nodeIPs.length === 0 || isIPv4(nodeIPs[0]);
  const [primary, secondary] = v4First ? [isIPv4, isIPv6] : [isIPv6, isIPv4];
  return [podIPs.find((ip) => primary(ip)), podIPs.find((ip) => secondary(ip))].filter((ip): ip is string => ip !== undefined);
}

/**
 * Simplified: no in-place resize resources; the reason cache is a plain map.
 * @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).convertToAPIContainerStatuses
 */
export function convertToAPIContainerStatuses(
  pod: Pod,
  podStatus: RuntimePodStatus,
  previousStatus: ContainerStatus[] | undefined,
  containers: Container[],
  hasInitContainers: boolean,
  isInitContainer: boolean,
  reasonCache: APIStatusDeps['reasonCache'] = new Map(),
): ContainerStatus[] {
  const convertContainerStatus = (cs: RuntimeContainerStatus, oldStatus: ContainerStatus | undefined): ContainerStatus => {
    const cid = containerIDString(cs.id);
    const status: ContainerStatus = defined({ name: cs.name, ready: false, restartCount: cs.restartCount ?? 0, image: cs.image, imageID: cs.imageID, containerID: cid || undefined });
    if (cs.state === 'running') status.state = { running: defined({ startedAt: cs.startedAt }) };
    else if (cs.state === 'created') status.state = { waiting: {} }; // created but not started is "waiting to run"
    else if (cs.state === 'exited') {
      status.state = {
        terminated: defined({ exitCode: cs.exitCode ?? 0, reason: cs.reason, message: cs.message, startedAt: cs.startedAt, finishedAt: cs.finishedAt, containerID: cid || undefined }),
      };
    } else if (oldStatus?.state?.running) {
      // It ran and the runtime lost it: report a failure rather than "never ran", so a run-once pod
      // does not run twice.
      status.state = { terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', exitCode: 137 } };
      status.restartCount = oldStatus.restartCount + 1;
    } else {
      status.state = { waiting: {} };
    }
    return status;
  };

  const oldStatuses = new Map((previousStatus ?? []).map((s) => [s.name, s]));

  // Everyone starts Waiting, keeping restart count and last state from before; a terminated old status stays.
  const defaultReason = hasInitContainers ? PodInitializing : ContainerCreating;
  const statuses = new Map<string, ContainerStatus>();
  for (const container of containers) {
    let status: ContainerStatus = defined({ name: container.name, image: container.image, state: { waiting: { reason: defaultReason } }, ready: false, restartCount: 0 });
    const old = oldStatuses.get(container.name);
    if (old) {
      if (old.state?.terminated) status = structuredClone(old);
      else {
        status.restartCount = old.restartCount;
        if (old.lastState) status.lastState = structuredClone(old.lastState);
      }
    }
    statuses.set(container.name, status);
  }

  // A container that was running and has vanished from the runtime must not look "never started":
  // give it an unknown last termination so the pod does not fall back to Pending.
  for (const container of containers) {
    if (podStatus.containerStatuses?.some((cs) => cs.name === container.name)) continue;
    const old = oldStatuses.get(container.name);
    if (!old || old.state?.terminated || !old.state?.running) continue;
    const status = statuses.get(container.name) as ContainerStatus;
    if (status.state?.waiting?.reason !== defaultReason) continue;
    if (status.lastState?.terminated) continue;
    status.lastState = {
      ...status.lastState,
      terminated: { reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was deleted.  The container used to be Running', exitCode: 137 },
    };
    // Not deleted means it has been restarted.
    if (pod.metadata.deletionTimestamp === undefined) status.restartCount += 1;
  }

  // Newest first: the newest becomes the state, the one before it the last state.
  const byCreation = [...(podStatus.containerStatuses ?? [])].sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  const seen = new Map<string, number>();
  for (const cs of byCreation) {
    if (!statuses.has(cs.name)) continue; // also skips the infra container
    const count = seen.get(cs.name) ?? 0;
    if (count >= 2) continue;
    const status = convertContainerStatus(cs, oldStatuses.get(cs.name));
    if (count === 0) statuses.set(cs.name, status);
    else (statuses.get(cs.name) as ContainerStatus).lastState = status.state;
    seen.set(cs.name, count + 1);
  }

  // Containers that failed to start and will be retried are Waiting, with the failure as reason.
  for (const container of containers) {
    if (isInitContainer) {
      const s = findRuntimeStatusByName(podStatus, container.name);
      if (s && s.state === 'exited' && (s.exitCode ?? 0) === 0) continue;
    }
    if (!shouldContainerBeRestarted(container, pod, podStatus)) continue;
    const reason = reasonCache.get(`${pod.metadata.uid}/${container.name}`);
    if (!reason) continue;
    const status = statuses.get(container.name) as ContainerStatus;
    if (status.state?.terminated) status.lastState = status.state;
    status.state = { waiting: { reason: reason.reason, message: reason.message } };
  }

  if (isInitContainer) {
    return (pod.spec.initContainers ?? []).filter((c) => statuses.has(c.name)).map((c) => statuses.get(c.name) as ContainerStatus);
  }
  return [...statuses.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).convertStatusToAPIStatus */
export function convertStatusToAPIStatus(pod: Pod, podStatus: RuntimePodStatus, oldPodStatus: PodStatus, deps: APIStatusDeps): APIPodStatus {
  const s: APIPodStatus = {};
  const podIPs = sortPodIPs([...(podStatus.ips ?? [])], deps.nodeIPs);
  if (podIPs.length > 0) {
    s.podIPs = podIPs.map((ip) => ({ ip }));
    s.podIP = podIPs[0];
  }
  s.qosClass = getPodQOS(pod);
  const hasInit = (pod.spec.initContainers?.length ?? 0) > 0;
  s.containerStatuses = convertToAPIContainerStatuses(pod, podStatus, oldPodStatus.containerStatuses, pod.spec.containers, hasInit, false, deps.reasonCache);
  s.initContainerStatuses = convertToAPIContainerStatuses(pod, podStatus, oldPodStatus.initContainerStatuses, pod.spec.initContainers ?? [], hasInit, true, deps.reasonCache);
  s.ephemeralContainerStatuses = convertToAPIContainerStatuses(pod, podStatus, oldPodStatus.ephemeralContainerStatuses, pod.spec.ephemeralContainers ?? [], hasInit, false, deps.reasonCache);
  return s;
}

/**
 * The phase comes from getPhase, but a terminal phase already recorded by the status manager or the
 * API server wins, and the API server's terminal phase can never be left. Reason and message survive
 * while the phase stays the same. Kubelet-owned conditions are regenerated; the others are kept.
 * Simplified: no in-place resize status and no host-IP family mismatch event.
 * @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).generateAPIPodStatus
 */
export function generateAPIPodStatus(pod: Pod, podStatus: RuntimePodStatus, podIsTerminal: boolean, deps: APIStatusDeps): APIPodStatus {
  const gates = { ...DEFAULT_GATES, ...deps.gates };
  const apiStatus: PodStatus = pod.status ?? {};
  const oldPodStatus = deps.statusManager.getPodStatus(pod.metadata.uid ?? '') ?? apiStatus;
  const s = convertStatusToAPIStatus(pod, podStatus, oldPodStatus, deps);

  const allStatus = [...(s.containerStatuses ?? []), ...(s.initContainerStatuses ?? [])];
  s.phase = getPhase(pod, allStatus, podIsTerminal);

  // Three-way merge: a terminal phase seen by the status manager, else by the API server, sticks.
  if (s.phase !== 'Failed' && s.phase !== 'Succeeded') {
    if (oldPodStatus.phase === 'Failed' || oldPodStatus.phase === 'Succeeded') s.phase = oldPodStatus.phase;
    else if (apiStatus.phase === 'Failed' || apiStatus.phase === 'Succeeded') s.phase = apiStatus.phase;
  }

  if (s.phase === oldPodStatus.phase) {
    const reason = oldPodStatus.reason || apiStatus.reason;
    const message = oldPodStatus.message || apiStatus.message;
    if (reason) s.reason = reason;
    if (message) s.message = message;
  }

  for (const handler of deps.podSyncHandlers ?? []) {
    const result = handler.shouldEvict(pod);
    if (result.evict) {
      s.phase = 'Failed';
      s.reason = result.reason;
      s.message = result.message;
      break;
    }
  }

  // The API server's terminal phase is final.
  if ((apiStatus.phase === 'Failed' || apiStatus.phase === 'Succeeded') && s.phase !== apiStatus.phase) s.phase = apiStatus.phase;

  deps.probeManager?.updatePodStatus(pod, s);

  const conditions: PodCondition[] = (apiStatus.conditions ?? []).filter((c) => !podConditionByKubelet(c.type, gates)).map((c) => ({ ...c }));
  if (gates.PodDisruptionConditions) {
    // Added once, when the disruption happened; carried over rather than regenerated.
    const disruption = getPodConditionFromList(oldPodStatus.conditions, DisruptionTarget);
    if (disruption) replaceOrAppendPodCondition(conditions, disruption);
  }
  if (gates.PodReadyToStartContainersCondition) conditions.push(generatePodReadyToStartContainersCondition(podSandboxChanged(pod, podStatus)));
  const all = [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? [])];
  conditions.push(generatePodInitializedCondition(pod.spec, all, s.phase));
  conditions.push(generatePodReadyCondition(pod.spec, conditions, all, s.phase));
  conditions.push(generateContainersReadyCondition(pod.spec, all, s.phase));
  conditions.push({ type: PodScheduled, status: 'True' });
  s.conditions = conditions;

  if (deps.nodeIPs && deps.nodeIPs.length > 0) {
    const hostIPs = deps.nodeIPs;
    s.hostIP = hostIPs[0];
    if (gates.PodHostIPs) s.hostIPs = hostIPs.slice(0, 2).map((ip) => ({ ip }));
    // Host-network pods take the node's IPs, once; a second family is added if the node gains one.
    if (pod.spec.hostNetwork) {
      if (!s.podIP) {
        s.podIP = hostIPs[0];
        s.podIPs = [{ ip: s.podIP }];
      }
      if (hostIPs.length === 2 && s.podIPs?.length === 1 && isIPv4(s.podIPs[0].ip) !== isIPv4(hostIPs[1])) s.podIPs.push({ ip: hostIPs[1] });
    }
  }
  return s;
}
