/**
 * nameRanks: the query store sorts names by rank, and a ranking kept from the last call (the watch
 * encodes the store after each edit) must order names exactly as a fresh one, new names included.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { nameRanks } from '../../src/graph/store.js';

/** Whether `rank` orders `names` as localeCompare does, equal names sharing a rank. */
function agrees(names: string[], rank: Float64Array): string | undefined {
  for (let a = 0; a < names.length; a++) {
    for (let b = 0; b < names.length; b++) {
      const want = Math.sign(names[a].localeCompare(names[b]));
      const got = Math.sign(rank[a] - rank[b]);
      if (want !== got) return `${names[a]} vs ${names[b]}: localeCompare ${want}, ranks ${got}`;
    }
  }
  return undefined;
}

describe('nameRanks', () => {
  it('orders names as localeCompare, whether the last ranking is reused or not', () => {
    let seed = 9;
    const pick = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const word = () => Array.from({ length: 1 + pick(4) }, () => 'aAbB._(*)'[pick(9)]).join('');
    const base = Array.from({ length: 200 }, word);
    assert.equal(agrees(base, nameRanks(base)), undefined, 'a fresh ranking');
    for (let round = 0; round < 5; round++) {
      // Some names gone, some new (several between the same neighbours, some equal in locale order).
      const names = [...base.filter(() => pick(4) > 0), ...Array.from({ length: 30 }, word), 'b.(*a)', 'B.(*A)', 'b.(*a)x'];
      assert.equal(agrees(names, nameRanks(names)), undefined, `round ${round}`);
    }
  });
});
