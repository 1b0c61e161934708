/** Gathers what a guide needs from the engines: drift under a topic's anchors, port code by Go ID. */
import type { AnnotationLock, SymbolStatus, Topic } from '../../annotations/index.js';
import type { PortMapping } from '../../ports/index.js';
import type { PortCode } from './excerpt.js';

/** Statuses that are not fresh, for symbols the topic anchors (by the lock's recorded IDs). */
export function driftFor(topic: Topic, statuses: readonly SymbolStatus[], lock: AnnotationLock | undefined): SymbolStatus[] {
  if (!lock) return [];
  const ids = new Set(topic.anchors.map((a) => (Object.hasOwn(lock.queries, a.symbol) ? lock.queries[a.symbol] : undefined)).filter(Boolean));
  return statuses.filter((s) => s.class !== 'fresh' && ids.has(s.id));
}

/**
 * Go ID → the narrowest port declaration mirroring it. A class carries its members' IDs too, so a
 * method's own mapping is preferred over its class; ties go to the file order.
 */
export function portLookup(mappings: readonly PortMapping[], codeOf: (m: PortMapping) => string): (goId: string) => PortCode[] {
  const best = new Map<string, PortMapping>();
  for (const m of mappings) {
    for (const id of m.goIds) {
      const prev = best.get(id);
      const span = (x: PortMapping) => (x.kind === 'module' ? Number.MAX_SAFE_INTEGER : x.endLine - x.line);
      if (!prev || span(m) < span(prev) || (span(m) === span(prev) && (m.file < prev.file || (m.file === prev.file && m.line < prev.line)))) best.set(id, m);
    }
  }
  const memo = new Map<string, PortCode[]>();
  return (goId) => {
    let r = memo.get(goId);
    if (!r) {
      const m = best.get(goId);
      r = m ? [{ file: m.file, line: m.line, endLine: m.endLine, code: codeOf(m) }] : [];
      memo.set(goId, r);
    }
    return r;
  };
}
