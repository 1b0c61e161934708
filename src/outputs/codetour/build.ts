/**
 * CodeTour (`.tour`) files for VS Code: a tour topic's steps in order, and each topic's anchored key
 * functions. Lines come from the index at export time, so a tour follows the code it is opened on.
 */
import type { Root, RootContent } from 'mdast';
import type { SymbolRecord } from '../../model/index.js';
import type { Section, Topic } from '../../annotations/index.js';
import { plainAnchors, stringify } from '../guide/index.js';

export const CODETOUR_SCHEMA = 'https://aka.ms/codetour-schema';

export interface CodeTourStep {
  file: string;
  line: number;
  title: string;
  description: string;
}

export interface CodeTour {
  $schema: string;
  title: string;
  description: string;
  ref: string;
  isPrimary?: boolean;
  steps: CodeTourStep[];
}

export interface TourFile {
  /** File name inside the output folder. */
  name: string;
  tour: CodeTour;
  /** Anchors that did not resolve, so have no step. */
  skipped: string[];
}

export type Resolve = (written: string) => SymbolRecord | undefined;

export function buildTours(topic: Topic, resolve: Resolve): TourFile[] {
  const out: TourFile[] = [];
  const title = topic.title.replace(/^"|"$/g, '');
  const prefix = String(topic.order).padStart(3, '0');
  const base = { $schema: CODETOUR_SCHEMA, ref: topic.version || 'master' };
  if (topic.tour.length) {
    const skipped: string[] = [];
    const steps = topic.tour.flatMap((st) => step(resolve, st.symbol, skipped, `${st.index}. ${st.symbol}`, st.content.children as RootContent[]));
    out.push({ name: `${topic.id}.tour`, skipped, tour: { ...base, title: `${prefix} ${title}`, description: topic.summary, isPrimary: true, steps } });
  }
  const keys = keyFunctions(topic.sections);
  if (keys.length) {
    const skipped: string[] = [];
    const steps = keys.flatMap(({ section, symbol }) => step(resolve, symbol, skipped, section.heading.replace(/`@?([^`]*)`/g, '$1'), ownContent(section)));
    const name = topic.tour.length ? `${topic.id}-key-functions.tour` : `${topic.id}.tour`;
    const t = topic.tour.length ? `${prefix} ${title}: key functions` : `${prefix} ${title}`;
    out.push({ name, skipped, tour: { ...base, title: t, description: topic.summary, steps } });
  }
  return out;
}

function step(resolve: Resolve, symbol: string, skipped: string[], title: string, content: RootContent[]): CodeTourStep[] {
  const s = resolve(symbol);
  if (!s) {
    skipped.push(symbol);
    return [];
  }
  const root: Root = { type: 'root', children: plainAnchors(content) };
  return [{ file: s.file, line: s.line, title, description: stringify(root).trim() }];
}

/** `###` sections under the Key functions H2 with an anchor in the heading, in document order. */
function keyFunctions(sections: readonly Section[]): { section: Section; symbol: string }[] {
  const out: { section: Section; symbol: string }[] = [];
  let inKey = false;
  for (const s of sections) {
    if (s.depth === 2) inKey = s.key === 'key';
    else if (inKey && s.depth === 3 && s.anchors.length) out.push({ section: s, symbol: s.anchors[0] });
  }
  return out;
}

function ownContent(s: Section): RootContent[] {
  const nodes = s.content.children;
  const cut = nodes.findIndex((n) => n.type === 'heading');
  return cut < 0 ? nodes : nodes.slice(0, cut);
}

/** The file's text: stable key order as built, two-space indent, final newline. */
export function formatTour(tour: CodeTour): string {
  return JSON.stringify(tour, null, 2) + '\n';
}
