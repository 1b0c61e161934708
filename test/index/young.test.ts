/** The collection a watch runs while it waits between builds (see src/index/young.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { collectYoung } from '../../src/index/young.js';
import { observeAskedCollections } from '../helpers/gc.js';

describe('collectYoung', () => {
  it('collects the young generation, without --expose-gc and without putting gc on the global', async () => {
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'the test runs without --expose-gc');
    const asked = observeAskedCollections();
    try {
      collectYoung();
      // The entries are reported after the collection, on a later turn.
      for (let i = 0; i < 20 && asked.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      asked.stop();
    }
    assert.equal(asked.times.length, 1, `one young-generation collection was asked for (seen: ${JSON.stringify(asked.seen)})`);
    assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'gc is not put on the global');
  });
});
