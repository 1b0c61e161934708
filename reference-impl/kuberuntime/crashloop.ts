/**
 * CrashLoopBackOff: before restarting an exited container, wait out a per-container backoff that
 * grows 10s, 20s, 40s ... up to 5m.
 */
import type { Container, Pod } from '../api/index.js';
import type { Clock } from '../api/index.js';
import { Backoff } from './backoff.js';
import { hashContainer } from './hash.js';
import type { RuntimePodStatus } from './runtime-types.js';

/** Kubelet defaults for container restarts (backOffPeriod and MaxContainerBackOff). */
export const CONTAINER_BACKOFF_INITIAL = 10_000;
export const CONTAINER_BACKOFF_MAX = 300_000;

/** The kubelet's container restart backoff: 10s doubling to 300s, without jitter. */
export function newContainerBackoff(clock: Clock): Backoff {
  return new Backoff(clock, CONTAINER_BACKOFF_INITIAL, CONTAINER_BACKOFF_MAX);
}

/** Returned when a container is still waiting out its backoff. @go k8s.io/kubernetes/pkg/kubelet/container.ErrCrashLoopBackOff */
export class CrashLoopBackOffError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrashLoopBackOff';
  }
}

/**
 * The backoff key: a changed spec (new hash) gets a fresh backoff.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.getStableKey
 */
export function getStableKey(pod: Pod, container: Container): string {
  const m = pod.metadata;
  return `${m.name ?? ''}_${m.namespace ?? ''}_${m.uid ?? ''}_${container.name}_${hashContainer(container).toString(16)}`;
}

export interface BackOffDecision {
  inBackOff: boolean;
  message: string;
  error?: CrashLoopBackOffError;
}

/**
 * If the container's latest exit is still inside its backoff window, refuse to start it; otherwise
 * advance the backoff (so the next crash waits twice as long) and allow the start.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).doBackOff
 * Simplified: the BackOff event goes to the `onEvent` callback instead of an event recorder.
 */
export function doBackOff(
  pod: Pod,
  container: Container,
  podStatus: RuntimePodStatus,
  backOff: Backoff,
  onEvent: (reason: string, message: string) => void = () => {},
): BackOffDecision {
  const exited = podStatus.containerStatuses.find((c) => c.name === container.name && c.state === 'exited');
  if (exited === undefined) return { inBackOff: false, message: '' };
  if (exited.finishedAt === undefined) throw new Error(`containerStatuses[${container.name}].finishedAt: Required value for an exited container`);

  const key = getStableKey(pod, container);
  if (backOff.isInBackOffSince(key, exited.finishedAt)) {
    const who = `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
    onEvent('BackOff', `waiting before restarting crashed container ${container.name} of ${who}`);
    const message = `CrashLoopBackOff: ${formatDuration(backOff.get(key))} wait before restarting container ${container.name} of pod ${who}`;
    return { inBackOff: true, message, error: new CrashLoopBackOffError(message) };
  }
  backOff.next(key, exited.finishedAt);
  return { inBackOff: false, message: '' };
}

/** Go's time.Duration printing for whole milliseconds: 10s, 1m20s, 5m0s, 1.5s. */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  if (ms < 1000) return `${ms}ms`;
  return `${s}s`;
}
