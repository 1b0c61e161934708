/**
 * Drift against a real (fixture) tree: lock the fixture topics on a copy of test/fixtures/go/kubelike,
 * edit the copy the way upstream code changes, index it again and check that each locked symbol lands
 * in the right class. Edits are placed by the symbols' own lines, so fixture changes do not break them.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { SymbolTable } from '../../src/graph/index.js';
import {
  checkAnnotations, loadAnnotations, lockAnnotations, readLock, treeReader, type AnnotationLock, type CheckReport, type Topic,
} from '../../src/annotations/index.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');
const annotations = resolve('test/fixtures/annotations');
const PLEG = 'k8s.io/kubernetes/pkg/kubelet/pleg';

function index(root: string): Graph {
  const cacheDir = tempDir('ka-ann-drift-');
  return buildIndex({ root, ctx: defaultBuildContext(), cacheDir, fresh: true }).graph;
}

/** Rewrites lines of one file (1-based, inclusive); `replace` gets the old lines and returns new ones. */
function editLines(root: string, file: string, from: number, to: number, replace: (old: string[]) => string[]): void {
  const path = join(root, file);
  const lines = readFileSync(path, 'utf8').split('\n');
  lines.splice(from - 1, to - from + 1, ...replace(lines.slice(from - 1, to)));
  writeFileSync(path, lines.join('\n'));
}

