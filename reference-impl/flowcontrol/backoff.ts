/**
 * Per-key exponential backoff, as client-go keeps it for image pulls (key `podUID_image`) and
 * crash-looping containers. Each key remembers its current delay and when it was last bumped.
 */
import type { Clock } from '../api/index.js';

interface BackoffEntry {
  /** Current delay in milliseconds. */
  backoff: number;
  /** Clock time (ms) of the last Next() for this key. */
  lastUpdate: number;
}

/** Returns a number in [0, 1); injected so jittered delays are reproducible. */
export type RandomSource = () => number;

/**
 * @go k8s.io/client-go/util/flowcontrol.Backoff
 * Simplified: durations are milliseconds; no locking (JavaScript runs one call at a time).
 */
export class Backoff {
  private readonly perItemBackoff = new Map<string, BackoffEntry>();

  /**
   * @go k8s.io/client-go/util/flowcontrol.NewFakeBackOffWithJitter
   * Simplified: the jitter source is an injected function instead of a rand.Rand seeded from the clock.
   */
  constructor(
    readonly clock: Clock,
    private readonly defaultDuration: number,
    private readonly maxDuration: number,
    private readonly maxJitterFactor = 0,
    private readonly random: RandomSource | undefined = maxJitterFactor > 0 ? seededRandom(clock.now()) : undefined,
  ) {
    if (!(defaultDuration >= 0)) throw new RangeError(`backoff initial duration: must be >= 0, got ${defaultDuration}`);
    if (!(maxDuration >= 0)) throw new RangeError(`backoff max duration: must be >= 0, got ${maxDuration}`);
  }

  /** The current delay for `id`, 0 when the key is unknown. @go k8s.io/client-go/util/flowcontrol.(*Backoff).Get */
  get(id: string): number {
    return this.perItemBackoff.get(id)?.backoff ?? 0;
  }

  /**
   * Moves `id` to its next delay: the initial one for a new or long-quiet key, otherwise double the
   * previous delay, never above the maximum.
   * @go k8s.io/client-go/util/flowcontrol.(*Backoff).Next
   */
  next(id: string, eventTime: number): void {
    let entry = this.perItemBackoff.get(id);
    if (entry === undefined || hasExpired(eventTime, entry.lastUpdate, this.maxDuration)) {
      entry = this.initEntryUnsafe(id);
      entry.backoff += this.jitter(entry.backoff);
    } else {
      const delay = entry.backoff * 2 + this.jitter(entry.backoff);
      entry.backoff = Math.min(delay, this.maxDuration);
    }
    entry.lastUpdate = this.clock.now();
  }

  /** Forgets `id` entirely. @go k8s.io/client-go/util/flowcontrol.(*Backoff).Reset */
  reset(id: string): void {
    this.perItemBackoff.delete(id);
  }

  /**
   * True while less than the current delay has passed since `eventTime` (measured on the clock).
   * @go k8s.io/client-go/util/flowcontrol.(*Backoff).IsInBackOffSince
   */
  isInBackOffSince(id: string, eventTime: number): boolean {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined) return false;
    if (hasExpired(eventTime, entry.lastUpdate, this.maxDuration)) return false;
    return this.clock.now() - eventTime < entry.backoff;
  }

  /**
   * True while less than the current delay separates `eventTime` from the key's last update.
   * This is the check the image manager makes before each pull.
   * @go k8s.io/client-go/util/flowcontrol.(*Backoff).IsInBackOffSinceUpdate
   */
  isInBackOffSinceUpdate(id: string, eventTime: number): boolean {
    const entry = this.perItemBackoff.get(id);
    if (entry === undefined) return false;
    if (hasExpired(eventTime, entry.lastUpdate, this.maxDuration)) return false;
    return eventTime - entry.lastUpdate < entry.backoff;
  }

  /** Drops keys not bumped for more than twice the maximum delay. @go k8s.io/client-go/util/flowcontrol.(*Backoff).GC */
  gc(): void {
    const now = this.clock.now();
    for (const [id, entry] of this.perItemBackoff) {
      if (now - entry.lastUpdate > this.maxDuration * 2) this.perItemBackoff.delete(id);
    }
  }

  /** @go k8s.io/client-go/util/flowcontrol.(*Backoff).DeleteEntry */
  deleteEntry(id: string): void {
    this.perItemBackoff.delete(id);
  }

  /** Whether a record for `id` exists (the Go tests read the map directly). */
  has(id: string): boolean {
    return this.perItemBackoff.has(id);
  }

  /** @go k8s.io/client-go/util/flowcontrol.(*Backoff).initEntryUnsafe */
  private initEntryUnsafe(id: string): BackoffEntry {
    const entry: BackoffEntry = { backoff: this.defaultDuration, lastUpdate: 0 };
    this.perItemBackoff.set(id, entry);
    return entry;
  }

  /** @go k8s.io/client-go/util/flowcontrol.(*Backoff).jitter */
  private jitter(delay: number): number {
    if (this.random === undefined) return 0;
    return this.random() * this.maxJitterFactor * delay;
  }
}

/**
 * @go k8s.io/client-go/util/flowcontrol.NewBackOff
 * Simplified: the clock is a parameter; Go starts on the wall clock and tests replace `Clock`.
 */
export function newBackOff(initial: number, max: number, clock: Clock): Backoff {
  return new Backoff(clock, initial, max, 0);
}

/** @go k8s.io/client-go/util/flowcontrol.NewFakeBackOff */
export function newFakeBackOff(initial: number, max: number, clock: Clock): Backoff {
  return new Backoff(clock, initial, max, 0);
}

/**
 * A key that has been quiet for more than twice the maximum delay starts over.
 * @go k8s.io/client-go/util/flowcontrol.hasExpired
 */
export function hasExpired(eventTime: number, lastUpdate: number, maxDuration: number): boolean {
  return eventTime - lastUpdate > maxDuration * 2;
}

/** A small deterministic generator (mulberry32) standing in for Go's seeded rand.Rand. */
export function seededRandom(seed: number): RandomSource {
  let a = Math.floor(seed) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
