/**
 * The indexing pipeline: source → parse (cached per file) → program → resolve → graph.
 * I/O happens here and in source/; the stages in between are pure functions over plain records.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { BuildContext, Diagnostic, Graph } from '../model/index.js';
import { computeScope, openTree, type Scope, type SourcePackage } from '../source/index.js';
import { extractAll, nativeParserInUse, newClock, unpackFacts, workersFor, type FileFacts, type ParseClock, type StringTable } from '../parse/index.js';
import { buildProgram, declarationsOnly, resolveProgram, type PackageInput } from '../resolve/index.js';
import { contentHash, factsKey, factsPackWriter, readFactsPack, readPack, writeBytes, writePack, type FactsPack } from './cache.js';
import { packGraph, unpackGraph, type PackedGraph } from '../graph/pack.js';
import { encodeStore, type Manifest } from '../graph/store.js';
import { indexDir, manifestFresh, manifestOf, storeStamp, STORE_FILE } from './stored.js';
import { toolStamp } from './key.js';
import { pruneIndexes, writeOwner } from './prune.js';

export { indexDir, openStore } from './stored.js';

export interface IndexOptions {
  root: string;
  ctx: BuildContext;
  scope?: Scope;
  cacheDir: string;
  onProgress?: (done: number, total: number, what: string) => void;
  /** Skip the graph cache (always resolve). */
  fresh?: boolean;
  /** Parse worker threads (default: the cores available; 0 or 1 parses on this thread). */
  workers?: number;
  /** How a Go file's bytes are read (the benchmark swaps in an edited file). */
  readFile?: (abs: string) => Uint8Array;
}

export interface IndexResult {
  graph: Graph;
  timings: Record<string, number>;
  files: { total: number; parsed: number; cached: number };
  /** How the parsed files were parsed: the native addon or the bindings, and on how many threads (0: this one only). */
  parser?: { native: boolean; workers: number };
  /** Where the parse stage's time went, summed over its threads (see ParseClock). */
  parseThreads?: ParseClock;
  fromCache: boolean;
}

interface GraphPack {
  stamp: string;
  packed: PackedGraph;
  /** Cheap freshness check: each scanned Go file and dir with its size and mtime. */
  manifest?: Manifest;
}

/**
 * For queries: the stored graph, if no Go file in scope changed size or mtime since it was built.
 * Falls back to a full (hash-checked) build otherwise. A file added to a package dir changes the
 * dir's mtime, which the manifest also records.
 */
export function loadIndex(opts: IndexOptions): IndexResult {
  const t0 = performance.now();
  const cached = readPack<GraphPack>(join(indexDir(opts), 'graph.v8'));
  if (cached?.packed?.v === 1 && cached.manifest && manifestFresh(cached.manifest)) {
    const graph = unpackGraph(cached.packed);
    // A query store of another format (a new kubelet-atlas) or none: write it, so the next query reads it.
    if (storeStamp(opts) !== cached.stamp) writeBytes(join(indexDir(opts), STORE_FILE), encodeStore(graph, cached.stamp, cached.manifest));
    const n = cached.manifest.paths.length;
    return { graph, timings: { load: performance.now() - t0 }, files: { total: n, parsed: 0, cached: n }, fromCache: true };
  }
  return buildIndex(opts);
}

/**
 * How much V8 lets the heap grow past what a full collection left live, in percent, while an index
 * is built. Its own choice is up to four times for a fast-allocating program: good for throughput, but
 * the build's garbage then rides on a large live heap (the facts of every file) and the peak grows with
 * it. At 50, measured on v1.28 with two threads, two runs each: default scope 1.39-1.51 -> 1.05-1.12 GB
 * for at most 6% more time; --scope all 1.73-1.75 -> 1.31-1.46 GB for at most 7%. The flag is
 * process-wide and read at each collection, workers included; it is put back when the build ends.
 */
const BUILD_HEAP_GROWTH_PERCENT = 50;

