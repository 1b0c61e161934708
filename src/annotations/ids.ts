/** Pieces of pprof-style symbol IDs (`k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist`). */

/** The last name: `Relist`, `func1`, `GenericPLEG`. */
export function nameOf(id: string): string {
  return /([^./()*]+)$/.exec(id)?.[1] ?? id;
}

/** The package part: everything before the first dot after the last slash. */
export function pkgPath(id: string): string {
  const paren = id.indexOf('(');
  const slash = id.lastIndexOf('/', paren < 0 ? id.length : paren);
  const dot = id.indexOf('.', slash + 1);
  return dot < 0 ? id : id.slice(0, dot);
}
