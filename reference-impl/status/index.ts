export {
  StatusManager,
  syncPeriodMs,
  hasPodInitialized,
  initializedContainers,
  checkContainerStateTransition,
  type PodManager,
  type PodDeletionSafetyProvider,
  type VersionedPodStatus,
  type StatusManagerOptions,
} from './status-manager.js';
export { mergePodStatus } from './merge.js';
export { getPhase, isRestartableInitContainer, hasAnyRegularContainerStarted, getContainerStatus } from './phase.js';
export {
  generateAPIPodStatus,
  convertStatusToAPIStatus,
  convertToAPIContainerStatuses,
  shouldContainerBeRestarted,
  podSandboxChanged,
  sortPodIPs,
  ContainerCreating,
  PodInitializing,
  type APIStatusDeps,
  type APIPodStatus,
  type RuntimePodStatus,
  type RuntimeContainerStatus,
  type RuntimeSandboxStatus,
  type RuntimeContainerState,
} from './api-status.js';
export * from './conditions.js';
export { updateLastTransitionTime } from './transition.js';
export { normalizeStatus, isPodStatusByKubeletEqual, sortInitContainerStatuses, MaxPodTerminationMessageLogLength } from './normalize.js';
export { getPodQOS } from './qos.js';
export { DEFAULT_GATES, type StatusFeatureGates } from './gates.js';
export { FakePodStatusClient, type PodStatusClient, type ClientAction } from './api-client.js';
export { semanticEqual } from './equality.js';
