/**
 * Injected time. Ports never read the wall clock; tests and scenarios step a FakeClock.
 * @go k8s.io/utils/clock/testing.(*FakeClock).Step
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export class FakeClock implements Clock {
  private t: number;
  constructor(start: number | string = Date.UTC(2023, 7, 15, 0, 0, 0)) {
    this.t = typeof start === 'string' ? Date.parse(start) : start;
  }
  now(): number {
    return this.t;
  }
  /** Moves time forward by `ms` milliseconds. */
  step(ms: number): void {
    this.t += ms;
  }
  setTime(t: number): void {
    this.t = t;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
