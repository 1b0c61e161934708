/** The HTML pages that are written whole at build time (symbol views are drawn from data files). */
import type { Graph, SymbolRecord, UnresolvedSite } from '../../model/index.js';
import type { Topic } from '../../annotations/index.js';
import { escapeHtml as h } from './html.js';
import { page } from './layout.js';
import { COMPONENTS, componentEdges } from './components.js';
import { githubUrl, localName, packagePage, slug, symbolHref, topicPage } from './paths.js';
import { markdownToHtml, mdastToHtml, type AnchorHref } from './markdown.js';
import type { SymbolData } from './model.js';

export function homePage(graph: Graph, topics: Topic[], fileOf: (id: string) => string | undefined, nSymbols: number, nPackages: number): string {
  const edges = componentEdges(graph, fileOf);
  const startup = topics.find((t) => t.id === 'startup' && t.lang === 'en') ?? topics.find((t) => t.tour.length > 0);
  const tour = startup ? `<p class="lead"><a class="button" href="${h(topicPage(startup.id, startup.lang))}#step-1">Start the tour: ${h(startup.title)} →</a></p>` : '';
  const body = `<h1>The kubelet, by its call graph</h1>
<p>${nSymbols.toLocaleString('en')} functions, methods and types in ${nPackages.toLocaleString('en')} packages. Each box is a component;
arrows count the calls, goroutine starts and channel hand-offs between them. Open a box for its topic.</p>
${tour}
${componentMap(edges, new Set(topics.map((t) => t.id)))}
<h2>Topics</h2>
${topicList(topics)}`;
  return page({ title: 'Home', depth: 0, body, self: 'index.html' });
}

function componentMap(edges: ReturnType<typeof componentEdges>, topicIds: Set<string>): string {
  const W = 190, H = 46, GX = 250, GY = 92, PAD = 20;
  const pos = new Map(COMPONENTS.map((c) => [c.id, { x: PAD + c.at[0] * GX, y: PAD + c.at[1] * GY }]));
  const width = PAD * 2 + 2 * GX + W;
  const height = PAD * 2 + 5 * GY + H;
  const lines = edges.map((e) => {
    const a = pos.get(e.from)!, b = pos.get(e.to)!;
    // From border to border, so the arrowhead shows outside the target box.
    const [x1, y1, x2, y2] = clip(a.x + W / 2, a.y + H / 2, b.x + W / 2, b.y + H / 2, W / 2 + 2, H / 2 + 2);
    const cls = e.channels > 0 && e.calls === 0 ? 'chan' : e.goroutines > 0 ? 'go' : 'call';
    const title = `${e.from} → ${e.to}: ${e.calls} calls, ${e.goroutines} goroutine starts, ${e.channels} channel links`;
    const weight = Math.min(4, 1 + Math.log10(1 + e.calls + e.goroutines + e.channels));
    return `<line class="${cls}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke-width="${weight.toFixed(1)}" marker-end="url(#arrow)"><title>${h(title)}</title></line>`;
  });
  const boxes = COMPONENTS.map((c) => {
    const p = pos.get(c.id)!;
    const target = topicIds.has(c.topic) ? topicPage(c.topic, 'en') : 'topics.html';
    return `<a href="${h(target)}" class="box"><rect x="${p.x}" y="${p.y}" width="${W}" height="${H}" rx="6"/><text x="${p.x + W / 2}" y="${p.y + H / 2 + 5}" text-anchor="middle">${h(c.label)}</text></a>`;
  });
  const legend = `<ul class="legend"><li><span class="k call"></span>calls</li><li><span class="k go"></span>starts goroutines</li><li><span class="k chan"></span>channel only</li></ul>`;
  const list = edges.map((e) => `<li>${h(label(e.from))} → ${h(label(e.to))}: ${e.calls} calls, ${e.goroutines} goroutines, ${e.channels} channels</li>`).join('');
  return `<figure class="map"><svg viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="map-title"><title id="map-title">Components of the kubelet and the links between them</title>
<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>
<g class="edges">${lines.join('')}</g>${boxes.join('')}</svg>${legend}
<details><summary>The links as a list</summary><ul>${list}</ul></details></figure>`;
}

