/**
 * Where the parse stage's time goes, summed over the threads that extract (milliseconds of each
 * thread's wall time, so with two threads the sum can be twice the stage's): tree-sitter's own parse,
 * the tree made ready to walk (the addon's: the links between its nodes, one pass; the bindings': a
 * copy of every node as an object; the addon's extraction in C: the flat tree, the declaration query,
 * the links and the tree freed), the walk that makes the facts, encoding them (codec.ts; on the
 * calling thread this also shares their strings), and decoding them into records on the calling
 * thread (a worker's, or the C extraction's there) with their string sharing.
 */
export interface ParseClock {
  treeSitter: number;
  tree: number;
  extract: number;
  encode: number;
  decode: number;
}

export function newClock(): ParseClock {
  return { treeSitter: 0, tree: 0, extract: 0, encode: 0, decode: 0 };
}

/** Runs `fn`, adding its time to `clock[part]` when there is a clock. */
export function timed<T>(clock: ParseClock | undefined, part: keyof ParseClock, fn: () => T): T {
  if (!clock) return fn();
  const t = performance.now();
  try {
    return fn();
  } finally {
    clock[part] += performance.now() - t;
  }
}

/** Adds `from`'s times into `into`. */
export function addClock(into: ParseClock, from: ParseClock): void {
  into.treeSitter += from.treeSitter;
  into.tree += from.tree;
  into.extract += from.extract;
  into.encode += from.encode;
  into.decode += from.decode;
}
