/** The site built from the Go fixtures: pages, data files, links, and what sanitizing removes. */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureSite, readData } from './fixture-site.js';
import { highlightGo, markdownToHtml } from '../../src/outputs/site/index.js';
import { fileData, packagePage, symbolHref } from '../../src/outputs/site/paths.js';
import type { FileData } from '../../src/outputs/site/model.js';

const APP = 'k8s.io/kubernetes/cmd/kubelet/app';
const KUBELET = 'k8s.io/kubernetes/pkg/kubelet';
const SERVER = 'cmd/kubelet/app/server.go';

/** An edge row's target ID and code. */
function rows(d: FileData, list: FileData['symbols'][string]['callers']): { id: string; code: string }[] {
  return list.map((r) => ({ id: d.refs[r[0]][0], code: r[2] }));
}

describe('site from the Go fixtures', () => {
  let dir: string;
  before(() => {
    dir = fixtureSite().dir;
  });

  it('writes the fixed pages, assets and vendored libraries', () => {
    for (const f of ['index.html', 'topics.html', 'packages.html', 'unresolved.html', 'assets/site.js', 'assets/site.css', 'assets/symbol.js', 'vendor/cytoscape.min.js', 'vendor/cytoscape-dagre.min.js', 'vendor/minisearch.js', 'data/search/prose.js']) {
      assert.ok(existsSync(join(dir, f)), f);
    }
    const r = fixtureSite().result;
    assert.ok(r.pages >= 30 && r.bytes > 0 && r.largestPage.bytes > 0, JSON.stringify(r));
  });

  it('writes one page and one data file per package, for every function, method and type', () => {
    const pages = readdirSync(join(dir, 'pkg'));
    assert.ok(pages.includes(packagePage(APP).slice(4)));
    const app = readData(dir, fileData(SERVER)) as FileData;
    for (const name of ['startKubelet', 'Run', 'run', 'RunKubelet', 'NewKubeletCommand', 'NewKubeletCommand.func1']) assert.ok(app.symbols[name], name);
    const pkgPage = readFileSync(join(dir, packagePage(APP)), 'utf8');
    assert.match(pkgPage, /<script type="application\/json" id="symfiles">\{"/);
    const k = readData(dir, fileData('pkg/kubelet/kubelet.go')) as FileData;
    const loop = k.symbols['(*Kubelet).syncLoop'];
    assert.equal(loop.kind, 'method');
    assert.equal(k.gh, 'https://github.com/kubernetes/kubernetes/blob/v1.28.0/');
    assert.ok(rows(k, loop.callers).some((c) => c.id === `${KUBELET}.(*Kubelet).Run`));
    assert.ok(rows(k, loop.callees).some((c) => c.id === `${KUBELET}.(*Kubelet).syncLoopIteration`));
  });

  it('marks go, interface and closure calls in the data and starts goroutines', () => {
    const app = readData(dir, fileData(SERVER)) as FileData;
    const s = app.symbols['startKubelet'];
    assert.ok(s.callers.length >= 1 && s.callees.length >= 1);
    const callees = rows(app, s.callees);
    assert.ok(callees.some((c) => c.code[1] === 'g'), JSON.stringify(callees));
    assert.ok(callees.some((c) => /^i[cg]\d+$/.test(c.code)));
    assert.ok((s.goroutines ?? []).length >= 1);
  });

  it('links each resolved call in the highlighted source to its target', () => {
    const joined = (readData(dir, fileData(SERVER)) as FileData).lines.join('\n');
    assert.ok(joined.includes(`href="${symbolHref(`${APP}.RunKubelet`, APP)}"`), 'RunKubelet call linked');
    assert.match(joined, /<i class=k>func<\/i>/);
  });

  it('writes topic pages with tour steps, next/previous links and port code beside the Go', () => {
    const html = readFileSync(join(dir, 'topic/startup.html'), 'utf8');
    assert.match(html, /id="step-1"/);
    assert.match(html, /id="step-6"/);
    assert.match(html, /rel="next" href="topic\/startup\.html#step-2"/);
    assert.match(html, /rel="prev" href="topic\/startup\.html#step-1"/);
    assert.ok(html.includes(`href="${symbolHref(`${APP}.NewKubeletCommand`, APP)}"`), 'anchors become links');
    const pleg = readFileSync(join(dir, 'topic/pleg.html'), 'utf8');
    assert.ok(existsSync(join(dir, 'topic/pleg.zh.html')));
    assert.match(pleg, /class="beside two"/, 'a port beside the Go');
  });

  it('draws the home map with a box per component linking to its topic', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    for (const label of ['PLEG', 'Probe manager', 'Status manager', 'Eviction manager', 'Image GC', 'Container GC', 'Volume manager', 'Container manager', 'Runtime manager', 'Pod manager', 'Pod workers', 'syncLoop']) {
      assert.ok(html.includes(`>${label}</text>`), label);
    }
    assert.match(html, /<a href="topic\/pleg\.html" class="box">/);
    assert.match(html, /<line class=/);
    assert.match(html, /href="topic\/startup\.html#step-1"/);
    assert.ok(!html.includes('cytoscape'), 'the home page stays light');
  });

  it('lists unresolved call sites by reason', () => {
    const html = readFileSync(join(dir, 'unresolved.html'), 'utf8');
    assert.match(html, /<td><a href="unresolved\/[^"]+\.html">/);
  });

  it('shards symbol search by first letter and keeps prose separate', () => {
    const rows = readData(dir, 'data/search/s-s.js') as string[][];
    assert.ok(rows.some((r) => r[0] === 'startKubelet'));
    const prose = readData(dir, 'data/search/prose.js') as string[][];
    assert.ok(prose.some((r) => r[0].startsWith('Startup in the kubelike fixture')));
  });

  it('strips script, event handlers and javascript: links from notes', () => {
    const app = readData(dir, fileData(SERVER)) as FileData;
    const notes = app.symbols['startKubelet'].notes ?? [];
    assert.equal(notes.length, 1);
    const h = notes[0].html;
    assert.ok(!/<script/i.test(h) && !/onerror/i.test(h) && !/javascript:/i.test(h), h);
    assert.match(h, /harmless-looking link/);
    assert.ok(h.includes(`href="${symbolHref(`${APP}.Run`, APP)}"`), 'anchors in notes become links');
  });
});

describe('markdownToHtml', () => {
  it('removes raw HTML, handlers and javascript: URLs', () => {
    const h = markdownToHtml('x <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) [b](JAVASCRIPT:alert(2)) <a href="javascript:alert(3)">c</a>');
    assert.ok(!/<script|onerror|javascript:|<img/i.test(h), h);
    assert.match(h, /<a>a<\/a>|<a href="">a<\/a>|>a</);
  });

  it('keeps ordinary Markdown', () => {
    const h = markdownToHtml('**bold** `code` [link](https://example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    assert.match(h, /<strong>bold<\/strong>/);
    assert.match(h, /<a href="https:\/\/example\.com">link<\/a>/);
    assert.match(h, /<table>/);
  });
});

describe('highlightGo', () => {
  it('keeps one HTML string per source line, through block comments and raw strings', () => {
    const src = 'package x\n/* a\nb */\nvar s = `one\ntwo` // c\nfunc f() { g() }\n';
    const out = highlightGo(src, new Map([[6, new Map([['g', { href: 'pkg/x.html#g', title: 'x.g' }]])]]));
    assert.equal(out.length, src.split('\n').length);
    assert.equal(out[2], '<i class=c>b */</i>');
    assert.match(out[4], /^<i class=s>two`<\/i> <i class=c>\/\/ c<\/i>$/);
    assert.match(out[5], /<a class=call href="pkg\/x\.html#g" title="x\.g">g<\/a>/);
  });

  it('escapes what it prints', () => {
    assert.equal(highlightGo('a < b && "<x>"')[0], 'a &lt; b &amp;&amp; <i class=s>&quot;&lt;x&gt;&quot;</i>');
  });
});
