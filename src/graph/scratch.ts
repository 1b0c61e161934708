/**
 * Memory that the graph's encoders take back from one encode to the next, in a process that encodes
 * again and again (the watch), instead of allocating it anew.
 *
 * Every typed array and Buffer lives outside V8's heap, and V8 starts a full collection of the heap
 * once 64 MB of such memory was allocated since the last one ("Start (external memory pressure)" under
 * --trace-incremental-marking). On v1.28's default scope, the encodes after an edit (packGraph,
 * encodePacked, encodeStoreParts) allocated about 100 MB of it, so every edit in the watch paid a full
 * collection of the 0.6 GB heap the kept resolution holds: pauses of 200-330 ms.
 *
 * An encoder asked to recycle takes its large arrays from named slots here. A slot hands out the same
 * memory at the next encode, so the caller must be done with what the last encode returned before it
 * encodes again (the build writes the parts and drops them). What an encoder keeps for the next
 * encode (see textRuns) is not in a slot: it is given back as the spare of the encode after.
 */
import type { Words, WordsType } from './sections.js';

const slots = new Map<string, ArrayBuffer>();

/**
 * `n` elements of `Type`: new ones (zeros), or with `recycle` a view of slot `slot`'s memory (grown
 * when too small) holding whatever the last encode left there.
 */
export function scratch<T extends Words>(Type: WordsType<T>, slot: string, n: number, recycle: boolean | undefined): T {
  if (!recycle) return new Type(n);
  const bytes = n * Type.BYTES_PER_ELEMENT;
  let buf = slots.get(slot);
  if (!buf || buf.byteLength < bytes) {
    // An eighth more than asked: an edit that adds a few edges or strings does not grow the slot again.
    buf = new ArrayBuffer(bytes + (bytes >> 3));
    slots.set(slot, buf);
  }
  return new Type(buf, 0, n);
}

/** scratch, zeroed. */
export function zeroed<T extends Words>(Type: WordsType<T>, slot: string, n: number, recycle: boolean | undefined): T {
  const a = scratch(Type, slot, n, recycle);
  if (recycle) a.fill(0);
  return a;
}
