/**
 * The heart of SyncPod: compare the pod spec with what the runtime reports and decide what to do.
 */
import type { Container, Pod } from '../api/index.js';
import { emptyActions, type ContainerKillReason, type PodActions } from './actions.js';
import { hashContainer } from './hash.js';
import { computeInitContainerActions, hasAnyRegularContainerCreated, type ProbeManagers } from './init-containers.js';
import { shouldContainerBeRestarted } from './restart.js';
import { findContainerStatusByName, restartPolicyOf, type RuntimeContainerStatus, type RuntimePodStatus } from './runtime-types.js';
import { podSandboxChanged } from './sandbox.js';

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containerChanged */
export function containerChanged(container: Container, status: RuntimeContainerStatus): boolean {
  return status.hash !== hashContainer(container);
}

/** Anything but Never restarts failed containers. @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.shouldRestartOnFailure */
export function shouldRestartOnFailure(pod: Pod): boolean {
  return restartPolicyOf(pod) !== 'Never';
}

/** Exited with code 0. @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containerSucceeded */
export function containerSucceeded(c: Container, podStatus: RuntimePodStatus): boolean {
  const s = findContainerStatusByName(podStatus, c.name);
  if (s === undefined || s.state === 'running') return false;
  return (s.exitCode ?? 0) === 0;
}

/**
 * Decides the actions for one pod:
 *  1. A sandbox that must be (re)created means killing everything and starting over from the first
 *     init container (or all regular containers) — unless the pod is finished and must not restart.
 *  2. Otherwise ephemeral containers without a status are started, init containers are handled, and
 *     once initialized each regular container is kept, restarted, or killed (spec hash changed,
 *     liveness or startup failure).
 *  3. If nothing is kept and nothing starts, the whole pod is killed.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computePodActions
 * Simplified: the in-place resize branch and the CPU/memory manager post-stop hook are not modelled.
 */
export function computePodActions(m: ProbeManagers, pod: Pod, podStatus: RuntimePodStatus): PodActions {
  const sandbox = podSandboxChanged(pod, podStatus);
  const changes: PodActions = {
    ...emptyActions(),
    killPod: sandbox.changed,
    createSandbox: sandbox.changed,
    sandboxID: sandbox.sandboxID,
    attempt: sandbox.attempt,
  };

  if (sandbox.changed) {
    // A pod that must not restart and already ran containers is finished: no point in a new sandbox.
    // With no container status at all we assume nothing ever started and retry the sandbox.
    if (!shouldRestartOnFailure(pod) && sandbox.attempt !== 0 && podStatus.containerStatuses.length !== 0) {
      changes.createSandbox = false;
      return changes;
    }
    const toStart: number[] = [];
    pod.spec.containers.forEach((c, idx) => {
      if (restartPolicyOf(pod) === 'OnFailure' && containerSucceeded(c, podStatus)) return;
      toStart.push(idx);
    });
    if (hasAnyRegularContainerCreated(pod, podStatus) && toStart.length === 0) {
      changes.createSandbox = false;
      return changes;
    }
    if ((pod.spec.initContainers ?? []).length !== 0) {
      changes.initContainersToStart = [0];
      return changes;
    }
    changes.containersToStart = toStart;
    return changes;
  }

  // Ephemeral containers start even during initialization, and are never restarted.
  (pod.spec.ephemeralContainers ?? []).forEach((c, i) => {
    if (findContainerStatusByName(podStatus, c.name) === undefined) changes.ephemeralContainersToStart.push(i);
  });

  const initialized = computeInitContainerActions(m, pod, podStatus, changes);
  if (changes.killPod || !initialized) return changes;

  let keepCount = 0;
  pod.spec.containers.forEach((container, idx) => {
    const status = findContainerStatusByName(podStatus, container.name);
    if (status === undefined || status.state !== 'running') {
      if (shouldContainerBeRestarted(container, pod, podStatus)) {
        changes.containersToStart.push(idx);
        // An unknown container may still be running; kill it first so two copies never run.
        if (status !== undefined && status.state === 'unknown') {
          changes.containersToKill.set(status.id, {
            name: status.name,
            container,
            message: `container is in state "${status.state}"; killing before restart`,
            reason: 'Unknown',
          });
        }
      }
      return;
    }

    let message: string;
    let reason: ContainerKillReason = '';
    let restart = shouldRestartOnFailure(pod);
    if (containerChanged(container, status)) {
      message = `container ${container.name}'s spec changed`;
      restart = true; // a new spec always gets a new container, whatever the restart policy
    } else if (m.livenessManager.get(status.id) === 'Failure') {
      message = `container ${container.name} failed its liveness probe`;
      reason = 'LivenessProbe';
    } else if (m.startupManager.get(status.id) === 'Failure') {
      message = `container ${container.name} failed its startup probe`;
      reason = 'StartupProbe';
    } else {
      keepCount++;
      return;
    }
    if (restart) {
      message += '; it will be restarted';
      changes.containersToStart.push(idx);
    }
    changes.containersToKill.set(status.id, { name: status.name, container, message, reason });
  });

  if (keepCount === 0 && changes.containersToStart.length === 0) {
    changes.killPod = true;
    // Sidecars must not keep a finished pod alive.
    changes.initContainersToStart = [];
  }
  return changes;
}
