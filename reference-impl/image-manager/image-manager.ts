/**
 * Makes sure a container's image is on the node before the container starts: add the default tag, ask
 * the runtime whether the image is there, apply the pull policy, honour the per-pod pull backoff, and
 * pull through the serial or parallel puller.
 */
import type { Clock, Container, ObjectReference, Pod } from '../api/index.js';
import { Backoff } from './backoff.js';
import { applyDefaultImageTag } from './image-name.js';
import { type ImagePuller, type PullResult, ParallelImagePuller, SerialImagePuller } from './puller.js';
import type { Annotation, ImageService, ImageSpec } from './runtime.js';
import { throttleImagePulling } from './throttle.js';

// The errors EnsureImageExists returns; callers compare by identity, as Go compares sentinel errors.
/** @go k8s.io/kubernetes/pkg/kubelet/images.ErrImagePullBackOff */
export const ErrImagePullBackOff = new Error('ImagePullBackOff');
/** @go k8s.io/kubernetes/pkg/kubelet/images.ErrImageInspect */
export const ErrImageInspect = new Error('ImageInspectError');
/** @go k8s.io/kubernetes/pkg/kubelet/images.ErrImagePull */
export const ErrImagePull = new Error('ErrImagePull');
/** @go k8s.io/kubernetes/pkg/kubelet/images.ErrImageNeverPull */
export const ErrImageNeverPull = new Error('ErrImageNeverPull');
/** @go k8s.io/kubernetes/pkg/kubelet/images.ErrInvalidImageName */
export const ErrInvalidImageName = new Error('InvalidImageName');
/** @go k8s.io/cri-api/pkg/errors.ErrRegistryUnavailable */
export const ErrRegistryUnavailable = new Error('RegistryUnavailable');
/** @go k8s.io/cri-api/pkg/errors.ErrSignatureValidationFailed */
export const ErrSignatureValidationFailed = new Error('SignatureValidationFailed');

/** Event reasons, as `kubectl describe pod` shows them. @go k8s.io/kubernetes/pkg/kubelet/events.PullingImage */
export const EventReason = {
  PullingImage: 'Pulling',
  PulledImage: 'Pulled',
  FailedToPullImage: 'Failed',
  FailedToInspectImage: 'InspectFailed',
  ErrImageNeverPullPolicy: 'ErrImageNeverPull',
  BackOffPullImage: 'BackOff',
} as const;

