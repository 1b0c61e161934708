/**
 * A table of lists by key (call sites by callee, values by field), made from what each function adds
 * to it (its *part*), in the program's order of functions, then a fixed tail per key. A session (see
 * session.ts) makes the parts of a few functions again and the lists they touch, which then read as a
 * table made from nothing would.
 */
import type { FuncInfo } from './program.js';

/** Each function's place in the program's order (see ResolveSession.order): what patch orders parts by. */
export interface Rank {
  get(fn: FuncInfo): number | undefined;
  has(fn: FuncInfo): boolean;
}

/** What one function adds: values by key (the i-th value under the i-th key), and the facts they were made from. */
export interface Part<V> {
  facts: unknown;
  keys: string[];
  values: V[];
}

export class PartsTable<V, L> {
  readonly lists = new Map<string, L[]>();
  private parts = new Map<FuncInfo, Part<V>>();
  /** The functions that add to each key's list. */
  private adders = new Map<string, Set<FuncInfo>>();

  /**
   * `item` makes a list's entry from a function and one of its items, `fnOf` tells the function back
   * (undefined for the entries of `tail`, which end a key's list). Without `keep`, the parts are not
   * kept once the lists are made (a build that is not patched: less memory), and patch cannot be used.
   * `refresh`, when given, makes an entry read a function's facts now, in place (see patch).
   */
  constructor(private item: (fn: FuncInfo, v: V) => L, private fnOf: (l: L) => FuncInfo | undefined, private tail: Map<string, L[]> = new Map(), private keep = true, private refresh?: (l: L, fn: FuncInfo, v: V) => void) {}

  /** The table from the parts of `fns` (in the program's order), made by `make`. */
  build(fns: FuncInfo[], make: (fn: FuncInfo) => Part<V>): this {
    for (const fn of fns) {
      const part = make(fn);
      if (this.keep) this.add(fn, part);
      for (let i = 0; i < part.keys.length; i++) {
        let list = this.lists.get(part.keys[i]);
        if (!list) this.lists.set(part.keys[i], (list = []));
        list.push(this.item(fn, part.values[i]));
      }
    }
    for (const [key, list] of this.tail) {
      const at = this.lists.get(key);
      if (at) at.push(...list);
      else this.lists.set(key, [...list]);
    }
    return this;
  }

  /** The facts `fn`'s part was made from (undefined when it has none). */
  factsOf(fn: FuncInfo): unknown {
    return this.parts.get(fn)?.facts;
  }

