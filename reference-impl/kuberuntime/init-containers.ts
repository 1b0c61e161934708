/**
 * Init container handling: run classic init containers one after another, and keep restartable
 * ("sidecar") init containers running once they have started.
 */
import type { Container, Pod } from '../api/index.js';
import type { PodActions } from './actions.js';
import { findContainerStatusByName, restartPolicyOf, type ProbeResults, type RuntimeContainerStatus, type RuntimePodStatus } from './runtime-types.js';

/** The liveness and startup results a runtime manager consults. */
export interface ProbeManagers {
  livenessManager: ProbeResults;
  startupManager: ProbeResults;
}

/** @go k8s.io/kubernetes/pkg/kubelet/types.IsRestartableInitContainer */
export function isRestartableInitContainer(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/**
 * An init container failed if it was OOM-killed, exited non-zero, or is in an unknown state.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.isInitContainerFailed
 */
export function isInitContainerFailed(status: RuntimeContainerStatus): boolean {
  if (status.reason === 'OOMKilled') return true;
  if (status.state === 'exited' && (status.exitCode ?? 0) !== 0) return true;
  return status.state === 'unknown';
}

/**
 * Any regular container created, running or exited means initialization finished at some point.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.hasAnyRegularContainerCreated
 */
export function hasAnyRegularContainerCreated(pod: Pod, podStatus: RuntimePodStatus): boolean {
  return pod.spec.containers.some((c) => {
    const s = findContainerStatusByName(podStatus, c.name);
    return s !== undefined && (s.state === 'created' || s.state === 'running' || s.state === 'exited');
  });
}

/**
 * Fills the init-container part of `changes` and reports whether the pod has finished initializing.
 * Walks the init containers from last to first, because finished ones may already have been garbage
 * collected: the last one with a status tells how far initialization got. Once that point is found,
 * earlier init containers only matter if they are restartable and need to run again.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computeInitContainerActions
 */
export function computeInitContainerActions(m: ProbeManagers, pod: Pod, podStatus: RuntimePodStatus, changes: PodActions): boolean {
  const inits = pod.spec.initContainers ?? [];
  if (inits.length === 0) return true;

  let podHasInitialized = hasAnyRegularContainerCreated(pod, podStatus);
  let isPreviouslyInitialized = podHasInitialized;
  const restartOnFailure = restartPolicyOf(pod) !== 'Never';
  const kill = (status: RuntimeContainerStatus, container: Container, message: string, reason: 'StartupProbe' | 'LivenessProbe' | 'Unknown') =>
    changes.containersToKill.set(status.id, { name: container.name, container, message, reason });

  for (let i = inits.length - 1; i >= 0; i--) {
    const container = inits[i];
    const restartable = isRestartableInitContainer(container);
    const status = findContainerStatusByName(podStatus, container.name);
    if (status === undefined) {
      // Its record is gone; a sidecar that ran before must be brought back.
      if (isPreviouslyInitialized && restartable) changes.initContainersToStart.push(i);
      continue;
    }
    if (isPreviouslyInitialized && !restartable) continue;

    switch (status.state) {
      case 'created':
        break; // wait for it to start

      case 'running': {
        if (!restartable) break; // a classic init container: wait for it to finish
        if (container.startupProbe) {
          const startup = m.startupManager.get(status.id);
          if (startup === undefined) break; // not probed yet
          if (startup !== 'Success') {
            if (startup === 'Failure') {
              kill(status, container, `init container ${container.name} failed its startup probe`, 'StartupProbe');
              changes.initContainersToStart.push(i);
            }
            break;
          }
        }
        // Started: the next init container may run (or, for the last one, the pod is initialized).
        if (i === inits.length - 1) podHasInitialized = true;
        else if (!isPreviouslyInitialized) changes.initContainersToStart.push(i + 1);
        // Liveness only decides whether this sidecar restarts, not whether the next one starts.
        if (container.livenessProbe) {
          const liveness = m.livenessManager.get(status.id);
          if (liveness === undefined) break;
          if (liveness === 'Failure') {
            kill(status, container, `init container ${container.name} failed its liveness probe`, 'LivenessProbe');
            changes.initContainersToStart.push(i);
          }
        }
        break;
      }

      case 'exited':
        if (restartable) {
          changes.initContainersToStart.push(i);
        } else if (isInitContainerFailed(status)) {
          if (!restartOnFailure) {
            changes.killPod = true;
            changes.initContainersToStart = [];
            return false;
          }
          changes.initContainersToStart.push(i);
        } else if (i === inits.length - 1) {
          podHasInitialized = true;
        } else {
          changes.initContainersToStart.push(i + 1);
        }
        break;

      default: // 'unknown'
        if (restartable) {
          kill(status, container, `init container ${container.name} is in state "${status.state}"; killing before restart`, 'Unknown');
          changes.initContainersToStart.push(i);
        } else {
          if (!restartOnFailure) {
            changes.killPod = true;
            changes.initContainersToStart = [];
            return false;
          }
          kill(status, container, `init container ${container.name} is in state "${status.state}"; killing before restart`, 'Unknown');
          changes.initContainersToStart.push(i);
        }
    }

    isPreviouslyInitialized = true;
  }

  if (!isPreviouslyInitialized) changes.initContainersToStart.push(0);
  // Collected back to front; start them front to back.
  changes.initContainersToStart.reverse();
  return podHasInitialized;
}
