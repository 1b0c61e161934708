/** Mangled topics and locks never crash the engine: every problem comes back as a located diagnostic. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { checkAnnotations, parseAnnotations, parseLock, readAnnotationFiles } from '../../src/annotations/index.js';
import type { Diagnostic } from '../../src/model/index.js';

const dir = resolve('test/fixtures/annotations');
const files = readAnnotationFiles(dir);
const lockText = readFileSync(resolve(dir, 'annotations.lock.json'), 'utf8');

type Op =
  | { k: 'truncate'; at: number }
  | { k: 'flip'; at: number; ch: string }
  | { k: 'dropFence'; which: number }
  | { k: 'backticks'; at: number; n: number }
  | { k: 'splice'; at: number; text: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ k: fc.constant('flip' as const), at: fc.nat(), ch: fc.string({ minLength: 1, maxLength: 1, unit: 'binary' }) }),
  fc.record({ k: fc.constant('dropFence' as const), which: fc.nat(3) }),
  fc.record({ k: fc.constant('backticks' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ k: fc.constant('splice' as const), at: fc.nat(), text: fc.constantFrom('\n---\n', '`@', '```\n', '\n# ', '\n| a |\n|---|\n', ': [', '\n- ', '\t', '\u0000', '**Answer:**') }),
);

function apply(text: string, o: Op): string {
  const at = (n: number) => (text.length ? n % (text.length + 1) : 0);
  switch (o.k) {
    case 'truncate': return text.slice(0, at(o.at));
    case 'flip': {
      const i = at(o.at);
      return text.slice(0, i) + o.ch + text.slice(i + 1);
    }
    case 'dropFence': {
      let seen = -1;
      return text.split('\n').filter((l) => !(l === '---' && ++seen === o.which)).join('\n');
    }
    case 'backticks': return text.slice(0, at(o.at)) + '`'.repeat(o.n) + text.slice(at(o.at));
    case 'splice': return text.slice(0, at(o.at)) + o.text + text.slice(at(o.at));
  }
}

function located(d: Diagnostic): boolean {
  return typeof d.file === 'string' && d.file.length > 0 && Number.isInteger(d.line) && d.line! >= 1 && d.message.length > 0;
}

describe('the loader on mutated Markdown', () => {
  it('never throws and reports problems as located diagnostics', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: files.length - 1 }), fc.array(op, { minLength: 1, maxLength: 5 }), (which, ops) => {
        const mutated = files.map((f, i) => (i === which ? { path: f.path, text: ops.reduce(apply, f.text) } : f));
        const r = parseAnnotations(mutated);
        assert.deepEqual(r.diagnostics.filter((d) => d.code === 'internal'), []);
        for (const d of r.diagnostics) assert.ok(located(d), JSON.stringify(d));
        for (const t of r.topics) for (const a of t.anchors) assert.ok(a.line >= 1 && a.symbol.length > 0);
        // A check on whatever loaded must not throw either.
        const report = checkAnnotations({ topics: r.topics, lock: lockText, diagnostics: r.diagnostics });
        assert.equal(typeof report.ok, 'boolean');
      }),
      { numRuns: 150 },
    );
  });

  it('still reads an untouched file next to a broken one', () => {
    const broken = files.map((f) => (f.path === 'annotations/startup.md' ? { path: f.path, text: f.text.replace(/^---\n/, '') } : f));
    const r = parseAnnotations(broken);
    assert.deepEqual(r.topics.map((t) => t.id), ['pleg', 'pleg']);
    assert.ok(r.diagnostics.some((d) => d.file === 'annotations/startup.md' && d.code === 'front-matter-missing'));
  });
});

describe('the lock reader on mutated JSON', () => {
  it('never throws; a lock it cannot use is one corrupted-lock diagnostic with a line', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 4 }), (ops) => {
        const text = ops.reduce(apply, lockText);
        const r = parseLock(text, 'annotations/annotations.lock.json');
        if (r.lock) return;
        assert.equal(r.diagnostics.length, 1);
        assert.equal(r.diagnostics[0].code, 'lock-corrupted');
        assert.ok(located(r.diagnostics[0]));
        assert.ok(r.diagnostics[0].line! <= text.split('\n').length + 1);
      }),
      { numRuns: 300 },
    );
  });
});
