/**
 * client-go's backoff_test.go cases, case by case, against the one Backoff port that image pulls and
 * CrashLoopBackOff share.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, MINUTE } from '../api/index.js';
import { Backoff, newFakeBackOff, seededRandom } from './index.js';

describe('TestSlowBackoff', () => {
  it('delays 0,1,2,4,8,16,32,50,50,50 then Reset clears', () => {
    const id = '_idSlow';
    const tc = new FakeClock();
    const maxDuration = 50 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    const cases = [0, 1, 2, 4, 8, 16, 32, 50, 50, 50];
    cases.forEach((c, ix) => {
      tc.step(SECOND);
      assert.equal(b.get(id), c * SECOND, `input ${ix}`);
      b.next(id, tc.now());
    });
    b.next(id, tc.now());
    b.reset(id);
    assert.equal(b.get(id), 0);
  });
});

describe('TestBackoffReset', () => {
  it('backoff is forgotten after 2*maxDuration without updates', () => {
    const id = '_idReset';
    const tc = new FakeClock();
    const maxDuration = 5 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    for (let i = 0; i <= maxDuration / SECOND; i++) {
      tc.step(SECOND);
      b.next(id, tc.now());
    }
    assert.equal(b.isInBackOffSince(id, tc.now()), true);
    const lastUpdate = tc.now();
    tc.step(2 * maxDuration + SECOND);
    assert.equal(b.isInBackOffSince(id, lastUpdate), false);
  });
});

describe('TestBackoffHighWaterMark', () => {
  it('stays at the max while updates keep coming', () => {
    const id = '_idHiWaterMark';
    const tc = new FakeClock();
    const maxDuration = 5 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    for (let i = 0; i <= maxDuration / SECOND; i++) {
      tc.step(SECOND);
      b.next(id, tc.now());
    }
    tc.step(maxDuration + SECOND);
    b.next(id, tc.now());
    assert.equal(b.get(id), maxDuration);
  });
});

describe('TestBackoffGC', () => {
  it('keeps the entry until 2*maxDuration have passed, then drops it', () => {
    const id = '_idGC';
    const tc = new FakeClock();
    const maxDuration = 5 * SECOND;
    const b = newFakeBackOff(SECOND, maxDuration, tc);
    for (let i = 0; i <= maxDuration / SECOND; i++) {
      tc.step(SECOND);
      b.next(id, tc.now());
    }
    tc.step(maxDuration + SECOND);
    b.gc();
    assert.equal(b.has(id), true, 'expected GC to skip entry');
    tc.step(maxDuration + SECOND);
    b.gc();
    assert.equal(b.has(id), false, 'expected GC of entry');
  });
});

describe('TestIsInBackOffSinceUpdate', () => {
  it('38 ticks of in/out of backoff', () => {
    const id = '_idIsInBackOffSinceUpdate';
    const tc = new FakeClock();
    const b = newFakeBackOff(SECOND, 10 * SECOND, tc);
    const startTime = tc.now();
    // [tick, inBackOff, value]
    const cases: [number, boolean, number][] = [
      [0, false, 0], [1, false, 1], [2, true, 2], [3, false, 2], [4, true, 4], [5, true, 4], [6, true, 4],
      [7, false, 4], [8, true, 8], [9, true, 8], [10, true, 8], [11, true, 8], [12, true, 8], [13, true, 8],
      [14, true, 8], [15, false, 8], [16, true, 10], [17, true, 10], [18, true, 10], [19, true, 10],
      [20, true, 10], [21, true, 10], [22, true, 10], [23, true, 10], [24, true, 10], [25, false, 10],
      [26, true, 10], [27, true, 10], [28, true, 10], [29, true, 10], [30, true, 10], [31, true, 10],
      [32, true, 10], [33, true, 10], [34, true, 10], [35, false, 10], [56, false, 0], [57, false, 1],
    ];
    for (const [tick, inBackOff, value] of cases) {
      tc.setTime(startTime + tick * SECOND);
      assert.equal(b.isInBackOffSinceUpdate(id, tc.now()), inBackOff, `tick ${tick}`);
      if (inBackOff) assert.equal(b.get(id), value * SECOND, `tick ${tick} value`);
      if (!inBackOff) b.next(id, tc.now());
    }
  });
});

describe('TestBackoffWithJitter', () => {
  it('each delay is 2x the previous plus at most 10% jitter, capped at the max', () => {
    const id = '_idJitter';
    const tc = new FakeClock();
    const initial = 100;
    const maxDuration = MINUTE;
    const maxJitterFactor = 0.1;
    const b = new Backoff(tc, initial, maxDuration, maxJitterFactor, seededRandom(42));
    const check = (factor: number, prev: number, cur: number) => {
      const low = prev * factor;
      const high = low + maxJitterFactor * prev;
      assert.ok((cur > low && cur <= high) || cur === maxDuration, `jittered delay ${cur} not within (${low}, ${high}]`);
    };
    const next = () => {
      tc.step(initial);
      b.next(id, tc.now());
      return b.get(id);
    };
    assert.equal(b.get(id), 0);
    let prev = next();
    check(1, initial, prev);
    for (let i = 0; i < 10; i++) {
      const cur = next();
      check(2, prev, cur);
      prev = cur;
    }
    assert.equal(prev, maxDuration, 'the max is reached within 11 attempts');
  });
});

