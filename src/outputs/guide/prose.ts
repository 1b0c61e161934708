/**
 * Annotation prose as guide nodes: the topic's own mdast, copied, with each `` `@symbol` `` anchor
 * turned into a link to the symbol's permalink (or plain code when it does not resolve).
 */
import type { Nodes, PhrasingContent, RootContent } from 'mdast';
import type { SymbolRecord } from '../../model/index.js';
import { permalink, symbolLink } from './symbols.js';

export type Resolve = (written: string) => SymbolRecord | undefined;

export function linkAnchors<T extends RootContent>(nodes: readonly T[], resolve: Resolve, version: string): T[] {
  return nodes.map((n) => rewrite(structuredClone(n), resolve, version, false) as T);
}

function rewrite(node: Nodes, resolve: Resolve, version: string, inLink: boolean): Nodes {
  delete node.position;
  if (!('children' in node)) return node;
  const here = inLink || node.type === 'link' || node.type === 'linkReference';
  node.children = node.children.map((c) => {
    if (c.type === 'inlineCode' && c.value.startsWith('@') && c.value.length > 1) {
      const written = c.value.slice(1).trim();
      const s = resolve(written);
      const codeNode: PhrasingContent = { type: 'inlineCode', value: written };
      return s && !here ? { type: 'link', url: symbolLink(version, s), children: [codeNode] } : codeNode;
    }
    if (c.type === 'text' && node.type === 'tableCell' && !here) return whereLink(c.value, version) ?? c;
    return rewrite(c, resolve, version, here);
  }) as typeof node.children;
  return node;
}

/** A Defaults "Where" cell such as `pkg/kubelet/kubelet.go:178` becomes a permalink. */
function whereLink(value: string, version: string): PhrasingContent | undefined {
  const m = /^\s*((?:cmd|pkg|staging|vendor)\/[\w./-]+\.go):(\d+)\s*$/.exec(value);
  if (!m) return undefined;
  return { type: 'link', url: permalink(version, m[1], Number(m[2])), children: [{ type: 'text', value: value.trim() }] };
}

/** Anchors as plain code, for places without links (CodeTour step descriptions). */
export function plainAnchors<T extends RootContent>(nodes: readonly T[]): T[] {
  const strip = (node: Nodes): Nodes => {
    delete node.position;
    if (node.type === 'inlineCode' && node.value.startsWith('@')) node.value = node.value.slice(1).trim();
    if ('children' in node) for (const c of node.children) strip(c);
    return node;
  };
  return nodes.map((n) => strip(structuredClone(n)) as T);
}
