/**
 * The page frame shared by every page. Pages below the root set `<base href="../">`, so every link the
 * site writes (and every link inside the data files) is relative to the site root.
 */
import { escapeHtml } from './html.js';

export interface PageOptions {
  title: string;
  /** Folders below the site root. */
  depth: number;
  body: string;
  /** Extra scripts (root-relative), loaded after the site script. */
  scripts?: string[];
  bodyAttrs?: Record<string, string>;
  /** The page's own path, for the skip link (with <base>, `#main` alone would point at the root). */
  self: string;
}

export function page(o: PageOptions): string {
  const base = o.depth > 0 ? `<base href="${'../'.repeat(o.depth)}">` : '';
  const attrs = Object.entries(o.bodyAttrs ?? {}).map(([k, v]) => ` ${k}="${escapeHtml(v)}"`).join('');
  const scripts = ['assets/site.js', ...(o.scripts ?? [])].map((s) => `<script src="${escapeHtml(s)}" defer></script>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${base}<title>${escapeHtml(o.title)} · kubelet atlas</title><link rel="stylesheet" href="assets/site.css">${scripts}</head>
<body${attrs}><a class="skip" href="${escapeHtml(o.self)}#content">Skip to content</a>
<header class="top"><a class="brand" href="index.html">kubelet atlas</a>
<nav aria-label="Site"><a href="topics.html">Topics</a> <a href="packages.html">Packages</a> <a href="unresolved.html">Unresolved</a></nav>
<div class="search" role="search"><label for="q" class="sr">Search symbols and prose</label><input id="q" type="search" placeholder="Search (press /)" autocomplete="off" aria-controls="results" aria-expanded="false"><ol id="results" role="listbox" aria-label="Search results" hidden></ol></div>
</header>
<main id="content" tabindex="-1">
${o.body}
</main>
<footer>Built from Kubernetes sources with kubelet-atlas. Prose and ports are this project's own.</footer>
</body></html>
`;
}
