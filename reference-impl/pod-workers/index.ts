export {
  PodWorkers,
  isPodStatusCacheTerminal,
  toAPIPod,
  killPodNow,
  killTimeoutSeconds,
  type KillPodFunc,
  randomJitter,
  WORKER_RESYNC_INTERVAL_JITTER_FACTOR,
  WORKER_BACKOFF_PERIOD_JITTER_FACTOR,
  BACKOFF_ON_TRANSIENT_ERROR_PERIOD,
  NETWORK_NOT_READY_ERROR_MSG,
  type JitterFn,
  type PodWorkerSync,
  type PodWorkersConfig,
} from './pod-workers.js';
export { calculateEffectiveGracePeriod } from './grace-period.js';
export { isStaticPod, buildPodFullName, CONFIG_SOURCE_ANNOTATION, API_SERVER_SOURCE, FILE_SOURCE } from './static-pods.js';
export {
  PodSyncStatus,
  ContextCanceledError,
  type UpdatePodOptions,
  type KillPodOptions,
  type SyncPodType,
  type PodWorkerState,
  type RunningPod,
  type SyncContext,
  type PodSyncer,
  type WorkQueue,
  type PodCache,
} from './types.js';
