/** Collections of V8's young generation that the program asked for (not those V8 ran on its own), as they are reported. */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

export interface AskedCollections {
  /** When each one started (performance.now()'s clock). */
  times: number[];
  /** Every collection reported, with its kind and flags (for a failing assertion's message). */
  seen: unknown[];
  stop(): void;
}

export function observeAskedCollections(): AskedCollections {
  const times: number[] = [];
  const seen: unknown[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const d = (e as PerformanceEntry & { detail?: { kind?: number; flags?: number } }).detail;
      seen.push(d);
      if (d?.kind === constants.NODE_PERFORMANCE_GC_MINOR && ((d.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0) times.push(e.startTime);
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return { times, seen, stop: () => obs.disconnect() };
}
