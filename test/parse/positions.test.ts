/**
 * positionShift tells an edit that only moved things (comments, blank lines, spacing) from one that
 * changed what the facts say, and maps old lines to new; remapLines moves a graph's lines with it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractAll, factsShift, positionShift, recordsShift } from '../../src/parse/index.js';
import { symbolFields } from '../../src/resolve/index.js';
import { remapLines } from '../../src/graph/index.js';
import type { Graph } from '../../src/model/index.js';

const facts = (src: string) => extractAll([{ path: 'a.go', bytes: Buffer.from(src) }], { workers: 0 })[0];

const BASE = `package a

// Run starts the loop.
func Run(ch chan int) {
	x := make(chan int)
	go func() { x <- 1 }()
	for v := range x {
		ch <- v
	}
}

func other() { Run(nil) }
`;

describe('positionShift', () => {
  it('maps every line to itself when nothing moved', () => {
    const lines = positionShift(facts(BASE), facts(BASE));
    assert.ok(lines);
    for (const [a, b] of lines) assert.equal(a, b);
  });

  it('maps old lines to new ones when comments and blank lines are added', () => {
    const edited = BASE.replace('package a\n', '// Package a.\npackage a\n\n').replace('\tfor v', '\t// drain it\n\tfor v');
    const lines = positionShift(facts(BASE), facts(edited));
    assert.ok(lines);
    assert.equal(lines.get(4), 6, 'Run moved down by two');
    assert.equal(lines.get(7), 10, 'the loop moved down by three');
    assert.equal(lines.get(12), 15);
  });

  it('accepts spacing changed within a line (offsets move, lines do not)', () => {
    const lines = positionShift(facts(BASE), facts(BASE.replace('x := make', 'x  :=  make')));
    assert.ok(lines);
    for (const [a, b] of lines) assert.equal(a, b);
  });

  it('refuses an edit that changes what the facts say', () => {
    assert.equal(positionShift(facts(BASE), facts(BASE.replace('Run(nil)', 'Run(make(chan int))'))), undefined);
    assert.equal(positionShift(facts(BASE), facts(BASE.replace('// Run starts the loop.', '// Run runs.'))), undefined, 'a doc comment is a fact');
    assert.equal(positionShift(facts(BASE), facts(BASE + '\nfunc more() {}\n')), undefined);
  });

  it('factsShift lets docs and fingerprints differ, and says so; nothing else', () => {
    const withText = BASE.replace('\tfor v', '\tprintln("draining")\n\tfor v');
    assert.deepEqual(factsShift(facts(BASE), facts(BASE))?.symbols, false);
    const doc = factsShift(facts(BASE), facts(BASE.replace('// Run starts the loop.', '// Run runs.\n// It never returns.')));
    assert.equal(doc?.symbols, true, 'a doc comment: the record changes, nothing resolution reads');
    assert.equal(doc?.lines.get(12), 13, 'and the lines below it moved');
    const literal = factsShift(facts(withText), facts(withText.replace('"draining"', '"draining the channel"')));
    assert.equal(literal?.symbols, true, 'a string literal is in the fingerprint only');
    assert.equal(positionShift(facts(withText), facts(withText.replace('"draining"', '"draining the channel"'))), undefined);
    assert.equal(factsShift(facts(BASE), facts(BASE.replace('Run(nil)', 'Run(make(chan int))'))), undefined, 'a call changed');
    assert.equal(factsShift(facts(BASE), facts(BASE.replace('func other()', 'func other2()'))), undefined, 'a name changed');
    assert.equal(factsShift(facts(withText), facts(withText.replace('"draining"', '42'))), undefined, 'another kind of literal');
  });

  it('symbolFields lists each declaration\'s doc and fingerprint by its name in the package, in file order', () => {
    const src = 'package a\n\n// T is a type.\ntype T struct{}\n\n// M is a method.\nfunc (t *T) M() { go func() {}() }\n\n// One.\nvar _ = 1\nvar _ = 2\n';
    const fields = symbolFields(facts(src));
    assert.equal(fields.get('T')?.[0].doc, 'T is a type.');
    assert.equal(fields.get('(*T).M')?.[0].doc, 'M is a method.');
    assert.ok(fields.get('(*T).M.func1')?.[0].fingerprint, 'closures have their own');
    assert.deepEqual(fields.get('_')?.map((f) => f.doc), ['One.', undefined], 'a repeated name keeps its order');
    assert.deepEqual(fields.get('_')?.map((f) => f.fingerprint), ['', ''], 'values have no fingerprint');
  });

  it('refuses positions that stop being one to one', () => {
    // Two calls, each with its line in the facts, put on one line.
    const two = 'package a\n\nfunc f() {\n\tg()\n\tg()\n}\n\nfunc g() {}\n';
    assert.equal(factsShift(facts(two), facts(two.replace('g()\n\tg()', 'g(); g()'))), undefined);
  });

  it('refuses positions whose order changes, small or past 2^26', () => {
    const at = (l1: number, l2: number, p1: number, p2: number) => [{ line: l1, pos: p1 }, { line: l2, pos: p2 }];
    assert.deepStrictEqual(recordsShift(at(1, 2, 10, 20), at(3, 4, 11, 21))?.lines, new Map([[1, 3], [2, 4]]));
    assert.equal(recordsShift(at(1, 2, 10, 20), at(4, 3, 11, 21)), undefined);
    assert.equal(recordsShift(at(1, 2, 10, 20), at(3, 4, 21, 11)), undefined);
    const big = 2 ** 26;
    assert.deepStrictEqual(recordsShift(at(1, 2, big, big + 9), at(1, 2, big + 1, big + 10))?.lines, new Map([[1, 1], [2, 2]]));
    assert.equal(recordsShift(at(1, 2, big, big + 9), at(1, 2, big + 10, big + 1)), undefined);
  });
});

describe('remapLines', () => {
  const graph: Graph = {
    root: '/r', modulePath: 'm', context: { goos: 'linux', goarch: 'amd64', tags: [], cgo: true, includeTests: false },
    symbols: [{ id: 'm.f', kind: 'func', pkg: 'm', name: 'f', file: 'a.go', line: 3, endLine: 5, fingerprint: 'x', active: true }],
    edges: [
      { caller: 'm.f', callee: 'm.g', kind: 'static', mode: 'call', file: 'a.go', line: 4, how: 'pkg-func', confidence: 1 },
      { caller: 'm.h', callee: 'm.f', kind: 'static', mode: 'call', file: 'b.go', line: 4, how: 'pkg-func', confidence: 1 },
    ],
    unresolved: [],
    channels: [{ fn: 'm.h', op: 'send', channel: 'm.c', expr: 'c', file: 'b.go', line: 9, origins: ['make@a.go:4', 'make@b.go:4'] }],
    goroutines: [],
    diagnostics: [],
    stats: {},
  };

  it('moves the lines of the one file, in every record and in channel origins from other files', () => {
    const moved = remapLines(graph, 'a.go', new Map([[3, 5], [4, 6], [5, 7]]));
    assert.ok(moved);
    assert.deepEqual([moved.symbols[0].line, moved.symbols[0].endLine], [5, 7]);
    assert.deepEqual(moved.edges.map((e) => e.line), [6, 4]);
    assert.deepEqual(moved.channels[0].origins, ['make@a.go:6', 'make@b.go:4']);
    assert.equal(moved.channels[0].line, 9);
  });

  it('refuses a line the map does not know', () => {
    assert.equal(remapLines(graph, 'a.go', new Map([[3, 5], [5, 7]])), undefined);
  });
});