  /**
   * The parts of `redo` made again (those `keep` still wants) and of `gone` dropped, and the lists
   * they touch made again in the order of `rank`. Returns the keys whose lists say something else
   * now: every key of a part whose items differ (by key, and by value when `values` is set), or whose
   * facts were replaced by others than moved ones (`moved`: functions whose records only moved). The
   * parts of `shifted` (moved functions whose values do not hold positions, as a call's index does
   * not) keep their keys and values with the new facts, and are not made again; with `refresh`, their
   * entries are refreshed in place where no other function's change makes a list again (copying a
   * long list, such as the sites of fmt.Errorf, for each function an edit moved).
   */
  patch(redo: FuncInfo[], gone: FuncInfo[], moved: Set<FuncInfo>, make: (fn: FuncInfo) => Part<V>, keep: (fn: FuncInfo) => boolean, values: boolean, rank: Rank, shifted?: Set<FuncInfo>): Set<string> {
    if (!this.keep) throw new Error('a table made without its parts cannot be patched');
    const rebuild = new Set<string>();
    const changed = new Set<string>();
    const touched = new Set<FuncInfo>([...redo, ...gone]);
    for (const fn of gone) {
      for (const key of this.drop(fn)?.keys ?? []) {
        rebuild.add(key);
        changed.add(key);
      }
    }
    // The shifted functions whose entries are refreshed in place (see below).
    const inPlace: FuncInfo[] = [];
    for (const fn of redo) {
      const was = this.drop(fn);
      const reuse = was && shifted?.has(fn) && keep(fn);
      const now = reuse ? { facts: fn.facts, keys: was.keys, values: was.values } : keep(fn) ? make(fn) : undefined;
      if (now) this.add(fn, now);
      if (reuse && this.refresh) {
        inPlace.push(fn);
        continue;
      }
      const a = was?.keys ?? [];
      const b = now?.keys ?? [];
      const same = a.length === b.length && a.every((k, i) => k === b[i] && (!values || was!.values[i] === now!.values[i]));
      const replaced = was?.facts !== now?.facts;
      for (const [set, when] of [[rebuild, !same || replaced], [changed, !same || (replaced && !moved.has(fn))]] as const) {
        if (!when) continue;
        for (const key of a) set.add(key);
        for (const key of b) set.add(key);
      }
    }
    // Each list touched: its entries of untouched functions kept in order, the touched functions'
    // new entries merged in by rank (a function's entries stay together, the tail stays last).
    const fresh = new Map<string, L[]>();
    for (const fn of [...redo].filter((f) => this.parts.has(f)).sort((x, y) => rank.get(x)! - rank.get(y)!)) {
      const part = this.parts.get(fn)!;
      part.keys.forEach((key, i) => {
        if (!rebuild.has(key)) return;
        let list = fresh.get(key);
        if (!list) fresh.set(key, (list = []));
        list.push(this.item(fn, part.values[i]));
      });
    }
    const rankOf = (l: L) => {
      const fn = this.fnOf(l);
      return fn ? rank.get(fn)! : Infinity;
    };
    for (const key of rebuild) {
      const add = fresh.get(key) ?? [];
      const kept: L[] = [];
      for (const l of this.lists.get(key) ?? []) {
        const fn = this.fnOf(l);
        if (!fn || !touched.has(fn)) kept.push(l);
      }
      // The kept entries are in rank order (the tail last): each new entry goes before the first one
      // ranked after it, found by halving, so that a long list (the thousands of sites of a callee
      // such as fmt.Errorf) is not ranked entry by entry on each edit.
      let list = kept;
      if (add.length) {
        list = [];
        let from = 0;
        for (const a of add) {
          const lo = firstRanked(kept, rankOf(a), rankOf, from);
          for (let k = from; k < lo; k++) list.push(kept[k]);
          list.push(a);
          from = lo;
        }
        for (let k = from; k < kept.length; k++) list.push(kept[k]);
      }
      if (list.length) this.lists.set(key, list);
      else this.lists.delete(key);
    }
    // A shifted function's entries in a list not made again: the same items, in the order of its part.
    // Its first entry in a list is found by halving on rank: walking a long list (the 3,000 sites of
    // fmt.Errorf) from its start for each function an edit moved took most of the patch of a call
    // added to a method of kubelet.go (45 functions moved).
    for (const fn of inPlace) {
      const part = this.parts.get(fn)!;
      // Its entries in a list come together, in the order of its part: the next one is looked for from
      // after the last one refreshed in that list.
      const next = new Map<string, number>();
      for (let i = 0; i < part.keys.length; i++) {
        const key = part.keys[i];
        if (rebuild.has(key)) continue;
        const list = this.lists.get(key) ?? [];
        let at = next.get(key) ?? firstRanked(list, rank.get(fn), rankOf);
        while (at < list.length && this.fnOf(list[at]) !== fn) at++;
        // Not at its rank (no function should be unranked): looked for from the start.
        if (at === list.length && !next.has(key)) for (at = 0; at < list.length && this.fnOf(list[at]) !== fn; ) at++;
        if (at === list.length) throw new Error(`an entry of ${fn.id} is missing from the list of ${key}`);
        this.refresh!(list[at], fn, part.values[i]);
        next.set(key, at + 1);
      }
    }
    return changed;
  }

  private add(fn: FuncInfo, part: Part<V>): void {
    this.parts.set(fn, part);
    for (const key of part.keys) {
      let set = this.adders.get(key);
      if (!set) this.adders.set(key, (set = new Set()));
      set.add(fn);
    }
  }

  private drop(fn: FuncInfo): Part<V> | undefined {
    const was = this.parts.get(fn);
    if (!was) return undefined;
    this.parts.delete(fn);
    for (const key of was.keys) this.adders.get(key)?.delete(fn);
    return was;
  }
}

/** The first place in `list` from `from` on (in rank order, see PartsTable) whose entry ranks at or after `r` (`from` without a rank). */
function firstRanked<L>(list: readonly L[], r: number | undefined, rankOf: (l: L) => number, from = 0): number {
  if (r === undefined) return from;
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rankOf(list[mid]) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
