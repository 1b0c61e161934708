/**
 * The early cut-off: a rebuild whose changed files keep their facts reuses the stored graph without
 * resolving, and that graph is the one a fresh build makes; any change resolution could see (a new
 * call, a file leaving the build) resolves again. The query store is left as it is: only the manifest
 * file beside it is written.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex, indexDir, loadIndex, openStore, storedConcurrency, type IndexOptions, type IndexResult } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { extractAll } from '../../src/parse/index.js';
import { readFactsPack, readPack, writePack } from '../../src/index/cache.js';
import { encodeStore, moveStoreLines, remapLines, remapPackedLines } from '../../src/graph/index.js';
import { encodeFreshness, freshNow, manifestPaths, readFreshness } from '../../src/index/stored.js';
import { writeParts } from '../../src/index/atomic.js';
import { bufferBytes, GraphStore, moveStoreLinesParts } from '../../src/graph/store.js';
import { symbolName } from '../../src/graph/lookup.js';
import type { SymbolFields } from '../../src/resolve/symbols.js';
import { remapPackedBytes } from '../../src/graph/remap.js';
import { decodePacked, encodePacked, packGraph, summarize, unpackGraph } from '../../src/graph/pack.js';
import type { Graph } from '../../src/model/index.js';
import { tempDir } from '../helpers/temp.js';

const fixture = resolve('test/fixtures/go/kubelike');

function tree(): IndexOptions {
  const root = tempDir('ka-cutoff-tree-');
  cpSync(fixture, root, { recursive: true });
  return { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-cutoff-cache-'), workers: 0 };
}

function freshGraph(loc: IndexOptions): Graph {
  return buildIndex({ ...loc, cacheDir: tempDir('ka-cutoff-cache-') }).graph;
}

/** The graph as the graph pack keeps it (records without their undefined fields), so a loaded graph and a resolved one compare. */
function normal(g: Graph): Graph {
  return unpackGraph(packGraph(g));
}

/** The query store's bytes, as the last build at `loc` wrote them. */
function storeBytes(loc: IndexOptions): Buffer {
  return readFileSync(join(indexDir(loc), 'query.bin'));
}

/** What queries read from the store at `loc` (with any moves kept beside it applied): every record, and every symbol's callers and callees. */
function storeView(loc: IndexOptions): unknown {
  const store = openStore(loc);
  assert.ok(store, 'the query store is fresh after the build');
  try {
    const records = [...store.allSymbols()];
    return { records, edges: records.map((r) => [r.id, store.callers(r.id), store.callees(r.id)]) };
  } finally {
    store.close();
  }
}

/** Builds `body('\n\t')` as pkg/kubelet/extra.go, then `body('; ')`: the second build's cut-off, checked against a fresh build. */
function joinLines(body: (sep: string) => string): IndexResult['cutOff'] {
  const loc = tree();
  const file = join(loc.root, 'pkg/kubelet/extra.go');
  writeFileSync(file, body('\n\t'));
  buildIndex(loc);
  writeFileSync(file, body('; '));
  const second = buildIndex(loc);
  assert.deepEqual(normal(second.graph), normal(freshGraph(loc)));
  return second.cutOff;
}

function callersOf(loc: IndexOptions, id: string): string[] {
  const store = openStore(loc);
  assert.ok(store, 'the query store is fresh after the build');
  try {
    return store.callers(id).map((e) => `${e.caller} ${e.line}`);
  } finally {
    store.close();
  }
}

