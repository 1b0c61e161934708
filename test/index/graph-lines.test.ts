/**
 * The check of a first move of a file's lines (see movedGraph in build.ts): the graph file's tables
 * read a piece at a time where they lie (withGraphLines), alone or with the state's delta, and each
 * line the graph holds in a moved file looked up in the move's map (movesFit), without moving any.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex, indexDir, type IndexOptions } from '../../src/index/build.js';
import { withGraphLines, writeGraphFile } from '../../src/index/cache.js';
import { decodePacked, EDGE_LINE, EDGE_W, encodePacked, packGraph, unpackGraph, type PackedGraph } from '../../src/graph/pack.js';
import { forgetPackDeltaBase, packDelta, packDeltaBytes, packWritten, type PackDelta } from '../../src/graph/pack-delta.js';
import { symbolName } from '../../src/graph/lookup.js';
import type { SymbolFields } from '../../src/resolve/index.js';
import { movesFit, type LineTable, type PackedLines } from '../../src/graph/remap.js';
import { defaultBuildContext } from '../../src/source/index.js';
import type { Graph, SymbolRecord } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');
const KUBELET = 'pkg/kubelet/kubelet.go';

function tree(): IndexOptions {
  const root = tempDir('ka-lines-tree-');
  cpSync(fixture, root, { recursive: true });
  return { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-lines-cache-'), workers: 0 };
}

/** The fixture's graph, with `extra` edges more (copies of its first edge on lines of their own): a table of several pieces. */
function graphWith(extra: number): Graph {
  const g = buildIndex({ ...tree(), fresh: true }).graph;
  const e = g.edges[0];
  return { ...g, edges: [...g.edges, ...Array.from({ length: extra }, (_, k) => ({ ...e, line: 100_000 + k }))] };
}

/** Everything withGraphLines hands over, tables joined. */
function readAll(g: PackedLines): { rows: Record<LineTable, number[]>; pieces: number; fileId: (file: string) => number | undefined; rest: unknown } {
  let pieces = 0;
  const rows = { edges: [], symbols: [], unresolved: [] } as Record<LineTable, number[]>;
  for (const t of ['edges', 'symbols', 'unresolved'] as const) {
    g.rows(t, (a) => {
      pieces++;
      for (const x of a) rows[t].push(x);
    });
  }
  return { rows, pieces, fileId: (file) => g.fileId(file), rest: g.rest };
}

/** A packed graph's own tables, as readAll gives them. */
function tablesOf(p: PackedGraph): Record<LineTable, number[]> {
  return { edges: [...p.edges], symbols: [...p.symbols], unresolved: [...p.unresolved] };
}

/** Where `g`'s rows hold lines of `file`: each line once. */
function linesIn(g: Graph, file: string): number[] {
  const lines = new Set<number>();
  for (const e of g.edges) if (e.file === file) lines.add(e.line);
  for (const s of g.symbols) if (s.file === file && s.kind !== 'package') lines.add(s.line).add(s.endLine);
  for (const u of g.unresolved) if (u.file === file) lines.add(u.line);
  for (const c of g.channels) if (c.file === file) lines.add(c.line);
  for (const r of g.goroutines) if (r.file === file) lines.add(r.line);
  for (const d of g.diagnostics) if (d.file === file && d.line !== undefined) lines.add(d.line);
  for (const c of g.channels) for (const o of c.origins ?? []) if (o.startsWith(`make@${file}:`)) lines.add(Number(o.slice(`make@${file}:`.length)));
  return [...lines];
}

