/** A file's facts reduced to what is read of a file outside the build. */
import type { FileFacts } from './facts.js';

// One frozen empty list stands for every body left out (a push into it throws).
const NO_BODY = Object.freeze([]) as unknown as never[];

/**
 * What resolution reads of a file outside the build (another GOOS or GOARCH, a test file): its
 * declarations, for symbols and build variants, and not its function bodies, which only active files'
 * functions are resolved from. In the whole tree a third of the Go bytes are in such files.
 */
export function declarationsOnly(facts: FileFacts): FileFacts {
  return {
    ...facts,
    funcs: facts.funcs.map((f) => ({ ...f, binds: NO_BODY, calls: NO_BODY, refs: NO_BODY, assigns: NO_BODY, returns: NO_BODY, chans: NO_BODY, selects: NO_BODY })),
  };
}
