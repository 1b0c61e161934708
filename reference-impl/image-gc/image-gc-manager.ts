/**
 * Image garbage collection. The manager remembers, per image, when it first saw it and when a container
 * last used it. When the image filesystem is fuller than the high threshold it deletes unused,
 * unpinned images, least recently used first, until usage is back at the low threshold.
 */
import type { Clock, ObjectReference } from '../api/index.js';
import type { Image, ImageGCRuntime, StatsProvider } from './runtime.js';

/** Go's zero time.Time (0001-01-01T00:00:00Z) in epoch milliseconds: "never" / "unknown, long ago". */
export const GO_ZERO_TIME = -62135596800000;

/** @go k8s.io/kubernetes/pkg/kubelet/images.ImageGCPolicy */
export interface ImageGCPolicy {
  /** Usage at or above this percentage triggers collection. */
  highThresholdPercent: number;
  /** Collection frees space until usage is down to this percentage. */
  lowThresholdPercent: number;
  /** Images first seen less than this many milliseconds ago are never collected. */
  minAge: number;
}

/** kubelet defaults: 85% / 80%, MinAge 2 minutes. */
export const DEFAULT_IMAGE_GC_POLICY: ImageGCPolicy = { highThresholdPercent: 85, lowThresholdPercent: 80, minAge: 2 * 60 * 1000 };

