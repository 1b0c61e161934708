/**
 * The query store answers exactly what the in-memory graph answers: the same symbols for full and
 * short names, the same callers and callees in the same order, the same paths; and it goes stale when
 * a file in scope changes.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex, indexDir, openStore } from '../../src/index/build.js';
import { readStore, storeOnDisk } from '../../src/index/stored.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { bufferBytes, encodeStore, GraphStore, GraphView, SymbolTable } from '../../src/graph/index.js';
import { lastName } from '../../src/graph/lookup.js';
import { loadAddon } from '../../src/parse/addon.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');

describe('query store', () => {
  let graph: Graph;
  let memory: { table: SymbolTable; view: GraphView };
  let stored: { table: SymbolTable; view: GraphView };
  before(() => {
    graph = buildIndex({ root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-store-'), fresh: true }).graph;
    memory = { table: new SymbolTable(graph.symbols), view: new GraphView(graph) };
    const store = new GraphStore(bufferBytes(encodeStore(graph, 'test')));
    stored = { table: new SymbolTable(store), view: new GraphView(store) };
  });

  it('keeps, for an ID with records in several build variants, the active one, in memory and in the store', () => {
    // The same function declared in two files under different build constraints: one is built here.
    const base = graph.symbols.find((s) => s.kind === 'func')!;
    const inactive = { ...base, file: 'other_windows.go', active: false, constraint: 'windows' };
    const active = { ...base, file: 'other_linux.go', active: true, constraint: 'linux' };
    const later = { ...base, file: 'third_linux.go', active: true, constraint: 'linux' };
    const variants: Graph = { ...graph, symbols: [inactive, ...graph.symbols.filter((s) => s.id !== base.id), active, later] };
    const table = new SymbolTable(variants.symbols);
    assert.equal(table.get(base.id)?.file, 'other_linux.go', 'the first active record, not the inactive one before it');
    const store = new SymbolTable(new GraphStore(bufferBytes(encodeStore(variants, 'variants'))));
    assert.equal(store.get(base.id)?.file, 'other_linux.go');
    // With none active, the first record stays.
    const none: Graph = { ...graph, symbols: [inactive, ...graph.symbols.filter((s) => s.id !== base.id), { ...inactive, file: 'x_darwin.go' }] };
    assert.equal(new SymbolTable(none.symbols).get(base.id)?.file, 'other_windows.go');
    assert.equal(new SymbolTable(new GraphStore(bufferBytes(encodeStore(none, 'none')))).get(base.id)?.file, 'other_windows.go');
  });

  it('looks up every symbol by ID and the same short forms', () => {
    for (const s of graph.symbols) assert.equal(stored.table.get(s.id)?.id, s.id);
    for (const q of ['Kubelet.syncLoop', '(*Kubelet).syncLoopIteration', 'pleg.GenericPLEG.Relist', 'Relist', 'NewMainKubelet', 'no.such.Thing', 'syncLop']) {
      // Records from a fresh build carry `undefined` fields that a stored record leaves out.
      assert.deepEqual(stored.table.lookup(q), JSON.parse(JSON.stringify(memory.table.lookup(q))), q);
    }
  });

  it('searches as the graph does, the same hits in the same order, reading only the records that may hold the text', () => {
    const texts = ['syncLoop', 'Relist', 'pleg', 'kubelet', 'Kind', 'true', 'a', 'k', 'x', 'PodWorkers', 'no such text', '', '"', 'Ü'];
    for (const t of texts) {
      assert.deepEqual(stored.view.search(t, stored.table.holding(t.toLowerCase())), JSON.parse(JSON.stringify(memory.view.search(t, memory.table.all()))), t);
      // The first hits of a text most symbols hold (every ID holds "k"): the sort's cut keeps the order.
      for (const limit of [1, 7, 30]) {
        // All hits sorted (a limit past their count), then cut: what the cut sort must give.
        const all = stored.view.search(t, stored.table.all(), 100_000).slice(0, limit);
        assert.deepEqual(stored.view.search(t, stored.table.holding(t.toLowerCase()), limit), all, `${t}, ${limit} hits`);
      }
    }
    const store = new GraphStore(bufferBytes(encodeStore(graph, 'test')));
    const read = [...store.symbolsHolding('relist')].length;
    assert.ok(read > 0 && read < graph.symbols.length / 10, `${read} records read of ${graph.symbols.length}`);
    // A text most records hold: every record, as without the cut.
    assert.equal([...store.symbolsHolding('k8s.io')].length, [...store.allSymbols()].length);
    // A key of every record's JSON ("kind", "line" in "endLine", "name"), a quote, a backslash, a
    // letter past ASCII: exactly the records whose ID, name or doc holds it once lower cased.
    const holds = (r: { id: string; name: string; doc?: string }, t: string) => [r.id, r.name, r.doc ?? ''].some((x) => x.toLowerCase().includes(t));
    for (const key of ['kind', 'line', 'name', 'nd', 'relist', '"', '\\', 'ü', 'pleg.(*']) {
      const records = [...store.symbolsHolding(key)];
      assert.deepEqual(records.map((r) => r.id), [...store.allSymbols()].filter((r) => holds(r, key)).map((r) => r.id), key);
      assert.ok(records.length < graph.symbols.length / 2, `${key}: ${records.length} records read of ${graph.symbols.length}`);
    }
    // From the bytes or from the file, the records read a few bytes at a time where every record is
    // read (a text most records hold: a record's start at a piece's end): the same records as read whole.
    const cache = tempDir('ka-store-chunks-');
    buildIndex({ root: fixture, ctx: defaultBuildContext(), cacheDir: cache });
    // The file read as sections are asked for, and mapped (where the addon is built).
    const onDisk = (['read', 'map'] as const).map((how) => readStore({ root: fixture, ctx: defaultBuildContext(), cacheDir: cache }, how)!);
    const ids = (s: GraphStore, t: string, chunk?: number) => [...s.symbolsHolding(t, chunk)].map((r) => r.id);
    for (const t of ['relist', 'syncloop', 'kubelet.(*', 'k', 'kind', 'no such text', 'pleg.', 'i', 'line', 'name', 'nd', 'typekind', 'k8s.io', 'func']) {
      const whole = ids(store, t);
      for (const chunk of [1, 2, 3, 5, 64, 1000]) {
        assert.deepEqual(ids(store, t, chunk), whole, `${t}, read ${chunk} bytes at a time`);
        for (const [k, s] of onDisk.entries()) assert.deepEqual(ids(s, t, chunk), whole, `${t}, read ${chunk} bytes at a time from the file${k ? ', mapped' : ''}`);
      }
    }
    for (const s of onDisk) s.close();
    // The IDs by their last names, from the file read as asked and from the map (stores that have not
    // read their names whole): the same IDs.
    const keep = (last: string) => /^[a-s]/i.test(last);
    const opened = (how: 'read' | 'map') => readStore({ root: fixture, ctx: defaultBuildContext(), cacheDir: cache }, how)!;
    const [byRead, byMap] = [opened('read'), opened('map')];
    assert.deepEqual(byMap.symbolIdsByLastName(keep, 3, 12), byRead.symbolIdsByLastName(keep, 3, 12));
    assert.ok(byMap.symbolIdsByLastName(keep, 3, 12).length > 10);
    assert.deepEqual(byMap.symbolIdsByLastName(() => true), store.symbolIds(), 'every ID, the last one too');
    byRead.close();
    byMap.close();
  });

  it('finds in a search the records whose text lowers to ASCII from the two characters past it that do so', () => {
    const base = graph.symbols.find((s) => s.kind === 'func')!;
    const kelvin = { ...base, id: `${base.pkg}.temperature`, name: 'temperature', doc: 'in \u212Aelvin' };
    const taxi = { ...base, id: `${base.pkg}.fare`, name: 'fare', doc: 'by TAX\u0130' };
    const g: Graph = { ...graph, symbols: [...graph.symbols, kelvin, taxi] };
    const store = new GraphStore(bufferBytes(encodeStore(g, 'letters')));
    const view = new GraphView(store);
    const table = new SymbolTable(store);
    assert.deepEqual(view.search('kelvin', table.holding('kelvin')).map((r) => r.id), [kelvin.id]);
    assert.deepEqual(view.search('taxi', table.holding('taxi')).map((r) => r.id), [taxi.id]);
    // Their bytes across two pieces of a scan that reads a few bytes at a time.
    for (const chunk of [1, 2, 3, 4]) {
      assert.ok([...store.symbolsHolding('kelvin', chunk)].some((r) => r.id === kelvin.id), `kelvin, ${chunk} bytes at a time`);
      assert.ok([...store.symbolsHolding('taxi', chunk)].some((r) => r.id === taxi.id), `taxi, ${chunk} bytes at a time`);
    }
    // Lines moved with new docs: every record is read (its JSON's doc is not the one a query reads).
    store.moveLines([[base.file, new Map([[base.line, base.line]]), new Map([[base.name, [{ doc: 'kelvin again', fingerprint: base.fingerprint }]]])]]);
    assert.equal([...store.symbolsHolding('relist')].length, [...store.allSymbols()].length);
  });

  it('suggests for a mistyped name the nearest names, those of the type it was qualified with first', () => {
    const near = (q: string) => { const r = stored.table.lookup(q); assert.equal(r.ok, false); return (r as { candidates: string[] }).candidates; };
    assert.deepEqual(near('Kubelet.syncLop'), memory.table.nearest('syncLop', 5, 'Kubelet'));
    assert.equal(near('Kubelet.syncLop')[0], 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoop');
    // Without a qualifier, the order is by distance, then length, then ID.
    assert.deepEqual(stored.table.nearest('syncLop', 5), memory.table.nearest('syncLop', 5));
    for (const q of ['Relst', 'PodWorker', 'x', 'NewMainKubelt', 'func1', 'Kubelet']) assert.deepEqual(stored.table.nearest(q, 5), memory.table.nearest(q, 5), q);
  });

  it('gives every record reading their JSON a few bytes at a time, with lines moved or not', () => {
    const bytes = encodeStore(graph, 'test');
    const want = JSON.stringify([...new GraphStore(bufferBytes(bytes)).allSymbols()]);
    for (const chunk of [1, 3, 100, 5000]) assert.equal(JSON.stringify([...new GraphStore(bufferBytes(bytes)).allSymbols(chunk)]), want, `${chunk} bytes at a time`);
    // Some parsed before (a lookup), the rest in pieces.
    const some = new GraphStore(bufferBytes(bytes));
    for (const s of graph.symbols.slice(0, 40)) some.get(s.id);
    assert.equal(JSON.stringify([...some.allSymbols(64)]), want);
    const f = graph.symbols.find((s) => s.kind === 'func' && s.line > 3)!;
    const moved = (chunk?: number) => {
      const store = new GraphStore(bufferBytes(bytes));
      store.moveLines([[f.file, new Map([[f.line, f.line + 5]])]]);
      return [...store.allSymbols(chunk)];
    };
    assert.equal(moved(7).find((r) => r.id === f.id)!.line, f.line + 5);
    assert.equal(JSON.stringify(moved(7)), JSON.stringify(moved()));
  });

  it('finds the IDs by their last names from the store\'s last names, or from the names read whole', () => {
    // Last names past ASCII: fewer characters than bytes (Größe: 5 and 6; 尺寸: 2 and 6).
    const base = graph.symbols.find((s) => s.kind === 'func')!;
    const wide = ['Größe', '尺寸', 'größe'].map((name) => ({ ...base, id: `${base.pkg}.${name}`, name }));
    const g: Graph = { ...graph, symbols: [...graph.symbols, ...wide] };
    const bytes = encodeStore(g, 'test');
    // A store that has not read its names whole (symbolIds does).
    const fresh = () => new GraphStore(bufferBytes(bytes));
    const ids = fresh().symbolIds();
    const byLength = (min: number, max: number, keep: (l: string) => boolean) => ids.filter((id) => { const l = lastName(id); return l.length >= min && l.length <= max && keep(l); });
    const cases: [number, number, (l: string) => boolean][] = [[4, 9, (l) => /^[a-m]/i.test(l)], [5, 5, () => true], [2, 2, () => true], [0, Infinity, (l) => l.length % 2 === 0], [6, 6, () => true]];
    for (const [min, max, keep] of cases) {
      const want = byLength(min, max, keep);
      assert.deepEqual(fresh().symbolIdsByLastName(keep, min, max), want, `${min} to ${max}`);
      // With the names read whole (a path search reads them), the same.
      const read = fresh();
      read.nodeNames();
      assert.deepEqual(read.symbolIdsByLastName(keep, min, max), want, `${min} to ${max}, names read whole`);
    }
    assert.ok(byLength(4, 9, (l) => /^[a-m]/i.test(l)).length > 5);
    assert.ok(byLength(5, 5, () => true).includes(wide[0].id) && byLength(2, 2, () => true).includes(wide[1].id), 'the last names past ASCII are measured in characters');
    assert.ok(!byLength(6, 6, () => true).includes(wide[0].id));
    // Each distinct last name is asked once (Größe and größe are two).
    const asked: string[] = [];
    assert.deepEqual(fresh().symbolIdsByLastName((l) => (asked.push(l), true), 0, Infinity), ids);
    assert.equal(new Set(asked).size, asked.length);
    assert.ok(asked.includes('Größe') && asked.includes('größe'));
  });

  it('gives every node the same callers and callees, in the same order', () => {
    const ids = new Set(graph.edges.flatMap((e) => [e.caller, e.callee]));
    assert.ok(ids.size > 100);
    for (const id of ids) {
      assert.deepEqual(stored.view.callees(id), memory.view.callees(id), `callees of ${id}`);
      assert.deepEqual(stored.view.callers(id), memory.view.callers(id), `callers of ${id}`);
    }
    assert.deepEqual(stored.view.callers('not.a.symbol'), []);
  });

  it('finds the same paths and call trees', () => {
    const main = 'k8s.io/kubernetes/cmd/kubelet.main';
    const loop = 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoopIteration';
    const path = stored.view.path(main, loop);
    assert.ok(path && path.length > 3);
    assert.deepEqual(path, memory.view.path(main, loop));
    assert.deepEqual(stored.view.calleeTree(main, 3), memory.view.calleeTree(main, 3));
    // Every node as a target, from two starting points: same path or same absence.
    const ids = [...new Set(graph.edges.map((e) => e.callee))].sort();
    for (const from of [main, 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).Run']) {
      for (const to of ids) assert.deepEqual(stored.view.path(from, to), memory.view.path(from, to), `${from} → ${to}`);
    }
    assert.equal(stored.view.path(main, 'no.such'), undefined);
  });

  it('is written by a build and goes stale when a file in scope changes', () => {
    const root = tempDir('ka-store-tree-');
    cpSync(fixture, root, { recursive: true });
    const loc = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-store-cache-') };
    buildIndex(loc);
    assert.ok(openStore(loc), 'fresh after a build');
    assert.ok(readFileSync(join(indexDir(loc), 'query.bin')).length > 1000);
    const file = join(root, 'pkg/kubelet/kubelet.go');
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    assert.equal(openStore(loc), undefined, 'stale after a file changed');
    buildIndex(loc);
    const store = openStore(loc);
    assert.ok(store, 'a build with the same bytes refreshes the manifest');
    store.close();
    assert.throws(() => new SymbolTable(store).lookup('Kubelet.syncLoop'), /closed/, 'nothing is read after close()');
  });

  it('maps the sections of the store a query reads, but not where a build reads its header (a watch would keep each map until a collection)', { skip: existsSync('/proc/self/maps') ? false : 'needs /proc/self/maps' }, () => {
    const loc = { root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-store-maps-') };
    buildIndex(loc);
    const file = join(indexDir(loc), 'query.bin');
    const mapped = () => readFileSync('/proc/self/maps', 'utf8').includes(file);
    assert.ok(storeOnDisk(indexDir(loc)).base, 'the store is there');
    assert.equal(mapped(), false, 'storeOnDisk leaves no map of the store');
    // A store whose names and records are sections of 64 KB and more (the fixture's are smaller, and
    // are read, not mapped): a query maps those it reads, and reads the same from them.
    const base = graph.symbols.find((s) => s.kind === 'func')!;
    const many = Array.from({ length: 3000 }, (_, i) => ({ ...base, id: `${base.pkg}.Generated${i}`, name: `Generated${i}`, doc: `Generated function number ${i}.` }));
    const big: Graph = { ...graph, symbols: [...graph.symbols, ...many] };
    writeFileSync(file, encodeStore(big, 'big'));
    const want = new GraphStore(bufferBytes(encodeStore(big, 'big')));
    const query = readStore(loc)!;
    assert.equal(mapped(), false, 'its header is read, not mapped');
    assert.deepEqual(query.symbolIds(), want.symbolIds());
    if (loadAddon('map_file')) assert.equal(mapped(), true, 'a query maps the sections it reads where the addon is built');
    assert.deepEqual(query.get(many[1234].id), want.get(many[1234].id));
    assert.deepEqual([...query.symbolsHolding('number 2999')].map((r) => r.id), [many[2999].id]);
    assert.deepEqual([...query.allSymbols()], [...want.allSymbols()]);
    query.close();
    assert.throws(() => query.callers(base.id), /closed/, 'no section is read after close()');
  });

  it('reads a store of another format as none, and leaves no file open', { skip: existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd to count open files' }, () => {
    const loc = { root: fixture, ctx: defaultBuildContext(), cacheDir: tempDir('ka-store-old-') };
    mkdirSync(indexDir(loc), { recursive: true });
    writeFileSync(join(indexDir(loc), 'query.bin'), Buffer.from('KAQ1 an older layout'));
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) assert.equal(readStore(loc), undefined);
    assert.equal(open(), before);
  });
});
