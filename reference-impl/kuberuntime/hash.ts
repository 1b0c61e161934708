/**
 * A stable hash of a container spec, recorded on the running container so that a later spec change
 * can be noticed.
 */
import type { Container } from '../api/index.js';

/**
 * FNV-1a (32 bit) over the container's JSON.
 * @go k8s.io/kubernetes/pkg/kubelet/container.HashContainer
 * Simplified: FNV over sorted-key JSON, not Go's spew dump; values differ from a real kubelet's.
 */
export function hashContainer(container: Container): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(canonicalJSON(container))) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** JSON with object keys sorted and undefined fields dropped, so key order never changes the hash. */
function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
