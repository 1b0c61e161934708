/** The loader on the fixture topics, and each kind of bad input turning into a diagnostic with file:line. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { parseAnnotations, readAnnotationFiles, type AnnotationFile } from '../../src/annotations/index.js';
import type { Diagnostic } from '../../src/model/index.js';

const dir = resolve('test/fixtures/annotations');
const files = readAnnotationFiles(dir);
const pleg = files.find((f) => f.path === 'annotations/pleg.md')!;
const plegZh = files.find((f) => f.path === 'annotations/pleg.zh.md')!;

/** Replace one exact piece of a fixture file (it must be there, so fixture edits fail loudly). */
function edit(f: AnnotationFile, from: string, to: string): AnnotationFile {
  assert.ok(f.text.includes(from), `fixture ${f.path} lacks ${JSON.stringify(from)}`);
  return { path: f.path, text: f.text.replace(from, to) };
}

function only(ds: Diagnostic[], code: string): Diagnostic[] {
  return ds.filter((d) => d.code === code);
}

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

describe('loading the fixture topics', () => {
  const { topics, diagnostics } = parseAnnotations(files);

  it('reads three topics with no diagnostics, skipping README.md', () => {
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(topics.map((t) => `${t.id}/${t.lang}`), ['startup/en', 'pleg/en', 'pleg/zh']);
    assert.equal(parseAnnotations([...files, { path: 'annotations/README.md', text: 'no front matter' }]).topics.length, 3);
  });

  it('keeps the front matter fields', () => {
    const t = topics.find((x) => x.id === 'pleg' && x.lang === 'en')!;
    assert.equal(t.title, 'PLEG in the kubelike fixture');
    assert.equal(t.component, 'pleg');
    assert.equal(t.version, 'v1.28.0');
    assert.equal(t.order, 20);
    assert.equal(t.translationOf, undefined);
    assert.deepEqual(t.entry.map((a) => [a.symbol, a.line, a.where]), [['pleg.NewGenericPLEG', 8, 'entry'], ['pleg.(*GenericPLEG).Start', 9, 'entry']]);
    assert.equal(topics.find((x) => x.lang === 'zh')!.translationOf, 'pleg');
  });

  it('finds anchors in headings, paragraph starts and list items, at the right line and column, with their heading path', () => {
    const t = topics.find((x) => x.id === 'pleg' && x.lang === 'en')!;
    const at = (symbol: string) => t.anchors.filter((a) => a.symbol === symbol);
    const relist = at('pleg.(*GenericPLEG).Relist');
    assert.equal(relist.length, 1);
    assert.equal(relist[0].where, 'heading');
    assert.equal(relist[0].line, lineOf(pleg.text, '### `@pleg.(*GenericPLEG).Relist`'));
    assert.equal(relist[0].column, 5);
    assert.deepEqual(relist[0].path, ['PLEG in the kubelike fixture', 'Key functions']);
    const ctor = at('pleg.NewGenericPLEG').find((a) => a.where !== 'entry')!;
    assert.equal(ctor.where, 'paragraph');
    assert.equal(ctor.line, lineOf(pleg.text, '`@pleg.NewGenericPLEG` only'));
    assert.equal(ctor.column, 1);
    const item = at('kubelet.(*Kubelet).syncLoopIteration')[0];
    assert.equal(item.where, 'list-item');
    assert.deepEqual(item.path, ['PLEG in the kubelike fixture', 'Talks to']);
  });

  it('ignores an anchor-like code span in the middle of a paragraph', () => {
    const t = topics.find((x) => x.id === 'pleg' && x.lang === 'en')!;
    assert.ok(pleg.text.includes('`@pleg.podRecords` written'));
    assert.equal(t.anchors.filter((a) => a.symbol === 'pleg.podRecords').length, 0);
  });

  it('reads the tour steps in order, with their Markdown', () => {
    const t = topics.find((x) => x.id === 'startup')!;
    assert.deepEqual(t.tour.map((s) => s.symbol), [
      'main.main', 'app.NewKubeletCommand', 'app.NewKubeletCommand.func1', 'app.Run', 'app.startKubelet', 'kubelet.(*Kubelet).Run',
    ]);
    assert.deepEqual(t.tour.map((s) => s.index), [1, 2, 3, 4, 5, 6]);
    assert.match(t.tour[1].markdown, /^`@app\.NewKubeletCommand` — stores a closure in the command's `RunE` field; the library calls it\nlater\.$/);
    assert.equal(t.tour[0].content.children[0].type, 'paragraph');
    assert.deepEqual(t.anchors.filter((a) => a.where === 'tour-step').map((a) => a.symbol), t.tour.map((s) => s.symbol));
  });

  it('keeps sections as mdast, with canonical keys in both languages', () => {
    const en = topics.find((x) => x.id === 'pleg' && x.lang === 'en')!;
    const zh = topics.find((x) => x.lang === 'zh')!;
    const keys = (ts: typeof en) => ts.sections.filter((s) => s.depth === 2).map((s) => s.key);
    assert.deepEqual(keys(en), ['what', 'where', 'loop', 'key', 'defaults', 'talks', 'wrong', 'questions']);
    assert.deepEqual(keys(zh), keys(en));
    const relist = en.sections.find((s) => s.anchors.includes('pleg.(*GenericPLEG).Relist'))!;
    assert.equal(relist.depth, 3);
    assert.equal(relist.content.children.length, 1);
    assert.match(relist.markdown, /^Everything in the loop above\./);
    const key = en.sections.find((s) => s.key === 'key')!;
    assert.equal(key.content.children.filter((c) => c.type === 'heading').length, 5);
    assert.equal(en.intro.children.length, 1);
  });

  it('reads the defaults table and the study questions', () => {
    const t = topics.find((x) => x.id === 'pleg' && x.lang === 'en')!;
    assert.deepEqual(t.defaults.map((r) => [r.setting, r.default, r.flag, r.where]), [
      ['Relist period', '1s', 'none (constant)', 'pkg/kubelet/kubelet.go:38'],
      ['Relist threshold', '3m', 'none (constant)', 'pkg/kubelet/kubelet.go:39'],
    ]);
    assert.equal(t.questions.length, 3);
    assert.equal(t.questions[0].question, 'A running container vanishes between two listings. Which events are sent?');
    assert.equal(t.questions[0].answer, '`ContainerDied`, then `ContainerRemoved`.');
    assert.equal(topics.find((x) => x.lang === 'zh')!.questions[2].answer, '不会，由 `Start` 启动。');
  });
});

describe('bad input becomes diagnostics with file:line', () => {
  it('missing front matter', () => {
    const r = parseAnnotations([{ path: 'annotations/pleg.md', text: pleg.text.replace(/^---\n[\s\S]*?\n---\n/, '') }]);
    const d = only(r.diagnostics, 'front-matter-missing');
    assert.equal(d.length, 1);
    assert.equal(d[0].line, 1);
    assert.match(d[0].message, /missing front matter/);
    assert.equal(r.topics.length, 0);
  });

  it('front matter without its closing line', () => {
    const r = parseAnnotations([{ path: 'annotations/x.md', text: '---\nid: x\n# Title\n' }]);
    assert.equal(only(r.diagnostics, 'front-matter-unclosed')[0].line, 1);
  });

  it('malformed YAML, reported at the line of the error', () => {
    const bad = edit(pleg, 'summary: A small topic', 'summary: [A small topic');
    const r = parseAnnotations([bad]);
    const d = only(r.diagnostics, 'front-matter-yaml');
    assert.ok(d.length >= 1, JSON.stringify(r.diagnostics));
    assert.ok(d[0].line! >= lineOf(bad.text, 'summary:'), `line ${d[0].line}`);
    assert.equal(d[0].file, 'annotations/pleg.md');
    assert.match(d[0].message, /not valid YAML/);
  });

  it('an unknown field, with a suggestion', () => {
    const bad = edit(pleg, 'component: pleg', 'componnet: pleg');
    const r = parseAnnotations([bad]);
    const d = only(r.diagnostics, 'front-matter-unknown');
    assert.equal(d.length, 1);
    assert.equal(d[0].line, lineOf(bad.text, 'componnet'));
    assert.match(d[0].message, /did you mean 'component'/);
    assert.match(only(r.diagnostics, 'front-matter-required')[0].message, /'component'/);
  });

  it('a missing required field and a wrong type', () => {
    const r = parseAnnotations([edit(edit(pleg, 'summary: A small topic for the engine\'s tests, anchored to the PLEG functions of the Go fixture tree.\n', ''), 'order: 20', 'order: soon')]);
    assert.match(only(r.diagnostics, 'front-matter-required')[0].message, /'summary'/);
    assert.equal(only(r.diagnostics, 'front-matter-field')[0].line, lineOf(pleg.text, 'order:') - 1);
  });

  it('duplicate topic ids are reported at both places', () => {
    const copy = { path: 'annotations/pleg-copy.md', text: pleg.text };
    const r = parseAnnotations([pleg, copy]);
    const d = only(r.diagnostics, 'duplicate-id');
    assert.deepEqual(d.map((x) => `${x.file}:${x.line}`).sort(), ['annotations/pleg-copy.md:2', 'annotations/pleg.md:2']);
    assert.match(d[0].message, /also used in/);
    assert.equal(r.topics.filter((t) => t.id === 'pleg').length, 1);
  });

  it('an id that does not match the file name', () => {
    const r = parseAnnotations([edit(pleg, 'id: pleg', 'id: plegs')]);
    assert.match(only(r.diagnostics, 'front-matter-field')[0].message, /must match the file name/);
  });

  it('an anchor inside a fenced code block is a warning at its own line', () => {
    const bad = edit(pleg, '## The main loop\n', '## The main loop\n\n```go\n// see `@pleg.(*GenericPLEG).Relist`\n```\n');
    const r = parseAnnotations([bad]);
    const d = only(r.diagnostics, 'anchor-in-code');
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, 'warning');
    assert.equal(d[0].line, lineOf(bad.text, '// see `@pleg'));
    assert.match(d[0].message, /anchors in code blocks are ignored; move it into a paragraph/);
    assert.equal(r.topics[0].anchors.filter((a) => a.symbol === 'pleg.(*GenericPLEG).Relist').length, 1);
  });

  it('a translation of a topic that does not exist', () => {
    const r = parseAnnotations([edit(plegZh, 'translation-of: pleg', 'translation-of: plex')]);
    const d = only(r.diagnostics, 'translation-of');
    assert.equal(d[0].line, lineOf(plegZh.text, 'translation-of'));
  });

  it('a translation whose anchors differ from the original', () => {
    const bad = edit(plegZh, '### `@pleg.computeEvents`', '### `@pleg.getContainerState`');
    const r = parseAnnotations([pleg, bad]);
    const d = only(r.diagnostics, 'translation-anchors');
    assert.equal(d.length, 2, JSON.stringify(d));
    assert.ok(d.every((x) => x.file === 'annotations/pleg.zh.md'));
    assert.ok(d.some((x) => x.line === lineOf(bad.text, '### `@pleg.getContainerState`') && /not in the original/.test(x.message)));
    assert.ok(d.some((x) => /lacks the heading anchor `@pleg.computeEvents`/.test(x.message)));
  });

  it('wrong or missing section headings are warnings', () => {
    const bad = edit(edit(pleg, '## Talks to', '## Talks with'), '## Defaults\n', '## Study questions\n\nplaced too early\n\n## Defaults\n');
    const r = parseAnnotations([bad]);
    const unknown = only(r.diagnostics, 'heading-unknown');
    assert.equal(unknown[0].line, lineOf(bad.text, '## Talks with'));
    assert.match(only(r.diagnostics, 'heading-missing')[0].message, /Talks to/);
    assert.ok(only(r.diagnostics, 'heading-order').length >= 1);
    assert.ok(r.diagnostics.every((d) => d.severity === 'warning'));
  });

  it('a tour step that does not start with an anchor', () => {
    const startup = files.find((f) => f.path === 'annotations/startup.md')!;
    const r = parseAnnotations([edit(startup, '4. `@app.Run` — a plain call', '4. Then `@app.Run` — a plain call')]);
    assert.equal(only(r.diagnostics, 'tour-step')[0].line, lineOf(startup.text, '4. `@app.Run`'));
    assert.equal(r.topics[0].tour.length, 5);
  });
});
