/**
 * The image GC port on the fake node: the 5-minute detection and collection passes, with the images
 * it removes (and why the others stay) written to the timeline.
 */
import { GO_ZERO_TIME, RealImageGCManager, type ImageRecord } from '../../reference-impl/image-gc/index.js';
import { applyDefaultImageTag } from '../../reference-impl/image-manager/index.js';
import { formatDuration } from '../../reference-impl/kuberuntime/index.js';
import { GO } from './go-ids.js';
import type { NodeContext } from './node.js';
import { clockTime, formatBytes } from './timeline.js';

/** kubelet.go ImageGCPeriod; the image manager's detection loop runs at the same period. */
export const IMAGE_GC_PERIOD = 5 * 60_000;

export class ImageGCLoop {
  readonly manager: RealImageGCManager;
  private seeded = false;

  constructor(
    private readonly ctx: NodeContext,
    private readonly disk: number,
  ) {
    const node = ctx.scenario.node;
    this.manager = new RealImageGCManager({
      runtime: ctx.runtime.asImageGCRuntime(),
      statsProvider: { imageFsStats: () => ({ capacityBytes: disk, availableBytes: this.available() }) },
      recorder: { event: () => {} },
      policy: node.imageGC,
      sandboxImage: node.sandboxImage,
      clock: ctx.clock,
    });
  }

  /** One detection pass then one collection pass, as the two 5-minute loops do. */
  run(): void {
    this.manager.monitorImages();
    if (!this.seeded) this.seedHistory();
    const policy = this.ctx.scenario.node.imageGC;
    const usage = this.usagePercent();
    if (usage < policy.highThresholdPercent) {
      this.ctx.say(`image GC: images disk ${usage}% used, below ${policy.highThresholdPercent}% → nothing to do`, GO.garbageCollect);
      return;
    }
    const toFree = Math.trunc((this.disk * (100 - policy.lowThresholdPercent)) / 100) - this.available();
    this.ctx.say(`image GC: images disk ${usage}% used ≥ ${policy.highThresholdPercent}% → free ${formatBytes(toFree)} to get down to ${policy.lowThresholdPercent}%`, GO.garbageCollect);
    const records = new Map([...this.manager.imageRecords].map(([id, r]) => [id, { ...r }]));
    const freeTime = this.ctx.clock.now();
    try {
      this.manager.garbageCollect();
    } catch (e) {
      this.ctx.say(`image GC failed: ${(e as Error).message}`, GO.garbageCollect);
    }
    this.reportRemoved(records);
    this.reportKept(records, freeTime);
    this.ctx.say(`image GC: images disk now ${this.usagePercent()}% used`, GO.garbageCollect);
  }

  /** Images removed since the last report (by this loop or by eviction's DeleteUnusedImages). */
  reportRemoved(records: Map<string, ImageRecord> = this.manager.imageRecords): void {
    for (const image of this.ctx.runtime.removedImages.splice(0)) {
      const r = records.get(image.id);
      this.ctx.say(`image GC: removed ${image.id} (${formatBytes(image.size)}, ${this.lastUsed(r)})`, GO.freeSpace);
    }
  }

  private reportKept(records: Map<string, ImageRecord>, freeTime: number): void {
    const inUse = new Set(this.ctx.runtime.asImageGCRuntime().getPods(true).flatMap((p) => p.containers.map((c) => c.imageID)));
    const sandbox = applyDefaultImageTag(this.ctx.scenario.node.sandboxImage);
    const minAge = this.ctx.scenario.node.imageGC.minAge;
    for (const image of this.ctx.runtime.images) {
      const r = records.get(image.id);
      let reason = 'not needed: enough was freed';
      if (image.id === sandbox) reason = 'the sandbox image';
      else if (inUse.has(image.id)) reason = 'in use';
      else if (image.pinned) reason = 'pinned';
      else if (!r || freeTime - r.firstDetected < minAge) reason = `first seen ${formatDuration(r ? freeTime - r.firstDetected : 0)} ago, younger than MinAge ${formatDuration(minAge)}`;
      this.ctx.say(`image GC: kept ${image.id} (${reason})`, GO.freeSpace);
    }
  }

  private lastUsed(r: ImageRecord | undefined): string {
    if (!r || r.lastUsed === GO_ZERO_TIME) return 'never used';
    const ago = this.ctx.start - r.lastUsed;
    return ago > 0 ? `last used ${formatDuration(ago)} before the start` : `last used at ${clockTime(-ago)}`;
  }

  /** Stamps the scenario's lastUsedAgo history onto the records the first pass created. */
  private seedHistory(): void {
    this.seeded = true;
    for (const image of this.ctx.scenario.images) {
      if (image.lastUsedAgo === undefined) continue;
      const record = this.manager.imageRecords.get(applyDefaultImageTag(image.name));
      if (record && record.lastUsed === GO_ZERO_TIME) record.lastUsed = this.ctx.start - image.lastUsedAgo;
    }
  }

  /** usage = 100 − available×100/capacity, in whole percent as GarbageCollect computes it. */
  private usagePercent(): number {
    return 100 - Math.trunc((this.available() * 100) / this.disk);
  }

  private available(): number {
    const node = this.ctx.scenario.node;
    return Math.max(0, this.disk - node.diskUsed - this.ctx.runtime.imageBytes());
  }
}
