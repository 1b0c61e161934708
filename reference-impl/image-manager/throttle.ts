/**
 * The optional pull-rate limit (kubelet --registry-qps / --registry-burst): a token bucket in front of
 * the runtime's PullImage. A refused pull fails at once with "pull QPS exceeded"; it is not queued.
 */
import type { Clock } from '../api/index.js';
import type { ImageService, ImageSpec } from './runtime.js';

/**
 * A token bucket that starts full, refills at `qps` tokens per second and holds at most `burst`.
 * @go k8s.io/client-go/util/flowcontrol.NewTokenBucketRateLimiter
 * Simplified: reads the injected clock (Go reads the wall clock); only TryAccept is ported.
 */
export class TokenBucketRateLimiter {
  private tokens: number;
  private last: number;

  constructor(private readonly qps: number, private readonly burst: number, private readonly clock: Clock) {
    if (!(qps >= 0)) throw new RangeError(`registryPullQPS: must be >= 0, got ${qps}`);
    if (!Number.isInteger(burst) || burst < 0) throw new RangeError(`registryBurst: must be a non-negative integer, got ${burst}`);
    this.tokens = burst;
    this.last = clock.now();
  }

  /**
   * Takes one token if one is there now; never waits.
   * @go k8s.io/client-go/util/flowcontrol.(*tokenBucketPassiveRateLimiter).TryAccept
   */
  tryAccept(): boolean {
    const now = this.clock.now();
    const elapsedSeconds = Math.max(0, now - this.last) / 1000;
    this.tokens = Math.min(this.burst, this.tokens + elapsedSeconds * this.qps);
    this.last = now;
    // A bucket that can never hold a whole token refuses everything, even at a huge qps.
    if (this.burst < 1 || this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/**
 * Wraps `imageService` so pulls beyond the rate fail; qps 0 means no limit.
 * @go k8s.io/kubernetes/pkg/kubelet/images.throttleImagePulling
 */
export function throttleImagePulling(imageService: ImageService, qps: number, burst: number, clock: Clock): ImageService {
  if (qps === 0) return imageService;
  return new ThrottledImageService(imageService, new TokenBucketRateLimiter(qps, burst, clock));
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.throttledImageService */
export class ThrottledImageService implements ImageService {
  constructor(private readonly inner: ImageService, private readonly limiter: TokenBucketRateLimiter) {}

  getImageRef(spec: ImageSpec): string {
    return this.inner.getImageRef(spec);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/images.throttledImageService.PullImage */
  pullImage(spec: ImageSpec, pullSecrets: unknown[]): string {
    if (this.limiter.tryAccept()) return this.inner.pullImage(spec, pullSecrets);
    throw new Error('pull QPS exceeded');
  }
}
