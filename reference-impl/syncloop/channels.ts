/**
 * Go channels and tickers reduced to queues, so one loop iteration can be run and inspected.
 */
import type { Clock } from '../api/index.js';

/**
 * A FIFO with Go's receive semantics for the parts the loop uses: a closed channel is always
 * "ready" and yields `open: false` once drained.
 */
export class Channel<T> {
  private readonly items: T[] = [];
  private isClosed = false;

  send(item: T): void {
    if (this.isClosed) throw new Error('send on closed channel');
    this.items.push(item);
  }
  close(): void {
    this.isClosed = true;
  }
  /** A receive would not block. */
  ready(): boolean {
    return this.items.length > 0 || this.isClosed;
  }
  receive(): { value?: T; open: boolean } {
    if (this.items.length > 0) return { value: this.items.shift(), open: true };
    if (this.isClosed) return { open: false };
    throw new Error('receive would block');
  }
  get length(): number {
    return this.items.length;
  }
}

/**
 * A Go time.Ticker on the injected clock. Like Go's, its channel holds at most one tick: ticks that
 * come due while one is unread are dropped.
 */
export class Ticker {
  private next: number;
  constructor(private readonly clock: Clock, readonly period: number) {
    if (!(period > 0)) throw new RangeError(`ticker period must be positive, got ${period}`);
    this.next = clock.now() + period;
  }
  ready(): boolean {
    return this.clock.now() >= this.next;
  }
  /** Takes the pending tick; the next one is the first multiple of the period after now. */
  receive(): number {
    if (!this.ready()) throw new Error('receive would block');
    const tick = this.next;
    const now = this.clock.now();
    this.next += Math.ceil((now - this.next + 1) / this.period) * this.period;
    return tick;
  }
}
