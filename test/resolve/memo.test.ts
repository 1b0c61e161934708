/**
 * Reused answers in the resolver: the Progress tracker that decides when an answer may be reused, and a
 * small Go tree (test/fixtures/go/memo) whose `// want:` edges depend on answers being reused correctly.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { Progress } from '../../src/resolve/progress.js';
import { readWants } from '../helpers/wants.js';

describe('Progress', () => {
  it('calls a computation free when it meets only queries opened inside it', () => {
    const p = new Progress();
    const outer = p.begin();
    p.push('a');
    const inner = p.begin();
    p.push('b');
    assert.equal(p.isOpen('b'), true);
    assert.equal(p.isOpen('c'), false);
    p.pop('b');
    assert.equal(p.end(inner).free, true);
    p.pop('a');
    assert.equal(p.end(outer).free, true);
  });

  it('calls a computation not free when it meets a query opened before it, and passes that outwards', () => {
    const p = new Progress();
    const top = p.begin();
    p.push('a');
    const mid = p.begin();
    p.push('b');
    const low = p.begin();
    assert.equal(p.isOpen('a'), true);
    assert.equal(p.end(low).free, false);
    p.pop('b');
    // `mid` started after `a` was opened, so it met a query from outside too.
    assert.equal(p.end(mid).free, false);
    p.pop('a');
    // For `top`, `a` was its own.
    assert.equal(p.end(top).free, true);
  });

  it('records the queries a watched computation checked, nested ones included', () => {
    const p = new Progress();
    const outer = p.begin(true);
    assert.equal(p.isOpen('x'), false);
    const inner = p.begin(true);
    assert.equal(p.isOpen('y'), false);
    const innerEnd = p.end(inner);
    const outerEnd = p.end(outer);
    assert.equal(innerEnd.footprint?.size, 1);
    assert.equal(outerEnd.footprint?.size, 2);
    // Reusable while none of its footprint is in progress.
    assert.equal(p.clear(outerEnd.footprint!), true);
    p.push('y');
    assert.equal(p.clear(outerEnd.footprint!), false);
    assert.equal(p.clear(new Set()), true);
    p.pop('y');
    assert.equal(p.clear(outerEnd.footprint!), true);
  });
});

describe('call resolution on test/fixtures/go/memo', () => {
  const root = resolve('test/fixtures/go/memo');
  let graph: Graph;
  before(() => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ka-memo-'));
    graph = buildIndex({ root, ctx: defaultBuildContext(), cacheDir, fresh: true }).graph;
  });

  it('finds exactly the expected edges on every line with expectations', () => {
    const wants = readWants(root);
    assert.ok(wants.length >= 4, `only ${wants.length} want lines`);
    const problems: string[] = [];
    for (const w of wants) {
      const got = graph.edges.filter((e) => e.file === w.file && e.line === w.line).map((e) => `${e.callee} ${e.kind}`).sort();
      const want = w.wants.map((x) => `${x.callee} ${x.kind}`).sort();
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${w.file}:${w.line} want [${want.join(', ')}] got [${got.join(', ')}]`);
    }
    assert.deepEqual(problems, []);
  });
});