export function buildIndex(opts: IndexOptions): IndexResult {
  setFlagsFromString(`--heap-growing-percent=${BUILD_HEAP_GROWTH_PERCENT}`);
  try {
    return build(opts);
  } finally {
    // 0 is V8's default: its own growth factor.
    setFlagsFromString('--heap-growing-percent=0');
  }
}

function build(opts: IndexOptions): IndexResult {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = (timings[name] ?? 0) + (now - t);
    t = now;
  };
  const tree = openTree(opts.root, opts.ctx);
  const scoped = computeScope(tree, opts.scope ?? 'default', opts.ctx);
  const diagnostics: Diagnostic[] = [...tree.diagnostics, ...scoped.diagnostics];
  lap('source');

  const dir = indexDir(opts);
  const packFile = join(dir, 'facts.bin');
  const graphFile = join(dir, 'graph.v8');
  const files = scoped.packages.flatMap((p) => p.files);
  const contents: FileContent[] = [];
  for (const pkg of scoped.packages) {
    for (const f of pkg.files) {
      let bytes: Uint8Array;
      try {
        bytes = (opts.readFile ?? readFileSync)(f.abs);
      } catch (err) {
        diagnostics.push({ severity: 'error', code: 'read', message: `cannot read: ${(err as Error).message}`, file: f.path, line: 1 });
        continue;
      }
      contents.push({ pkg, path: f.path, active: f.active, hash: contentHash(bytes), bytes });
    }
  }
  lap('read');
  // Every file's content hash, in order, hashed once more: the graph's identity, kept short for the query store's header.
  const stamp = contentHash(Buffer.from(contents.map((c) => c.hash).join(',')));
  if (!opts.fresh) {
    const cachedGraph = readPack<GraphPack>(graphFile);
    if (cachedGraph?.packed?.v === 1 && cachedGraph.stamp === stamp) {
      const graph = unpackGraph(cachedGraph.packed);
      lap('load');
      // Same bytes, but sizes or mtimes may have moved (a checkout, a touch): refresh the query store's manifest.
      // The store carries the same manifest as the graph pack: one freshness check covers both.
      if (!cachedGraph.manifest || !manifestFresh(cachedGraph.manifest) || storeStamp(opts) !== stamp) {
        const manifest = manifestOf(tree.root, contents.map((c) => c.path));
        writePack(graphFile, { ...cachedGraph, manifest } satisfies GraphPack);
        writeBytes(join(dir, STORE_FILE), encodeStore(graph, stamp, manifest));
      }
      lap('write');
      return { graph, timings, files: { total: files.length, parsed: 0, cached: contents.length }, fromCache: true };
    }
  }
  const meta = { root: tree.root, modulePath: tree.modulePath, context: opts.ctx, diagnostics };
  const { graph, parsed, parser, parseThreads } = rebuildGraph(contents, scoped.packages, packFile, opts, meta, lap);
  const manifest = manifestOf(tree.root, contents.map((c) => c.path));
  writePack(graphFile, { stamp, packed: packGraph(graph), manifest } satisfies GraphPack);
  writeBytes(join(dir, STORE_FILE), encodeStore(graph, stamp, manifest));
  const owner = { of: JSON.stringify({ root: opts.root, ctx: opts.ctx, scope: opts.scope ?? 'default' }), stamp: toolStamp(), builtAt: Date.now() };
  writeOwner(dir, owner);
  pruneIndexes(join(dir, '..'), basename(dir), owner);
  lap('write');
  return { graph, timings, files: { total: files.length, parsed, cached: contents.length - parsed }, parser, parseThreads, fromCache: false };
}

interface FileContent {
  pkg: SourcePackage;
  path: string;
  active: boolean;
  hash: string;
  bytes?: Uint8Array;
}

/**
 * Parse (cached per file), then resolve. The facts and the resolver's tables become garbage when this
 * returns, so the writers run without them.
 */
