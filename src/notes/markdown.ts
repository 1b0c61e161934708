/** Small mdast builders and the one serializer (remark-stringify with GFM tables) that notes and diffs share. */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import remarkGfm from 'remark-gfm';
import type { BlockContent, Heading, List, ListItem, Paragraph, PhrasingContent, Root, RootContent, Table, TableCell, TableRow } from 'mdast';

export function toMarkdown(root: Root): string {
  return unified().use(remarkGfm).use(remarkStringify, { bullet: '-', listItemIndent: 'one', rule: '-' }).stringify(root);
}

/** Parses Markdown written by a person, with its headings pushed below `minDepth` so they nest. */
export function fromMarkdown(text: string, minDepth = 1): RootContent[] {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(text) as Root;
  const shift = Math.max(0, minDepth - 1);
  const fix = (n: RootContent): RootContent => {
    if (n.type === 'heading') return { ...n, depth: Math.min(6, n.depth + shift) as Heading['depth'] };
    return n;
  };
  return tree.children.map(fix);
}

export const text = (value: string): PhrasingContent => ({ type: 'text', value });
export const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
export const strong = (value: string): PhrasingContent => ({ type: 'strong', children: [text(value)] });

export function heading(depth: Heading['depth'], ...children: (PhrasingContent | string)[]): Heading {
  return { type: 'heading', depth, children: children.map((c) => (typeof c === 'string' ? text(c) : c)) };
}

export function para(...children: (PhrasingContent | string)[]): Paragraph {
  return { type: 'paragraph', children: children.map((c) => (typeof c === 'string' ? text(c) : c)) };
}

export function list(items: (PhrasingContent | string)[][] | BlockContent[][], ordered = false): List {
  const children: ListItem[] = items.map((item) => {
    const blocks = (item as unknown[]).length && isBlock((item as unknown[])[0])
      ? (item as BlockContent[])
      : [para(...(item as (PhrasingContent | string)[]))];
    return { type: 'listItem', spread: false, children: blocks };
  });
  return { type: 'list', ordered, spread: false, children };
}

function isBlock(x: unknown): x is BlockContent {
  return typeof x === 'object' && x !== null && ['paragraph', 'list', 'blockquote', 'code', 'table', 'heading'].includes((x as { type: string }).type);
}

/** A GFM table; cells are plain strings or phrasing nodes. `align` is per column. */
export function table(head: string[], rows: (string | number | PhrasingContent)[][], align?: ('left' | 'right' | null)[]): Table {
  const cell = (c: string | number | PhrasingContent): TableCell => ({
    type: 'tableCell',
    children: [typeof c === 'object' ? c : text(String(c))],
  });
  const row = (cells: (string | number | PhrasingContent)[]): TableRow => ({ type: 'tableRow', children: cells.map(cell) });
  return { type: 'table', align: align ?? head.map(() => null), children: [row(head), ...rows.map(row)] };
}