function clip(ax: number, ay: number, bx: number, by: number, hw: number, hh: number): [number, number, number, number] {
  const dx = bx - ax, dy = by - ay;
  const t = Math.min(dx ? hw / Math.abs(dx) : Infinity, dy ? hh / Math.abs(dy) : Infinity);
  return [ax + dx * t, ay + dy * t, bx - dx * t, by - dy * t].map((v) => Math.round(v)) as [number, number, number, number];
}

function label(id: string): string {
  return COMPONENTS.find((c) => c.id === id)?.label ?? id;
}

function topicList(topics: Topic[]): string {
  const items = topics.filter((t) => t.lang === 'en').map((t) => `<li><a href="${h(topicPage(t.id, t.lang))}">${h(t.title)}</a> <span class="muted">${h(t.summary)}</span></li>`);
  return `<ul class="topics">${items.join('')}</ul>`;
}

export function topicsPage(topics: Topic[]): string {
  const others = topics.filter((t) => t.lang !== 'en').map((t) => `<li><a href="${h(topicPage(t.id, t.lang))}" lang="${h(t.lang)}">${h(t.title)}</a> (${h(t.lang)})</li>`);
  const body = `<h1>Topics</h1>${topicList(topics)}${others.length ? `<h2>Translations</h2><ul>${others.join('')}</ul>` : ''}`;
  return page({ title: 'Topics', depth: 0, body, self: 'topics.html' });
}

export function packagesPage(pkgs: string[], byPkg: Map<string, SymbolRecord[]>): string {
  const row = (p: string) => `<li><a href="${h(packagePage(p))}">${h(p)}</a> <span class="muted">${byPkg.get(p)!.length}</span></li>`;
  const kubelet = pkgs.filter((p) => /\/(pkg\/kubelet|cmd\/kubelet)(\/|$)/.test(p));
  const rest = pkgs.filter((p) => !kubelet.includes(p));
  const body = `<h1>Packages</h1><h2>The kubelet's own</h2><ul class="cols">${kubelet.map(row).join('')}</ul>
<h2>What it imports (${rest.length})</h2><ul class="cols">${rest.map(row).join('')}</ul>`;
  return page({ title: 'Packages', depth: 0, body, self: 'packages.html' });
}

export function packagePageHtml(pkg: string, symbols: SymbolRecord[]): string {
  const link = (s: SymbolRecord) => `<a href="${h(symbolHref(s.id, s.pkg))}">${h(localName(s.id, s.pkg))}</a>`;
  const types = symbols.filter((s) => s.kind === 'type' || s.kind === 'interface').sort(byName);
  const funcs = symbols.filter((s) => s.kind === 'func').sort(byName);
  const methods = symbols.filter((s) => s.kind === 'method').sort(byName);
  const closures = symbols.filter((s) => s.kind === 'closure');
  const list = (title: string, items: SymbolRecord[], open = true) =>
    items.length ? `<details${open ? ' open' : ''}><summary>${title} (${items.length})</summary><ul class="cols">${items.map((s) => `<li>${link(s)}</li>`).join('')}</ul></details>` : '';
  const files = [...new Set(symbols.map((s) => s.file))].sort();
  // Which data file holds each symbol: inert JSON, read by assets/symbol.js.
  const where = Object.fromEntries(symbols.map((s) => [localName(s.id, s.pkg), slug(s.file)]));
  const json = JSON.stringify(where).replace(/</g, '\\u003c');
  const body = `<script type="application/json" id="symfiles">${json}</script>
<p class="crumbs"><a href="packages.html">Packages</a> › ${h(pkg)}</p>
<section id="sym" aria-live="polite"><h1>${h(pkg)}</h1><p class="muted">Choose a symbol to see its source, callers, callees and graph.</p></section>
<section class="pkg-index"><h2>In this package</h2>
${list('Types', types)}${list('Functions', funcs)}${list('Methods', methods)}${list('Closures', closures, false)}
<details><summary>Files (${files.length})</summary><ul>${files.map((f) => `<li>${h(f)}</li>`).join('')}</ul></details></section>`;
  return page({
    title: pkg,
    depth: 1,
    body,
    self: packagePage(pkg),
    scripts: ['vendor/cytoscape.min.js', 'vendor/cytoscape-dagre.min.js', 'assets/symbol.js'],
    bodyAttrs: { 'data-pkg': slug(pkg) },
  });
}

