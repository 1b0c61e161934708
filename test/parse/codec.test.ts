/** The facts codec: what a worker sends and the cache keeps decodes to the very records extracted. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import fc from 'fast-check';
import { goFiles } from '../helpers/wants.js';
import { extractFile, packFacts, unpackFacts, type FileFacts, type StringTable } from '../../src/parse/index.js';

const fixtures = resolve('test/fixtures/go');

/** Keys in order, all the way down: deepStrictEqual does not look at the order of keys. */
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (v && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
  return v;
}

const asFacts = (v: unknown) => v as FileFacts;

describe('facts codec', () => {
  it('gives back every fixture file\'s facts: values, undefined-valued keys and key order', () => {
    const files = goFiles(fixtures);
    assert.ok(files.length >= 40);
    for (const abs of files) {
      const facts = extractFile(relative(fixtures, abs), readFileSync(abs));
      const back = unpackFacts(packFacts(facts));
      assert.deepStrictEqual(back, facts, abs);
      assert.deepStrictEqual(keyOrder(back), keyOrder(facts), abs);
    }
  });

  it('keeps numbers of every kind, null, booleans, nesting and any string', () => {
    const value = {
      ints: [0, 1, -1, 2 ** 27 - 1, -(2 ** 27), 2 ** 27, -(2 ** 27) - 1, 2 ** 31, Number.MAX_SAFE_INTEGER],
      floats: [0.5, -0, NaN, Infinity, -Infinity, 1e-300],
      other: [null, true, false, undefined, [], [[]], {}],
      text: ['', 'a\nb', 'é€😀', '"quoted"', '\u0000', 'a'.repeat(10_000)],
      'odd key\n"': 1,
    };
    const back = unpackFacts(packFacts(asFacts(value))) as unknown as typeof value;
    assert.deepStrictEqual(back, value);
    assert.ok(Object.is(back.floats[1], -0));
  });

  it('round-trips any record of JSON-like values with undefined', () => {
    const leaf = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(undefined));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('tree')), fc.dictionary(fc.string().filter((k) => k !== '__proto__'), tie('tree'), { noNullPrototype: true })),
    }));
    fc.assert(fc.property(fc.dictionary(fc.string().filter((k) => k !== '__proto__'), tree, { noNullPrototype: true }), (value) => {
      assert.deepStrictEqual(unpackFacts(packFacts(asFacts(value))), value);
    }));
  });

  it('keeps a record or list met twice as one object, as the extractor made it', () => {
    const t = { k: 'named', n: 'int' };
    const list = [1, 2];
    const back = unpackFacts(packFacts(asFacts({ a: t, b: [t, { t }], c: list, d: list }))) as unknown as { a: object; b: [object, { t: object }]; c: number[]; d: number[] };
    assert.equal(back.b[0], back.a);
    assert.equal(back.b[1].t, back.a);
    assert.equal(back.c, back.d);
    assert.deepStrictEqual(back.a, t);
    // `a, b int`: one type record for both parameters.
    const facts = extractFile('p/a.go', Buffer.from('package p\n\nfunc f(a, b int) {}\n'));
    assert.equal(facts.funcs[0].params[0].t, facts.funcs[0].params[1].t, 'the extractor shares it');
    const decoded = unpackFacts(packFacts(facts));
    assert.equal(decoded.funcs[0].params[0].t, decoded.funcs[0].params[1].t);
  });

  it('keeps sharing and strings right in facts of more records and strings than one of its maps holds', () => {
    // More than 4,096 records and distinct strings (each map of the writer holds that many): the first
    // record and string are met again after the writer moved on to more maps.
    const first = { k: 'named', n: 'first' };
    const many = Array.from({ length: 10_000 }, (_, i) => ({ n: `name${i}`, t: i % 3 === 0 ? first : { k: 'named', n: `t${i % 5000}` } }));
    const back = unpackFacts(packFacts(asFacts({ first, many, again: first, names: many.map((m) => m.n) }))) as unknown as { first: object; many: { n: string; t: object }[]; again: object; names: string[] };
    assert.equal(back.again, back.first);
    assert.equal(back.many[9999].t, back.first);
    assert.deepStrictEqual(back.many, many);
    assert.deepStrictEqual(back.names, many.map((m) => m.n));
  });

    it('refuses a cycle when writing, not when reading', () => {
    const o: Record<string, unknown> = { a: 1 };
    o.self = { back: o };
    assert.throws(() => packFacts(asFacts(o)), /cycle/);
  });

  it('keeps one copy of each string across files through a table', () => {
    const source = Buffer.from('package p\n\nimport "fmt"\n\nfunc f(s string) { fmt.Println(s); g(s) }\n');
    const facts = extractFile('p/a.go', source);
    const table: StringTable = new Map();
    const one = unpackFacts(packFacts(facts), table);
    const size = table.size;
    assert.ok(size > 0);
    const two = unpackFacts(packFacts(facts), table);
    assert.equal(table.size, size, 'the second file adds no string');
    assert.deepStrictEqual(one, facts);
    assert.deepStrictEqual(two, facts);
  });

  it('refuses values that are not plain records, and damaged or foreign bytes', () => {
    assert.throws(() => packFacts(asFacts({ m: new Map() })), /cannot write: \[object Map\]/);
    assert.throws(() => packFacts(asFacts({ f: () => 1 })), /cannot write/);
    assert.throws(() => packFacts(asFacts({ d: new Date(0) })), /cannot write: \[object Date\]/);
    const good = packFacts(asFacts({ a: [1, 'x'] }));
    assert.throws(() => unpackFacts(good.subarray(0, good.length - 1)), /damaged/);
    assert.throws(() => unpackFacts(Buffer.from('KAF2 not a record at all')), /not a facts record/);
    const extra = Buffer.from(good);
    extra.writeUInt32LE(extra.readUInt32LE(4) - 1, 4);
    assert.throws(() => unpackFacts(extra), /damaged/);
    // A key that would set the prototype of the record made for it.
    const proto = Buffer.from(Buffer.from(packFacts(asFacts({ qqqqqqqqq: 1 }))).toString('latin1').replace('qqqqqqqqq', '__proto__'), 'latin1');
    assert.throws(() => unpackFacts(proto), /damaged/);
  });
});
