/**
 * Which recursive queries are in progress, for memoizing without changing answers. The resolver's
 * queries (field flows, parameter flows, function results) cut cycles by answering a query that is
 * already in progress with an empty answer, so an answer can depend on what was in progress around it:
 *
 * - An answer is *free* when its computation met no query opened before it. Where the queries' own
 *   caches make every query run at most once (outside the call-site table build), a free answer is
 *   what recomputing it would give, so it can be reused as is.
 * - While the table is being built the queries are not cached and run again at every use, so the
 *   same question can meet different queries in progress each time. A free answer is reused only if
 *   none of the queries its computation checked (its *footprint*) is in progress again: then every
 *   check would come out the same, and so would the answer.
 */
export interface Mark {
  low: number;
  height: number;
  seen: Set<number> | undefined;
  watch: boolean;
}

export class Progress {
  private ids = new Map<string, number>();
  /** Query id → its position on the stack of open queries (-1: not open). */
  private at: number[] = [];
  private stack: number[] = [];
  /** Lowest stack position of an open query met since the innermost `begin`. */
  private low = Infinity;
  /** The footprint of the innermost watched computation. */
  private seen: Set<number> | undefined;

  private idOf(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.at.length;
      this.ids.set(key, id);
      this.at.push(-1);
    }
    return id;
  }

  /** Whether the query `key` is in progress; meeting one makes every computation opened after it not free. */
  isOpen(key: string): boolean {
    const id = this.idOf(key);
    this.seen?.add(id);
    const at = this.at[id];
    if (at < 0) return false;
    if (at < this.low) this.low = at;
    return true;
  }

  /** Opens `key` (the caller has checked that it is not open). */
  push(key: string): void {
    const id = this.idOf(key);
    this.at[id] = this.stack.length;
    this.stack.push(id);
  }

  pop(key: string): void {
    this.at[this.idOf(key)] = -1;
    this.stack.pop();
  }

  /** Starts a computation; `watch` records its footprint. Pass the mark to `end`. */
  begin(watch = false): Mark {
    const mark = { low: this.low, height: this.stack.length, seen: this.seen, watch };
    this.low = Infinity;
    if (watch) this.seen = new Set();
    return mark;
  }

  /** Ends a computation: whether it was free, and its footprint when watched. */
  end(mark: Mark): { free: boolean; footprint?: Set<number> } {
    const free = this.low >= mark.height;
    if (mark.low < this.low) this.low = mark.low;
    if (!mark.watch) return { free };
    const footprint = this.seen!;
    this.seen = mark.seen;
    this.touch(footprint);
    return { free, footprint };
  }

  /** Adds a reused answer's footprint to the computations being watched. */
  touch(footprint: Set<number>): void {
    const seen = this.seen;
    if (seen && seen !== footprint) for (const id of footprint) seen.add(id);
  }

  /** Whether no query of the footprint is in progress now. */
  clear(footprint: Set<number>): boolean {
    if (footprint.size < this.stack.length) {
      for (const id of footprint) if (this.at[id] >= 0) return false;
    } else {
      for (const id of this.stack) if (footprint.has(id)) return false;
    }
    return true;
  }
}
