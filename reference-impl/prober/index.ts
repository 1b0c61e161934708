export { ProbeManager, probeKey, type ProbeManagerOptions } from './manager.js';
export { Worker, getContainerStatus } from './worker.js';
export {
  Prober,
  resolveContainerPort,
  expandContainerCommandOnlyStatic,
  CONTAINER_UNHEALTHY,
  CONTAINER_PROBE_WARNING,
  type ProbeHandlers,
  type ProbeAttempt,
  type ProbeOutcome,
  type ExecCommand,
  type HTTPTarget,
  type ProbedContainer,
  type ContainerEvent,
} from './prober.js';
export { ResultsManager, type Result, type ResultUpdate } from './results.js';
export { StatusStore, type PodStatusProvider } from './status-store.js';
export { withProbeDefaults, validateProbe, probeTypeName, ProbeSpecError, PROBE_FIELD, type ProbeType } from './probe-spec.js';
export { parseContainerID, containerIDString, isEmptyContainerID, EMPTY_CONTAINER_ID, type ContainerID } from './container-id.js';
