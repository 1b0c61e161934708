/**
 * What a kept resolution says may have changed since its last graph (GraphChanges) must hold all that
 * did, by identity, as the graph's writers compare: the session tests check every update with this.
 */
import assert from 'node:assert/strict';
import type { Graph, GraphChanges } from '../../src/model/index.js';

export function assertChangesHold(graph: Graph, changes: GraphChanges | undefined, last: Graph, what: string): void {
  assert.ok(changes, `${what}: the update says what may have changed`);
  assert.equal(changes.since, last);
  const diff = <T>(a: readonly T[], b: readonly T[]) => a.filter((x) => !new Set(b).has(x));
  for (const e of diff(graph.edges, last.edges)) assert.ok(changes.callers.has(e.caller), `${what}: a new edge of ${e.caller}`);
  for (const e of diff(last.edges, graph.edges)) assert.ok(changes.callers.has(e.caller) && changes.into.has(e.callee), `${what}: a dropped edge ${e.caller} -> ${e.callee}`);
  for (const r of [...diff(graph.symbols, last.symbols), ...diff(last.symbols, graph.symbols)]) assert.ok(changes.records.has(r.id), `${what}: the record of ${r.id}`);
}