/** @go k8s.io/kubernetes/pkg/kubelet/images.imageRecord */
export interface ImageRecord {
  /** When this image was first detected (GO_ZERO_TIME when found by the very first scan). */
  firstDetected: number;
  /** When a container was last seen using it (GO_ZERO_TIME if never). */
  lastUsed: number;
  size: number;
  pinned: boolean;
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.evictionInfo */
interface EvictionInfo extends ImageRecord {
  id: string;
}

/** @go k8s.io/client-go/tools/record.EventRecorder */
export interface EventRecorder {
  event(ref: ObjectReference | undefined, eventType: 'Normal' | 'Warning', reason: string, message: string): void;
}

export interface ImageGCManagerOptions {
  runtime: ImageGCRuntime;
  statsProvider: StatsProvider;
  recorder: EventRecorder;
  nodeRef?: ObjectReference;
  policy: ImageGCPolicy;
  /** The pod sandbox ("pause") image, which is always treated as in use. */
  sandboxImage: string;
  clock: Clock;
}

/**
 * Rejects thresholds outside 0–100 and a low threshold above the high one.
 * @go k8s.io/kubernetes/pkg/kubelet/images.NewImageGCManager
 */
export function validateImageGCPolicy(policy: ImageGCPolicy): void {
  const { highThresholdPercent: high, lowThresholdPercent: low } = policy;
  if (!Number.isInteger(high) || high < 0 || high > 100) {
    throw new RangeError(`invalid HighThresholdPercent ${high}, must be in range [0-100]`);
  }
  if (!Number.isInteger(low) || low < 0 || low > 100) {
    throw new RangeError(`invalid LowThresholdPercent ${low}, must be in range [0-100]`);
  }
  if (low > high) throw new RangeError(`LowThresholdPercent ${low} can not be higher than HighThresholdPercent ${high}`);
  if (!(policy.minAge >= 0)) throw new RangeError(`invalid MinAge ${policy.minAge}, must not be negative`);
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.realImageGCManager */
export class RealImageGCManager {
  private readonly runtime: ImageGCRuntime;
  private readonly statsProvider: StatsProvider;
  private readonly recorder: EventRecorder;
  private readonly nodeRef: ObjectReference | undefined;
  private readonly policy: ImageGCPolicy;
  private readonly sandboxImage: string;
  private readonly clock: Clock;
  /** Keyed by image ID. */
  readonly imageRecords = new Map<string, ImageRecord>();
  private initialized = false;
  private imageCache: Image[] = [];

  /**
   * @go k8s.io/kubernetes/pkg/kubelet/images.NewImageGCManager
   * Simplified: no tracer; the clock is injected.
   */
  constructor(opts: ImageGCManagerOptions) {
    validateImageGCPolicy(opts.policy);
    this.runtime = opts.runtime;
    this.statsProvider = opts.statsProvider;
    this.recorder = opts.recorder;
    this.nodeRef = opts.nodeRef;
    this.policy = opts.policy;
    this.sandboxImage = opts.sandboxImage;
    this.clock = opts.clock;
  }

  /**
   * One pass of the 5-minute detection loop. Images found by the very first pass get the zero time
   * as their detection time, so they count as old enough for MinAge.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).Start.func1
   * Simplified: the caller drives the loop; there is no goroutine.
   */
  monitorImages(): void {
    const ts = this.initialized ? this.clock.now() : GO_ZERO_TIME;
    this.detectImages(ts);
    this.initialized = true;
  }

  /**
   * One pass of the 30-second image list refresh; the list is kept largest first.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).Start.func2
   */
  updateImageCache(): void {
    const images = [...this.runtime.listImages()];
    images.sort(byImageSize);
    this.imageCache = images;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).GetImageList */
  getImageList(): Image[] {
    return this.imageCache;
  }

  /**
   * Refreshes the records from the runtime: new images are stamped with `detectTime`, images used by
   * any container (and the sandbox image) get lastUsed = now, vanished images are forgotten.
   * Returns the IDs of images in use.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).detectImages
   */
  detectImages(detectTime: number): Set<string> {
    const imagesInUse = new Set<string>();
    // A failed lookup of the sandbox image is ignored, as in Go.
    try {
      const sandboxRef = this.runtime.getImageRef(this.sandboxImage);
      if (sandboxRef !== '') imagesInUse.add(sandboxRef);
    } catch {
      /* not fatal */
    }

    const images = this.runtime.listImages();
    const pods = this.runtime.getPods(true);
    for (const pod of pods) {
      for (const container of pod.containers) imagesInUse.add(container.imageID);
    }

    const now = this.clock.now();
    const currentImages = new Set<string>();
    for (const image of images) {
      currentImages.add(image.id);
      let record = this.imageRecords.get(image.id);
      if (record === undefined) {
        record = { firstDetected: detectTime, lastUsed: GO_ZERO_TIME, size: 0, pinned: false };
        this.imageRecords.set(image.id, record);
      }
      if (isImageUsed(image.id, imagesInUse)) record.lastUsed = now;
      record.size = image.size;
      record.pinned = image.pinned ?? false;
    }

    for (const id of [...this.imageRecords.keys()]) {
      if (!currentImages.has(id)) this.imageRecords.delete(id);
    }
    return imagesInUse;
  }

  /**
   * If usage = 100 − available×100/capacity (integer division) has reached the high threshold, frees
   * capacity×(100−low)/100 − available bytes. Throws when stats fail, capacity is 0, an image removal
   * fails, or not enough could be freed.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).GarbageCollect
   */
  garbageCollect(): void {
    const fsStats = this.statsProvider.imageFsStats();
    const capacity = fsStats.capacityBytes ?? 0;
    let available = fsStats.availableBytes ?? 0;
    if (available > capacity) available = capacity;

    if (capacity === 0) {
      const err = new Error('image filesystem reports a capacity of 0 bytes');
      this.recorder.event(this.nodeRef, 'Warning', 'InvalidDiskCapacity', err.message);
      throw err;
    }

    const usagePercent = 100 - Math.trunc((available * 100) / capacity);
    if (usagePercent >= this.policy.highThresholdPercent) {
      const amountToFree = Math.trunc((capacity * (100 - this.policy.lowThresholdPercent)) / 100) - available;
      const { spaceFreed, error } = this.freeSpace(amountToFree, this.clock.now());
      if (error) throw error;
      if (spaceFreed < amountToFree) {
        const err = new Error(
          `image garbage collection needed to free ${amountToFree} bytes but only ${spaceFreed} bytes of images were eligible`,
        );
        this.recorder.event(this.nodeRef, 'Warning', 'FreeDiskSpaceFailed', err.message);
        throw err;
      }
    }
  }

  /**
   * Deletes every image that is unused, unpinned and old enough (used by eviction under disk pressure).
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).DeleteUnusedImages
   */
  deleteUnusedImages(): void {
    const { error } = this.freeSpace(Number.MAX_SAFE_INTEGER, this.clock.now());
    if (error) throw error;
  }

  /**
   * Tries to free `bytesToFree`, deleting candidates least recently used first and stopping once
   * enough is freed. Skips images in use, pinned images, images used at or after `freeTime`, and
   * images younger than MinAge. Removal errors are collected and the rest still tried; the bytes freed
   * are always reported.
   * @go k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).freeSpace
   */
  freeSpace(bytesToFree: number, freeTime: number): { spaceFreed: number; error?: Error } {
    const imagesInUse = this.detectImages(freeTime);

    const images: EvictionInfo[] = [];
    for (const [id, record] of this.imageRecords) {
      if (isImageUsed(id, imagesInUse)) continue;
      if (record.pinned) continue;
      images.push({ id, ...record });
    }
    images.sort(byLastUsedAndDetected);

    const deletionErrors: Error[] = [];
    let spaceFreed = 0;
    for (const image of images) {
      // Images in use were just given lastUsed = now, which is not before freeTime.
      if (image.lastUsed >= freeTime) continue;
      // A freshly pulled image is probably about to be used; leave it alone.
      if (freeTime - image.firstDetected < this.policy.minAge) continue;
      try {
        this.runtime.removeImage(image.id);
      } catch (e) {
        deletionErrors.push(e instanceof Error ? e : new Error(String(e)));
        continue;
      }
      this.imageRecords.delete(image.id);
      spaceFreed += image.size;
      if (spaceFreed >= bytesToFree) break;
    }

    if (deletionErrors.length > 0) {
      // Printed like apimachinery's aggregate error: one message bare, several in brackets.
      const msgs = deletionErrors.map((e) => e.message);
      const list = msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`;
      return {
        spaceFreed,
        error: new Error(`freed ${spaceFreed} of ${bytesToFree} bytes; some images could not be removed: ${list}`),
      };
    }
    return { spaceFreed };
  }
}

/**
 * Eviction order: least recently used first; on a tie, the one detected first.
 * @go k8s.io/kubernetes/pkg/kubelet/images.byLastUsedAndDetected.Less
 */
export function byLastUsedAndDetected(a: ImageRecord, b: ImageRecord): number {
  if (a.lastUsed === b.lastUsed) return a.firstDetected - b.firstDetected;
  return a.lastUsed - b.lastUsed;
}

/** Largest first; equal sizes by descending ID. @go k8s.io/kubernetes/pkg/kubelet/util/sliceutils.ByImageSize.Less */
export function byImageSize(a: Image, b: Image): number {
  if (a.size === b.size) return a.id > b.id ? -1 : a.id < b.id ? 1 : 0;
  return b.size - a.size;
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.isImageUsed */
export function isImageUsed(imageID: string, imagesInUse: Set<string>): boolean {
  return imagesInUse.has(imageID);
}
