/**
 * The resolver's recursive queries (field flows, parameter flows, function results, func-typed fields
 * and parameters), answered so that an answer does not depend on which question asked for it first,
 * nor on the order in which functions are resolved.
 *
 * Queries can depend on each other in cycles (a parameter fed by a field that is set from that
 * parameter). Each query is answered as the least fixpoint of its cycle, the way Tarjan's algorithm
 * finds strongly connected components:
 *
 * - A query met again while it is being computed gives its answer so far (at first the empty one),
 *   and the queries computed since then learn that they belong to its cycle.
 * - When the first query of a cycle (its *head*) is done, it is computed again while its answer, or
 *   the answer of any query of the cycle, changed in the last pass. Then the answers of the cycle are
 *   final: kept, and given as they are whoever asks.
 * - A query of a cycle whose head is still being computed is *pending*: asked again in the same pass,
 *   it gives its answer so far; in a later pass it is computed again.
 *
 * Answers grow from empty as a pass reads larger answers, so the passes end (a cap guards against a
 * query that does not grow that way; `unsettled` counts them). Two guards make an answer depend on
 * where it was asked, and are counted so that a graph they touched can say so: the cap on passes, and
 * the cap on how many queries are open at once (`cut`).
 */

import type { Deps } from './deps.js';

const NEW = 0;
const OPEN = 1;
const PENDING = 2;
const DONE = 3;

/** One query's state: its answer so far, and where it stands. */
interface Query<T> {
  value: T;
  /** Its answer before it is computed. */
  empty: T;
  state: number;
  /** Its position on the stack of open queries, while open. */
  at: number;
  /** Pending: the lowest stack position its computation met (its cycle's head or below). */
  low: number;
  /** Pending: the pass in which it was computed. */
  pass: number;
}

/** Passes of one cycle past which its answers are taken as they are (counted in `unsettled`). */
const MAX_PASSES = 64;
/**
 * Open queries past which a query is given its answer so far instead of being computed (counted in
 * `cut`): a guard for the call stack. The kubelet's scopes open at most 45 (default) and 65 (all).
 */
export const MAX_OPEN = 256;

export class Queries {
  /**
   * `deps`, when given, is told what each query read (see Deps), its readers keyed by `tag` and the
   * query's key; a session keeps them to re-resolve after an edit.
   */
  constructor(readonly tag = 'q0', private deps?: Deps) {}

  private stack: Query<unknown>[] = [];
  /** Lowest stack position met by the innermost computation. */
  private low = Infinity;
  /** The current pass (a fresh number for each pass again of a cycle's head). */
  private pass = 0;
  private passes = 0;
  /** Whether an answer read within the current pass changed while it ran. */
  private dirty = false;
  /** Every query asked of this engine, by key (the keys of the resolver's kinds of query do not meet). */
  private table = new Map<string, Query<unknown>>();
  /** Pending queries computed so far, for the heads that finish their cycles. */
  private members: Query<unknown>[] = [];
  /** Cycles whose answers still changed after MAX_PASSES passes. */
  unsettled = 0;
  /** The most queries open at once. */
  deepest = 0;
  /** Queries not computed because MAX_OPEN were open. */
  cut = 0;

  /** Drops the answer to `key` (and what it read): asked again, it is computed afresh. Between questions only. */
  reset(key: string): void {
    this.table.delete(key);
    this.deps?.forget(`${this.tag}:${key}`);
  }

  /** Adds the counts of another engine (the call-site table's, which runs apart). */
  absorb(other: Queries): void {
    this.unsettled += other.unsettled;
    this.cut += other.cut;
    this.deepest = Math.max(this.deepest, other.deepest);
  }

  /**
   * The answer to the query `key`: kept when final, else computed (see above). `empty` is the answer a
   * query has before it is computed; `same` tells two answers apart.
   */
  ask<T>(key: string, empty: T, compute: () => T, same: (a: T, b: T) => boolean): T {
    const deps = this.deps;
    if (deps) {
      const reader = `${this.tag}:${key}`;
      deps.note(reader);
      const inner = compute;
      compute = () => deps.as(reader, inner);
    }
    let q = this.table.get(key) as Query<T> | undefined;
    if (q) {
      if (q.state === DONE) return q.value;
      if (q.state === OPEN) {
        if (q.at < this.low) this.low = q.at;
        return q.value;
      }
      if (q.state === PENDING && q.pass === this.pass) {
        if (q.low < this.low) this.low = q.low;
        return q.value;
      }
    } else {
      q = { value: empty, empty, state: NEW, at: -1, low: 0, pass: -1 };
      this.table.set(key, q as Query<unknown>);
    }
    if (this.stack.length >= MAX_OPEN) {
      this.cut++;
      return q.value;
    }
    return this.compute(q as Query<unknown>, compute as () => unknown, same as (a: unknown, b: unknown) => boolean) as T;
  }

  private compute(q: Query<unknown>, compute: () => unknown, same: (a: unknown, b: unknown) => boolean): unknown {
    const at = this.stack.length;
    const outer = { low: this.low, pass: this.pass, dirty: this.dirty };
    const mark = this.members.length;
    const before = q.value;
    q.state = OPEN;
    q.at = at;
    this.stack.push(q);
    if (this.stack.length > this.deepest) this.deepest = this.stack.length;
    let low: number;
    let passes = 0;
    try {
      for (;;) {
        this.low = Infinity;
        this.dirty = false;
        const value = compute();
        low = this.low;
        const changed = !same(value, q.value);
        q.value = value;
        // A query of a cycle whose head is further down: that head decides when the cycle is done.
        if (low < at) break;
        // Not in a cycle, or the head of one that no longer changes.
        if (low > at || (!changed && !this.dirty)) break;
        if (++passes >= MAX_PASSES) {
          this.unsettled++;
          break;
        }
        this.pass = ++this.passes;
      }
    } finally {
      this.stack.pop();
    }
    if (low < at) {
      q.state = PENDING;
      q.low = low;
      q.pass = outer.pass;
      this.members.push(q);
      this.low = Math.min(outer.low, low);
      this.dirty = outer.dirty || this.dirty || !same(q.value, before);
    } else {
      q.state = DONE;
      // The queries of its cycle computed in the last pass are final; others are computed afresh when asked.
      for (let i = mark; i < this.members.length; i++) {
        const m = this.members[i];
        if (m.state !== PENDING) continue;
        if (m.pass === this.pass) m.state = DONE;
        else {
          m.state = NEW;
          m.value = m.empty;
        }
      }
      this.members.length = mark;
      this.low = outer.low;
      this.dirty = outer.dirty;
    }
    this.pass = outer.pass;
    return q.value;
  }
}
