/**
 * One topic → one guide, as an mdast tree. Generated parts (where it sits, the call tree) come first;
 * then the topic's own sections in its order, each anchored key function followed by its Go source
 * and its reference port; then the study-group notes. Pure: every input is passed in.
 */
import type { BlockContent, Root, RootContent } from 'mdast';
import type { Graph, SymbolRecord } from '../../model/index.js';
import type { GraphView } from '../../graph/index.js';
import type { ReadSource, Section, SymbolStatus, Topic, TourStep } from '../../annotations/index.js';
import type { Note } from '../../notes/index.js';
import { labelsFor, type Labels } from './labels.js';
import { emph, heading, icode, item, link, list, para, parseBlocks, quote, strong, text, type Inline } from './md.js';
import { linkAnchors, type Resolve } from './prose.js';
import { callTree, mermaid, treeList, type TreeLimits } from './calltree.js';
import { goExcerpt, portBlocks, type PortCode } from './excerpt.js';
import { edgeLabel, isFake, shortId, shown, symbolLink } from './symbols.js';

export interface GuideLimits {
  diagram: TreeLimits;
  tree: TreeLimits;
  excerptLines: number;
  callers: number;
  goroutines: number;
}

export const DEFAULT_LIMITS: GuideLimits = {
  diagram: { depth: 2, width: 8, nodes: 40 },
  tree: { depth: 3, width: 12, nodes: 150 },
  excerptLines: 60,
  callers: 8,
  goroutines: 12,
};

export interface GuideInput {
  /** The topic in the language written (a translation, or the original as a fallback). */
  topic: Topic;
  /** Set when the requested language had no translation and the original is used. */
  fallbackFrom?: string;
  graph: Graph;
  view: GraphView;
  get: (id: string) => SymbolRecord | undefined;
  resolve: Resolve;
  readSource: ReadSource;
  ports: (goId: string) => PortCode[];
  notes: readonly Note[];
  /** Statuses of the topic's locked symbols that are not fresh. */
  drift: readonly SymbolStatus[];
  limits?: GuideLimits;
}

export function buildGuide(input: GuideInput): Root {
  const { topic } = input;
  const limits = input.limits ?? DEFAULT_LIMITS;
  const l = labelsFor(input.fallbackFrom ?? topic.lang);
  const version = topic.version || 'master';
  const out: RootContent[] = [heading(1, ...titleOf(topic))];
  if (topic.summary) out.push(para(emph(topic.summary)));
  if (input.fallbackFrom) out.push(quote(para(text(l.fallback(input.fallbackFrom)))));
  if (input.drift.length) out.push(...driftNotice(input.drift, version, l, input.get));
  out.push(...linkAnchors(topic.intro.children, input.resolve, version));

  const entries = uniq(topic.entry.map((a) => input.resolve(a.symbol)?.id).filter((x): x is string => !!x));
  const anchored = uniq(topic.anchors.map((a) => input.resolve(a.symbol)?.id).filter((x): x is string => !!x));
  out.push(...whereItSits(input, entries, anchored, version, limits, l));
  out.push(...callTreeSection(input, entries, version, limits, l));

  const sections = topic.sections;
  for (let i = 0; i < sections.length; i++) {
    const s = sections[i];
    out.push(heading(s.depth, ...linkAnchors([heading(s.depth, ...headingInline(s))], input.resolve, version)[0].children));
    const own = ownContent(s);
    if (s.key === 'tour' && topic.tour.length) {
      out.push(...linkAnchors(own.filter((n) => !(n.type === 'list' && n.ordered)), input.resolve, version));
      for (const step of topic.tour) out.push(...tourStep(input, step, s.depth + 1, version, limits, l));
      continue;
    }
    out.push(...linkAnchors(own, input.resolve, version));
    if (s.depth >= 3) {
      for (const a of uniq(s.anchors)) out.push(...codeFor(input, a, s.depth + 1, version, limits, l));
    }
  }
  out.push(...notesSection(input, anchored, version, l));
  return { type: 'root', children: out };
}

function titleOf(topic: Topic): Inline[] {
  return [topic.title.replace(/^"|"$/g, '')];
}

/** A section's own nodes: those before its first sub-heading (sub-sections come as their own entries). */
function ownContent(s: Section): RootContent[] {
  const nodes = s.content.children;
  const cut = nodes.findIndex((n) => n.type === 'heading');
  return cut < 0 ? nodes : nodes.slice(0, cut);
}

function headingInline(s: Section): Inline[] {
  // The loader keeps the heading as Markdown; parse it back so anchors in it become nodes.
  const parsed = parseBlocks(s.heading, 1)[0];
  return parsed && parsed.type === 'paragraph' ? parsed.children : [s.heading];
}

function uniq<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

function driftNotice(drift: readonly SymbolStatus[], version: string, l: Labels, get: GuideInput['get']): RootContent[] {
  const items = [...drift].sort((a, b) => a.id.localeCompare(b.id)).map((d) =>
    item(para(icode(shortId(d.id, get(d.id)?.pkg)), text(` (${d.class}): ${d.message}`))));
  return [para(strong(l.changed(version))), list(items)];
}

function symLink(s: SymbolRecord | undefined, id: string, version: string) {
  const name = icode(shortId(id, s?.pkg));
  return s ? link(symbolLink(version, s), name) : name;
}

