export { getPodQOS } from './qos.js';
export { podRequests, podLimits, type PodResourcesOptions, type ContainerKind } from './pod-resources.js';
export {
  milliCPUToShares,
  milliCPUToQuota,
  hugePageLimits,
  MIN_SHARES,
  MAX_SHARES,
  QUOTA_PERIOD,
  MIN_QUOTA_PERIOD,
  type FeatureGates,
} from './cpu.js';
export { resourceConfigForPod, CGROUP2_MEMORY_MIN, type ResourceConfig } from './resource-config.js';
export { QOSContainerManager, type QOSConfigs, type QOSContainerManagerOptions } from './qos-cgroups.js';
export {
  NodeAllocatable,
  hardEvictionReservation,
  getThresholdQuantity,
  type NodeAllocatableConfig,
  type EvictionThreshold,
} from './node-allocatable.js';
