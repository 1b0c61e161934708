export {
  SyncLoop,
  isSyncPodWorthy,
  firstReady,
  randomChooser,
  SELECT_CASES,
  SYNC_PERIOD,
  HOUSEKEEPING_PERIOD,
  RUNTIME_BACKOFF_BASE,
  RUNTIME_BACKOFF_MAX,
  type SyncLoopDeps,
  type LoopCase,
  type CaseChooser,
} from './syncloop.js';
export { Channel, Ticker } from './channels.js';
export { BasicWorkQueue, type WorkQueue } from './work-queue.js';
export {
  ActiveDeadlineHandler,
  DEADLINE_REASON,
  DEADLINE_MESSAGE,
  type PodStatusProvider,
  type EventRecorder,
  type ShouldEvictResponse,
} from './active-deadline.js';
export { SourcesReady } from './sources.js';
export type {
  PodUpdate,
  PodOperation,
  PodLifecycleEvent,
  PodLifeCycleEventType,
  ProbeUpdate,
  ProbeResult,
  SyncHandler,
  PodSyncLoopHandler,
  PodManager,
  ContainerStatusSetter,
} from './types.js';