describe('early cut-off', () => {
  it('reuses the graph when a comment is appended to a file, and the store answers for the new bytes', () => {
    const loc = tree();
    const first = buildIndex(loc);
    const syncLoop = first.graph.symbols.find((s) => s.id.endsWith('(*Kubelet).syncLoop'))!.id;
    const before = callersOf(loc, syncLoop);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// a note added at the end\n\n');
    const second = buildIndex(loc);
    assert.equal(second.cutOff, 'facts');
    assert.equal(second.fromCache, true);
    assert.equal(second.files.parsed, 1);
    assert.equal(second.timings.resolve, undefined, 'nothing was resolved');
    assert.deepEqual(normal(second.graph), normal(freshGraph(loc)));
    assert.deepEqual(second.summary, summarize(packGraph(second.graph)), 'the summary kept with the graph');
    assert.deepEqual(callersOf(loc, syncLoop), before);
    // The same bytes again: the plain warm path.
    const third = buildIndex(loc);
    assert.equal(third.files.parsed, 0);
    assert.equal(third.cutOff, undefined);
  });

  it('reads the state with its file entries as one string, and as lists (as written before); damaged entries are no state', () => {
    const loc = tree();
    buildIndex(loc);
    const file = join(indexDir(loc), 'state.v8');
    const stored = readPack<{ inputs: { key: string; files: unknown } }>(file)!;
    assert.equal(typeof stored.inputs.files, 'string', 'one string on disk');
    const fields = (stored.inputs.files as string).split('\0');
    assert.equal(fields.length % 3, 0);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// a note\n');
    // As lists: the early cut-off still finds the old facts in it.
    const lists = [];
    for (let i = 0; i < fields.length; i += 3) lists.push(fields.slice(i, i + 3));
    writePack(file, { ...stored, inputs: { ...stored.inputs, files: lists } });
    assert.equal(buildIndex(loc).cutOff, 'facts');
    // A string whose fields do not come in threes: no state, so resolved from nothing.
    const now = readPack<{ inputs: { key: string; files: string } }>(file)!;
    writePack(file, { ...now, inputs: { ...now.inputs, files: now.inputs.files + '\0x' } });
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// another note\n');
    const again = buildIndex(loc);
    assert.equal(again.cutOff, undefined);
    assert.equal(again.fromCache, false);
    assert.deepEqual(normal(again.graph), normal(freshGraph(loc)));
  });

  it('resolves again when a changed file gains a call, and gives the graph a fresh build gives', () => {
    const loc = tree();
    buildIndex(loc);
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    appendFileSync(file, '\nfunc cutoffProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n');
    const second = buildIndex(loc);
    assert.ok(!second.cutOff);
    assert.equal(second.fromCache, false);
    assert.equal(second.files.parsed, 1);
    const graph = freshGraph(loc);
    assert.deepEqual(normal(second.graph), normal(graph));
    assert.deepEqual(second.summary, summarize(packGraph(second.graph)));
    assert.ok(graph.edges.some((e) => e.caller.endsWith('.cutoffProbe') && e.callee.endsWith('(*Kubelet).syncLoop')));
    assert.ok(callersOf(loc, graph.symbols.find((s) => s.id.endsWith('(*Kubelet).syncLoop'))!.id).some((c) => c.includes('cutoffProbe')));
  });

  it('resolves again when a file leaves the build although its facts are the same', () => {
    const loc = tree();
    const file = join(loc.root, 'pkg/kubelet/extra.go');
    const body = '\npackage kubelet\n\nfunc extraProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n';
    writeFileSync(file, '// a note about x' + body);
    const first = buildIndex(loc);
    assert.ok(first.graph.edges.some((e) => e.caller.endsWith('.extraProbe')));
    writeFileSync(file, '//go:build ignore' + body);
    // Same facts (comments are not facts, and the two lines are as long), so only the file's place in the build tells the two apart.
    const [a, b] = extractAll([{ path: 'x.go', bytes: Buffer.from('// a note about x' + body) }, { path: 'x.go', bytes: readFileSync(file) }], { workers: 0 });
    assert.deepEqual(a, b);
    const second = buildIndex(loc);
    assert.ok(!second.cutOff);
    assert.ok(!second.graph.edges.some((e) => e.caller.endsWith('.extraProbe')));
    assert.deepEqual(normal(second.graph), normal(freshGraph(loc)));
  });

  it('keeps the facts pack from growing with every edit', () => {
    const loc = tree();
    buildIndex(loc);
    const pack = join(indexDir(loc), 'facts.bin');
    const files = readFactsPack(pack).size;
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    for (let i = 0; i < files; i++) {
      appendFileSync(file, `\n// edit ${i}\n`);
      assert.equal(buildIndex(loc).cutOff, 'facts');
      assert.ok(readFactsPack(pack).size <= Math.ceil(files * 1.25) + 1, `after ${i + 1} edits: ${readFactsPack(pack).size} entries for ${files} files`);
    }
    // The entry of the last edit is there: a positions edit next finds its old facts.
    writeFileSync(file, '\n' + readFileSync(file, 'utf8'));
    assert.equal(buildIndex(loc).cutOff, 'positions');
  });

  it('appends the facts of a file that changed them to the pack, not rewriting it', () => {
    const loc = tree();
    buildIndex(loc);
    const pack = join(indexDir(loc), 'facts.bin');
    const before = readFactsPack(pack);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\nfunc appendProbe(kl *Kubelet) { kl.syncLoop(nil, nil) }\n');
    const edited = buildIndex(loc);
    assert.equal(edited.cutOff, undefined, 'resolved again');
    const after = readFactsPack(pack);
    assert.equal(after.size, before.size + 1, 'one entry added, the old one left for compaction');
    for (const [k, b] of before) assert.ok(Buffer.from(after.get(k)!).equals(Buffer.from(b)), `entry ${k} kept as it was`);
    assert.equal(buildIndex(loc).files.parsed, 0, 'the next build finds it');
  });

  it('a graph file with its label but a body it cannot decode: named in the error, or resolved again', () => {
    const loc = tree();
    buildIndex(loc);
    const file = join(indexDir(loc), 'graph.bin');
    const bytes = readFileSync(file);
    // The label and its padding kept, the body cut short.
    const labelEnd = (8 + bytes.readUInt32LE(4) + 7) & ~7;
    writeFileSync(file, Buffer.concat([bytes.subarray(0, labelEnd), Buffer.from('KAP2 damaged')]));
    const warm = buildIndex(loc);
    assert.equal(warm.fromCache, true, 'the label matches, so the build takes it');
    assert.throws(() => warm.graph, (err: Error) => err.message.includes(file) && /cannot be read.*run the command again/.test(err.message));
    // The index was dropped: the next build resolves and writes a good graph.
    const rebuilt = buildIndex(loc);
    assert.equal(rebuilt.fromCache, false);
    assert.deepEqual(normal(rebuilt.graph), normal(freshGraph(loc)));
    // A positions edit must decode it: with a damaged body it resolves again instead.
    writeFileSync(file, Buffer.concat([readFileSync(file).subarray(0, labelEnd), Buffer.from('KAP2 damaged')]));
    const src = join(loc.root, 'pkg/kubelet/kubelet.go');
    writeFileSync(src, '\n' + readFileSync(src, 'utf8'));
    const again = buildIndex(loc);
    assert.equal(again.cutOff, undefined);
    assert.deepEqual(normal(again.graph), normal(freshGraph(loc)));
  });

  it('decodes a reused graph only when it is read', () => {
    const loc = tree();
    buildIndex(loc);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// later\n');
    const cut = buildIndex(loc);
    assert.equal(cut.cutOff, 'facts');
    assert.equal(typeof Object.getOwnPropertyDescriptor(cut, 'graph')?.get, 'function');
    assert.deepEqual(normal(cut.graph), normal(freshGraph(loc)));
    assert.equal(cut.graph, cut.graph, 'decoded once');
  });

  it('rebuilds when the graph file the state names is gone or is another graph', () => {
    const loc = tree();
    buildIndex(loc);
    const dir = indexDir(loc);
    const graphFile = readdirSync(dir).find((f) => f.startsWith('graph.'))!;
    const saved = readFileSync(join(dir, graphFile));
    rmSync(join(dir, graphFile));
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// later\n');
    const again = buildIndex(loc);
    assert.equal(again.fromCache, false, 'no graph: resolved again');
    assert.deepEqual(normal(again.graph), normal(freshGraph(loc)));
    // A graph file from another build (the state was written after it): not taken for this one.
    writeFileSync(join(dir, graphFile), saved);
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// later still\n');
    const third = buildIndex(loc);
    assert.equal(third.fromCache, false);
    assert.deepEqual(normal(third.graph), normal(freshGraph(loc)));
  });

  it('moves the stored graph\'s lines when an edit only moves positions, as a fresh build would place them', () => {
    const loc = tree();
    buildIndex(loc);
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    const text = readFileSync(file, 'utf8');
    // Lines added at the top and inside syncLoop, and spacing changed within a line (offsets only).
    const edited = ('// a note\n\n' + text)
      .replace('\tsyncTicker := time.NewTicker(time.Second)\n', '\t// wait a second\n\n\tsyncTicker  :=  time.NewTicker(time.Second)\n');
    assert.notEqual(edited, '// a note\n\n' + text, 'the fixture still has the line edited here');
    writeFileSync(file, edited);
    const second = buildIndex(loc);
    assert.equal(second.cutOff, 'positions');
    assert.equal(second.timings.resolve, undefined, 'nothing was resolved');
    const fresh = freshGraph(loc);
    assert.deepEqual(normal(second.graph), normal(fresh));
    assert.deepEqual(second.summary, summarize(packGraph(fresh)), 'the summary of the moved graph');
    assert.ok(fresh.channels.some((c) => c.origins?.some((o) => o.startsWith('make@pkg/kubelet/kubelet.go:'))), 'an origin in the edited file was moved');
    // A command after it reads the goroutines and channels alone, from the graph file with the state's
    // moves made (read before the graph: see IndexResult.concurrency), as a fresh build places them.
    const read = buildIndex(loc);
    assert.equal(read.fromCache, true);
    const concurrency = { goroutines: fresh.goroutines, channels: fresh.channels };
    assert.ok(fresh.goroutines.some((g) => g.file === 'pkg/kubelet/kubelet.go'), 'a goroutine start in the edited file');
    assert.deepEqual(read.concurrency, concurrency);
    assert.deepEqual(storedConcurrency(indexDir(loc), readFreshness(indexDir(loc))!.graph), concurrency);
    assert.equal(storedConcurrency(indexDir(loc), 'another graph'), undefined);
    // The store's own, with the manifest's moves made as the query reads them (as JSON keeps them:
    // the records' undefined fields left out).
    const store = openStore(loc)!;
    const own = store.concurrency()!;
    assert.deepEqual({ goroutines: own.goroutines, channels: own.channels }, JSON.parse(JSON.stringify(concurrency)), 'the goroutines and channels the store keeps, moved');
    store.close();
    const syncLoop = fresh.symbols.find((s) => s.id.endsWith('(*Kubelet).syncLoop'))!.id;
    assert.deepEqual(callersOf(loc, syncLoop).sort(), fresh.edges.filter((e) => e.callee === syncLoop).map((e) => `${e.caller} ${e.line}`).sort());
    // Again from there: the facts the last build made are in the pack.
    writeFileSync(file, '\n' + edited);
    const third = buildIndex(loc);
    assert.equal(third.cutOff, 'positions');
    assert.deepEqual(normal(third.graph), normal(freshGraph(loc)));
  });

  it('keeps moved lines beside the graph file and the store, which stay as written, until they are many', () => {
    const loc = tree();
    buildIndex(loc);
    const dir = indexDir(loc);
    const graphBytes = () => readFileSync(join(dir, 'graph.bin'));
    const graph0 = graphBytes();
    const store0 = storeBytes(loc);
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    const text = readFileSync(file, 'utf8');
    assert.ok(text.includes('// BirthCry announces the start.\n'), 'the fixture still has the doc edited here');
    // Lines put first; then more, with a doc changed; then the first text again: each move is composed with the last.
    const edits: [string, IndexResult['cutOff']][] = [
      ['// one\n' + text, 'positions'],
      ['// one\n\n// two\n' + text.replace('// BirthCry announces the start.\n', '// BirthCry says the kubelet started.\n'), 'records'],
      [text, 'records'],
    ];
    for (const [i, [edited, cutOff]] of edits.entries()) {
      writeFileSync(file, edited);
      const moved = buildIndex(loc);
      assert.equal(moved.cutOff, cutOff, `edit ${i}`);
      const freshLoc = { ...loc, cacheDir: tempDir('ka-cutoff-cache-') };
      const fresh = normal(buildIndex(freshLoc).graph);
      assert.deepEqual(normal(moved.graph), fresh, `edit ${i}: the moved graph`);
      const warm = buildIndex(loc);
      assert.equal(warm.fromCache, true);
      assert.deepEqual(normal(warm.graph), fresh, `edit ${i}: the graph a later build reads, with the moves applied`);
      assert.deepEqual(storeView(loc), storeView(freshLoc), `edit ${i}: what queries read`);
      assert.ok(graphBytes().equals(graph0) && storeBytes(loc).equals(store0), `edit ${i}: neither file was written`);
    }
    // Past the limit, the moves are written into both files: the store is then what a fresh build writes.
    writeFileSync(file, '\n' + text);
    const written = buildIndex({ ...loc, keepMovedLines: 0 });
    assert.equal(written.cutOff, 'positions');
    const freshLoc = { ...loc, cacheDir: tempDir('ka-cutoff-cache-') };
    const fresh = normal(buildIndex(freshLoc).graph);
    assert.ok(!graphBytes().equals(graph0), 'the graph file was written');
    assert.ok(storeBytes(loc).equals(storeBytes(freshLoc)), 'the store is byte for byte what a full encode writes');
    assert.deepEqual(normal(buildIndex(loc).graph), fresh);
    assert.deepEqual(readFreshness(dir)?.moved, undefined, 'no moves are left beside it');
    // Moves kept again; then a store this code cannot read, found by a query's load: written again,
    // with a manifest that has no moves for it.
    writeFileSync(file, '\n\n' + text);
    assert.equal(buildIndex(loc).cutOff, 'positions');
    assert.ok(readFreshness(dir)?.moved, 'moves are kept for the store');
    writeFileSync(join(dir, 'query.bin'), 'not a store');
    assert.deepEqual(normal(loadIndex(loc).graph), normal(freshGraph(loc)));
    assert.equal(readFreshness(dir)?.moved, undefined, 'the new store has no moves to apply');
    const view = storeView(loc);
    const freshLoc2 = { ...loc, cacheDir: tempDir('ka-cutoff-cache-') };
    buildIndex(freshLoc2);
    assert.deepEqual(view, storeView(freshLoc2), 'and queries read from it what a fresh build gives');
  });

  it('makes the file\'s symbol records again when only docs and string literals changed, as a fresh build writes them', () => {
    const loc = tree();
    buildIndex(loc);
    const file = join(loc.root, 'pkg/kubelet/kubelet.go');
    const text = readFileSync(file, 'utf8');
    // A log message (BirthCry's fingerprint), a doc changed, a doc added to an undocumented method (its
    // record gains the key), and a doc on the first of the file's two `var _` values (the same name twice).
    const edits: [string, string][] = [
      ['"Starting kubelet."', '"Starting the kubelet."'],
      ['// BirthCry announces the start.\n', '// BirthCry tells the node\'s events that the kubelet started.\n'],
      ['\nfunc (kl *Kubelet) initializeModules() error {', '\n// initializeModules starts what needs no runtime.\nfunc (kl *Kubelet) initializeModules() error {'],
      ['\nvar _ Bootstrap = &Kubelet{}', '\n// The kubelet is what cmd/kubelet boots.\nvar _ Bootstrap = &Kubelet{}'],
    ];
    let edited = text;
    for (const [from, to] of edits) {
      assert.ok(edited.includes(from), `the fixture still has ${from}`);
      edited = edited.replace(from, to);
    }
    writeFileSync(file, edited);
    const second = buildIndex(loc);
    assert.equal(second.cutOff, 'records');
    assert.equal(second.timings.resolve, undefined, 'nothing was resolved');
    const freshLoc = { ...loc, cacheDir: tempDir('ka-cutoff-cache-') };
    const fresh = buildIndex(freshLoc).graph;
    assert.deepEqual(normal(second.graph), normal(fresh));
    const birthCry = second.graph.symbols.find((s) => s.id.endsWith('(*Kubelet).BirthCry'))!;
    assert.equal(birthCry.doc, 'BirthCry tells the node\'s events that the kubelet started.');
    assert.notEqual(birthCry.fingerprint, buildIndex({ ...loc, root: tree().root, cacheDir: tempDir('ka-cutoff-cache-') }).graph.symbols.find((s) => s.id === birthCry.id)!.fingerprint, 'the log message is in the fingerprint');
    assert.equal(second.graph.symbols.find((s) => s.id.endsWith('(*Kubelet).initializeModules'))!.doc, 'initializeModules starts what needs no runtime.');
    assert.deepEqual(storeView(loc), storeView(freshLoc), 'queries read from the store what they read from a fresh build\'s');
    // Back to the first text: the records take the old docs and fingerprints again.
    writeFileSync(file, text);
    const third = buildIndex(loc);
    assert.equal(third.cutOff, 'records');
    assert.deepEqual(normal(third.graph), normal(freshGraph(loc)));
  });

  it('moves the lines of a package\'s first file, whose package record stays at line 1', () => {
    const loc = tree();
    // A package of one file with nothing of its own at line 1 (no package-level initializer).
    const dir = join(loc.root, 'pkg/kubelet/lineprobe');
    mkdirSync(dir);
    const file = join(dir, 'probe.go');
    writeFileSync(file, 'package lineprobe\n\n// Probe does nothing.\nfunc Probe() {}\n');
    const first = buildIndex(loc);
    const record = first.graph.symbols.find((s) => s.id.endsWith('/lineprobe'));
    assert.deepEqual([record?.kind, record?.file, record?.line], ['package', 'pkg/kubelet/lineprobe/probe.go', 1], 'the package record names the file at line 1');
    writeFileSync(file, '// A note first.\n\npackage lineprobe\n\n// Probe does nothing.\nfunc Probe() {}\n');
    const moved = buildIndex(loc);
    assert.equal(moved.cutOff, 'positions');
    const freshLoc = { ...loc, cacheDir: tempDir('ka-cutoff-cache-') };
    assert.deepEqual(normal(moved.graph), normal(buildIndex(freshLoc).graph));
    assert.deepEqual(storeView(loc), storeView(freshLoc), 'the store too');
    writeFileSync(file, '// A note first.\n\npackage lineprobe\n\n// Probe does nothing at all.\nfunc Probe() {}\n');
    const records = buildIndex(loc);
    assert.equal(records.cutOff, 'records');
    assert.deepEqual(normal(records.graph), normal(freshGraph(loc)));
  });

  it('resolves again when two lines become one (positions no longer one to one)', () => {
    // Two calls, each with its line in the facts, put on one line.
    assert.equal(joinLines((sep) => `package kubelet\n\nfunc extraProbe(kl *Kubelet) {\n\tkl.syncLoop(nil, nil)${sep}kl.syncLoop(nil, nil)\n}\n`), undefined);
  });

  it('moves lines when two lines become one but only one of them is in the facts', () => {
    // \`a := 1\` has no line of its own in the facts (a local's place is its byte offset): the lines
    // the facts hold still map one to one. The \`;\` is a token, so the fingerprint changes too.
    assert.equal(joinLines((sep) => `package kubelet\n\nfunc extraProbe(kl *Kubelet) {\n\ta := 1${sep}b := a\n\t_ = b\n\tkl.syncLoop(nil, nil)\n}\n`), 'records');
  });

  it('moves one file\'s lines in the packed graph and in the store as remapLines does in the graph', () => {
    const graph = freshGraph(tree());
    const file = 'pkg/kubelet/kubelet.go';
    const lines = new Map<number, number>();
    for (let n = 0; n <= 5000; n++) lines.set(n, n + 3);
    const moved = remapLines(graph, file, lines)!;
    assert.ok(moved.edges.some((e) => e.file === file) && moved.symbols.some((s) => s.file === file));
    assert.deepEqual(unpackGraph(remapPackedLines(packGraph(graph), file, lines)!), normal(moved));
    const patched = moveStoreLines(encodeStore(graph, 'one'), 'one', 'two', file, lines);
    assert.ok(patched);
    assert.ok(patched.equals(encodeStore(moved, 'two')), 'byte for byte the store of the moved graph');
    assert.equal(moveStoreLines(encodeStore(graph, 'one'), 'other', 'two', file, lines), undefined);
    assert.equal(moveStoreLines(encodeStore(graph, 'one'), 'one', 'two', file, new Map([[1, 1]])), undefined, 'a line with no new place');
    assert.equal(remapPackedLines(packGraph(graph), file, new Map([[1, 1]])), undefined);
    // Two files in one pass: the store of the graph with both files' lines moved.
    const other = 'pkg/kubelet/pleg/generic.go';
    const back = new Map<number, number>();
    for (let n = 0; n <= 5000; n++) back.set(n, n + 11);
    const both = remapLines(moved, other, back)!;
    assert.ok(both.edges.some((e) => e.file === other), 'the fixture has edges in the second file');
    const parts = moveStoreLinesParts(encodeStore(graph, 'one'), 'one', 'two', [[file, lines], [other, back]]);
    assert.ok(parts);
    assert.ok(Buffer.concat(parts).equals(encodeStore(both, 'two')), 'byte for byte the store of the graph with both moved');
    // And the graph file's bytes, moved where they lie: what packing the moved graph gives.
    const remapped = remapPackedBytes(Buffer.concat(encodePacked(packGraph(graph))), [[file, lines], [other, back]]);
    assert.ok(remapped);
    // (The same records; node:v8 may lay out the decoded-and-moved ones' bytes differently.)
    assert.deepEqual(decodePacked(Buffer.concat(remapped.parts)), remapPackedLines(remapPackedLines(packGraph(graph), file, lines)!, other, back)!);
    assert.deepEqual(unpackGraph(decodePacked(Buffer.concat(remapped.parts))), normal(both));
    assert.equal(remapPackedBytes(Buffer.concat(encodePacked(packGraph(graph))), [[file, new Map([[1, 1]])]]), undefined, 'a line with no new place');
  });

  it('gives a moved file\'s records their new docs in the store, and their search texts with them', () => {
    const graph = freshGraph(tree());
    const file = 'pkg/kubelet/kubelet.go';
    const lines = new Map<number, number>();
    for (let n = 0; n <= 5000; n++) lines.set(n, n + 2);
    const own = graph.symbols.filter((s) => s.file === file && s.id !== s.pkg);
    const target = own.find((s) => s.doc)!;
    assert.ok(target, 'the fixture has a documented symbol in the file');
    // Each symbol of the file its fields as the file's new facts give them; the target a new doc.
    const doc = 'Zebras cross here.';
    const fields: SymbolFields = new Map();
    for (const s of own) if (!fields.has(symbolName(s.id, s.pkg))) fields.set(symbolName(s.id, s.pkg), [{ doc: s === target ? doc : s.doc, fingerprint: s.fingerprint }]);
    const moved = remapLines(graph, file, lines)!;
    const want: Graph = { ...moved, symbols: moved.symbols.map((s) => (s.id === target.id && s.file === file ? { ...s, doc } : s)) };
    const parts = moveStoreLinesParts(encodeStore(graph, 'one'), 'one', 'two', [[file, lines, fields]]);
    assert.ok(parts);
    const bytes = Buffer.concat(parts);
    assert.ok(bytes.equals(encodeStore(want, 'two')), 'byte for byte the store of the graph with the lines moved and the new doc');
    const store = new GraphStore(bufferBytes(bytes));
    assert.deepEqual([...store.symbolsHolding('zebras')].map((r) => r.id), [target.id], 'a search finds the new doc');
    const old = target.doc!.toLowerCase();
    assert.ok(![...store.symbolsHolding(old)].some((r) => r.id === target.id), 'and not the old one');
  });

  it('leaves the query store as it is when the graph is kept, and writes only the manifest file beside it', () => {
    const loc = tree();
    buildIndex(loc);
    const dir = indexDir(loc);
    const before = statSync(join(dir, 'query.bin'));
    appendFileSync(join(loc.root, 'pkg/kubelet/kubelet.go'), '\n// a comment: same facts\n');
    assert.equal(buildIndex(loc).cutOff, 'facts');
    const after = statSync(join(dir, 'query.bin'));
    assert.equal(after.ino, before.ino, 'the same file');
    assert.equal(after.mtimeMs, before.mtimeMs, 'not written');
    const store = openStore(loc);
    assert.ok(store, 'fresh: the manifest file names the new stat of kubelet.go');
    assert.ok(store.callers('k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoop').length > 0);
    store.close();
    // A manifest file written for another graph (a build stopped between the two files): no store,
    // until a build puts the manifest file right again without writing the store.
    const m = readFreshness(dir)!;
    writeParts(join(dir, 'query.fresh'), encodeFreshness(m.stamp, 'another graph', { paths: manifestPaths(m), sizes: m.sizes, mtimes: m.mtimes }));
    assert.equal(openStore(loc), undefined);
    assert.equal(buildIndex(loc).fromCache, true);
    assert.equal(statSync(join(dir, 'query.bin')).ino, before.ino);
    const again = openStore(loc);
    assert.ok(again);
    again.close();
    // A path list with one line more than the arrays (a query does not count its lines; the check
    // refuses it): stale, with the C check and with the statSync loop.
    const paths = manifestPaths(m);
    paths[0] = paths[0].replace(/\/(?=[^/]*$)/, '\n');
    writeParts(join(dir, 'query.fresh'), encodeFreshness(m.stamp, m.graph, { paths, sizes: m.sizes, mtimes: m.mtimes }));
    assert.equal(readFreshness(dir), undefined, 'counted: damaged');
    assert.equal(openStore(loc), undefined, 'the query path: uncounted, refused by the check');
    assert.equal(freshNow(readFreshness(dir, false)!, true), false, 'the C check (or the loop, where it is not built)');
    assert.equal(freshNow(readFreshness(dir, false)!, false), false, 'the statSync loop');
    // Damaged: read as none.
    writeFileSync(join(dir, 'query.fresh'), 'KAM1 nothing');
    assert.equal(readFreshness(dir), undefined);
    assert.equal(openStore(loc), undefined);
  });
});

describe('packed graph bytes', () => {
  it('decode what encodePacked wrote, from aligned bytes (views) and from unaligned ones (copies)', () => {
    const graph = freshGraph(tree());
    const packed = packGraph(graph);
    const bytes = Buffer.concat(encodePacked(packed));
    const aligned = decodePacked(bytes);
    assert.deepEqual(aligned, packed);
    assert.equal(aligned.edges.buffer, bytes.buffer, 'the columns are views of the bytes');
    const shifted = Buffer.alloc(bytes.length + 1);
    bytes.copy(shifted, 1);
    assert.deepEqual(decodePacked(shifted.subarray(1)), packed);
    assert.deepEqual(unpackGraph(decodePacked(bytes)), normal(graph));
    assert.throws(() => decodePacked(Buffer.from('KAP1 something else')), /not a packed graph/);
    assert.throws(() => decodePacked(bytes.subarray(0, bytes.length - 100)), /runs past the end|Unable|buffer/i);
  });
});
