export { KubeGenericRuntimeManager, type RecordedEvent } from './manager.js';
export { computePodActions, containerChanged, containerSucceeded, shouldRestartOnFailure } from './pod-actions.js';
export {
  computeInitContainerActions,
  hasAnyRegularContainerCreated,
  isInitContainerFailed,
  isRestartableInitContainer,
  type ProbeManagers,
} from './init-containers.js';
export { emptyActions, type PodActions, type ContainerToKillInfo, type ContainerKillReason } from './actions.js';
export { shouldContainerBeRestarted } from './restart.js';
export { podSandboxChanged, networkNamespaceForPod, type SandboxDecision } from './sandbox.js';
export { hashContainer } from './hash.js';
export { Backoff } from './backoff.js';
export {
  doBackOff,
  getStableKey,
  newContainerBackoff,
  formatDuration,
  CrashLoopBackOffError,
  CONTAINER_BACKOFF_INITIAL,
  CONTAINER_BACKOFF_MAX,
  type BackOffDecision,
} from './crashloop.js';
export {
  ProbeResults,
  findContainerStatusByName,
  restartPolicyOf,
  type ProbeResult,
  type RuntimeContainerState,
  type RuntimeContainerStatus,
  type RuntimePodStatus,
  type SandboxStatus,
  type SandboxState,
  type NamespaceMode,
} from './runtime-types.js';
