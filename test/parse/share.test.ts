/** Shared strings: the facts keep their values, equal strings become one, and nothing else changes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deserialize, serialize } from 'node:v8';
import { extractFile, packFacts, shareStrings, unpackFacts, type StringTable } from '../../src/parse/index.js';

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

  it('packFacts with a table shares as shareStrings does, and writes the bytes it writes without one', () => {
    const facts = extractFile('p/a.go', source);
    const plain = packFacts(deserialize(serialize(facts)));
    const byWalk: StringTable = new Map();
    const walked = shareStrings(deserialize(serialize(facts)), byWalk);
    const byPack: StringTable = new Map();
    const packed = deserialize(serialize(facts)) as typeof facts;
    const bytes = packFacts(packed, byPack);
    assert.deepEqual(Buffer.from(bytes), Buffer.from(plain), 'the same bytes');
    assert.deepEqual(packed, facts, 'the facts keep their values');
    assert.deepEqual([...byPack.keys()].sort(), [...byWalk.keys()].sort(), 'the same strings are kept');
    assert.deepEqual(unpackFacts(bytes), walked);
    // Strings are replaced in place by the table's values: with values that differ from their keys,
    // every string of the facts, in records and in arrays, must come out as its key's value.
    const tagged: StringTable = new Map([...byPack.keys()].map((k) => [k, `${k}\u0001`]));
    const probe = deserialize(serialize(facts)) as typeof facts;
    const tokens = packFacts(probe, tagged);
    const strings: string[] = [];
    const collect = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object') Object.values(v).forEach(collect);
    };
    collect(probe);
    assert.ok(strings.length > 10, 'the facts have strings');
    for (const str of strings) assert.ok(str.endsWith('\u0001'), `${JSON.stringify(str)} was replaced`);
    assert.deepEqual(unpackFacts(tokens), probe, 'the bytes hold the replaced strings');
    // The very copies, not equal strings: sliced from a text with a char beyond Latin-1, a name takes
    // two bytes a char (and keeps the text alive); the table's copy takes one. node:v8 writes what it holds.
    const wide = Buffer.from('package p\n\n// ☃\nfunc startTheHousekeeping(podStatusProvider string) { syncTheLoopOnce(podStatusProvider) }\n\nfunc syncTheLoopOnce(podStatusProvider string) {}\n');
    const sliced = extractFile('p/w.go', wide);
    const copied = shareStrings(extractFile('p/w.go', wide), new Map());
    packFacts(sliced, new Map());
    assert.deepEqual(serialize(sliced), serialize(copied), 'packFacts left the strings sliced from the text');
    const text = '☃ podStatusProviderName';
    const inArrays = { names: [text.slice(2), [text.slice(2)]], one: text.slice(2) };
    packFacts(inArrays as unknown as typeof facts, new Map());
    const flat = 'podStatusProviderName';
    assert.deepEqual(serialize(inArrays), serialize({ names: [flat, [flat]], one: flat }), 'strings in arrays are the copies too');
    // Strings straight inside arrays too (a record's list of names).
    const value = { a: ['x', { b: 'y' }, ['x']], c: 'x' };
    packFacts(value as unknown as typeof facts, new Map([['x', 'X'], ['y', 'Y']]));
    assert.deepEqual(value, { a: ['X', { b: 'Y' }, ['X']], c: 'X' });
  });
});
