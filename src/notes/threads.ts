/** Replies nest under the note they answer; a reply whose parent is not in the set starts its own thread. */
import type { Note, Thread } from './types.js';

export function buildThreads(notes: readonly Note[]): Thread[] {
  const sorted = [...notes].sort((a, b) => a.id.localeCompare(b.id));
  const byId = new Map(sorted.map((n) => [n.id, { note: n, replies: [] as Thread[] }]));
  const roots: Thread[] = [];
  for (const t of byId.values()) {
    const parent = t.note.replyTo ? byId.get(t.note.replyTo) : undefined;
    if (parent) parent.replies.push(t);
    else roots.push(t);
  }
  // A hand-edited cycle (a answers b answers a) has no root; show its members at the top instead of losing them.
  const seen = new Set<string>();
  const walk = (t: Thread) => {
    if (seen.has(t.note.id)) return;
    seen.add(t.note.id);
    t.replies.forEach(walk);
  };
  roots.forEach(walk);
  for (const t of byId.values()) {
    if (seen.has(t.note.id)) continue;
    t.replies = t.replies.filter((r) => !isAncestor(r, t));
    roots.push(t);
    walk(t);
  }
  return roots.sort((a, b) => a.note.id.localeCompare(b.note.id));
}

function isAncestor(candidate: Thread, of: Thread, depth = 0): boolean {
  if (depth > 1000) return true;
  return candidate.replies.some((r) => r === of || isAncestor(r, of, depth + 1));
}

/** Every note of a thread, depth first, with its depth. */
export function flatten(threads: readonly Thread[]): { note: Note; depth: number }[] {
  const out: { note: Note; depth: number }[] = [];
  const seen = new Set<string>();
  const walk = (t: Thread, depth: number) => {
    if (seen.has(t.note.id)) return;
    seen.add(t.note.id);
    out.push({ note: t.note, depth });
    for (const r of t.replies) walk(r, depth + 1);
  };
  for (const t of threads) walk(t, 0);
  return out;
}

/** `k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist` → `pleg.(*GenericPLEG).Relist`. */
export function shortId(id: string): string {
  const paren = id.indexOf('(');
  const slash = id.lastIndexOf('/', paren < 0 ? id.length : paren);
  return slash < 0 ? id : id.slice(slash + 1);
}
