/** `index.md`: the guides as a reading plan, in the topics' `order`. */
import type { Root } from 'mdast';
import type { Topic } from '../../annotations/index.js';
import { labelsFor } from './labels.js';
import { heading, item, link, list, para, text } from './md.js';

export interface PlanEntry {
  topic: Topic;
  /** The guide's file name, relative to index.md. */
  file: string;
}

export function buildPlan(entries: readonly PlanEntry[], lang: string, version: string): Root {
  const l = labelsFor(lang);
  const sorted = [...entries].sort((a, b) => a.topic.order - b.topic.order || a.topic.id.localeCompare(b.topic.id));
  const items = sorted.map(({ topic, file }) => item(para(link(file, text(topic.title.replace(/^"|"$/g, ''))), text(topic.summary ? ` — ${topic.summary}` : ''))));
  return { type: 'root', children: [heading(1, l.planTitle(version)), para(text(l.planIntro)), list(items, true)] };
}