function byName(a: SymbolRecord, b: SymbolRecord): number {
  return a.id.localeCompare(b.id);
}

export interface TopicPageInput {
  topic: Topic;
  variants: Topic[];
  anchorHref: AnchorHref;
  anchorId: (q: string) => string | undefined;
  byId: Map<string, SymbolRecord>;
  sourceLines: Map<string, string[]>;
  ports: Map<string, SymbolData['ports']>;
  version: string;
}

export function topicPageHtml(o: TopicPageInput): string {
  const { topic } = o;
  const self = topicPage(topic.id, topic.lang);
  const langs = o.variants.length
    ? `<p class="langs">Also in: ${o.variants.map((v) => `<a href="${h(topicPage(v.id, v.lang))}" lang="${h(v.lang)}">${h(v.lang)}</a>`).join(' ')}</p>`
    : '';
  const parts: string[] = [`<h1>${h(topic.title)}</h1>${langs}<p class="lead">${h(topic.summary)}</p>`, mdastToHtml(topic.intro, o.anchorHref)];
  const entry = topic.entry.map((a) => o.anchorHref(a.symbol)).filter(Boolean);
  if (entry.length) parts.push(`<p>Entry points: ${topic.entry.map((a) => symLink(a.symbol, o.anchorHref)).join(', ')}</p>`);
  for (const sec of topic.sections) {
    const heading = inline(sec.heading, o.anchorHref);
    const tag = `h${Math.min(6, sec.depth)}`;
    if (sec.key === 'tour' && topic.tour.length) {
      parts.push(`<${tag} id="tour">${heading}</${tag}>`);
      parts.push(tourSteps(o, self));
      continue;
    }
    if (sec.key === 'tour') continue;
    parts.push(`<${tag}>${heading}</${tag}>`);
    parts.push(mdastToHtml(sec.content, o.anchorHref));
    // A section headed by an anchor with a port: the TypeScript beside the Go.
    if (sec.anchors.length) {
      const id = o.anchorId(sec.anchors[0]);
      if (id && o.ports.get(id)?.length) parts.push(beside(o, id));
    }
  }
  return page({ title: topic.title, depth: 1, body: `<article class="topic" lang="${h(topic.lang)}">${parts.join('\n')}</article>`, self, bodyAttrs: { 'data-tour': String(topic.tour.length) } });
}

function tourSteps(o: TopicPageInput, self: string): string {
  const steps = o.topic.tour;
  return `<ol class="tour">${steps
    .map((s, i) => {
      const id = o.anchorId(s.symbol);
      const prev = i > 0 ? `<a rel="prev" href="${h(self)}#step-${i}">← Previous</a>` : '<span></span>';
      const next = i < steps.length - 1 ? `<a rel="next" href="${h(self)}#step-${i + 2}">Next →</a>` : '<span></span>';
      return `<li id="step-${i + 1}" class="step" tabindex="-1"><h3>Step ${i + 1} of ${steps.length}: ${symLink(s.symbol, o.anchorHref)}</h3>
${mdastToHtml(s.content, o.anchorHref)}${id ? beside(o, id) : ''}<nav class="stepnav" aria-label="Tour">${prev}${next}</nav></li>`;
    })
    .join('\n')}</ol>`;
}

