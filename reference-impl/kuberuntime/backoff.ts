/**
 * Per-key exponential backoff, the mechanism behind CrashLoopBackOff (and image pull backoff).
 */
import type { Clock } from '../api/index.js';

interface Entry {
  backoff: number;
  lastUpdate: number;
}

/**
 * Each key's delay starts at `initial`, doubles on every Next up to `max`, and starts over once the
 * key has been quiet for more than 2×max. Times and durations are in milliseconds on the injected
 * clock.
 * @go k8s.io/client-go/util/flowcontrol.Backoff
 */
export class Backoff {
  private readonly perItem = new Map<string, Entry>();

  /**
   * @go k8s.io/client-go/util/flowcontrol.NewFakeBackOffWithJitter
   * @param random source in [0,1) for jitter; only used when maxJitterFactor > 0.
   */
  constructor(
    private readonly clock: Clock,
    private readonly initial: number,
    private readonly max: number,
    private readonly maxJitterFactor = 0,
    private readonly random: () => number = Math.random,
  ) {
    if (!(initial >= 0) || !(max >= 0)) throw new RangeError(`backoff: initial (${initial}) and max (${max}) must be non-negative`);
  }

  /** The current delay for `id`, 0 when unknown. @go k8s.io/client-go/util/flowcontrol.(*Backoff).Get */
  get(id: string): number {
    return this.perItem.get(id)?.backoff ?? 0;
  }

  /** Moves `id` to its next delay. @go k8s.io/client-go/util/flowcontrol.(*Backoff).Next */
  next(id: string, eventTime: number): void {
    let entry = this.perItem.get(id);
    if (entry === undefined || hasExpired(eventTime, entry.lastUpdate, this.max)) {
      entry = { backoff: this.initial, lastUpdate: 0 };
      this.perItem.set(id, entry);
      entry.backoff += this.jitter(entry.backoff);
    } else {
      const delay = entry.backoff * 2 + this.jitter(entry.backoff);
      entry.backoff = Math.min(delay, this.max);
    }
    entry.lastUpdate = this.clock.now();
  }

  /** Forgets `id`. @go k8s.io/client-go/util/flowcontrol.(*Backoff).Reset */
  reset(id: string): void {
    this.perItem.delete(id);
  }

  /**
   * True while less than the current delay has passed since `eventTime` (a container's exit time).
   * @go k8s.io/client-go/util/flowcontrol.(*Backoff).IsInBackOffSince
   */
  isInBackOffSince(id: string, eventTime: number): boolean {
    const entry = this.perItem.get(id);
    if (entry === undefined || hasExpired(eventTime, entry.lastUpdate, this.max)) return false;
    return this.clock.now() - eventTime < entry.backoff;
  }

  /**
   * True while less than the current delay separates `eventTime` from the last Next.
   * @go k8s.io/client-go/util/flowcontrol.(*Backoff).IsInBackOffSinceUpdate
   */
  isInBackOffSinceUpdate(id: string, eventTime: number): boolean {
    const entry = this.perItem.get(id);
    if (entry === undefined || hasExpired(eventTime, entry.lastUpdate, this.max)) return false;
    return eventTime - entry.lastUpdate < entry.backoff;
  }

  /** Drops entries untouched for more than 2×max. @go k8s.io/client-go/util/flowcontrol.(*Backoff).GC */
  gc(): void {
    const now = this.clock.now();
    for (const [id, entry] of this.perItem) if (now - entry.lastUpdate > this.max * 2) this.perItem.delete(id);
  }

  /** @go k8s.io/client-go/util/flowcontrol.(*Backoff).DeleteEntry */
  deleteEntry(id: string): void {
    this.perItem.delete(id);
  }

  /** Whether an entry exists (tests peek at this the way the Go test reads perItemBackoff). */
  has(id: string): boolean {
    return this.perItem.has(id);
  }

  private jitter(delay: number): number {
    if (this.maxJitterFactor <= 0) return 0;
    return this.random() * this.maxJitterFactor * delay;
  }
}

/** Quiet for more than 2×max: the next failure starts from the initial delay again. */
function hasExpired(eventTime: number, lastUpdate: number, max: number): boolean {
  return eventTime - lastUpdate > max * 2;
}
