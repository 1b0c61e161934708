/**
 * The pod phase as the kubelet computes it from container statuses (kubelet.getPhase in
 * pkg/kubelet/kubelet_pods.go), plus the container helpers it leans on.
 */
import { ManifestError, type Container, type ContainerStatus, type Pod, type PodPhase, type PodSpec } from '../api/index.js';
import { isStaticPod } from '../pod-manager/index.js';

/** A sidecar: an init container with restartPolicy Always. @go k8s.io/kubernetes/pkg/kubelet/types.IsRestartableInitContainer */
export function isRestartableInitContainer(container: Container): boolean {
  return container.restartPolicy === 'Always';
}

/** @go k8s.io/kubernetes/pkg/api/v1/pod.GetContainerStatus */
export function getContainerStatus(statuses: ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

/** Whether a regular (non-init) container ever left the waiting state. @go k8s.io/kubernetes/pkg/kubelet/container.HasAnyRegularContainerStarted */
export function hasAnyRegularContainerStarted(spec: PodSpec, statuses: ContainerStatus[]): boolean {
  const names = new Set(spec.containers.map((c) => c.name));
  return statuses.some((s) => names.has(s.name) && (s.state?.running !== undefined || s.state?.terminated !== undefined));
}

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

/**
 * Pending until everything has started, Running while something runs, then Succeeded or Failed once
 * all containers stopped (unless RestartPolicy=Always brings them back). A terminal pod — one the
 * kubelet has decided not to restart — ends Succeeded or Failed whatever its restart policy.
 * Sidecars never decide the outcome; they only hold the pod in Pending until they have started.
 *
 * `info` holds the statuses of init and regular containers together. An absent restartPolicy is
 * accepted (Go's zero value, which behaves like neither Always nor OnFailure); an unknown one is rejected.
 * @go k8s.io/kubernetes/pkg/kubelet.getPhase
 */
export function getPhase(pod: Pod, info: ContainerStatus[], podIsTerminal: boolean): PodPhase {
  const spec = pod.spec;
  if (spec.restartPolicy !== undefined && !RESTART_POLICIES.includes(spec.restartPolicy)) {
    throw new ManifestError('spec.restartPolicy', `Unsupported value: "${spec.restartPolicy}": supported values: "Always", "OnFailure", "Never"`);
  }
  let pendingInitialization = 0;
  let failedInitialization = 0;

  // Regular init containers: each must exit 0 before the next starts.
  for (const container of spec.initContainers ?? []) {
    if (isRestartableInitContainer(container)) continue;
    const s = getContainerStatus(info, container.name);
    if (!s) {
      pendingInitialization++;
      continue;
    }
    if (s.state?.running) pendingInitialization++;
    else if (s.state?.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInitialization++;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInitialization++;
      } else pendingInitialization++;
    } else pendingInitialization++;
  }

  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;

  // Sidecars: running ones count as running; a stopped sidecar does not affect the phase.
  for (const container of spec.initContainers ?? []) {
    if (!isRestartableInitContainer(container)) continue;
    const s = getContainerStatus(info, container.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) {
      if (s.started !== true) pendingInitialization++;
      running++;
    } else if (s.state?.terminated) {
      // ignored
    } else if (s.state?.waiting) {
      if (!s.lastState?.terminated) {
        pendingInitialization++;
        waiting++;
      }
    } else {
      pendingInitialization++;
      unknown++;
    }
  }

  for (const container of spec.containers) {
    const s = getContainerStatus(info, container.name);
    if (!s) {
      unknown++;
      continue;
    }
    if (s.state?.running) running++;
    else if (s.state?.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state?.waiting) {
      // Waiting after a previous run is a restart in progress (crash-loop back-off), not "not started".
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }

  if (failedInitialization > 0 && spec.restartPolicy === 'Never') return 'Failed';

  // Once a regular container has run, restarting sidecars must not drag the pod back to Pending.
  if ((pendingInitialization > 0 && !hasAnyRegularContainerStarted(spec, info)) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    // Static pods are left out here for now (kubernetes#116484).
    if (podIsTerminal && !isStaticPod(pod)) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (spec.restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (spec.restartPolicy === 'Never') return 'Failed';
    return 'Running'; // OnFailure: the failed ones are being restarted
  }
  return 'Pending';
}