function whereItSits(input: GuideInput, entries: string[], anchored: string[], version: string, limits: GuideLimits, l: Labels): RootContent[] {
  const { get } = input;
  const items: BlockContent[][] = [];
  const pkgs = uniq(entries.map((id) => get(id)?.pkg).filter((p): p is string => !!p)).sort();
  if (pkgs.length) items.push([para(strong(`${l.package}:`), ' ', ...join(pkgs.map((p) => icode(p))))]);
  if (entries.length) {
    items.push([para(strong(`${l.entries}:`)), list(entries.map((id) => {
      const s = get(id);
      return item(para(symLink(s, id, version), ...(s ? [text(` — ${s.file}:${s.line}`)] : [])));
    }))]);
  }
  const ctors = entries.filter((id) => /^New[A-Z]?/.test(get(id)?.name ?? ''));
  items.push([para(strong(`${l.constructor}:`), ' ', ...(ctors.length ? join(ctors.map((id) => symLink(get(id), id, version))) : [text(l.noConstructor)]))]);

  const entrySet = new Set(entries);
  const callerItems = entries.flatMap((id) => {
    const byCaller = new Map<string, (typeof calls)[number]>();
    const calls = input.view.callers(id).filter((e) => shown(e, get) && !entrySet.has(e.caller));
    for (const e of calls) if (!byCaller.has(e.caller)) byCaller.set(e.caller, e);
    const list0 = [...byCaller.values()];
    const keep = list0.slice(0, limits.callers).map((e) => {
      const how = edgeLabel(e);
      return item(para(symLink(get(e.caller), e.caller, version), text(' → '), icode(shortId(id, get(id)?.pkg)), text(` (${how ? how + ', ' : ''}${e.file}:${e.line})`)));
    });
    if (list0.length > keep.length) keep.push(item(para(text(l.more(list0.length - keep.length)))));
    return keep;
  });
  items.push(callerItems.length ? [para(strong(`${l.startedBy}:`)), list(callerItems)] : [para(strong(`${l.startedBy}:`), text(` ${l.noCallers}`))]);

  const targets = new Set(anchored);
  const gs = input.graph.goroutines
    .filter((g) => (targets.has(g.target) || entrySet.has(g.starter)) && !isFake(get(g.starter)) && !isFake(get(g.target)))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.target.localeCompare(b.target));
  if (gs.length) {
    const shownGs = gs.slice(0, limits.goroutines).map((g) => item(para(
      symLink(get(g.starter), g.starter, version), text(' → '), symLink(get(g.target), g.target, version),
      text(` (${[g.via && `via ${g.via}`, g.period && `${l.every} ${g.period}`, `${g.file}:${g.line}`].filter(Boolean).join(', ')})`),
    )));
    if (gs.length > shownGs.length) shownGs.push(item(para(text(l.more(gs.length - shownGs.length)))));
    items.push([para(strong(`${l.goroutines}:`)), list(shownGs)]);
  }
  return [heading(2, l.where), list(items.map((blocks) => item(...blocks)))];
}

function join(xs: Inline[]): Inline[] {
  return xs.flatMap((x, i) => (i ? [', ', x] : [x]));
}

function callTreeSection(input: GuideInput, entries: string[], version: string, limits: GuideLimits, l: Labels): RootContent[] {
  if (!entries.length) return [];
  const diagram = callTree(input.view, input.get, entries, limits.diagram);
  const tree = callTree(input.view, input.get, entries, limits.tree);
  return [
    heading(2, l.callTree),
    para(text(l.callTreeNote(limits.tree.depth, limits.tree.width))),
    mermaid(diagram, input.get),
    treeList(tree, input.get, version, l.more),
  ];
}

function codeFor(input: GuideInput, written: string, depth: number, version: string, limits: GuideLimits, l: Labels): RootContent[] {
  const s = input.resolve(written);
  if (!s) return [];
  return [...goExcerpt(s, input.readSource, version, limits.excerptLines, depth, l), ...portBlocks(input.ports(s.id), limits.excerptLines, depth, l)];
}

function tourStep(input: GuideInput, step: TourStep, depth: number, version: string, limits: GuideLimits, l: Labels): RootContent[] {
  const s = input.resolve(step.symbol);
  const name = icode(step.symbol);
  const title = heading(depth, `${l.step(step.index)} `, s ? link(symbolLink(version, s), name) : name);
  return [title, ...linkAnchors(withoutLeadingAnchor(step.content.children as RootContent[]), input.resolve, version), ...codeFor(input, step.symbol, depth + 1, version, limits, l)];
}

/** A step's text starts with its own anchor, which the step heading already shows. */
function withoutLeadingAnchor(nodes: RootContent[]): RootContent[] {
  const [first, ...rest] = nodes;
  if (first?.type !== 'paragraph' || first.children[0]?.type !== 'inlineCode') return nodes;
  const tail = first.children.slice(1);
  if (tail[0]?.type === 'text') tail[0] = { ...tail[0], value: tail[0].value.replace(/^\s*[—–:-]\s*/, '') };
  const kept = tail.filter((c) => !(c.type === 'text' && c.value === ''));
  return kept.length ? [{ ...first, children: kept }, ...rest] : rest;
}

function notesSection(input: GuideInput, anchored: string[], version: string, l: Labels): RootContent[] {
  const ids = new Set(anchored);
  const notes = input.notes.filter((n) => ids.has(n.anchor.symbol)).sort((a, b) => a.id.localeCompare(b.id));
  if (!notes.length) return [];
  const out: RootContent[] = [heading(2, l.notes)];
  for (const n of notes) {
    const meta = [n.author, n.date.slice(0, 10), n.status, ...(n.replyTo ? [`${l.reply} ${n.replyTo}`] : [])].join(' · ');
    out.push(para(strong(n.kind), text(' · '), symLink(input.get(n.anchor.symbol), n.anchor.symbol, version), text(` · ${meta} · `), icode(n.id)));
    const body = parseBlocks(n.body, 4).filter((b): b is BlockContent => b.type !== 'heading' && b.type !== 'definition' && b.type !== 'footnoteDefinition' && b.type !== 'yaml');
    if (body.length) out.push(quote(...body));
  }
  return out;
}
