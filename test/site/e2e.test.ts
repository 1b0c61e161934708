/**
 * The fixture site in headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core; no
 * browser is ever downloaded). Skips when Chromium is absent; `.ci/install-chromium` installs it.
 * Set KA_SITE_SHOTS=DIR to also save screenshots of the home page and a symbol page.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fixtureSite } from './fixture-site.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (run .ci/install-chromium)`;

type Browser = import('playwright-core').Browser;
type Page = import('playwright-core').Page;

interface GraphCounts {
  nodes: number;
  callers: number;
  callees: number;
}

describe('site in headless Chromium', { skip }, () => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const shots = process.env['KA_SITE_SHOTS'];

  before(async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('dialog', (d) => {
      errors.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
    if (shots) mkdirSync(shots, { recursive: true });
  });

  after(async () => {
    await browser?.close();
  });

  const counts = () =>
    page.evaluate((): GraphCounts => {
      const w = window as unknown as { KA: { graph: { nodes(): { length: number }; $(s: string): { incomers(s: string): { length: number }; outgoers(s: string): { length: number } } } } };
      const cy = w.KA.graph;
      const center = cy.$('node.center');
      return { nodes: cy.nodes().length, callers: center.incomers('node').length, callees: center.outgoers('node').length };
    });

  it('opens the home page from file:// and shows the component map', async () => {
    const home = pathToFileURL(join(fixtureSite().dir, 'index.html')).href;
    await page.goto(home);
    await page.locator('.map svg a.box').first().waitFor();
    assert.ok((await page.locator('.map svg a.box').count()) >= 12);
    if (shots) await page.screenshot({ path: join(shots, 'home.png'), fullPage: true });
  });

  it('finds a symbol by search and opens its page with the graph drawn', async () => {
    await page.keyboard.press('/');
    await page.keyboard.type('startKub');
    const hit = page.locator('#results a.hit', { hasText: 'startKubelet' }).first();
    await hit.waitFor();
    await hit.click();
    await page.waitForSelector('body[data-graph="ready"]');
    assert.match(await page.locator('#sym h1').innerText(), /startKubelet/);
    const c = await counts();
    assert.ok(c.callers >= 1 && c.callees >= 1, JSON.stringify(c));
    await page.locator('#src pre.code').waitFor();
    assert.ok((await page.locator('#src a.call').count()) >= 1, 'calls in the source are links');
    if (shots) await page.screenshot({ path: join(shots, 'symbol.png'), fullPage: true });
  });

  it('runs no script from the malicious note', async () => {
    await page.locator('.note').first().waitFor();
    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned);
    assert.equal(pwned, undefined);
    assert.equal(await page.locator('.note script, .note [onerror], .note a[href^="javascript:" i]').count(), 0);
    assert.match(await page.locator('.note').first().innerText(), /harmless-looking link/);
  });

  it('expands a graph node on click', async () => {
    const before = (await counts()).nodes;
    const pos = await page.evaluate(() => {
      const w = window as unknown as { KA: { graph: { $(s: string): { outgoers(s: string): { filter(f: (n: { data(k: string): string }) => boolean): { first(): { renderedPosition(): { x: number; y: number } } } } } } } };
      const next = w.KA.graph.$('node.center').outgoers('node').filter((n) => /Run$/.test(n.data('id'))).first();
      return next.renderedPosition();
    });
    const box = await page.locator('#graph').boundingBox();
    assert.ok(box);
    await page.mouse.click(box.x + pos.x, box.y + pos.y);
    await page.waitForFunction((n) => (window as unknown as { KA: { graph: { nodes(): { length: number } } } }).KA.graph.nodes().length > n, before);
    assert.match(await page.locator('#graph-info').innerText(), /Expanded/);
  });

  it('follows a callee to its own page', async () => {
    const link = page.locator('ul.callees a', { hasText: 'Kubelet).Run' }).first();
    await link.click();
    await page.waitForFunction(() => /Run/.test(document.querySelector('#sym h1')?.textContent ?? '') && document.body.dataset.graph === 'ready');
    assert.match(await page.locator('#sym h1').innerText(), /\(\*Kubelet\)\.Run/);
    await page.waitForFunction(() => {
      const cy = (window as unknown as { KA: { graph: { $(s: string): { data(k: string): string } } } }).KA.graph;
      return /\(\*Kubelet\)\.Run$/.test(cy.$('node.center').data('id'));
    });
    const c = await counts();
    assert.ok(c.callers >= 1 && c.callees >= 1, JSON.stringify(c));
  });

  it('walks the tour with next links', async () => {
    await page.goto(pathToFileURL(join(fixtureSite().dir, 'topic/startup.html')).href + '#step-1');
    // The page moves the fragment itself; the browser reports the new URL a moment later (a run
    // failed by reading it at once), so wait for it.
    await page.locator('#step-1 a[rel="next"]').click();
    await page.waitForURL(/#step-2$/, { timeout: 5000 });
    await page.keyboard.press('n');
    await page.waitForURL(/#step-3$/, { timeout: 5000 });
    assert.match(page.url(), /#step-3$/);
  });

  it('raised no page errors', () => {
    assert.deepEqual(errors, []);
  });
});