describe('the check of lines moved for the first time', () => {
  it('reads the graph file\'s tables a piece at a time, as they are packed', () => {
    const g = graphWith(40_000);
    const packed = packGraph(g);
    const file = join(tempDir('ka-lines-'), 'graph.bin');
    writeGraphFile(file, 'L0', encodePacked(packed));
    const read = withGraphLines(file, 'L0', undefined, readAll);
    assert.ok(read);
    assert.deepEqual(read.rows, tablesOf(packed));
    assert.ok(read.pieces > 3, `the edges come in pieces (${read.pieces} pieces in all)`);
    for (const f of new Set(g.edges.map((e) => e.file))) assert.equal(packed.strings[read.fileId(f)!], f);
    assert.equal(read.fileId('pkg/kubelet/not_in_the_graph.go'), undefined);
    assert.deepEqual(read.rest, packed.rest);
    assert.equal(withGraphLines(file, 'L1', undefined, readAll), undefined, 'another label');
    assert.equal(withGraphLines(join(file, '..', 'none.bin'), 'L0', undefined, readAll), undefined, 'no file');
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 1000));
    assert.equal(withGraphLines(file, 'L0', undefined, readAll), undefined, 'a file cut short');
    writeGraphFile(file, 'L0', [Buffer.from('KAP2 damaged')]);
    assert.equal(withGraphLines(file, 'L0', undefined, readAll), undefined, 'a damaged body');
  });

  it('reads them through the state\'s delta: the tables the graph file and the delta make together', () => {
    const g = graphWith(40_000);
    const packed = packGraph(g);
    const file = join(tempDir('ka-lines-'), 'graph.bin');
    const base = encodePacked(packed);
    writeGraphFile(file, 'L0', base);
    forgetPackDeltaBase();
    packWritten(file, g, 'L0', packed.strings);
    const e = g.edges;
    const next: Graph = {
      ...g,
      edges: [...e.slice(0, 10), { ...e[0], file: 'pkg/kubelet/new_file.go', line: 7 }, ...e.slice(12, 30_000), { ...e[1], line: 4242 }, ...e.slice(30_000)],
      symbols: g.symbols.slice(1),
      unresolved: g.unresolved.slice(0, -1),
      goroutines: g.goroutines.slice(1),
    };
    const d = packDelta(file, next, { base: 'L0', holds: 'L0', moves: false });
    assert.ok(d);
    const whole = decodePacked(Buffer.concat(packDeltaBytes(Buffer.concat(base), d)));
    const read = withGraphLines(file, 'L0', d, readAll);
    assert.ok(read);
    assert.deepEqual(read.rows, tablesOf(whole));
    assert.deepEqual(read.rest, whole.rest);
    assert.equal(whole.strings[read.fileId('pkg/kubelet/new_file.go')!], 'pkg/kubelet/new_file.go', 'a file only the delta names');
    assert.equal(whole.strings[read.fileId(KUBELET)!], KUBELET);
    assert.equal(withGraphLines(file, 'L0', { ...d, baseStrings: d.baseStrings + 1 }, readAll), undefined, 'a delta for another string table');
    forgetPackDeltaBase();
  });

  it('finds whether each line the graph holds in a moved file has a place', () => {
    const g = buildIndex({ ...tree(), fresh: true }).graph;
    const packed = packGraph(g);
    const file = join(tempDir('ka-lines-'), 'graph.bin');
    writeGraphFile(file, 'L0', encodePacked(packed));
    const fits = (moves: [string, Map<number, number>][]) => withGraphLines(file, 'L0', undefined, (lines) => movesFit(lines, moves));
    const lines = linesIn(g, KUBELET);
    assert.ok(lines.length > 10 && g.channels.some((c) => c.file === KUBELET), 'the fixture has rows and channel operations in kubelet.go');
    const all = new Map(lines.map((l) => [l, l + 1]));
    assert.equal(fits([[KUBELET, all]]), true);
    for (const [what, line] of [['an edge', g.edges.find((e) => e.file === KUBELET)!.line], ['a symbol\'s end', g.symbols.find((s) => s.file === KUBELET && s.kind !== 'package')!.endLine], ['a channel operation', g.channels.find((c) => c.file === KUBELET)!.line]] as const) {
      const less = new Map(all);
      less.delete(line);
      assert.equal(fits([[KUBELET, less]]), false, `${what}'s line missing`);
      assert.equal(fits([['pkg/kubelet/pleg/generic.go', new Map(linesIn(g, 'pkg/kubelet/pleg/generic.go').map((l) => [l, l]))], [KUBELET, less]]), false, `${what}'s line missing, a second move first`);
    }
    // The package's own record stands at line 1 of its first file without being there: not looked up.
    const first = g.symbols.find((s) => s.kind === 'package')!;
    const withoutOne = new Map(linesIn(g, first.file).filter((l) => l !== 1).map((l) => [l, l]));
    assert.ok(!linesIn({ ...g, symbols: g.symbols.filter((s) => s !== first) }, first.file).includes(1), 'nothing else of the file at line 1');
    assert.equal(fits([[first.file, withoutOne]]), true);
    assert.equal(fits([['pkg/kubelet/not_in_the_graph.go', new Map()]]), true, 'a file the graph does not name');
  });

  it('finds whether each symbol of a move with fields has fields under its name, through the delta\'s strings too', () => {
    const g = buildIndex({ ...tree(), fresh: true }).graph;
    const own = g.symbols.filter((s) => s.file === KUBELET && s.kind !== 'package');
    const fieldsFor = (symbols: SymbolRecord[]): SymbolFields => {
      const out: SymbolFields = new Map();
      for (const s of symbols) {
        const name = symbolName(s.id, s.pkg);
        out.set(name, [...(out.get(name) ?? []), { fingerprint: `f-${s.line}` }]);
      }
      return out;
    };
    const lines = new Map(linesIn(g, KUBELET).map((l) => [l, l]));
    const file = join(tempDir('ka-lines-'), 'graph.bin');
    const packed = packGraph(g);
    writeGraphFile(file, 'L0', encodePacked(packed));
    const fits = (fields: SymbolFields, delta?: PackDelta) => withGraphLines(file, 'L0', delta, (l) => movesFit(l, [[KUBELET, lines, fields]]));
    assert.ok(own.length > 5);
    assert.equal(fits(fieldsFor(own)), true);
    assert.equal(fits(fieldsFor(own.slice(1))), false, 'a symbol with no fields');
    // A symbol the delta adds, named with strings only the delta has.
    forgetPackDeltaBase();
    packWritten(file, g, 'L0', packed.strings);
    const added: SymbolRecord = { ...own[0], id: `${own[0].pkg}.linesOnlyInTheDelta`, name: 'linesOnlyInTheDelta', line: own[0].line };
    const d = packDelta(file, { ...g, symbols: [...g.symbols, added] }, { base: 'L0', holds: 'L0', moves: false });
    assert.ok(d && d.strings.includes(added.id));
    assert.equal(fits(fieldsFor(own), d), false, 'the added symbol has no fields');
    assert.equal(fits(fieldsFor([...own, added]), d), true);
    // Two symbols of one name (a file's init functions): each takes the next fields listed under it.
    packWritten(file, g, 'L0', packed.strings);
    const twice = packDelta(file, { ...g, symbols: [...g.symbols, added, { ...added }] }, { base: 'L0', holds: 'L0', moves: false });
    assert.ok(twice);
    assert.equal(fits(fieldsFor([...own, added]), twice), false, 'one entry for two symbols');
    assert.equal(fits(fieldsFor([...own, added, added]), twice), true);
    forgetPackDeltaBase();
  });

  it('resolves again when the graph file holds a line of the edited file that its facts do not', () => {
    const loc = tree();
    buildIndex(loc);
    const file = join(indexDir(loc), 'graph.bin');
    const bytes = readFileSync(file);
    const labelLength = bytes.readUInt32LE(4);
    const label = bytes.toString('utf8', 8, 8 + labelLength);
    const packed = decodePacked(bytes.subarray((8 + labelLength + 7) & ~7));
    // An edge of kubelet.go on a line no call stands on, in a graph file with the label the state names.
    const id = packed.strings.indexOf(KUBELET);
    const o = [...Array(packed.edges.length / EDGE_W).keys()].map((r) => r * EDGE_W).find((at) => packed.edges[at + EDGE_LINE.file] === id)!;
    const edges = packed.edges.slice();
    edges[o + EDGE_LINE.line] = 99_999;
    writeGraphFile(file, label, encodePacked({ ...packed, edges }));
    const src = join(loc.root, KUBELET);
    writeFileSync(src, '// a line put first\n' + readFileSync(src, 'utf8'));
    const built = buildIndex(loc);
    assert.equal(built.cutOff, undefined, 'resolved again');
    const fresh = buildIndex({ ...loc, cacheDir: tempDir('ka-lines-ref-') }).graph;
    assert.deepEqual(unpackGraph(packGraph(built.graph)), unpackGraph(packGraph(fresh)));
  });
});
