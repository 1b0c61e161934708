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
 * one below it moves), the file as it is again; each text's facts made as an edit's are. Then a file
 * comes to that file's package (a type, its method and a constructor that calls it) and goes again:
 * an update with files that come or go runs code of its own (a slot in the symbol list, the created
 * types, the order of functions, the packages' files), which the first file added to a watch ran
 * before V8 had compiled it (on v1.28 the first file added took 109-126 ms of its build, the third
 * 71-81 ms). The session takes each, and the caller does with each graph what a build does before
 * writing it, and throws it away. The session ends resolving the program it had.
 */
import type { FileFacts } from '../parse/index.js';
import type { Graph, GraphChanges } from '../model/index.js';
import type { FilesChange, ResolveMeta, ResolveSession } from '../resolve/index.js';

/**
 * The session took every edit and its undoing, with the graph it ends with (`skipped`: why no file
 * came and went, when the session refused it); or what went wrong, and whether the session may be
 * left resolving an edited file or with a file that came.
 */
export type Rehearsal = { graph: Graph; updates: number; skipped?: string } | { failed: string; spoiled: boolean };

/** The file the rehearsal edits, and the file that comes to its package and goes (where it would be among the package's files: see FilesChange). */
export interface RehearsalTarget {
  path: string;
  text: string;
  sibling?: FilesChange['came'][number];
}

export interface RehearsalHooks {
  /** The facts of the file at `path` with this text, made as a build makes an edited file's. */
  extract(text: string, path: string): FileFacts;
  /** What a build does with an update's graph before it writes it (the result is not kept). */
  written(graph: Graph, changes: GraphChanges | undefined): void;
}

/** The name the rehearsal's call and function take (what they are named does not matter: nothing is written). */
const NAME = 'kubeletAtlasRehearsal';

/**
 * Rehearses `rounds` times `session`'s updates on the file `target` (whose facts the session has),
 * then `rounds` times its sibling's coming and going. `last` is the session's last graph: the graph
 * each return to the file as it is, and each going of the sibling, must give again, as far as its
 * counts tell.
 */
export function rehearse(session: ResolveSession, target: RehearsalTarget, meta: ResolveMeta, last: Graph, hooks: RehearsalHooks, rounds: number): Rehearsal {
  const { path, text, sibling } = target;
  let graph = last;
  let updates = 0;
  /** The session's update for these facts and files; the graph it gives must be the last one again when `back`. */
  const step = (facts: () => FileFacts[], files: FilesChange | undefined, back: boolean): string | undefined => {
    let changed: FileFacts[];
    try {
      changed = facts();
    } catch (err) {
      return (err as Error).message;
    }
    // As the watch does between edits (see ResolveSession.prepare), so that its updates are the ones rehearsed.
    session.prepare();
    const update = session.update(changed, meta, files);
    if ('refused' in update) return update.refused;
    updates++;
    hooks.written(update.graph, update.changes);
    if (back && !sameCounts(update.graph, last)) return 'the graph after the file was given back differs from the one before the edit';
    graph = update.graph;
    return undefined;
  };
  const edits = rehearsalEdits(text);
  for (let round = 0; round < rounds; round++) {
    for (const edited of edits) {
      for (const now of [edited, text]) {
        const back = now === text;
        const failed = step(() => [hooks.extract(now, path)], undefined, back);
        if (failed) return { failed, spoiled: back };
      }
    }
  }
  const pkg = session.factsOf(path)?.pkg;
  if (!sibling || pkg === undefined) return { graph, updates };
  for (let round = 0; round < rounds; round++) {
    const failed = step(() => [hooks.extract(siblingText(pkg), sibling.path)], { came: [sibling], went: [] }, false);
    // A file the session does not take (its package's initializer, say): the session is as it was.
    if (failed) return round === 0 ? { graph, updates, skipped: failed } : { failed, spoiled: false };
    const gone = step(() => [], { came: [], went: [sibling.path] }, true);
    if (gone) return { failed: gone, spoiled: true };
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

/** The text of the file that comes to package `pkg` and goes: a type, its method, and a constructor that calls it. */
export function siblingText(pkg: string): string {
  const t = `${NAME}Type`;
  return `package ${pkg}\n\ntype ${t} struct{ n int }\n\nfunc (x *${t}) ${NAME}() int { return x.n }\n\nfunc new${t}() *${t} {\n\tx := &${t}{}\n\tx.${NAME}()\n\treturn x\n}\n`;
}

function sameCounts(a: Graph, b: Graph): boolean {
  return a.edges.length === b.edges.length && a.symbols.length === b.symbols.length && a.unresolved.length === b.unresolved.length && a.goroutines.length === b.goroutines.length && a.channels.length === b.channels.length;
}
