/** Shared strings: the facts keep their values, equal strings become one, and nothing else changes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deserialize, serialize } from 'node:v8';
import { extractFile, shareStrings, type StringTable } from '../../src/parse/index.js';

const source = Buffer.from('package p\n\nimport "fmt"\n\nfunc f(s string) { fmt.Println(s); g(s) }\n\nfunc g(s string) { fmt.Println(s, len(s)) }\n');

describe('shareStrings', () => {
  it('leaves the facts deep-equal and the same strings in one table across files', () => {
    const facts = extractFile('p/a.go', source);
    const table: StringTable = new Map();
    const one = shareStrings(deserialize(serialize(facts)), table);
    const size = table.size;
    const two = shareStrings(deserialize(serialize(facts)), table);
    assert.deepEqual(one, facts);
    assert.deepEqual(two, facts);
    assert.equal(table.size, size, 'the second copy adds no string');
    for (const [k, v] of table) assert.equal(k, v);
  });

  it('replaces strings inside arrays and nested records, in place', () => {
    const table: StringTable = new Map();
    const value = { a: ['x', { b: 'y', n: 1, none: undefined }], c: 'x' };
    assert.equal(shareStrings(value, table), value);
    assert.deepEqual(value, { a: ['x', { b: 'y', n: 1, none: undefined }], c: 'x' });
    assert.deepEqual([...table.keys()].sort(), ['x', 'y']);
  });
});