/** @go k8s.io/client-go/tools/record.EventRecorder */
export interface EventRecorder {
  event(ref: ObjectReference, eventType: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** Keeps every event as "Type Reason Message". @go k8s.io/client-go/tools/record.FakeRecorder */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];
  event(_ref: ObjectReference, eventType: string, reason: string, message: string): void {
    this.events.push(`${eventType} ${reason} ${message}`);
  }
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.ImagePodPullingTimeRecorder */
export interface ImagePodPullingTimeRecorder {
  recordImageStartedPulling(podUID: string): void;
  recordImageFinishedPulling(podUID: string): void;
}

/** What EnsureImageExists hands back: the image reference, or a message and one of the Err* values. */
export interface EnsureImageResult {
  imageRef: string;
  message: string;
  error?: Error;
}

export interface ImageManagerOptions {
  recorder: EventRecorder;
  imageService: ImageService;
  /** Shared with the kubelet; keys are `podUID_image`. */
  backOff: Backoff;
  serialized: boolean;
  maxParallelImagePulls?: number;
  /** Pull rate limit; 0 means none. */
  qps: number;
  burst: number;
  podPullingTimeRecorder: ImagePodPullingTimeRecorder;
  clock: Clock;
}

/**
 * Pull-or-not decision for one container: Never never pulls, Always always pulls, IfNotPresent pulls
 * only a missing image.
 * @go k8s.io/kubernetes/pkg/kubelet/images.shouldPullImage
 */
export function shouldPullImage(container: Container, imagePresent: boolean): boolean {
  const policy = container.imagePullPolicy;
  if (policy === 'Never') return false;
  return policy === 'Always' || (policy === 'IfNotPresent' && !imagePresent);
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.imageManager */
export class ImageManager {
  private readonly recorder: EventRecorder;
  private readonly imageService: ImageService;
  private readonly backOff: Backoff;
  private readonly puller: ImagePuller;
  private readonly podPullingTimeRecorder: ImagePodPullingTimeRecorder;
  private readonly clock: Clock;

  /**
   * @go k8s.io/kubernetes/pkg/kubelet/images.NewImageManager
   * Simplified: the clock used for pull durations and the rate limiter is injected.
   */
  constructor(opts: ImageManagerOptions) {
    validateImagePullConfig(opts);
    this.clock = opts.clock;
    this.imageService = throttleImagePulling(opts.imageService, opts.qps, opts.burst, opts.clock);
    this.puller = opts.serialized
      ? new SerialImagePuller(this.imageService, opts.clock)
      : new ParallelImagePuller(this.imageService, opts.clock, opts.maxParallelImagePulls);
    this.recorder = opts.recorder;
    this.backOff = opts.backOff;
    this.podPullingTimeRecorder = opts.podPullingTimeRecorder;
  }

  /**
   * Returns the image reference when the image is (now) on the node, otherwise a message and the
   * reason as one of the Err* values. A failed pull bumps the backoff for `podUID_image`.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*imageManager).EnsureImageExists
   * Simplified: no sandbox config or context; pull secrets are passed through untouched.
   */
  ensureImageExists(pod: Pod, container: Container, pullSecrets: unknown[] = []): EnsureImageResult {
    const shown = container.image ?? '';
    const ref = generateContainerRef(pod, container);

    let image: string;
    try {
      image = applyDefaultImageTag(shown);
    } catch (e) {
      const message = `Failed to apply default image tag "${shown}": ${(e as Error).message}`;
      this.recorder.event(ref, 'Warning', EventReason.FailedToInspectImage, message);
      return { imageRef: '', message, error: ErrInvalidImageName };
    }

    const annotations: Annotation[] = Object.entries(pod.metadata.annotations ?? {}).map(([name, value]) => ({ name, value }));
    const spec: ImageSpec = { image, annotations };
    let imageRef: string;
    try {
      imageRef = this.imageService.getImageRef(spec);
    } catch (e) {
      const message = `Failed to inspect image "${shown}": ${(e as Error).message}`;
      this.recorder.event(ref, 'Warning', EventReason.FailedToInspectImage, message);
      return { imageRef: '', message, error: ErrImageInspect };
    }

    const present = imageRef !== '';
    if (!shouldPullImage(container, present)) {
      if (present) {
        const message = `Container image "${shown}" already present on machine`;
        this.recorder.event(ref, 'Normal', EventReason.PulledImage, message);
        return { imageRef, message: '' };
      }
      const message = `Container image "${shown}" is not present with pull policy of Never`;
      this.recorder.event(ref, 'Warning', EventReason.ErrImageNeverPullPolicy, message);
      return { imageRef: '', message, error: ErrImageNeverPull };
    }

    // The key uses the image as written in the spec, not the tagged form.
    const backOffKey = `${pod.metadata.uid ?? ''}_${shown}`;
    if (this.backOff.isInBackOffSinceUpdate(backOffKey, this.backOff.clock.now())) {
      const message = `Back-off pulling image "${shown}"`;
      this.recorder.event(ref, 'Normal', EventReason.BackOffPullImage, message);
      return { imageRef: '', message, error: ErrImagePullBackOff };
    }
    this.podPullingTimeRecorder.recordImageStartedPulling(pod.metadata.uid ?? '');
    this.recorder.event(ref, 'Normal', EventReason.PullingImage, `Pulling image "${shown}"`);
    const startTime = this.clock.now();
    let result: PullResult | undefined;
    this.puller.pullImage(spec, pullSecrets, (r) => {
      result = r;
    });
    if (result === undefined) throw new Error('puller returned without a result');
    if (result.err !== undefined) {
      this.recorder.event(ref, 'Warning', EventReason.FailedToPullImage, `Failed to pull image "${shown}": ${result.err.message}`);
      this.backOff.next(backOffKey, this.backOff.clock.now());
      const [message, error] = evalCRIPullErr(container, result.err);
      return { imageRef: '', message, error };
    }
    this.podPullingTimeRecorder.recordImageFinishedPulling(pod.metadata.uid ?? '');
    const waited = this.clock.now() - startTime;
    this.recorder.event(
      ref,
      'Normal',
      EventReason.PulledImage,
      `Successfully pulled image "${shown}" in ${formatMs(result.pullDuration)} (${formatMs(waited)} including waiting)`,
    );
    this.backOff.gc();
    return { imageRef: result.imageRef, message: '' };
  }
}

/**
 * The checks the kubelet's configuration validation makes on the pull settings, so a bad value fails
 * here with the field's name instead of misbehaving later.
 * @go k8s.io/kubernetes/pkg/kubelet/apis/config/validation.ValidateKubeletConfiguration
 * Simplified: only the four image-pull fields.
 */
export function validateImagePullConfig(opts: Pick<ImageManagerOptions, 'qps' | 'burst' | 'serialized' | 'maxParallelImagePulls'>): void {
  if (!(opts.burst >= 0)) throw new RangeError(`registryBurst: Invalid value: ${opts.burst}: must not be negative`);
  if (!(opts.qps >= 0)) throw new RangeError(`registryPullQPS: Invalid value: ${opts.qps}: must not be negative`);
  const max = opts.maxParallelImagePulls;
  if (max !== undefined && !(max >= 1)) throw new RangeError(`maxParallelImagePulls: Invalid value: ${max}: must be a positive number`);
  if (opts.serialized && max !== undefined && max > 1) {
    throw new RangeError(`maxParallelImagePulls: Invalid value: ${max}: must be 1 or unset while serializeImagePulls is true`);
  }
}

/**
 * Maps a runtime pull failure to the message and error the pod status will show. Errors are matched
 * by their text prefix because errors that crossed gRPC lose their identity.
 * @go k8s.io/kubernetes/pkg/kubelet/images.evalCRIPullErr
 */
export function evalCRIPullErr(container: Container, err: Error): [string, Error] {
  const text = err.message;
  if (text.startsWith(ErrRegistryUnavailable.message)) {
    const rest = text.slice(ErrRegistryUnavailable.message.length);
    return [`image pull failed for ${container.image ?? ''} because the registry is unavailable${rest}`, ErrRegistryUnavailable];
  }
  if (text.startsWith(ErrSignatureValidationFailed.message)) {
    const rest = text.slice(ErrSignatureValidationFailed.message.length);
    return [`image pull failed for ${container.image ?? ''} because the signature validation failed${rest}`, ErrSignatureValidationFailed];
  }
  return [text, ErrImagePull];
}

/**
 * The object events are attached to: the pod, narrowed to the container by fieldPath.
 * @go k8s.io/kubernetes/pkg/kubelet/container.GenerateContainerRef
 * Simplified: regular containers only; any other container gets the "implicitly required" path.
 */
export function generateContainerRef(pod: Pod, container: Container): ObjectReference {
  const index = pod.spec.containers.findIndex((c) => c.name === container.name);
  let fieldPath: string;
  if (index === -1) fieldPath = `implicitly required container ${container.name}`;
  else fieldPath = container.name === '' ? `spec.containers[${index}]` : `spec.containers{${container.name}}`;
  return { kind: 'Pod', apiVersion: 'v1', name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid, fieldPath };
}

/** Durations printed the way Go prints a millisecond-truncated time.Duration ("1.5s", "250ms", "0s"). */
function formatMs(ms: number): string {
  const t = Math.trunc(ms);
  if (t === 0) return '0s';
  if (Math.abs(t) < 1000) return `${t}ms`;
  return `${t / 1000}s`;
}