describe('drift of locked symbols in a copy of the fixture tree', () => {
  let topics: Topic[];
  let lock: AnnotationLock;
  let report: CheckReport;
  let before0: Graph;
  let after: Graph;
  const cls = (id: string) => report.symbols.find((s) => s.id === id);

  before(() => {
    topics = loadAnnotations(annotations).topics;
    const root = tempDir('ka-ann-tree-');
    cpSync(fixture, root, { recursive: true });
    before0 = index(root);
    const locked = lockAnnotations(topics, before0, treeReader(root));
    assert.deepEqual(locked.diagnostics, []);
    lock = locked.lock;
    const t = new SymbolTable(before0.symbols);
    const sym = (id: string) => t.get(id)!;
    // Edits go bottom-up within generic.go so earlier line numbers stay valid.
    const setCurrent = sym(`${PLEG}.podRecords.setCurrent`);
    const generate = sym(`${PLEG}.generateEvents`);
    const compute = sym(`${PLEG}.computeEvents`);
    const healthy = sym(`${PLEG}.(*GenericPLEG).Healthy`);
    assert.ok(setCurrent.line > generate.line && generate.line > compute.line && compute.line > healthy.line);
    // (d) delete a function
    editLines(root, setCurrent.file, setCurrent.line, setCurrent.endLine, () => []);
    // (b) change statements: two new lines right after the declaration line
    editLines(root, generate.file, generate.line + 1, generate.line, () => ['\tprintln("drift")', '\tprintln("again")']);
    // (c) rename a function, keeping its body
    editLines(root, compute.file, compute.line, compute.line, ([l]) => [l.replace('func computeEvents(', 'func diffContainer(')]);
    // (a) a comment and a blank line inside a function: it stays put, everything below it moves
    editLines(root, healthy.file, healthy.line + 1, healthy.line, () => ['\t// an explanatory comment', '']);
    after = index(root);
    report = checkAnnotations({ topics, lock, graph: after, readSource: treeReader(root) });
  });

  it('locks every anchor of the fixture topics', () => {
    assert.equal(Object.keys(lock.queries).length, 19);
    assert.equal(lock.queries['main.main'], 'k8s.io/kubernetes/cmd/kubelet.main');
    const relist = lock.anchored[`${PLEG}.(*GenericPLEG).Relist`];
    assert.equal(relist.file, 'pkg/kubelet/pleg/generic.go');
    assert.equal(relist.kind, 'method');
    assert.ok(relist.lines.length > 10 && relist.endLine > relist.line);
    assert.deepEqual(relist.anchors.map((a) => a.at.split(':')[0]), ['annotations/pleg.md', 'annotations/pleg.zh.md']);
  });

  it('(a) a comment inside a function keeps it fresh; functions below it are moved', () => {
    assert.equal(cls(`${PLEG}.(*GenericPLEG).Healthy`)!.class, 'fresh');
    assert.equal(cls(`${PLEG}.(*GenericPLEG).Start`)!.class, 'fresh');
    const relist = cls(`${PLEG}.(*GenericPLEG).Relist`)!;
    assert.equal(relist.class, 'moved');
    const was = lock.anchored[`${PLEG}.(*GenericPLEG).Relist`].line;
    assert.equal(relist.now!.line, was + 2);
    assert.equal(relist.message, `moved from pkg/kubelet/pleg/generic.go:${was} to pkg/kubelet/pleg/generic.go:${was + 2}`);
  });

  it('(b) a changed statement is reported with line counts and where', () => {
    const g = cls(`${PLEG}.generateEvents`)!;
    const n = lock.anchored[`${PLEG}.generateEvents`].lines.length;
    assert.equal(g.class, 'changed');
    assert.equal(g.diff!.differ, 2);
    assert.equal(g.diff!.of, n + 2);
    assert.deepEqual(g.diff!.ranges, [[2, 3]]);
    assert.deepEqual([g.diff!.added, g.diff!.removed], [2, 0]);
    assert.match(g.message, new RegExp(`^changed: 2 of ${n + 2} lines differ, body lines 2–3 \\(file lines \\d+–\\d+\\); \\+2 −0 lines; moved from`));
  });

  it('(c) a renamed function with the same body is found under its new name', () => {
    const c = cls(`${PLEG}.computeEvents`)!;
    assert.equal(c.class, 'renamed');
    assert.equal(c.now!.id, `${PLEG}.diffContainer`);
    assert.match(c.message, /pleg\.diffContainer/);
    // The anchor itself is now broken, and the new name is the first suggestion.
    const d = report.diagnostics.filter((x) => x.code === 'anchor-unknown' && x.message.includes('`@pleg.computeEvents`'));
    assert.equal(d.length, 2);
    assert.match(d[0].message, /did you mean `k8s\.io\/kubernetes\/pkg\/kubelet\/pleg\.diffContainer`/);
  });

  it('(d) a deleted function is orphaned, with nearby names suggested', () => {
    const o = cls(`${PLEG}.podRecords.setCurrent`)!;
    assert.equal(o.class, 'orphaned');
    assert.ok(o.suggestions!.some((s) => s.endsWith('podRecords.getCurrent')), o.suggestions!.join(', '));
    assert.deepEqual(o.anchors.map((a) => a.at.split(':')[0]), ['annotations/pleg.md', 'annotations/pleg.zh.md']);
  });

  it('fails the check, with every anchor problem at file:line, and counts each class', () => {
    assert.equal(report.ok, false);
    assert.equal(report.mode, 'tree');
    const s = report.summary;
    assert.deepEqual([s.moved > 0, s.changed, s.renamed, s.orphaned, s.unknown], [true, 1, 1, 1, 4]);
    assert.equal(s.fresh + s.moved + s.changed + s.renamed + s.orphaned, 19);
    for (const d of report.diagnostics) assert.ok(d.file && d.line && d.line > 0, JSON.stringify(d));
  });

  it('the untouched tree checks clean, and the committed fixture lock maps anchors the same way', () => {
    const clean = checkAnnotations({ topics, lock, graph: before0, readSource: treeReader(fixture) });
    assert.ok(clean.ok, JSON.stringify(clean.diagnostics));
    assert.equal(clean.summary.fresh, 19);
    const committed = readLock(join(annotations, 'annotations.lock.json')).lock!;
    assert.deepEqual(committed.queries, lock.queries);
  });
});
