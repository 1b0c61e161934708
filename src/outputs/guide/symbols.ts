/** How a guide names and links Go symbols: short IDs, GitHub permalinks, and what it leaves out. */
import type { Edge, SymbolRecord } from '../../model/index.js';
import { isRuledOut } from '../../graph/index.js';

export const REPO_URL = 'https://github.com/kubernetes/kubernetes';

/** `k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist` → `pleg.(*GenericPLEG).Relist`. */
export function shortId(id: string, pkg?: string): string {
  if (pkg && id.startsWith(pkg + '.')) return pkg.slice(pkg.lastIndexOf('/') + 1) + id.slice(pkg.length);
  const paren = id.indexOf('(');
  const head = paren < 0 ? id : id.slice(0, paren);
  return id.slice(head.lastIndexOf('/') + 1);
}

export function permalink(version: string, file: string, line?: number, endLine?: number): string {
  const base = `${REPO_URL}/blob/${version}/${file}`;
  if (!line) return base;
  return endLine && endLine > line ? `${base}#L${line}-L${endLine}` : `${base}#L${line}`;
}

export function symbolLink(version: string, s: SymbolRecord): string {
  return permalink(version, s.file, s.line, s.endLine);
}

const FAKE_PKG = /(^|\/)(fake\w*|\w*fake|testing|testutil|testutils)(\/|$)/;

/** Test doubles live in packages named fake or testing; a reader of the kubelet skips them. */
export function isFake(s: SymbolRecord | undefined): boolean {
  if (!s) return false;
  return FAKE_PKG.test(s.pkg) || /(^|\/)fake_[^/]*\.go$/.test(s.file);
}

/** An edge worth showing: not a ruled-out interface candidate, not into a fake. */
export function shown(e: Edge, get: (id: string) => SymbolRecord | undefined): boolean {
  return !isRuledOut(e) && !isFake(get(e.callee)) && !isFake(get(e.caller));
}

/** The label on an arrow: how the call happens, when it is not a plain call. */
export function edgeLabel(e: Pick<Edge, 'kind' | 'mode'>): string {
  const parts: string[] = [];
  if (e.mode === 'go' || e.mode === 'defer' || e.mode === 'ref') parts.push(e.mode);
  if (e.kind === 'interface') parts.push('interface');
  return parts.join(', ');
}
