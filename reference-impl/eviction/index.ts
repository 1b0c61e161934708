/** Public entry of the eviction manager port: threshold parsing, signal evaluation, pod ranking, admission. */
export * from './api.js';
export { parseThresholdConfig, parseThresholdStatement, parsePercentage, addAllocatableThresholds, ThresholdConfigError, NodeAllocatableEnforcementKey } from './config.js';
export { parseGoDuration, DurationError } from './duration.js';
export { signalToNodeCondition, signalToResource, validSignal, type NodeConditionType, type ReclaimResource } from './signals.js';
export * from './stats.js';
export * from './thresholds.js';
export * from './rank.js';
export * from './pod-helpers.js';
export { evictionMessage, getThresholdMetInfo, formatQuantity, OffendingContainersKey, OffendingContainersUsageKey, StarvedResourceKey } from './message.js';
export {
  EvictionManager,
  buildSignalToNodeReclaimFuncs,
  updatePodCondition,
  Reason,
  type EvictionConfig,
  type EvictionManagerOptions,
  type KillPodFunc,
  type ActivePodsFunc,
  type DiskInfoProvider,
  type ImageGC,
  type ContainerGC,
  type NodeReclaimFunc,
  type EventRecorder,
  type PodAdmitResult,
} from './manager.js';
export { goSort } from './sort.js';
