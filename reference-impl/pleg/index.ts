export {
  GenericPLEG,
  DEFAULT_RELIST_DURATION,
  PLEG_CHANNEL_CAPACITY,
  convertState,
  generateEvents,
  computeEvents,
  getContainersFromPods,
  runningPodAndContainerCounts,
  type RelistDuration,
  type RunningCounts,
} from './generic.js';
export { EventChannel, type PodLifecycleEvent, type PodLifeCycleEventType } from './event.js';
export { PodStatusCache } from './cache.js';
export { PodRecords } from './pod-records.js';
export * from './runtime-types.js';