function rebuildGraph(contents: FileContent[], packages: SourcePackage[], packFile: string, opts: IndexOptions, meta: ResolveMeta, lap: (name: string) => void) {
  // Only now, when the graph must be rebuilt, is the (large) per-file facts pack worth loading.
  const { factsByPath, parsed, parser, parseThreads } = parseFiles(contents, packFile, opts, lap);
  return { graph: resolveScope(packages, factsByPath, meta, lap), parsed, parser, parseThreads };
}

type ResolveMeta = Parameters<typeof resolveProgram>[1];

/**
 * Each file's facts: from the old facts pack when its bytes are unchanged, else extracted. Writes the
 * new facts pack as the entries come, so that they do not accumulate; the file bytes die with this call.
 */
function parseFiles(contents: FileContent[], packFile: string, opts: IndexOptions, lap: (name: string) => void) {
  const factsByPath = new Map<string, FileFacts>();
  const strings: StringTable = new Map();
  const old: FactsPack = readFactsPack(packFile);
  lap('load');
  const kept: [string, Uint8Array][] = [];
  const missing: FileContent[] = [];
  for (const c of contents) {
    const key = factsKey(c.path, c.hash);
    const packed = old.get(key);
    if (packed) {
      kept.push([key, packed]);
      factsByPath.set(c.path, inBuild(c, unpackFacts(packed, strings)));
    } else missing.push(c);
  }
  // Cached facts decoded: with one file changed, most of what is left before resolution.
  lap('decode');
  const clock = newClock();
  // Entries go to disk as they are made; the pack is rewritten only when its content changes.
  const pack = missing.length > 0 || kept.length !== old.size ? factsPackWriter(packFile) : undefined;
  try {
    for (const [key, packed] of kept) pack?.add(key, packed);
    const cached = kept.length;
    const extracted = extractAll(missing.map((c) => ({ path: c.path, bytes: c.bytes! })), {
      workers: opts.workers,
      strings,
      clock,
      onProgress: opts.onProgress && ((done, _total, what) => opts.onProgress!(cached + done, contents.length, what)),
      onPacked: pack && ((i, packed) => pack.add(factsKey(missing[i].path, missing[i].hash), packed)),
    });
    missing.forEach((c, i) => factsByPath.set(c.path, inBuild(c, extracted[i])));
  } catch (err) {
    pack?.abort();
    throw err;
  }
  for (const c of contents) c.bytes = undefined;
  lap('parse');
  pack?.close();
  lap('write');
  return { factsByPath, parsed: missing.length, parser: { native: nativeParserInUse(), workers: workersFor(missing.length, opts.workers) }, parseThreads: clock };
}

/** A file's facts as resolution keeps them: whole for a file in the build, its declarations otherwise. */
function inBuild(c: FileContent, facts: FileFacts): FileFacts {
  return c.active ? facts : declarationsOnly(facts);
}

/** Declarations (pass 1), then references (pass 2): the facts in scope → the graph. */
function resolveScope(packages: SourcePackage[], factsByPath: Map<string, FileFacts>, meta: ResolveMeta, lap: (name: string) => void): Graph {
  const inputs: PackageInput[] = packages.map((p) => ({
    importPath: p.importPath,
    files: p.files.filter((f) => factsByPath.has(f.path)).map((f) => ({ facts: factsByPath.get(f.path)!, active: f.active, constraint: f.constraint })),
  }));
  for (const input of inputs) {
    for (const f of input.files) {
      for (const d of f.facts.diagnostics) {
        if (!f.active && d.code === 'syntax') continue;
        meta.diagnostics.push({ severity: d.code === 'syntax' || d.code === 'read' || d.code === 'extract' ? 'error' : 'warning', code: d.code, message: d.message, file: f.facts.path, line: d.line });
      }
    }
  }
  const program = buildProgram(inputs);
  lap('program');
  const graph = resolveProgram(program, meta);
  lap('resolve');
  return graph;
}
