/** Public entry of the image manager port: pull policy, default tag, pull backoff and the two pullers. */
export {
  ImageManager,
  type ImageManagerOptions,
  type EnsureImageResult,
  type EventRecorder,
  type ImagePodPullingTimeRecorder,
  FakeRecorder,
  EventReason,
  shouldPullImage,
  evalCRIPullErr,
  generateContainerRef,
  validateImagePullConfig,
  ErrImagePullBackOff,
  ErrImageInspect,
  ErrImagePull,
  ErrImageNeverPull,
  ErrInvalidImageName,
  ErrRegistryUnavailable,
  ErrSignatureValidationFailed,
} from './image-manager.js';
export { applyDefaultImageTag, parseImageName, parseNormalizedNamed, InvalidImageNameError, type ParsedImageName } from './image-name.js';
export { Backoff, newBackOff, newFakeBackOff, hasExpired, seededRandom, type RandomSource } from './backoff.js';
export { ParallelImagePuller, SerialImagePuller, MAX_IMAGE_PULL_REQUESTS, type ImagePuller, type PullResult, type PullDone } from './puller.js';
export { TokenBucketRateLimiter, ThrottledImageService, throttleImagePulling } from './throttle.js';
export { FakeImageRuntime, type ImageService, type ImageSpec, type Image, type Annotation } from './runtime.js';
