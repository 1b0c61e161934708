/**
 * Markdown → safe HTML: remark-rehype drops raw HTML, rehype-sanitize (GitHub's schema) then removes
 * anything still unsafe (event handlers, `javascript:` URLs). `@symbol` code spans become links.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import rehypeSanitize from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import type { Root, RootContent, Parent, PhrasingContent } from 'mdast';

/** Resolves an anchor as written (without `@`) to a link, or undefined when it names nothing known. */
export type AnchorHref = (symbol: string) => string | undefined;

const toHtml = unified().use(remarkRehype).use(rehypeSanitize).use(rehypeStringify);
const parser = unified().use(remarkParse).use(remarkGfm);

export function mdastToHtml(root: Root, href?: AnchorHref): string {
  const copy = structuredClone(root);
  if (href) linkAnchors(copy, href);
  const hast = toHtml.runSync(copy);
  return toHtml.stringify(hast);
}

export function markdownToHtml(text: string, href?: AnchorHref): string {
  return mdastToHtml(parser.parse(text), href);
}

export function mdRoot(children: RootContent[]): Root {
  return { type: 'root', children };
}

function linkAnchors(node: Parent, href: AnchorHref): void {
  node.children.forEach((child, i) => {
    if (child.type === 'inlineCode' && child.value.startsWith('@')) {
      const url = href(child.value.slice(1));
      if (url) {
        const link: PhrasingContent = { type: 'link', url, children: [{ type: 'inlineCode', value: child.value.slice(1) }] };
        (node.children as RootContent[])[i] = link;
      }
      return;
    }
    if ('children' in child && child.type !== 'link') linkAnchors(child as Parent, href);
  });
}
