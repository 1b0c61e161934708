/**
 * A kept resolution's updates rehearsed before a watch's first edit asks for one. A watch that found
 * its graph stored makes its resolution from scratch at warm-up (see warmIndex): that runs the code of
 * a whole resolution, but none of an update's (planning, resolving the few functions an edit names,
 * moving the lines of the ones it moved, collecting the graph again, making the deltas of the graph
 * file and the store). The first edits then ran that code before V8 had compiled it, and each new
 * kind of object it met threw compiled code away again: on v1.28, a call added to a `Kubelet` method
 * took 250-330 ms in one process, the second edit 200-300 ms, the fifth and later 100-150 ms.
 *
 * The rehearsal edits one file in memory, never on disk, as a watch's edits go: a function appended,
 * the file as it is again, a call put first in its first function body (that function changes, every
 * one below it moves), the file as it is again; each text's facts made as an edit's are. The session
 * takes each, and the caller does with each graph what a build does before writing it, and throws it
 * away. The session ends resolving the program it had.
 */
import type { FileFacts } from '../parse/index.js';
import type { Graph, GraphChanges } from '../model/index.js';
import type { ResolveMeta, ResolveSession } from '../resolve/index.js';

/** The session took every edit and its undoing, with the graph it ends with; or what went wrong, and whether the session may be left resolving an edited file. */
export type Rehearsal = { graph: Graph; updates: number } | { failed: string; spoiled: boolean };

export interface RehearsalHooks {
  /** The facts of the file with this text, made as a build makes an edited file's. */
  extract(text: string): FileFacts;
  /** What a build does with an update's graph before it writes it (the result is not kept). */
  written(graph: Graph, changes: GraphChanges | undefined): void;
}

/** The name the rehearsal's call and function take (what they are named does not matter: nothing is written). */
const NAME = 'kubeletAtlasRehearsal';

/**
 * Rehearses `rounds` times `session`'s updates on the file whose text is `text` (whose facts the
 * session has). `last` is the session's last graph: the graph each return to the file as it is must
 * give again, as far as its counts tell.
 */
export function rehearse(session: ResolveSession, text: string, meta: ResolveMeta, last: Graph, hooks: RehearsalHooks, rounds: number): Rehearsal {
  let graph = last;
  let updates = 0;
  const edits = rehearsalEdits(text);
  for (let round = 0; round < rounds; round++) {
    for (const edited of edits) {
      for (const now of [edited, text]) {
        const back = now === text;
        let facts: FileFacts;
        try {
          facts = hooks.extract(now);
        } catch (err) {
          return { failed: (err as Error).message, spoiled: back };
        }
        // As the watch does between edits (see ResolveSession.prepare), so that its updates are the ones rehearsed.
        session.prepare();
        const update = session.update([facts], meta);
        if ('refused' in update) return { failed: update.refused, spoiled: back };
        updates++;
        hooks.written(update.graph, update.changes);
        if (back && !sameCounts(update.graph, last)) return { failed: 'the graph after the file was given back differs from the one before the edit', spoiled: true };
        graph = update.graph;
      }
    }
  }
  return { graph, updates };
}

/**
 * The file's text with a function appended, and with a call put first in its first function with a
 * body of several lines. In that order: an edit that adds or removes a function orders the functions
 * anew, and the map of their places is made again when an edit moves many (see rankIn in the
 * session); after the call's edit and its undoing the session keeps the map it made for them.
 */
export function rehearsalEdits(text: string): string[] {
  const out = [`${text}\nfunc ${NAME}() {}\n`];
  const body = /^func [^\n]*\{\n/m.exec(text);
  if (body) {
    const at = body.index + body[0].length;
    out.push(`${text.slice(0, at)}\t${NAME}()\n${text.slice(at)}`);
  }
  return out;
}

function sameCounts(a: Graph, b: Graph): boolean {
  return a.edges.length === b.edges.length && a.symbols.length === b.symbols.length && a.unresolved.length === b.unresolved.length && a.goroutines.length === b.goroutines.length && a.channels.length === b.channels.length;
}
