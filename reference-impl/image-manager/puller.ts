/**
 * The two pull strategies behind --serialize-image-pulls. Serial: one worker drains a FIFO queue of at
 * most 10 requests. Parallel: every request pulls at once, optionally capped by --max-parallel-image-pulls.
 */
import type { Clock } from '../api/index.js';
import type { ImageService, ImageSpec } from './runtime.js';

/** @go k8s.io/kubernetes/pkg/kubelet/images.pullResult */
export interface PullResult {
  imageRef: string;
  err?: Error;
  /** Milliseconds spent in the runtime's PullImage. */
  pullDuration: number;
}

/** Receives the result, standing in for Go's result channel. */
export type PullDone = (result: PullResult) => void;

/** @go k8s.io/kubernetes/pkg/kubelet/images.imagePuller */
export interface ImagePuller {
  pullImage(spec: ImageSpec, pullSecrets: unknown[], done: PullDone): void;
}

/** Runs one pull against the runtime, turning a thrown error into a result. */
function pullOnce(imageService: ImageService, clock: Clock, spec: ImageSpec, pullSecrets: unknown[]): PullResult {
  const startTime = clock.now();
  try {
    const imageRef = imageService.pullImage(spec, pullSecrets);
    return { imageRef, pullDuration: clock.now() - startTime };
  } catch (e) {
    return { imageRef: '', err: e instanceof Error ? e : new Error(String(e)), pullDuration: clock.now() - startTime };
  }
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.parallelImagePuller */
export class ParallelImagePuller implements ImagePuller {
  private inFlight = 0;
  private readonly tokens: number | undefined;

  /**
   * A missing or non-positive limit means no cap.
   * @go k8s.io/kubernetes/pkg/kubelet/images.newParallelImagePuller
   */
  constructor(private readonly imageService: ImageService, private readonly clock: Clock, maxParallelImagePulls?: number) {
    this.tokens = maxParallelImagePulls === undefined || maxParallelImagePulls < 1 ? undefined : maxParallelImagePulls;
  }

  /**
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*parallelImagePuller).pullImage
   * Each pull finishes before the next can start, so the token cap is never reached here; Go would
   * block the caller until a token frees up.
   * Simplified: no goroutine; the pull runs to completion before this returns.
   */
  pullImage(spec: ImageSpec, pullSecrets: unknown[], done: PullDone): void {
    if (this.tokens !== undefined && this.inFlight >= this.tokens) {
      throw new Error(`maxParallelImagePulls: all ${this.tokens} pull slots are busy`);
    }
    this.inFlight++;
    let result: PullResult;
    try {
      result = pullOnce(this.imageService, this.clock, spec, pullSecrets);
    } finally {
      this.inFlight--;
    }
    done(result);
  }
}

/** Maximum number of queued pull requests. @go k8s.io/kubernetes/pkg/kubelet/images.maxImagePullRequests */
export const MAX_IMAGE_PULL_REQUESTS = 10;

/** @go k8s.io/kubernetes/pkg/kubelet/images.imagePullRequest */
interface ImagePullRequest {
  spec: ImageSpec;
  pullSecrets: unknown[];
  done: PullDone;
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.serialImagePuller */
export class SerialImagePuller implements ImagePuller {
  private readonly pullRequests: ImagePullRequest[] = [];
  private processing = false;

  /**
   * @go k8s.io/kubernetes/pkg/kubelet/images.newSerialImagePuller
   * Simplified: no background worker; the queue is drained by whichever call finds it idle.
   */
  constructor(private readonly imageService: ImageService, private readonly clock: Clock) {}

  /** @go k8s.io/kubernetes/pkg/kubelet/images.(*serialImagePuller).pullImage */
  pullImage(spec: ImageSpec, pullSecrets: unknown[], done: PullDone): void {
    if (this.pullRequests.length >= MAX_IMAGE_PULL_REQUESTS) {
      // Go's send on the full channel would block here.
      throw new Error(`image pull queue is full (${MAX_IMAGE_PULL_REQUESTS} requests)`);
    }
    this.pullRequests.push({ spec, pullSecrets, done });
    if (!this.processing) this.processImagePullRequests();
  }

  /**
   * Pulls queued requests one at a time, oldest first. A request queued from inside a `done`
   * callback waits for its turn, as it would behind Go's single worker.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*serialImagePuller).processImagePullRequests
   */
  private processImagePullRequests(): void {
    this.processing = true;
    try {
      for (let req = this.pullRequests.shift(); req !== undefined; req = this.pullRequests.shift()) {
        req.done(pullOnce(this.imageService, this.clock, req.spec, req.pullSecrets));
      }
    } finally {
      this.processing = false;
    }
  }
}
