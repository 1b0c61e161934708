/** Public entry of the image garbage collection port. */
export {
  RealImageGCManager,
  validateImageGCPolicy,
  byLastUsedAndDetected,
  byImageSize,
  isImageUsed,
  GO_ZERO_TIME,
  DEFAULT_IMAGE_GC_POLICY,
  type ImageGCPolicy,
  type ImageGCManagerOptions,
  type ImageRecord,
  type EventRecorder,
} from './image-gc-manager.js';
export {
  FakeGCRuntime,
  type Image,
  type ImageGCRuntime,
  type RuntimePod,
  type RuntimeContainer,
  type FsStats,
  type StatsProvider,
} from './runtime.js';
