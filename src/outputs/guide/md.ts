/** Small mdast builders and the one serializer every guide and tour description goes through. */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import remarkGfm from 'remark-gfm';
import type { BlockContent, Code, Heading, Link, List, ListItem, Paragraph, PhrasingContent, Root, RootContent } from 'mdast';

export type Inline = PhrasingContent | string;

const processor = unified().use(remarkGfm).use(remarkStringify, { bullet: '-', listItemIndent: 'one', rule: '-', fences: true });

export function stringify(root: Root): string {
  return processor.stringify(root);
}

/** Markdown written by a person (a note body) as nodes, its headings pushed below `minDepth`. */
export function parseBlocks(markdown: string, minDepth: number): RootContent[] {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(markdown) as Root;
  return tree.children.map((n) => (n.type === 'heading' ? { ...n, depth: Math.min(6, n.depth + minDepth - 1) as Heading['depth'] } : n));
}

const inline = (c: Inline): PhrasingContent => (typeof c === 'string' ? { type: 'text', value: c } : c);

export const text = (value: string): PhrasingContent => ({ type: 'text', value });
export const icode = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
export const strong = (...c: Inline[]): PhrasingContent => ({ type: 'strong', children: c.map(inline) });
export const emph = (...c: Inline[]): PhrasingContent => ({ type: 'emphasis', children: c.map(inline) });
export const link = (url: string, ...c: Inline[]): Link => ({ type: 'link', url, children: c.map(inline) });

export function heading(depth: number, ...c: Inline[]): Heading {
  return { type: 'heading', depth: Math.min(6, Math.max(1, depth)) as Heading['depth'], children: c.map(inline) };
}

export function para(...c: Inline[]): Paragraph {
  return { type: 'paragraph', children: c.map(inline) };
}

export function code(lang: string, value: string): Code {
  return { type: 'code', lang, value };
}

export function item(...children: BlockContent[]): ListItem {
  return { type: 'listItem', spread: false, children };
}

export function list(items: ListItem[], ordered = false): List {
  return { type: 'list', ordered, spread: false, children: items };
}

export function quote(...children: BlockContent[]): BlockContent {
  return { type: 'blockquote', children };
}
