/** The collection a watch runs while it waits between builds (see src/index/young.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { collectYoung } from '../../src/index/young.js';

describe('collectYoung', () => {
  it('collects the young generation, without --expose-gc and without putting gc on the global', async () => {
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'the test runs without --expose-gc');
    const seen: PerformanceEntry[] = [];
    const obs = new PerformanceObserver((list) => seen.push(...list.getEntries()));
    obs.observe({ entryTypes: ['gc'] });
    try {
      collectYoung();
      // The entries are reported after the collection, on a later turn.
      for (let i = 0; i < 20 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      obs.disconnect();
    }
    // Collections of the young generation asked for by the program (not ones V8 ran on its own).
    const details = seen.map((e) => (e as PerformanceEntry & { detail?: { kind?: number; flags?: number } }).detail);
    const asked = details.filter((d) => d?.kind === constants.NODE_PERFORMANCE_GC_MINOR && ((d.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0);
    assert.equal(asked.length, 1, `one young-generation collection was asked for (seen: ${JSON.stringify(details)})`);
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'gc is not put on the global');
  });
});
