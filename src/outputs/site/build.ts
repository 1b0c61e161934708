/**
 * Builds the static site: one page per package (its symbols open in place from a data file loaded on
 * demand), one data file per Go source file (highlighted, calls linked), topic pages, the home map,
 * search shards. Data files are JSONP-style scripts so the site also works from file://.
 */
import { rmSync } from 'node:fs';
import type { Edge, SymbolRecord } from '../../model/index.js';
import { isRuledOut } from '../../graph/index.js';
import { lookupAnchor, resolveAnchors } from '../../annotations/index.js';
import { highlightGo, type LineLinks } from './highlight.js';
import { markdownToHtml, mdastToHtml, type AnchorHref } from './markdown.js';
import { dataScript } from './html.js';
import { fileData, githubUrl, lastName, localName, packagePage, slug, symbolHref, topicPage } from './paths.js';
import { SiteWriter } from './writer.js';
import { SITE_KINDS, type EdgeRow, type FileData, type SiteInput, type SiteResult, type SymbolData } from './model.js';
import { homePage, packagePageHtml, packagesPage, topicPageHtml, topicsPage, unresolvedPages } from './pages.js';
import { searchShards } from './search.js';
import { copyAssets } from './assets.js';

const MAX_EDGES = 300;

export function buildSite(input: SiteInput): SiteResult {
  const t0 = performance.now();
  const timings: Record<string, number> = {};
  let t = t0;
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round(now - t);
    t = now;
  };
  const log = input.log ?? (() => {});
  rmSync(input.outDir, { recursive: true, force: true });
  const w = new SiteWriter(input.outDir);

  const symbols: SymbolRecord[] = [];
  const byId = new Map<string, SymbolRecord>();
  for (const s of input.table.all()) {
    if (!SITE_KINDS.has(s.kind)) continue;
    symbols.push(s);
    byId.set(s.id, s);
  }
  const href = (id: string): string => {
    const s = byId.get(id);
    return s ? symbolHref(id, s.pkg) : '';
  };

  const edges = input.graph.edges.filter((e) => !isRuledOut(e));
  const out = group(edges, (e) => e.caller);
  const inn = group(edges, (e) => e.callee);
  for (const list of out.values()) list.sort((a, b) => a.line - b.line || b.confidence - a.confidence);
  const goroutines = group(input.graph.goroutines, (g) => g.starter);
  const channels = group(input.graph.channels, (c) => c.fn);
  lap('index');

  // Anchors as written → IDs, memoised: topics repeat the same few symbols many times.
  const anchorIds = new Map<string, string | undefined>();
  const anchorId = (q: string) => {
    if (!anchorIds.has(q)) {
      const r = lookupAnchor(input.table, q);
      anchorIds.set(q, r.ok ? r.symbol.id : undefined);
    }
    return anchorIds.get(q);
  };
  const anchorHref: AnchorHref = (q) => {
    const id = anchorId(q);
    return id ? href(id) || undefined : undefined;
  };
  const annotations = new Map<string, SymbolData['annotations']>();
  const resolved = resolveAnchors(input.topics, input.table);
  for (const a of resolved.anchors) {
    const topic = input.topics.find((tp) => tp.file === a.file);
    if (!topic) continue;
    const list = annotations.get(a.id) ?? [];
    const where = a.where === 'entry' ? 'entry point' : a.where === 'tour-step' ? 'tour step' : a.path.join(' › ') || topic.title;
    let html: string | undefined;
    if (a.where === 'heading') {
      const sec = topic.sections.find((s) => s.line === a.line);
      if (sec) html = mdastToHtml(sec.content, anchorHref);
    } else if (a.where === 'tour-step') {
      const step = topic.tour.find((s) => s.line === a.line);
      if (step) html = mdastToHtml(step.content, anchorHref);
    }
    if (!list.some((x) => x.href === topicPage(topic.id, topic.lang) && x.where === where)) {
      list.push({ topic: topic.lang === 'en' ? topic.title : `${topic.title} (${topic.lang})`, href: topicPage(topic.id, topic.lang), where, html });
    }
    annotations.set(a.id, list);
  }
  const notes = new Map<string, SymbolData['notes']>();
  for (const n of input.notes) {
    const list = notes.get(n.anchor.symbol) ?? [];
    list.push({ author: n.author, date: n.date, kind: n.kind, status: n.status, html: markdownToHtml(n.body, anchorHref) });
    notes.set(n.anchor.symbol, list);
  }
  const ports = new Map<string, SymbolData['ports']>();
  const portCode = new Map<string, string>();
  for (const m of input.ports) {
    const key = `${m.file}:${m.line}`;
    if (!portCode.has(key)) portCode.set(key, input.readPort(m) ?? '');
    const code = portCode.get(key)!;
    // A class maps all its members' IDs too: show it only where it is the closest thing.
    const ids = m.kind === 'class' ? m.goIds.slice(0, 1) : m.goIds;
    for (const id of ids) {
      const list = ports.get(id) ?? [];
      list.push({ name: `${m.manager}/${m.exportName}`, file: m.file, line: m.line, code });
      ports.set(id, list);
    }
  }
  lap('annotations');

  // One data file per Go file: highlighted lines (call sites linked to their most likely target)
  // and the records of the symbols declared in it. A symbol view loads exactly one file.
  const byFile = group(symbols, (s) => s.file);
  const sourceLines = new Map<string, string[]>();
  const edgesByFile = group(edges, (e) => e.file);
  const dataKey = (file: string) => (byFile.has(file) ? slug(file) : '');
  const gh = githubUrl(input.version, '', 1).replace(/#L1$/, '');
  for (const [file, list] of byFile) {
    const text = input.readSource(file);
    let lines: string[] = [];
    if (text !== undefined) {
      const links: LineLinks = new Map();
      for (const e of edgesByFile.get(file) ?? []) {
        if (e.kind === 'closure') continue;
        const target = href(e.callee);
        if (!target) continue;
        let m = links.get(e.line);
        if (!m) links.set(e.line, (m = new Map()));
        const name = lastName(e.callee);
        const prev = m.get(name);
        if (!prev) m.set(name, { href: target, title: e.callee });
        else if (!prev.title.endsWith(' (+ other candidates)')) prev.title += ' (+ other candidates)';
      }
      lines = highlightGo(text, links);
      sourceLines.set(file, lines);
    }
    const data: FileData = { file, pkg: list[0].pkg, gh, lines, files: [], refs: [], symbols: {} };
    const fileIdx = new Map<string, number>();
    const refIdx = new Map<string, number>();
    const fileRef = (f: string) => {
      let i = fileIdx.get(f);
      if (i === undefined) fileIdx.set(f, (i = data.files.push([f, dataKey(f)]) - 1));
      return i;
    };
    const ref = (id: string, f?: string) => {
      let i = refIdx.get(id);
      if (i === undefined) {
        const s = byId.get(id);
        refIdx.set(id, (i = data.refs.push([id, href(id), fileRef(s?.file ?? f ?? '')]) - 1));
      }
      return i;
    };
    const row = (e: Edge, other: string, f?: string): EdgeRow => [ref(other, f), e.line, edgeCode(e)];
    for (const s of list) {
      const callees = [...(out.get(s.id) ?? [])].sort((a, b) => b.confidence - a.confidence || a.line - b.line);
      const callers = inn.get(s.id) ?? [];
      const d: SymbolData = {
        id: s.id,
        kind: s.kind,
        line: s.line,
        endLine: s.endLine,
        callers: callers.slice(0, MAX_EDGES).map((e) => row(e, e.caller, e.file)),
        nCallers: callers.length,
        callees: callees.slice(0, MAX_EDGES).map((e) => row(e, e.callee)),
        nCallees: callees.length,
      };
      if (s.signature) d.sig = s.signature;
      if (s.doc) d.doc = s.doc;
      if (s.parent) d.parent = ref(s.parent);
      const gs = goroutines.get(s.id);
      if (gs) d.goroutines = gs.map((g) => [ref(g.target), g.via, g.period ?? '', g.line]);
      const cs = channels.get(s.id);
      if (cs) d.channels = cs.map((c) => [c.op, c.channel, c.expr, c.line]);
      const an = annotations.get(s.id);
      if (an) d.annotations = an;
      const ns = notes.get(s.id);
      if (ns) d.notes = ns;
      const ps = ports.get(s.id);
      if (ps) d.ports = ps;
      if (s.methods?.length) {
        d.methods = s.methods.map((m) => {
          const ptr = `${s.pkg}.(*${s.name}).${m}`;
          return [m, ref(byId.has(ptr) ? ptr : `${s.pkg}.${s.name}.${m}`)];
        });
      }
      data.symbols[localName(s.id, s.pkg)] = d;
    }
    w.write(fileData(file), dataScript(`f/${slug(file)}`, data));
  }
  lap('files');

  const byPkg = group(symbols, (s) => s.pkg);
  const pkgNames = [...byPkg.keys()].sort();
  for (const pkg of pkgNames) w.write(packagePage(pkg), packagePageHtml(pkg, byPkg.get(pkg)!));
  lap('packages');

  for (const topic of input.topics) {
    const variants = input.topics.filter((x) => x.id === topic.id && x !== topic);
    w.write(topicPage(topic.id, topic.lang), topicPageHtml({ topic, variants, anchorHref, anchorId, byId, sourceLines, ports, version: input.version }));
  }
  lap('topics');

  const fileOf = (id: string) => byId.get(id)?.file;
  w.write('index.html', homePage(input.graph, input.topics, fileOf, symbols.length, pkgNames.length));
  w.write('topics.html', topicsPage(input.topics));
  w.write('packages.html', packagesPage(pkgNames, byPkg));
  for (const [path, html] of unresolvedPages(input.graph.unresolved, href)) w.write(path, html);
  for (const [path, js] of searchShards(symbols, input.topics)) w.write(path, js);
  copyAssets(w);
  lap('pages');
  log(`site: ${symbols.length} symbols in ${pkgNames.length} packages`);
  return {
    outDir: input.outDir,
    ms: Math.round(performance.now() - t0),
    ...w.stats,
    symbols: symbols.length,
    packages: pkgNames.length,
    timings,
  };
}

const KIND_CODE: Record<Edge['kind'], string> = { static: 's', interface: 'i', 'method-value': 'm', 'func-value': 'f', closure: 'c' };
const MODE_CODE: Record<Edge['mode'], string> = { call: 'c', go: 'g', defer: 'd', ref: 'r' };

function edgeCode(e: Edge): string {
  const code = KIND_CODE[e.kind] + MODE_CODE[e.mode];
  return e.kind === 'interface' ? code + Math.round(e.confidence * 100) : code;
}

function group<T>(items: Iterable<T>, key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}