/** The Go of a symbol, and its TypeScript port when there is one, side by side. */
function beside(o: TopicPageInput, id: string): string {
  const s = o.byId.get(id);
  if (!s) return '';
  const lines = o.sourceLines.get(s.file);
  const end = Math.min(s.endLine, s.line + 60);
  const go = lines ? codeBlock(lines.slice(s.line - 1, end), s.line) + (end < s.endLine ? `<p class="muted">… ${s.endLine - end} more lines</p>` : '') : '';
  const gh = `<a href="${h(githubUrl(o.version, s.file, s.line, s.endLine))}">${h(s.file)}:${s.line}</a>`;
  const port = (o.ports.get(id) ?? [])[0];
  const ts = port ? `<div class="pane"><p class="pane-h">Port: ${h(port.name)} <span class="muted">${h(port.file)}:${port.line}</span></p><pre class="code ts">${h(port.code)}</pre></div>` : '';
  return `<div class="beside${ts ? ' two' : ''}"><div class="pane"><p class="pane-h">Go: <a href="${h(symbolHref(id, s.pkg))}">${h(localName(id, s.pkg))}</a> · ${gh}</p>${go}</div>${ts}</div>`;
}

export function codeBlock(lines: string[], first: number): string {
  return `<pre class="code go"><code>${lines.map((l, i) => `<span class="ln" data-n="${first + i}"></span>${l}`).join('\n')}</code></pre>`;
}

function symLink(symbol: string, href: AnchorHref): string {
  const url = href(symbol);
  return url ? `<a href="${h(url)}"><code>${h(symbol)}</code></a>` : `<code>${h(symbol)}</code>`;
}

function inline(markdown: string, href: AnchorHref): string {
  return markdownToHtml(markdown, href).replace(/^<p>|<\/p>\s*$/g, '');
}

const UNRESOLVED_PER_PAGE = 1000;

export function unresolvedPages(sites: UnresolvedSite[], href: (id: string) => string): [string, string][] {
  const byReason = new Map<string, UnresolvedSite[]>();
  for (const s of sites) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s]);
  const reasons = [...byReason.keys()].sort((a, b) => byReason.get(b)!.length - byReason.get(a)!.length);
  const out: [string, string][] = [];
  const rows = reasons.map((r) => `<tr><td><a href="unresolved/${h(slug(r))}.html">${h(r)}</a></td><td class="num">${byReason.get(r)!.length}</td></tr>`);
  out.push(['unresolved.html', page({
    title: 'Unresolved call sites',
    depth: 0,
    self: 'unresolved.html',
    body: `<h1>Unresolved call sites</h1><p>${sites.length.toLocaleString('en')} call sites the index could not tie to a function, by reason.</p>
<table><thead><tr><th scope="col">Reason</th><th scope="col">Sites</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
  })]);
  for (const r of reasons) {
    const list = byReason.get(r)!.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
    // Long reasons are split so no page grows past a few hundred kilobytes.
    const chunks = Math.ceil(list.length / UNRESOLVED_PER_PAGE);
    for (let c = 0; c < chunks; c++) {
      const path = (k: number) => `unresolved/${slug(r)}${k ? `-${k + 1}` : ''}.html`;
      const items = list.slice(c * UNRESOLVED_PER_PAGE, (c + 1) * UNRESOLVED_PER_PAGE).map((s) => {
        const caller = href(s.caller);
        const who = caller ? `<a href="${h(caller)}">${h(s.caller)}</a>` : h(s.caller);
        return `<tr><td>${who}</td><td><code>${h(s.callee)}</code></td><td>${h(s.file)}:${s.line}</td></tr>`;
      });
      const pager = chunks > 1
        ? `<nav class="pager" aria-label="Pages">${Array.from({ length: chunks }, (_, k) => (k === c ? `<span aria-current="page">${k + 1}</span>` : `<a href="${h(path(k))}">${k + 1}</a>`)).join(' ')}</nav>`
        : '';
      out.push([path(c), page({
        title: `Unresolved: ${r}`,
        depth: 1,
        self: path(c),
        body: `<p class="crumbs"><a href="unresolved.html">Unresolved</a> › ${h(r)}</p><h1>${h(r)} (${list.length})</h1>${pager}
<table><thead><tr><th scope="col">In</th><th scope="col">Call</th><th scope="col">At</th></tr></thead><tbody>${items.join('')}</tbody></table>${pager}`,
      })]);
    }
  }
  return out;
}
