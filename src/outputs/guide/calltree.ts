/**
 * The call tree under a topic's entry symbols, cut to a readable size: a depth, a width per node and a
 * total node budget. Each symbol is expanded once; later visits are marked `repeated`. Rendered as a
 * mermaid flowchart and as nested lists of links.
 */
import type { BlockContent, ListItem, PhrasingContent } from 'mdast';
import type { GraphView } from '../../graph/index.js';
import type { Edge, SymbolRecord } from '../../model/index.js';
import { edgeLabel, shortId, shown, symbolLink } from './symbols.js';
import { code, icode, item, link, list, para, text, type Inline } from './md.js';

export interface TreeLimits {
  depth: number;
  width: number;
  /** Upper bound on expanded nodes over all roots. */
  nodes: number;
}

export interface TreeNode {
  id: string;
  edge?: Edge;
  /** Call sites from the parent to this symbol (the first is `edge`). */
  sites: number;
  children: TreeNode[];
  repeated?: boolean;
  /** Callees cut by the width limit. */
  more: number;
}

export function callTree(view: GraphView, get: (id: string) => SymbolRecord | undefined, roots: readonly string[], limits: TreeLimits): TreeNode[] {
  const seen = new Set<string>(roots);
  let budget = limits.nodes;
  const expand = (node: TreeNode, depth: number): void => {
    if (depth >= limits.depth) return;
    // One child per callee: the first edge is the likeliest (the view sorts by confidence).
    const byCallee = new Map<string, { edge: Edge; sites: number }>();
    for (const e of view.callees(node.id)) {
      if (e.callee === node.id || !shown(e, get) || !get(e.callee)) continue;
      const prev = byCallee.get(e.callee);
      if (prev) prev.sites++;
      else byCallee.set(e.callee, { edge: e, sites: 1 });
    }
    const pkg = get(node.id)?.pkg ?? '';
    const all = [...byCallee.values()].sort((a, b) => rank(a.edge, pkg, get) - rank(b.edge, pkg, get) || a.edge.line - b.edge.line || a.edge.callee.localeCompare(b.edge.callee));
    const kept = all.slice(0, limits.width);
    node.more = all.length - kept.length;
    for (const { edge, sites } of kept) {
      if (budget <= 0) {
        node.more++;
        continue;
      }
      budget--;
      const child: TreeNode = { id: edge.callee, edge, sites, children: [], more: 0 };
      node.children.push(child);
      if (seen.has(edge.callee)) child.repeated = true;
      else seen.add(edge.callee);
    }
    for (const c of node.children) if (!c.repeated) expand(c, depth + 1);
  };
  return roots.map((id) => {
    const root: TreeNode = { id, sites: 0, children: [], more: 0 };
    expand(root, 0);
    return root;
  });
}

/**
 * Which callees a reader wants first: likely targets before interface candidates, then the caller's own
 * package, then the kubelet's, then the rest; logging and metrics last. Ties keep call order.
 */
function rank(e: Edge, callerPkg: string, get: (id: string) => SymbolRecord | undefined): number {
  const pkg = get(e.callee)?.pkg ?? '';
  const likely = e.confidence >= 1 ? 0 : e.confidence >= 0.5 ? 10 : 20;
  let place = 3;
  if (/(^|\/)(klog|metrics|featuregate|trace)(\/|$)/.test(pkg)) place = 4;
  else if (pkg === callerPkg) place = 0;
  else if (/^k8s\.io\/kubernetes\/(pkg\/kubelet|cmd\/kubelet)(\/|$)/.test(pkg)) place = 1;
  else if (pkg.startsWith('k8s.io/')) place = 2;
  return likely + place;
}

/** A mermaid flowchart; a symbol reached twice is one node with two arrows. */
export function mermaid(trees: readonly TreeNode[], get: (id: string) => SymbolRecord | undefined) {
  const ids = new Map<string, string>();
  const lines = ['flowchart LR'];
  const nodeRef = (id: string): string => {
    let n = ids.get(id);
    if (n) return n;
    n = `n${ids.size}`;
    ids.set(id, n);
    lines.push(`  ${n}["${label(shortId(id, get(id)?.pkg))}"]`);
    return n;
  };
  let moreCount = 0;
  const walk = (t: TreeNode) => {
    const from = nodeRef(t.id);
    for (const c of t.children) {
      const to = nodeRef(c.id);
      const l = c.edge ? edgeLabel(c.edge) : '';
      lines.push(l ? `  ${from} -->|${l}| ${to}` : `  ${from} --> ${to}`);
    }
    if (t.more > 0) {
      const m = `more${moreCount++}`;
      lines.push(`  ${m}["… ${t.more} more"]`, `  ${from} -.-> ${m}`);
    }
    for (const c of t.children) if (!c.repeated) walk(c);
  };
  trees.forEach(walk);
  const entries = trees.map((t) => ids.get(t.id)).filter(Boolean).join(',');
  if (entries) lines.push('  classDef entry font-weight:bold', `  class ${entries} entry`);
  return code('mermaid', lines.join('\n'));
}

function label(s: string): string {
  return s.replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

/** Nested lists: each symbol a link to its permalink, with how and where it is called. */
export function treeList(trees: readonly TreeNode[], get: (id: string) => SymbolRecord | undefined, version: string, moreText: (n: number) => string) {
  const render = (t: TreeNode): ListItem => {
    const s = get(t.id);
    const name = shortId(t.id, s?.pkg);
    const head: Inline[] = [s ? link(symbolLink(version, s), icode(name)) : icode(name)];
    if (t.edge) head.push(...how(t));
    const blocks: BlockContent[] = [para(...head)];
    const kids = t.children.map(render);
    if (t.more > 0) kids.push(item(para(text(moreText(t.more)))));
    if (kids.length) blocks.push(list(kids));
    return item(...blocks);
  };
  return list(trees.map(render));
}

function how(t: TreeNode): PhrasingContent[] {
  const e = t.edge!;
  const l = edgeLabel(e);
  const parts = [l, `${e.file.slice(e.file.lastIndexOf('/') + 1)}:${e.line}`];
  if (t.sites > 1) parts.push(`${t.sites} sites`);
  if (e.confidence < 1) parts.push(`candidate ${e.confidence.toFixed(2)}`);
  const tail = ` (${parts.filter(Boolean).join(', ')})${t.repeated ? ' ↑' : ''}`;
  return [text(tail)];
}
