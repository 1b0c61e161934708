/**
 * What each piece of resolution read, for re-resolving after an edit (see session.ts). A *reader* is a
 * function's resolution (all of a top-level function's closures with it: `u:` and a number), a
 * query (`q0:`/`q1:` and its key, by engine), a session's channel records (`c:`) or one function's
 * part of the field-flow table (`p:` and a number: see CallResolver.flowPart). What it reads is
 * named by a key:
 *
 * - `b:` a function's body (its facts past its signature), by the same number as its reader;
 * - `s:` the call sites of a function, by ID (the call-site table);
 * - `f:` the values stored into a struct field, by field (the field-flow table);
 * - `d:` an interface method's dispatch candidates;
 * - `k:` the callers of a function, by ID, as the edges have them (the callers' table, read by the
 *   channel records: see ResolveSession.channelsNow);
 * - `m:` the members of that name of any type (a lookup of a field or method: see Types.member);
 * - `v:` a package value, by ID, where its expression is read for the numbers in it (a goroutine's
 *   period written out: see concurrency.ts);
 * - a query's reader key, for the answer of that query.
 *
 * Other declarations (types, signatures, package values but for their numbers, imports) are not
 * keys: an edit that changes them is not re-resolved this way. Reads are kept both ways, so that the readers of a key are found at
 * once and a reader read again forgets what it read before.
 */
export class Deps {
  private stack: string[] = [];
  private top: string | undefined;
  private forward = new Map<string, Set<string>>();
  private reverse = new Map<string, Set<string>>();

  /** Runs `f` as reader `reader` (what it reads is added to what that reader read before). */
  as<T>(reader: string, f: () => T): T {
    this.stack.push(reader);
    this.top = reader;
    try {
      return f();
    } finally {
      this.stack.pop();
      this.top = this.stack[this.stack.length - 1];
    }
  }

  /** Runs `f` with no reader (the passes that run again after every edit: symbols, goroutines, channels). */
  none<T>(f: () => T): T {
    return this.as('', f);
  }

  /** Notes that the current reader read `key`. */
  note(key: string): void {
    const r = this.top;
    if (!r || r === key) return;
    let keys = this.forward.get(r);
    if (!keys) this.forward.set(r, (keys = new Set()));
    if (keys.has(key)) return;
    keys.add(key);
    let readers = this.reverse.get(key);
    if (!readers) this.reverse.set(key, (readers = new Set()));
    readers.add(r);
  }

  /** Forgets what `reader` read (it is read again from scratch). */
  forget(reader: string): void {
    const keys = this.forward.get(reader);
    if (!keys) return;
    for (const k of keys) {
      const readers = this.reverse.get(k);
      readers?.delete(reader);
      if (readers?.size === 0) this.reverse.delete(k);
    }
    this.forward.delete(reader);
  }

  /**
   * The bodies (`b:` keys) read by the readers that read one of `keys` themselves. What a reader
   * made of a body and kept for others (a binding's type) is theirs too, though they read it unnoted.
   */
  bodiesReadBy(keys: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const r of this.readersDirect(keys)) {
      for (const b of this.forward.get(r) ?? []) if (b.startsWith('b:')) out.add(b);
    }
    return out;
  }

  /** The readers that read one of `keys` themselves (not through a query's answer). */
  readersDirect(keys: Iterable<string>): Set<string> {
    const out = new Set<string>();
    for (const k of keys) for (const r of this.reverse.get(k) ?? []) out.add(r);
    return out;
  }

  /**
   * Every reader that read one of `keys`, or read the answer of a query that did, and so on: the
   * readers whose results may change when the things named by `keys` change.
   */
  readersOf(keys: Iterable<string>): Set<string> {
    const out = new Set<string>();
    const queue = [...keys];
    while (queue.length) {
      const k = queue.pop()!;
      const readers = this.reverse.get(k);
      if (!readers) continue;
      for (const r of readers) {
        if (out.has(r)) continue;
        out.add(r);
        // A query's answer is read under the query's own key.
        if (r.startsWith('q')) queue.push(r);
      }
    }
    return out;
  }
}
