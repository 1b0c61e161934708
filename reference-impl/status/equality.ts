/**
 * Go's apiequality.Semantic.DeepEqual for statuses in JSON shape: a field set to its zero value
 * ("" / 0 / false / empty list) equals the field being absent, as it does for Go structs. Empty
 * objects are kept because they stand for non-nil pointers (`waiting: {}` is a real state), and so
 * is `started: false`, a *bool in Go.
 */

const POINTER_SCALARS = new Set(['started']);

export function prune(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => prune(v) ?? null);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = prune((value as Record<string, unknown>)[k], k);
      if (v !== undefined) out[k] = v;
    }
    return out;
  }
  if (value === undefined || value === null || value === '') return undefined;
  if ((value === 0 || value === false) && !POINTER_SCALARS.has(key)) return undefined;
  return value;
}

/** @go k8s.io/apimachinery/third_party/forked/golang/reflect.Equalities.DeepEqual */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(prune(a) ?? null) === JSON.stringify(prune(b) ?? null);
}
