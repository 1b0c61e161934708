/**
 * The indexing pipeline: source → parse (cached per file) → program → resolve → graph.
 * I/O happens here and in source/; the stages in between are pure functions over plain records.
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { BuildContext, Diagnostic, Graph, GraphChanges } from '../model/index.js';
import { scanSource, SourceError, statNow, type Scope, type SourceScan, type SourcePackage, type SourceSnapshot } from '../source/index.js';
import { extractAll, factsShift, keptFacts, nativeParserInUse, newClock, SEGMENTS_MIN_CHARS, splicePacked, unpackFacts, workersFor, type FileFacts, type ParseClock, type Spliced, type StringTable } from '../parse/index.js';
import { buildProgram, factsDiagnostics, resolveProgram, ResolveSession, symbolFields, type FilesChange, type PackageInput } from '../resolve/index.js';
import { appendFactsEntries, contentHash, graphFileLabelled, textHash, factsHash, factsKey, factsPackWriter, readFactsEntries, readFactsPack, readGraphFile, readPack, withGraphLines, writeGraphFile, writePack, type FactsPack, type LiveKeys, type PackMemo } from './cache.js';
import { decodePacked, encodePacked, PACK_VERSION, packedRest, packGraph, summarize, summarizeGraph, unpackGraph, type GraphSummary, type PackedGraph } from '../graph/pack.js';
import { encodeStoreParts, moveStoreLinesParts } from '../graph/store.js';
import { scratch } from '../graph/scratch.js';
import { composeMoves, moveDiagnostics, movedLineCount, movesFit, remapPackedBytes, type FileMove } from '../graph/remap.js';
import { movedRecords } from '../graph/mover.js';
import { makeSpare, writeParts, type Reuse } from './atomic.js';
import { encodeFreshness, FRESH_FILE, freshNow, indexDir, manifestAbs, manifestDir, manifestOf, manifestPaths, nativeStatAll, readFreshness, rereadFreshness, sameFreshness, sameManifestFile, serializeMoves, storeMoves, storeOnDisk, storeState, STORE_FILE, type Freshness, type Manifest, type StoreMoves } from './stored.js';
import { forgetDeltaBase, moveDeltaLines, storeDelta, takeDeltaBase } from '../graph/delta.js';
import { forgetPackDeltaBase, packDelta, packDeltaBytes, packWritten, type PackDelta, type PackOnDisk } from '../graph/pack-delta.js';
import { toolStamp } from './key.js';
import { pruneIndexes, siblingIndexes, writeOwner } from './prune.js';
import { readWhole, spareReuse } from './mapped.js';
import { watchWith, type IndexWatch, type WatchOptions } from './watch.js';
import { rehearse, type Rehearsal } from './rehearse.js';

export { indexDir, openStore } from './stored.js';
export { WATCH_DEBOUNCE_MS, WATCH_VERIFY_MS, WatchError, type IndexWatch, type WatchBuild, type WatchOptions } from './watch.js';

export interface IndexOptions {
  root: string;
  ctx: BuildContext;
  scope?: Scope;
  cacheDir: string;
  onProgress?: (done: number, total: number, what: string) => void;
  /** Skip the graph cache (always resolve). */
  fresh?: boolean;
  /** Parse worker threads (default: the cores available; 0 or 1 parses on this thread; N > 1 starts N workers, and this thread decodes what they send). */
  workers?: number;
  /** See ScanOptions.racyMs (tests only). */
  racyMs?: number;
  /** How many moved lines the index keeps beside its files before writing them in (default MOVES_KEPT_MAX_LINES; tests set it). */
  keepMovedLines?: number;
  /** Decoded state and snapshot files kept from one build to the next, in a process that builds again and again (see PackMemo). */
  memo?: PackMemo;
  /**
   * The only paths (relative to the root) that can have changed since the source snapshot was taken,
   * when the caller knows (a watch's events name them): the scan stats only these (see
   * ScanOptions.only). A caller that passes them answers for the paths it does not name.
   */
  onlyChanged?: readonly string[];
  /**
   * A process that reports a build before all of it is written (the watch): what no query reads (the
   * state with its graph-file delta, the new facts' entries, the source snapshot) is handed over here
   * when the kept resolution took an edit, and written after the report, before the next build. The
   * query store's delta and its manifest, which queries read, are written before the build returns.
   */
  defer?: (task: () => void) => void;
}

export interface IndexResult {
  /** Decoded from the cache when first read, when the graph came from there (the bytes are read by the build). */
  graph: Graph;
  timings: Record<string, number>;
  /**
   * Files in scope; parsed; whose facts came from the cache; and whose bytes were read and hashed (the
   * others kept the content hash the source snapshot had for them, their stat unchanged).
   */
  files: { total: number; parsed: number; cached: number; read?: number };
  /** How the parsed files were parsed: the native addon or the bindings, and on how many threads (0: this one only). */
  parser?: { native: boolean; workers: number };
  /** Where the parse stage's time went, summed over its threads (see ParseClock). */
  parseThreads?: ParseClock;
  /** The graph's counts, diagnostics and unresolved sites by reason, kept with it: read without decoding the graph. */
  summary: GraphSummary;
  /**
   * The graph's goroutine starts and channel operations: when the graph came from the cache, read
   * without decoding the rest of it (its string table, edges and symbols).
   */
  concurrency: Concurrency;
  fromCache: boolean;
  /**
   * Files changed, yet nothing was resolved (the early cut-off): 'facts' when their facts were the ones
   * the stored graph was made from, 'positions' when only their positions moved and the stored graph's
   * lines were moved with them, 'records' when their declarations' docs or fingerprints changed too
   * (a doc comment, a string literal) and their symbol records were made again.
   */
  cutOff?: 'facts' | 'positions' | 'records';
  /**
   * Set when the graph was resolved again in part, by the resolution a process that builds again and
   * again keeps (see ResolveSession): how many functions it resolved again, of how many.
   */
  incremental?: { redone: number; functions: number };
  /** Why the kept resolution did not take the edit, when there was one and the graph was resolved from nothing. */
  refused?: string;
  /**
   * The files in scope whose bytes are not the ones the stored graph was made from (relative to the
   * root, in the scope's order), then those the stored graph was made from that are in scope no more
   * (in its order), when the build compared them with a stored state: a watch names them when no event
   * did (see WatchBuild.touched).
   */
  changed?: string[];
}

/** What `goroutines` and `channels` read of a graph. */
export type Concurrency = Pick<Graph, 'goroutines' | 'channels'>;

/** A graph's goroutine starts and channel operations. */
function concurrencyOf(g: Concurrency): Concurrency {
  return { goroutines: g.goroutines, channels: g.channels };
}

/**
 * The index folder's state, a small file read first by every build and by queries that find the store
 * stale: which graph the folder holds and what it was made from. The graph itself is in GRAPH_FILE,
 * labelled with `graph`, so a build that reuses it rewrites only this file.
 */
interface IndexState {
  /** The hash of every file's path and content hash (see stampOf): which files and bytes the state describes. */
  stamp: string;
  /** The label of the graph file this state goes with (see graphLabel). */
  graph: string;
  /** What resolution read to make the graph (see ResolveInputs): lets a change that keeps every file's facts reuse it. */
  inputs: ResolveInputs;
  /** The graph's summary (see GraphSummary). */
  summary: GraphSummary;
  /**
   * Lines moved since the graph file was written, by builds whose edits only moved lines (see
   * movedGraph): applied to the file's graph as it is read, so such a build does not write it again.
   */
  moves?: FileMove[];
  /**
   * Set when the graph file holds another graph, and the state's is that one changed as the delta
   * says (see graph/pack-delta.ts): a process that writes the graph after each edit (the watch) keeps
   * it here while it is small, instead of writing the graph file. Moves apply after it.
   */
  delta?: PackDelta;
}

/**
 * How many moved lines (over all files) an index keeps beside its graph file and query store before a
 * build writes them into both: enough for a few edits of the largest kubelet files (kubelet.go's facts
 * hold about 2,000 lines), small enough that reading them stays a few milliseconds.
 */
const MOVES_KEPT_MAX_LINES = 20_000;

/** Up to this many files read (their stat moved since the source snapshot) and nothing walked, a build leaves the snapshot as it is. */
const SNAPSHOT_SKIPS_READS = 8;
/** The memo's key (after the snapshot file's path) for the files read since the snapshot was written, and left out of it. */
const UNRECORDED = '#unrecorded';

const STATE_FILE = 'state.v8';
const GRAPH_FILE = 'graph.bin';
/** The source stage's snapshot (see source/snapshot.ts): what the last scan saw, with the content hashes the build took. */
const SOURCE_FILE = 'source.v8';

/** A graph file's label: the stamp of the build that resolved it, and the packing's version. */
function graphLabel(stamp: string): string {
  return `${stamp} pack-${PACK_VERSION}`;
}

/** The graph behind a state, still serialized: decoded on first use (see lazyResult); with `into`, read into its memory (see readGraphFile). */
function storedGraph(dir: string, state: IndexState | undefined, into?: (size: number) => Buffer): Buffer | undefined {
  if (!state?.delta) return state ? readGraphFile(join(dir, GRAPH_FILE), state.graph, into) : undefined;
  // With `into` (memory the caller takes back each time), the file and the columns the delta lays
  // out are read and made in memory of their own that is taken back too.
  const bytes = readGraphFile(join(dir, GRAPH_FILE), fileLabelOf(state), into && ((n) => Buffer.from(scratch(Uint8Array, 'graph.base', n, true).buffer, 0, n)));
  if (!bytes) return undefined;
  let parts: Buffer[];
  try {
    parts = packDeltaBytes(bytes, state.delta, into !== undefined);
  } catch {
    // A delta that does not go with the file (or a damaged file): no stored graph, as for a file of another label.
    return undefined;
  }
  if (!into) return Buffer.concat(parts);
  const out = into(parts.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of parts) at += b.copy(out, at);
  return out;
}

/** The label of the graph file a state reads: its graph's, or the one its delta applies to. */
function fileLabelOf(state: IndexState): string {
  return state.delta?.base ?? state.graph;
}

/** The graph file `file` as `state` says it is (see packDelta). */
function packOnDisk(file: string, state: IndexState | undefined): PackOnDisk {
  const base = state && fileLabelOf(state);
  return { base: base !== undefined && graphFileLabelled(file, base) ? base : undefined, holds: state?.graph, moves: (state?.moves?.length ?? 0) > 0 };
}

/**
 * The graph behind a state, when its file is there with the state's label: read and decoded on first
 * use (a build that reuses it needs only to know that it is there).
 */
function storedGraphLater(dir: string, state: IndexState | undefined): (() => PackedGraph) | undefined {
  const file = join(dir, GRAPH_FILE);
  if (!state || !graphFileLabelled(file, fileLabelOf(state))) return undefined;
  return () => {
    const stored = readGraphFile(file, fileLabelOf(state));
    if (!stored) replacedWhileRead(file);
    try {
      const bytes = state.delta ? Buffer.concat(packDeltaBytes(stored, state.delta)) : stored;
      // The bytes are a private map or copy: moved where they lie.
      return decodePacked(state.moves?.length ? Buffer.concat(movedParts(bytes, state.moves)) : bytes);
    } catch (err) {
      unreadable(dir, file, err);
    }
  };
}

function replacedWhileRead(file: string): never {
  throw new Error(`${file} was replaced while this command ran (another build?); run it again`);
}

/** Drops the index in `dir`, whose graph file cannot be read: without its state the folder holds no graph, and the next build resolves and writes a good one. */
function unreadable(dir: string, file: string, err: unknown): never {
  rmSync(join(dir, STATE_FILE), { force: true });
  throw new Error(`${file} cannot be read (${(err as Error).message}); the index was dropped, run the command again to rebuild it`);
}

/**
 * The stored graph's goroutine starts and channel operations, read when asked (see IndexResult.concurrency):
 * from the state's delta, which holds them whole, else from the graph file's section of them, with the
 * state's moves made. Throws as storedGraphLater's reader does.
 */
function storedConcurrencyLater(dir: string, state: IndexState): () => Concurrency {
  const file = join(dir, GRAPH_FILE);
  return () => {
    let rest: PackedGraph['rest'] | undefined;
    try {
      const stored = state.delta ? undefined : readGraphFile(file, fileLabelOf(state));
      rest = state.delta ? state.delta.rest : stored && packedRest(stored);
      if (rest && state.moves?.length) rest = movedRecords(rest, state.moves) ?? badMoves();
    } catch (err) {
      unreadable(dir, file, err);
    }
    if (!rest) replacedWhileRead(file);
    return concurrencyOf(rest);
  };
}

/**
 * The goroutines and channels of the graph `key` as the index folder in `dir` keeps it (see
 * IndexResult.concurrency), for a query that found the query store holding that graph; undefined when
 * the folder's state is of another graph, or its graph file is not the state's.
 */
export function storedConcurrency(dir: string, key: string): Concurrency | undefined {
  const state = readPack<IndexState>(join(dir, STATE_FILE));
  if (state?.inputs.key !== key || !graphFileLabelled(join(dir, GRAPH_FILE), fileLabelOf(state))) return undefined;
  return storedConcurrencyLater(dir, state)();
}

function badMoves(): never {
  throw new Error('its lines cannot be moved as the index says');
}

/**
 * An IndexResult whose graph is unpacked from `from` (a packed graph, or a reader of one) the first
 * time it is read; its goroutines and channels are read by `concurrency` when the graph is not
 * unpacked by then (without it, from the packed graph).
 */
function lazyResult(from: PackedGraph | (() => PackedGraph), rest: Omit<IndexResult, 'graph' | 'summary' | 'concurrency'>, summary: GraphSummary | undefined, concurrency?: () => Concurrency): IndexResult {
  let graph: Graph | undefined;
  let read: Concurrency | undefined;
  const packed = (): PackedGraph => (typeof from === 'function' ? from() : from);
  return {
    ...rest,
    get graph(): Graph {
      if (graph) return graph;
      return (graph = unpackGraph(packed()));
    },
    get concurrency(): Concurrency {
      if (graph) return concurrencyOf(graph);
      return (read ??= concurrency ? concurrency() : concurrencyOf(packed().rest));
    },
    // A state from before summaries were kept has none: it is taken from the graph.
    summary: summary ?? summarize(packed()),
  };
}

/**
 * Resolution is a pure function of the files' facts and of the few things the source stage decides
 * around them (the packages, which files are in the build, the context, the source's diagnostics).
 * `key` hashes all of it, each file's facts as the hash of their encoded bytes (`files`: path, content
 * hash, facts hash). An edit that leaves a file's facts as they were (a comment, blank lines at the
 * end) leaves the key as it was, and the stored graph is the graph resolution would make again.
 */
interface ResolveInputs {
  key: string;
  files: [path: string, content: string, facts: string][];
  /**
   * The description the key was made from, but for its packages and facts (see Described): the
   * source stage's structure of the scope it was made over (see SourceScan.structure), the head, and
   * each package's hash. A build of another process over a scope of the same structure and head
   * hashes again only the packages whose files' facts changed (see storedDescription).
   */
  parts?: { v: typeof PARTS_FORMAT; structure: string; head: string; list: string[] };
}

/** Bumped when what a package's part hashes (see partOf), or how, changes: parts kept before are not taken. */
const PARTS_FORMAT = 1;

/**
 * The state file: an IndexState whose inputs' file entries are written as one string ('\0' between
 * fields, each entry three fields): node:v8 writes 15,000 short strings and their lists one at a time
 * (3.2 ms on v1.28, medians of 41 in one process), one long string at once (0.4 ms, and 1.0 ms to
 * join it). A state written before, with the entries as lists, is read too.
 */
function writeState(file: string, state: IndexState, memo?: PackMemo): void {
  // Pushed field by field, then joined (Array.prototype.flat took about three times as long).
  const fields: string[] = [];
  const entries = state.inputs.files;
  for (let i = 0; i < entries.length; i++) fields.push(entries[i][0], entries[i][1], entries[i][2]);
  const files = fields.join('\0');
  const { parts } = state.inputs;
  const structure = parts && (parts.structure || structureOf.get(state.inputs)?.());
  writePack(file, state, memo, { ...state, inputs: { key: state.inputs.key, files, ...(structure && { parts: { ...parts!, structure } }) } }, smallReuse(memo));
}

/**
 * For a process that keeps its resolution (the watch), which writes the state and the freshness
 * manifest after every edit: the spares those two files are written into (see Reuse in atomic.ts).
 * Writing them into new files cost 2.1-2.6 ms each on the VM we measure on (1.1 and 0.76 MB on v1.28's
 * default scope: a fresh page for each 4 KB), and 0.3-0.4 ms written in place into a spare.
 */
function smallReuse(memo: PackMemo | undefined): Reuse | undefined {
  return keepsResolution(memo) ? spareReuse() : undefined;
}

/**
 * How many files a state read by readPack describes, without making their entries as readState does
 * (some 1-2 ms on v1.28's default scope); undefined when the list is damaged.
 */
function stateFileCount(state: IndexState): number | undefined {
  const files = state.inputs?.files as ResolveInputs['files'] | string | undefined;
  if (typeof files !== 'string') return files?.length;
  if (files === '') return 0;
  let fields = 1;
  for (let at = files.indexOf('\0'); at >= 0; at = files.indexOf('\0', at + 1)) fields++;
  return fields % 3 === 0 ? fields / 3 : undefined;
}

function readState(file: string, memo?: PackMemo): IndexState | undefined {
  const state = readPack<IndexState>(file, memo);
  const files = state?.inputs?.files as ResolveInputs['files'] | string | undefined;
  if (typeof files !== 'string') return state;
  // Made into entries in place, so that a memo keeps them made.
  const fields = files === '' ? [] : files.split('\0');
  if (fields.length % 3 !== 0) return undefined;
  const entries: ResolveInputs['files'] = [];
  for (let i = 0; i < fields.length; i += 3) entries.push([fields[i], fields[i + 1], fields[i + 2]]);
  state!.inputs.files = entries;
  return state;
}

/** Past this many changed files a build does not try the early cut-off: it re-parses them all anyway. */
const CUTOFF_MAX_FILES = 64;

/**
 * For queries: the stored graph, if no Go file in scope changed size or mtime since it was built (the
 * manifest file beside the query store says so, when it goes with the state's graph and stamp).
 * Falls back to a full (hash-checked) build otherwise. A file added to a package dir changes the
 * dir's mtime, which the manifest also records.
 */
export function loadIndex(opts: IndexOptions, checked?: Freshness): IndexResult {
  const t0 = performance.now();
  const dir = indexDir(opts);
  // The state's files are only counted here: they are not made into entries (see readState).
  const state = readPack<IndexState>(join(dir, STATE_FILE), opts.memo);
  const n = state && stateFileCount(state);
  // `checked`: the manifest file as the caller found it to match the tree a moment before (a command
  // that waited for a watch, see cli/context.ts); when it still says the same, it is not checked again
  // (nor parsed again while the file holds the same bytes: see rereadFreshness).
  const manifest = n !== undefined ? rereadFreshness(dir, checked) : undefined;
  const fresh = state && manifest && manifest.graph === state.inputs.key && manifest.stamp === state.stamp && ((checked && (manifest === checked || sameManifestFile(checked, manifest))) || freshNow(manifest));
  const bytes = fresh ? storedGraphLater(dir, state) : undefined;
  if (state && bytes && n !== undefined) {
    const result = lazyResult(bytes, { timings: { load: performance.now() - t0 }, files: { total: n, parsed: 0, cached: n }, fromCache: true }, state.summary, storedConcurrencyLater(dir, state));
    // A query store of another format (a new kubelet-atlas) or none: write it, so the next query reads
    // it, and its manifest without the moves kept for the store it replaces.
    if (storeState(dir).graph !== state.inputs.key) {
      writeStore(join(dir, STORE_FILE), result.graph, state.inputs.key);
      if (manifest?.moved) writeFreshnessFile(dir, manifest.stamp, state.inputs.key, { paths: manifestPaths(manifest), sizes: manifest.sizes, mtimes: manifest.mtimes });
    }
    return result;
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
    let again = false;
    try {
      try {
        return build(opts, true);
      } catch (err) {
        // A file gone since the scan saw it: again, with the snapshot (the scan finds it gone).
        if (!(err instanceof VanishedUnderBuild)) throw err;
        again = true;
        return build(opts, true, again);
      }
    } catch (err) {
      // A file whose stat said "unchanged" gave other bytes: the tree is being written to. Again, reading everything.
      if (!(err instanceof ChangedUnderBuild)) throw err;
      return build(opts, false, again);
    }
  } finally {
    // 0 is V8's default: its own growth factor.
    setFlagsFromString('--heap-growing-percent=0');
  }
}

/** Keeps the index of `opts.root` up to date while the tree is edited: builds now, then after each change (see watch.ts). */
export function watchIndex(opts: WatchOptions): IndexWatch {
  return watchWith(buildIndex, indexDir(opts), opts, warmIndex);
}

/**
 * For a process that builds again and again (opts.memo): the resolution of the stored graph, kept in
 * the memo so that the next edit of function bodies is resolved again in part (see ResolveSession),
 * when the last build found the graph stored and so resolved nothing. Reads the facts of the files
 * whose content hash the source snapshot vouches for, or that it reads and hashes again; does nothing
 * ('none') when the tree is not the one the stored graph was made from or a file's facts are not in
 * the pack, and 'had' when the memo keeps that resolution already ('rehearsed' the first time, see
 * below). The encoders are primed with the resolution's graph (see primeEncoders), and the query
 * store on disk is taken as the base of the next edit's delta (see graph/delta.ts); the extractor is
 * run once on this thread (see primeExtraction). The resolution made, or the one the memo had (once),
 * rehearses the first edits' updates (see rehearseWarm; `onRehearsal` is told on which file, and how
 * it went). Writes nothing.
 */
export function warmIndex(opts: IndexOptions, onRehearsal?: (path: string, rehearsal: Rehearsal) => void): 'made' | 'rehearsed' | 'had' | 'none' {
  const memo = opts.memo;
  if (!memo) return 'none';
  const dir = indexDir(opts);
  primeExtraction(dir, memo);
  if (!keepsResolution(memo)) return 'none';
  const state = readState(join(dir, STATE_FILE), memo);
  if (!state) return 'none';
  // A resolution the first build made (it resolved): rehearsed once, on the files as they are.
  const had = keptSession(memo, dir);
  const kept = had?.inputs.key === state.inputs.key ? had.session : undefined;
  if (kept && rehearsed.has(kept)) return 'had';
  const previous = readPack<SourceSnapshot>(join(dir, SOURCE_FILE), memo);
  const scan = scanSource(opts.root, opts.ctx, opts.scope ?? 'default', { previous, statMany: nativeStatAll(), racyMs: opts.racyMs });
  const files = scan.packages.flatMap((p) => p.files);
  const known = scan.knownHashes();
  const hashes: string[] = [];
  for (const [i, f] of files.entries()) {
    try {
      hashes.push(known[i] ?? contentHash(readFileSync(f.abs)));
    } catch {
      return kept ? 'had' : 'none';
    }
  }
  if (stampOf(files.map((f, i) => ({ path: f.path, hash: hashes[i] }))) !== state.stamp) return kept ? 'had' : 'none';
  const meta = { root: scan.root, modulePath: scan.modulePath, context: opts.ctx, diagnostics: [...scan.diagnostics] };
  if (kept) {
    rehearsed.add(kept);
    const last = kept.lastGraphMade();
    // The bases of the deltas are the graph the build wrote; the encoders' strings are made again for the one the rehearsal ends with.
    if (last && !rehearseWarm(kept, rehearsalFile(scan.packages, hashes, (path) => kept.factsOf(path)), meta, last, { dir, state, opts, onRehearsal })) {
      takeSession(memo, dir);
      return 'none';
    }
    return 'rehearsed';
  }
  const pack = readFactsPack(join(dir, 'facts.bin'));
  const strings: StringTable = new Map();
  const factsByPath = new Map<string, FileFacts>();
  for (const [i, f] of files.entries()) {
    const packed = pack.get(factsKey(f.path, hashes[i], f.active));
    const facts = packed && decodedOrNone(packed, strings);
    if (!facts) return 'none';
    factsByPath.set(f.path, facts);
  }
  const made = resolveScope(scan.packages, factsByPath, meta, () => {}, true);
  const session = made.session!;
  rehearsed.add(session);
  const packedStrings = primeEncoders(made.graph);
  takeBases(made.graph, packedStrings, dir, state);
  if (!rehearseWarm(session, rehearsalFile(scan.packages, hashes, (path) => factsByPath.get(path)), meta, made.graph, { dir, state, opts, packedStrings, onRehearsal })) return 'none';
  keepSession(memo, dir, state.inputs, session);
  if (spareReuse()) makeSpares(dir);
  return 'made';
}

/** The sessions warmIndex rehearsed (see rehearseWarm). */
const rehearsed = new WeakSet<ResolveSession>();

/** The graph file and the store on disk, holding `graph` (whose packed strings are `strings`): the bases of the next edits' deltas. */
function takeBases(graph: Graph, strings: readonly string[], dir: string, state: IndexState): void {
  takeDeltaBase(join(dir, STORE_FILE), graph, state.inputs.key, storeOnDisk(dir));
  packWritten(join(dir, GRAPH_FILE), graph, state.graph, strings, packOnDisk(join(dir, GRAPH_FILE), state));
}

/**
 * The first edits' updates rehearsed on `target` (see rehearse.ts), with the graph file's and the
 * store's deltas made from each graph and thrown away (their bases hold `last`, the session's last
 * graph); then the bases taken again with the graph the session ends with, the one its next update
 * starts from (with the encoders primed for it, unless `packedStrings`, those of `last`, are given).
 * False when the session may be left resolving an edited file: it is not to be kept, and the next
 * edits write the graph file and the store whole.
 */
function rehearseWarm(
  session: ResolveSession,
  target: (ParseInput & { text: string; sibling?: FilesChange['came'][number] }) | undefined,
  meta: ResolveMeta,
  last: Graph,
  at: { dir: string; state: IndexState; opts: IndexOptions; packedStrings?: readonly string[]; onRehearsal?: (path: string, rehearsal: Rehearsal) => void },
): boolean {
  if (!target) return true;
  const { dir, state, opts } = at;
  const graphFile = join(dir, GRAPH_FILE);
  // The facts of the bytes given (parseChanged reads no hash, and no old facts to splice from).
  const extract = (text: string, path: string) => parseChanged([{ path, abs: join(opts.root, path), active: true, hash: target.hash, bytes: Buffer.from(text) }], opts).get(path)!.facts;
  const written = (graph: Graph, changes: GraphChanges | undefined) => {
    packDelta(graphFile, graph, packOnDisk(graphFile, state));
    summarizeGraph(graph, session.unresolvedReasons());
    storeDelta(join(dir, STORE_FILE), graph, state.inputs.key, storeOnDisk(dir), changes);
  };
  const rehearsal = rehearse(session, target, meta, last, { extract, written }, REHEARSAL_ROUNDS);
  at.onRehearsal?.(target.path, rehearsal);
  if ('failed' in rehearsal && rehearsal.spoiled) {
    forgetDeltaBase();
    forgetPackDeltaBase();
    return false;
  }
  const graph = 'graph' in rehearsal ? rehearsal.graph : last;
  takeBases(graph, at.packedStrings ?? primeEncoders(graph), dir, state);
  session.prepare();
  session.settle();
  return true;
}

/** How many times warmIndex rehearses each of its edits (see rehearse.ts). */
const REHEARSAL_ROUNDS = 3;

/**
 * The file warmIndex rehearses edits on: of the active files of at most PRIME_MAX_BYTES that were not
 * generated, the one with the most call sites; read again and found as it was hashed, so that its
 * facts are the session's. With it, the file that comes to its package and goes (see rehearse.ts).
 */
function rehearsalFile(packages: SourcePackage[], hashes: string[], factsOf: (path: string) => FileFacts | undefined): (ParseInput & { text: string; sibling?: FilesChange['came'][number] }) | undefined {
  const files = packages.flatMap((p) => p.files);
  const calls = files.map((f) => (f.active ? (factsOf(f.path)?.funcs.reduce((n, fn) => n + fn.calls.length, 0) ?? -1) : -1));
  const order = files.flatMap((_, i) => (calls[i] >= 0 ? [i] : [])).sort((a, b) => calls[b] - calls[a]);
  for (const i of order.slice(0, REHEARSAL_CANDIDATES)) {
    const f = files[i];
    let bytes: Buffer;
    try {
      if (statSync(f.abs).size > PRIME_MAX_BYTES) continue;
      bytes = readFileSync(f.abs);
    } catch {
      return undefined;
    }
    if (contentHash(bytes) !== hashes[i]) return undefined;
    // Nobody edits a generated file (Go's convention marks one so).
    if (GENERATED.test(bytes.subarray(0, GENERATED_HEAD).toString('latin1'))) continue;
    return { path: f.path, abs: f.abs, active: true, hash: hashes[i], text: bytes.toString('utf8'), sibling: siblingOf(packages, f.path) };
  }
  return undefined;
}

/** The name of the file the rehearsal brings to a package and takes away (in memory, never on disk). */
const SIBLING_FILE = 'kubelet_atlas_rehearsal.go';

/**
 * The file that would come to the package of the file at `path` as SIBLING_FILE, where a build from
 * nothing would have it among the package's files (before the first whose name is after its own, as
 * the scan orders them); undefined when the package has a file of that name.
 */
function siblingOf(packages: SourcePackage[], path: string): FilesChange['came'][number] | undefined {
  const pkg = packages.find((p) => p.files.some((f) => f.path === path));
  const sibling = join(dirname(path), SIBLING_FILE);
  if (!pkg || pkg.files.some((f) => f.path === sibling)) return undefined;
  return { path: sibling, importPath: pkg.importPath, active: true, before: pkg.files.find((f) => f.path > sibling)?.path };
}

/** How many of the files with the most call sites rehearsalFile looks at (on v1.28 the first 33 are generated or larger than PRIME_MAX_BYTES). */
const REHEARSAL_CANDIDATES = 256;

/** The line that marks a generated Go file (https://go.dev/s/generatedcode), looked for in its first GENERATED_HEAD bytes. */
const GENERATED = /^\/\/ Code generated .* DO NOT EDIT\.$/m;
const GENERATED_HEAD = 4096;

/**
 * The extractor run once on this thread, for nothing, on the largest Go file of the index's manifest
 * under PRIME_MAX_BYTES: a watch parses an edited file on its own thread, where a cold build parsed
 * on worker threads, so its first edit ran the extractor's and the encoder's code before any of it was
 * compiled (on v1.28 that edit's parse of `kubelet.go` took 88-94 ms, the next ones 20-25 ms). Once
 * per memo.
 */
function primeExtraction(dir: string, memo: PackMemo): void {
  if (primed.has(memo)) return;
  primed.add(memo);
  const f = readFreshness(dir);
  if (!f) return;
  const paths = manifestPaths(f);
  let best = -1;
  for (let i = 0; i < paths.length; i++) {
    if (paths[i].endsWith('.go') && f.sizes[i] <= PRIME_MAX_BYTES && (best < 0 || f.sizes[i] > f.sizes[best])) best = i;
  }
  if (best < 0) return;
  try {
    // Encoded too, as an edit's facts are (parseChanged), and with its tree kept, as a watch keeps an
    // edited file's: that is the TypeScript extractor's path (the addon's C extraction keeps no tree),
    // the one to compile.
    extractAll([{ path: paths[best], bytes: readFileSync(paths[best]), declarationsOnly: false, retain: true }], { workers: 0, onPacked: () => {} });
  } catch {
    // Gone since, or not Go any more: nothing is primed, and the next build says why.
  }
}

const primed = new WeakSet<PackMemo>();

/** The largest file primeExtraction takes (a generated file of megabytes would hold the watch up). */
const PRIME_MAX_BYTES = 256 * 1024;

/** The spares of the two files a watch writes after each edit, made when missing (see makeSpare). */
function makeSpares(dir: string): void {
  makeSpare(join(dir, GRAPH_FILE));
  makeSpare(join(dir, STORE_FILE));
}

/**
 * The encoders of the graph file and the query store primed with a graph, as a build that writes it
 * leaves them (see packGraph's keep): the first edit after a warm start then encodes only what it
 * changed, as later ones do. Writes nothing; gives the packed graph's strings (see packWritten).
 */
function primeEncoders(graph: Graph): readonly string[] {
  const packed = packGraph(graph, { keep: true, recycle: true });
  encodePacked(packed, { keep: true, recycle: true });
  encodeStoreParts(graph, '', packed, { keep: true, recycle: true });
  return packed.strings;
}

/**
 * The files of `inputs` (the stored graph's) that `contents` (the scope's files now, read) lack, in the
 * inputs' order. `came`, when known: how many of the files of `contents` whose facts the inputs do not
 * give the inputs lack; every other file of `contents` is in the inputs. So when the inputs have as many
 * files as `contents` less those that came, none went, and no set of every path is made (4 ms of a
 * file's coming in a watch on v1.28, twice: see filesCameWent).
 */
function wentFrom(inputs: ResolveInputs, contents: readonly FileContent[], came?: number): string[] {
  if (came !== undefined && inputs.files.length === contents.length - came) return [];
  const now = new Set(contents.map((c) => c.path));
  const went: string[] = [];
  for (const [path] of inputs.files) if (!now.has(path)) went.push(path);
  return went;
}

/**
 * The manifest of the scope's files (in order) and of their packages' folders (in the order of their
 * first files), as manifestOf makes it, with the paths of the manifest file `on` when it was made over
 * a scope of this structure (a manifest's paths are the structure's: see Manifest.structure), and
 * the sizes and mtimes the scan saw; undefined when it was not, or the scan saw no stat of a path.
 */
function manifestOver(on: Freshness | undefined, structure: string, contents: readonly FileContent[], seen: ReturnType<SourceScan['scopeStats']>): Manifest | undefined {
  if (on?.structure === undefined || on.structure !== structure) return undefined;
  const stats = scopeStatsOf(contents, seen);
  if (!stats || stats.sizes.length !== on.sizes.length) return undefined;
  return withPathBytes(on.paths, stats.sizes, stats.mtimes, structure);
}

/**
 * The manifest manifestOf makes when files came to or went from packages that stay (`files`: their
 * paths), made from the manifest file `on` when the last build wrote it over `was` (that build's
 * files in order, and its stamp): its lines with those
 * of the files that went taken out and those of the files that came put in their places, its folders'
 * lines as they were, and the sizes and mtimes the scan saw. Undefined when the manifest file is not
 * that build's, the files now are not the last build's with those taken out and put in, a package came
 * or went (the folders' lines differ), or the scan saw no stat of a path. Made whole (manifestOf), the
 * manifest took 8 ms of a file's coming or going in a watch on v1.28 (6,200 paths), made so 4 ms.
 */
function manifestSpliced(
  on: Freshness | undefined,
  root: string,
  structure: string,
  contents: readonly FileContent[],
  seen: ReturnType<SourceScan['scopeStats']>,
  was: { files: ResolveInputs['files']; stamp: string },
  files: { came: ReadonlySet<string>; went: ReadonlySet<string> },
): Manifest | undefined {
  // The stamp hashes the paths in order: the manifest file's files are the last build's.
  if (on?.structure === undefined || on.stamp !== was.stamp) return undefined;
  const stats = scopeStatsOf(contents, seen);
  const n = was.files.length;
  if (!stats || on.sizes.length - n !== stats.firsts.length) return undefined;
  // Where each line of the manifest file starts; one past the end after the last.
  const bytes = on.paths;
  const lines = on.sizes.length;
  const starts = new Int32Array(lines + 1);
  for (let k = 0, at = 0; k < lines; k++) {
    if (at > bytes.length) return undefined;
    starts[k] = at;
    const nl = bytes.indexOf(10, at);
    at = nl < 0 ? bytes.length + 1 : nl + 1;
    if (k === lines - 1 && nl >= 0) return undefined;
  }
  starts[lines] = bytes.length + 1;
  const abs = manifestAbs(root);
  // The new paths: runs of the old lines, and the lines of the files that came, joined by newlines.
  const pieces: Uint8Array[] = [];
  let from = -1;
  const endRun = (to: number) => {
    if (from >= 0) pieces.push(bytes.subarray(starts[from], starts[to] - 1));
    from = -1;
  };
  let j = 0;
  for (let i = 0; i < contents.length; i++) {
    const path = contents[i].path;
    for (; j < n && files.went.has(was.files[j][0]); j++) endRun(j);
    if (files.came.has(path)) {
      endRun(j);
      pieces.push(Buffer.from(abs(path)));
      continue;
    }
    if (j >= n || was.files[j][0] !== path) return undefined;
    if (from < 0) from = j;
    j++;
  }
  for (; j < n && files.went.has(was.files[j][0]); j++) endRun(j);
  endRun(j);
  if (j !== n) return undefined;
  // The folders' lines, as manifestOf makes them from each package's first file, are the old ones.
  for (const [k, i] of stats.firsts.entries()) {
    if (bytes.toString('utf8', starts[n + k], starts[n + k + 1] - 1) !== abs(manifestDir(contents[i].path))) return undefined;
  }
  if (lines > n) pieces.push(bytes.subarray(starts[n], bytes.length));
  const pathBytes = Buffer.alloc(pieces.reduce((sum, p) => sum + p.length, 0) + pieces.length - 1);
  let at = 0;
  for (const [k, p] of pieces.entries()) {
    if (k > 0) pathBytes[at++] = 10;
    pathBytes.set(p, at);
    at += p.length;
  }
  return withPathBytes(pathBytes, stats.sizes, stats.mtimes, structure);
}

/**
 * The sizes and mtimes the scan saw of the scope's files, then of their packages' folders (in the order
 * of their first files, whose places are `firsts`), as manifestOf lists them; undefined when it saw
 * no stat of one.
 */
function scopeStatsOf(contents: readonly FileContent[], seen: ReturnType<SourceScan['scopeStats']>): { sizes: number[]; mtimes: number[]; firsts: number[] } | undefined {
  const sizes: number[] = [];
  const mtimes: number[] = [];
  const firsts: number[] = [];
  for (let i = 0; i < contents.length; i++) {
    const st = seen.file(contents[i].at);
    if (!st) return undefined;
    sizes.push(st[0]);
    mtimes.push(st[1]);
    if (i === 0 || contents[i].pkgAt !== contents[i - 1].pkgAt) firsts.push(i);
  }
  for (const i of firsts) {
    const st = seen.dir(contents[i].pkgAt);
    if (!st) return undefined;
    sizes.push(st[0]);
    mtimes.push(st[1]);
  }
  return { sizes, mtimes, firsts };
}

/** A manifest whose paths are `pathBytes` (as a manifest file holds them), split into strings only if read. */
function withPathBytes(pathBytes: Uint8Array, sizes: number[], mtimes: number[], structure: string): Manifest {
  let paths: string[] | undefined;
  return {
    get paths() {
      return (paths ??= Buffer.from(pathBytes.buffer, pathBytes.byteOffset, pathBytes.byteLength).toString('utf8').split('\n'));
    },
    sizes, mtimes, pathBytes, structure,
  };
}

/**
 * The stamp of a tree: the hash of every file's path and content hash, in the scope's order (see
 * IndexState.stamp). With the hashes alone, a file renamed where its name kept its place among its
 * package's files gave the stamp before, and the build took the stored graph, which named the old path.
 */
function stampOf(files: readonly { path: string; hash: string }[]): string {
  return textHash(files.map((f) => `${f.path}\0${f.hash}`).join('\n'));
}

/** A file read for parsing gave other bytes than the ones hashed for it earlier in the build. */
class ChangedUnderBuild extends Error {}

/** A file the build's scan saw was gone when the build read it. */
class VanishedUnderBuild extends Error {}

/** One build; `again`: the second, after a file vanished under the first (a vanished file is then said as unreadable). */
function build(opts: IndexOptions, useSnapshot: boolean, again = false): IndexResult {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (name: string) => {
    const now = performance.now();
    timings[name] = (timings[name] ?? 0) + (now - t);
    t = now;
  };
  const dir = indexDir(opts);
  const sourceFile = join(dir, SOURCE_FILE);
  const previous = useSnapshot && !opts.fresh ? readPack<SourceSnapshot>(sourceFile, opts.memo) : undefined;
  // The files earlier builds of this process read and left out of the snapshot are named too: the
  // snapshot still has their old stats and hashes (see keepSnapshot).
  const unrecorded = opts.memo?.get(sourceFile + UNRECORDED, '') as string[] | undefined;
  const only = opts.onlyChanged && unrecorded ? [...new Set([...opts.onlyChanged, ...unrecorded])] : opts.onlyChanged;
  let scan: SourceScan;
  try {
    scan = scanSource(opts.root, opts.ctx, opts.scope ?? 'default', { previous, statMany: nativeStatAll(), racyMs: opts.racyMs, only });
  } catch (err) {
    // A snapshot this code cannot read (damaged, or of another shape) is no snapshot; errors of the tree itself come again.
    if (!previous || err instanceof SourceError) throw err;
    scan = scanSource(opts.root, opts.ctx, opts.scope ?? 'default', { statMany: nativeStatAll() });
  }
  const { root, modulePath, packages } = scan;
  const diagnostics: Diagnostic[] = [...scan.diagnostics];
  lap('source');

  const packFile = join(dir, 'facts.bin');
  const stateFile = join(dir, STATE_FILE);
  const files = packages.flatMap((p) => p.files);
  const contents: FileContent[] = [];
  const knownHashes = scan.knownHashes();
  // The content hash of each file of the scope, in order, for the next snapshot ('' when it could not be read).
  const hashes: string[] = [];
  let read = 0;
  const readPaths: string[] = [];
  for (const [pkgAt, pkg] of packages.entries()) {
    for (const f of pkg.files) {
      const at = hashes.length;
      // Unchanged since the snapshot hashed it: its bytes are read only if it has to be parsed (see bytesOf).
      const hash = knownHashes[at];
      if (hash !== undefined) {
        hashes.push(hash);
        contents.push({ pkg, pkgAt, at, path: f.path, abs: f.abs, active: f.active, hash });
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = readFileSync(f.abs);
      } catch (err) {
        // Gone since the scan saw it (a file removed as the build ran): the build starts over, once,
        // and its scan finds it gone, where a "cannot read" diagnostic would have changed what
        // resolution reads (a watch's kept resolution refused such a build, and the next one).
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !again) throw new VanishedUnderBuild(f.path);
        hashes.push('');
        diagnostics.push({ severity: 'error', code: 'read', message: `cannot read: ${(err as Error).message}`, file: f.path, line: 1 });
        continue;
      }
      read++;
      if (read <= SNAPSHOT_SKIPS_READS) readPaths.push(f.path);
      const c: FileContent = { pkg, pkgAt, at, path: f.path, abs: f.abs, active: f.active, hash: contentHash(bytes), bytes };
      hashes.push(c.hash);
      contents.push(c);
    }
  }
  lap('read');
  // The snapshot for the next build, written last: only when something was walked, read or moved.
  const keepSnapshot = () => {
    if (!scan.changed && read === 0) return;
    // No folder was listed and only a few files were read: the snapshot on disk still holds for every
    // other file, and the next build reads these few again (as this one did) instead of this build
    // writing the whole snapshot (2.6 MB on v1.28) after each edit. A next build of this process told
    // which paths changed is told of these too: it would take the snapshot's word for them.
    if (scan.reused === 'tree' && read <= SNAPSHOT_SKIPS_READS) {
      opts.memo?.set(sourceFile + UNRECORDED, '', readPaths.map((p) => p.split('/').join(sep)));
      return;
    }
    opts.memo?.delete(sourceFile + UNRECORDED);
    const snapshot = scan.snapshot(hashes);
    if (snapshot) writePack(sourceFile, snapshot, opts.memo);
    else rmSync(sourceFile, { force: true });
  };
  // Each file's and dir's size and mtime as the scan found them, before reading: the freshness manifest a build writes.
  // `cameWent`: the files that came and went since the stored state, when known (see manifestSpliced).
  const manifestNow = (cameWent?: { came: ReadonlySet<string>; went: ReadonlySet<string>; was: { files: ResolveInputs['files']; stamp: string } }) => {
    const seen = scan.scopeStats();
    // Every file of the scope read: the manifest's paths are those of the scope's structure under the root.
    const whole = contents.length === files.length;
    const structure = whole ? `${root}\0${scan.structure()}` : undefined;
    const on = structure ? readFreshness(dir, false) : undefined;
    const taken = structure && (manifestOver(on, structure, contents, seen) ?? (cameWent && manifestSpliced(on, root, structure, contents, seen, cameWent.was, cameWent)));
    if (taken) return taken;
    const manifest = manifestOf(root, contents.map((c) => c.path), (abs, i, dir) => (dir ? seen.dir(contents[i].pkgAt) : seen.file(contents[i].at)) ?? statNow(abs));
    if (structure) manifest.structure = structure;
    return manifest;
  };
  // Every file's path and content hash, in order, hashed once more: the graph's identity, kept short for the query store's header.
  const stamp = stampOf(contents);
  const state = opts.fresh ? undefined : readState(stateFile, opts.memo);
  lap('load');
  if (state?.stamp === stamp) {
    const bytes = storedGraphLater(dir, state);
    if (bytes) {
      lap('load');
      const result = lazyResult(bytes, { timings, files: { total: files.length, parsed: 0, cached: contents.length, read }, fromCache: true }, state.summary, storedConcurrencyLater(dir, state));
      // Same bytes, but sizes or mtimes may have moved (a checkout, a touch): refresh the manifest file.
      storeFor(dir, state.inputs.key, stamp, manifestNow(), () => result.graph, smallReuse(opts.memo));
      keepSnapshot();
      lap('write');
      return result;
    }
  }
  const sourceDiagnostics = [...diagnostics];
  const inputsOf = (factsOf: (c: FileContent, i: number) => string | undefined): ResolveInputs => resolveInputs(root, modulePath, opts.ctx, sourceDiagnostics, packages, contents, factsOf, opts.memo, { structure: () => scan.structure(), stored: state?.inputs });
  // The early cut-off: parse only the changed files; if their facts are the ones the stored graph was
  // made from, that graph is the answer and nothing is resolved.
  let early: Map<string, Parsed> | undefined;
  // Why the kept resolution (a watch's) did not take this edit, if it did not.
  let refused: string | undefined;
  // The facts it holds, when it did not take the edit: a resolution from nothing starts from them.
  let decoded: Before['decoded'];
  const known = state?.inputs ? factsKnown(state.inputs) : undefined;
  const changed = known ? contents.filter((c, i) => known(c, i) === undefined) : undefined;
  // A scan that took the snapshot's tree has the files it had: none went when the counts agree.
  // Each changed file's entry in the state's inputs, when a few changed (looked for one by one, with no
  // map of them all): none for a file that came.
  const entries = state && changed && changed.length <= CUTOFF_MAX_FILES ? new Map(changed.map((c) => [c.path, state.inputs.files.find((e) => e[0] === c.path)])) : undefined;
  const came = entries && [...entries.values()].filter((e) => e === undefined).length;
  const went = changed && (scan.reused === 'tree' && state!.inputs.files.length === contents.length ? [] : wentFrom(state!.inputs, contents, came));
  const changedPaths = changed && [...changed.map((c) => c.path), ...went!];
  if (state && changed && entries) {
    const before = entries;
    // Their old facts, which a build that keeps no trees parses the files in part from (see splice.ts):
    // only a file large enough to carry segments can be, so a smaller one's facts are not read here.
    const oldKeys = new Map(changed.flatMap((c) => {
      const e = before.get(c.path);
      return e && (c.bytes?.length ?? 0) >= SEGMENTS_MIN_CHARS ? [[c.path, factsKey(c.path, e[1], c.active)] as const] : [];
    }));
    const oldEntries = opts.memo === undefined && oldKeys.size > 0 ? readFactsEntries(packFile, [...oldKeys.values()]) : undefined;
    early = parseChanged(changed, opts, oldEntries && ((path) => oldEntries.get(oldKeys.get(path)!)));
    // The facts the last build of this process parsed (an edit's old facts are mostly those), and these for the next.
    const lastParsed = opts.memo?.get(PARSED_SLOT, PARSED_SLOT) as Map<string, FileFacts> | undefined;
    opts.memo?.set(PARSED_SLOT, PARSED_SLOT, new Map(changed.map((c) => [keyOf(c), early!.get(c.path)!.facts])));
    lap('parse');
    // Every file that is not among the changed ones has the bytes, so the facts, the state records for it.
    const inputs = inputsOf((c, i) => early!.get(c.path)?.factsHash ?? known!(c, i));
    const counts = { total: files.length, parsed: changed.length, cached: contents.length - changed.length, read };
    // The changed files' new facts join the pack (appended, not rewritten), so a later build finds them.
    const keep = () => appendFactsEntries(packFile, changed.map((c) => [keyOf(c), early!.get(c.path)!.packed]), liveKeys(contents));
    const bytes = inputs.key === state.inputs.key ? storedGraphLater(dir, state) : undefined;
    if (bytes) {
      lap('load');
      const result = lazyResult(bytes, { timings, files: counts, fromCache: true, cutOff: 'facts', changed: changedPaths }, state.summary, storedConcurrencyLater(dir, state));
      const manifest = manifestNow();
      writeState(stateFile, { stamp, graph: state.graph, moves: state.moves, delta: state.delta, inputs, summary: result.summary } satisfies IndexState, opts.memo);
      // The store's graph is unchanged too: only the manifest file beside it is written.
      storeFor(dir, inputs.key, stamp, manifest, () => result.graph, smallReuse(opts.memo));
      keep();
      keepSnapshot();
      lap('write');
      return result;
    }
    // The inputs as they would be if the changed files kept their old facts: the stored graph's, unless something else changed.
    const prior = inputsWith(inputs, changed, (path) => before.get(path)?.[2]);
    const limit = opts.keepMovedLines ?? MOVES_KEPT_MAX_LINES;
    const moved = prior.key === state.inputs.key ? movedGraph({ state, dir, packFile, changed, before, early, sourceDiagnostics, limit, recycle: keepsResolution(opts.memo), parsed: lastParsed, read: oldEntries }) : undefined;
    lap('load');
    if (moved) {
      // Only lines moved: the counts are the stored graph's, the diagnostics the moved ones.
      const summary = state.summary && { ...state.summary, diagnostics: moved.diagnostics };
      const cutOff = moved.shifts.some((m) => m[2]) ? 'records' : 'positions';
      const result = lazyResult(moved.graph, { timings, files: counts, fromCache: false, cutOff, changed: changedPaths }, summary);
      const manifest = manifestNow();
      // The moves are kept beside the graph file and the store, which stay as they are, until they grow
      // past MOVES_KEPT_MAX_LINES: then both are written with the lines moved.
      const kept = movedLineCount(moved.moves) <= limit;
      if (kept) {
        writeState(stateFile, { stamp, graph: state.graph, moves: moved.moves, delta: state.delta, inputs, summary: result.summary } satisfies IndexState, opts.memo);
      } else {
        writeGraphFile(join(dir, GRAPH_FILE), graphLabel(stamp), moved.parts ?? movedParts(storedGraph(dir, state), moved.moves));
        writeState(stateFile, { stamp, graph: graphLabel(stamp), inputs, summary: result.summary } satisfies IndexState, opts.memo);
      }
      moveStore(dir, state.inputs.key, inputs.key, stamp, manifest, moved.shifts, kept ? limit : -1, () => result.graph, smallReuse(opts.memo));
      keep();
      keepSnapshot();
      lap('write');
      return result;
    }
    // A process that builds again and again keeps the resolution that made the stored graph: it
    // resolves again only what the edit can change, when it takes the edit and nothing else changed
    // (the same packages and files, context and source diagnostics: see prior).
    const kept = takeSession(opts.memo, dir);
    // The files the kept resolution is behind on, besides the changed ones: edits it did not take
    // (an early cut-off moved their lines), whose facts the pack has.
    const behind = kept && prior.key === state.inputs.key ? sessionBehind(kept, prior, contents, changed, packFile) : undefined;
    // Or files that came or went, in packages that stay, with nothing else changed.
    const cameWent = kept && prior.key !== state.inputs.key ? filesCameWent(kept, state.inputs, prior, changed, went!) : undefined;
    const session = (behind || cameWent) && kept!.session;
    const update = session && changed.every((c) => c.active) ? session.update([...changed.map((c) => early!.get(c.path)!.facts), ...(behind ?? [])], { root, modulePath, context: opts.ctx, diagnostics: sourceDiagnostics }, cameWent) : undefined;
    if (update) lap('resolve');
    if (update && 'graph' in update) {
      for (const [k, v] of Object.entries(update.timings)) timings[`resolve.${k}`] = v;
      keepSession(opts.memo!, dir, inputs, session!);
      const summary = writeResolved(update.graph, { dir, stamp, inputs, manifest: manifestNow(cameWent && { came: new Set(cameWent.came.map((c) => c.path)), went: new Set(cameWent.went), was: { files: state.inputs.files, stamp: state.stamp } }), memo: opts.memo, prior: state, lap, changes: update.changes, defer: opts.defer, reasons: session!.unresolvedReasons() });
      if (opts.defer) {
        opts.defer(() => {
          keep();
          keepSnapshot();
          // The arrays of the next edit's lists, made while the watch waits for it; the map of
          // functions put in order once the watch has said it is idle (a command waiting for it
          // goes on first).
          session!.prepare();
          setImmediate(() => session!.settle());
        });
      } else {
        keep();
        lap('write.facts');
        keepSnapshot();
        lap('write.snapshot');
      }
      return { graph: update.graph, summary, concurrency: concurrencyOf(update.graph), timings, files: counts, fromCache: false, incremental: { redone: update.redone, functions: update.functions }, changed: changedPaths };
    }
    if (kept) {
      refused = update ? update.refused : prior.key !== state.inputs.key ? 'files, packages or the build context changed' : !behind ? 'files it did not take before changed, and cannot be taken with this edit' : 'a file outside the build changed';
      decoded = factsDecoded(kept, known!);
    }
  }
  const meta = { root, modulePath, context: opts.ctx, diagnostics };
  const { graph, session, parsed, parser, parseThreads, factsHashes } = rebuildGraph(contents, packages, packFile, opts, meta, lap, { early, known, decoded });
  const manifest = manifestNow();
  const inputs = inputsOf((c) => factsHashes.get(c.path));
  // A graph resolved from nothing has edges of its own, every one: its query store is written whole,
  // rather than compared with the last graph's for a delta that would name every caller (0.4-0.5 s
  // of such a build in a watch on v1.28, for a delta then found too large).
  forgetDeltaBase();
  const summary = writeResolved(graph, { dir, stamp, inputs, manifest, memo: opts.memo, prior: state, lap });
  if (session) keepSession(opts.memo!, dir, inputs, session);
  keepSnapshot();
  lap('write.snapshot');
  const owner = { of: JSON.stringify({ root: opts.root, ctx: opts.ctx, scope: opts.scope ?? 'default' }), stamp: toolStamp(), builtAt: Date.now() };
  writeOwner(dir, owner);
  pruneIndexes(join(dir, '..'), basename(dir), owner);
  lap('write.owner');
  return { graph, summary, concurrency: concurrencyOf(graph), timings, files: { total: files.length, parsed, cached: contents.length - parsed, read }, parser, parseThreads, fromCache: false, refused, changed: changedPaths };
}

/**
 * A resolved graph written, and its summary given: the graph file first, then the state naming it (a
 * build stopped in between leaves a state whose graph is not there, which the next build takes for no
 * cache), the query store and its manifest; or, with `defer` and a store delta, the other way round
 * (see below).
 */
function writeResolved(graph: Graph, a: { dir: string; stamp: string; inputs: ResolveInputs; manifest: Manifest; memo?: PackMemo; prior?: IndexState; lap?: (name: string) => void; changes?: GraphChanges; defer?: (task: () => void) => void; reasons?: ReadonlyMap<string, number> }): GraphSummary {
  // A process that keeps the resolution between builds (see keepsResolution) passes the same records
  // again: the encoders keep what they made for the next graph, and (as every part is written here and
  // dropped) make it in the memory of what they made the time before (see graph/scratch.ts).
  const keep = keepsResolution(a.memo);
  // Packed once, for the graph file and the store, when either is written whole.
  let packed: PackedGraph | undefined;
  const packedNow = () => (packed ??= packGraph(graph, { keep, recycle: keep }));
  // Such a process writes the query store whole only when what changed since it was written grows too
  // large to keep beside it as a delta (see graph/delta.ts).
  const storeFile = join(a.dir, STORE_FILE);
  const disk = keep ? storeOnDisk(a.dir) : undefined;
  const delta = disk && storeDelta(storeFile, graph, a.inputs.key, disk, a.changes);
  // When it reports builds before all is written (see IndexOptions.defer), and the store's change fits
  // in a delta: the delta and the manifest first (what queries read), the graph file and the state
  // after the report. Stopped in between, the state still names the graph before, whose files are as
  // they were: the next build finds the tree changed since, and builds as after any edit.
  if (delta && a.defer) {
    const summary = summarizeGraph(graph, a.reasons);
    a.lap?.('write.pack');
    writeFreshnessFile(a.dir, a.stamp, a.inputs.key, a.manifest, { base: disk!.base!, delta }, smallReuse(a.memo));
    a.lap?.('write.manifest');
    a.defer(() => writeGraphAndState(graph, { ...a, lap: undefined }, keep, packedNow, summary));
    return summary;
  }
  const summary = writeGraphAndState(graph, a, keep, packedNow);
  if (delta) {
    a.lap?.('write.store');
    writeFreshnessFile(a.dir, a.stamp, a.inputs.key, a.manifest, { base: disk!.base!, delta }, smallReuse(a.memo));
  } else {
    const reuse = keep ? spareReuse() : undefined;
    writeStore(storeFile, graph, a.inputs.key, packedNow(), keep, reuse);
    if (reuse) makeSpares(a.dir);
    a.lap?.('write.store');
    writeFreshnessFile(a.dir, a.stamp, a.inputs.key, a.manifest, undefined, smallReuse(a.memo));
  }
  a.lap?.('write.manifest');
  return summary;
}

/**
 * The graph file (or, in a process that keeps the resolution, its delta beside it in the state: the
 * file is written whole only when what changed since grows too large, see graph/pack-delta.ts), then
 * the state naming it (a build stopped in between leaves a state whose graph is not there, which the
 * next build takes for no cache). Returns the graph's summary, as the state keeps it: `made`, when
 * the caller made it already (and reported it), else made here.
 */
function writeGraphAndState(graph: Graph, a: { dir: string; stamp: string; inputs: ResolveInputs; memo?: PackMemo; prior?: IndexState; lap?: (name: string) => void; reasons?: ReadonlyMap<string, number> }, keep: boolean, packedNow: () => PackedGraph, made?: GraphSummary): GraphSummary {
  const graphFile = join(a.dir, GRAPH_FILE);
  const label = graphLabel(a.stamp);
  const fileDelta = keep ? packDelta(graphFile, graph, packOnDisk(graphFile, a.prior)) : undefined;
  const summary = made ?? (fileDelta ? summarizeGraph(graph, a.reasons) : summarize(packedNow()));
  a.lap?.('write.pack');
  if (!fileDelta) {
    // It also writes the graph file into its copy from the time before (see Reuse).
    writeGraphFile(graphFile, label, encodePacked(packedNow(), { keep, recycle: keep }), keep ? spareReuse() : undefined);
    if (keep) packWritten(graphFile, graph, label, packedNow().strings);
  }
  a.lap?.('write.graph');
  writeState(join(a.dir, STATE_FILE), { stamp: a.stamp, graph: label, inputs: a.inputs, summary, ...(fileDelta && { delta: fileDelta }) } satisfies IndexState, a.memo);
  a.lap?.('write.state');
  return summary;
}

/**
 * Whether a process that builds again and again (it has a memo) keeps the resolution between builds.
 * It costs memory (about 0.35 GB more resident on v1.28's default scope, 0.9 GB with --scope all):
 * KUBELET_ATLAS_KEEP_RESOLUTION=0 turns it off.
 */
function keepsResolution(memo: PackMemo | undefined): boolean {
  return memo !== undefined && process.env['KUBELET_ATLAS_KEEP_RESOLUTION'] !== '0';
}

/** The memo's key for the resolution kept for the index in `dir`. */
function sessionSlot(dir: string): string {
  return `${dir}\0session`;
}

/**
 * The resolution kept in `memo` for the index in `dir`, with the inputs its graph was made from (the
 * caller sees whether it can take the edit: see sessionBehind); taken out of the memo, as an update
 * changes it: put back with keepSession once its graph is written.
 */
function takeSession(memo: PackMemo | undefined, dir: string): KeptSession | undefined {
  const kept = keptSession(memo, dir);
  memo?.delete(sessionSlot(dir));
  return kept;
}

/** The resolution kept in `memo` for the index in `dir`, left there. */
function keptSession(memo: PackMemo | undefined, dir: string): KeptSession | undefined {
  return memo?.get(sessionSlot(dir), SESSION_ID) as KeptSession | undefined;
}

/** A kept resolution, with the inputs its graph was made from (see ResolveInputs). */
interface KeptSession {
  inputs: ResolveInputs;
  session: ResolveSession;
}

const SESSION_ID = 'session';

/**
 * The memo's slot for the facts of the files the last build of the process parsed, by their pack key:
 * the next edit of one of them finds its old facts there (see movedGraph), not in the pack.
 */
const PARSED_SLOT = '\0parsed';

function keepSession(memo: PackMemo, dir: string, inputs: ResolveInputs, session: ResolveSession): void {
  memo.set(sessionSlot(dir), SESSION_ID, { inputs: { key: inputs.key, files: inputs.files }, session } satisfies KeptSession);
}

/**
 * The facts of the files whose facts the kept resolution did not take (besides `changed`): the
 * facts of the state's inputs `prior` for them, read from the pack. Undefined when it cannot take
 * them: the inputs, those files' facts aside, are not the ones its graph was made from (another file
 * list, context or diagnostics), a file is not in the build or its facts are not in the pack, or there
 * are more than CUTOFF_MAX_FILES.
 */
function sessionBehind(kept: KeptSession, prior: ResolveInputs, contents: FileContent[], changed: FileContent[], packFile: string): FileFacts[] | undefined {
  if (kept.inputs.key === prior.key) return [];
  const theirs = new Map(kept.inputs.files.map(([path, , facts]) => [path, facts]));
  const behind = contents.filter((c, i) => prior.files[i]?.[0] === c.path && theirs.get(c.path) !== prior.files[i][2]);
  if (behind.length === 0 || behind.length > CUTOFF_MAX_FILES || behind.some((c) => !c.active)) return undefined;
  // The state's inputs with those files' facts as the resolution had them: its own inputs, when nothing else changed.
  if (inputsWith(prior, behind, (path) => theirs.get(path) || undefined).key !== kept.inputs.key) return undefined;
  const mine = new Set(changed.map((c) => c.path));
  const todo = behind.filter((c) => !mine.has(c.path));
  const keys = todo.map((c) => factsKey(c.path, c.hash, c.active));
  const entries = readFactsEntries(packFile, keys);
  const facts: FileFacts[] = [];
  for (const k of keys) {
    const packed = entries.get(k);
    const f = packed && decodedOrNone(packed);
    if (!f) return undefined;
    facts.push(f);
  }
  return facts;
}

/**
 * The files that came or went since the state's inputs `was` (which the kept resolution's graph was
 * made from), when that and the changed files' facts are all that changed (`went`: the files of `was`
 * the scope has no more, see wentFrom): `prior` (the inputs with
 * the changed files' old facts: see inputsWith) with the files that came left out and those that went
 * put back, as the kept resolution has them, gives `was`'s key. Undefined otherwise, or when none came
 * or went, or more than CUTOFF_MAX_FILES did, or a file that came is not in the build, or one that went
 * was not.
 */
function filesCameWent(kept: KeptSession, was: ResolveInputs, prior: ResolveInputs, changed: FileContent[], went: string[]): FilesChange | undefined {
  if (kept.inputs.key !== was.key) return undefined;
  const d = describedAs.get(prior);
  if (!d) return undefined;
  // Each entry's place, set one by one (a map made from a list of pairs made a pair per file first).
  const at = new Map<string, number>();
  for (let i = 0; i < was.files.length; i++) at.set(was.files[i][0], i);
  const came = changed.filter((c) => !at.has(c.path));
  if (came.length + went.length === 0 || came.length + went.length > CUTOFF_MAX_FILES || came.some((c) => !c.active)) return undefined;
  const pkgAt = new Map(d.packages.map((p, i) => [p.importPath, i]));
  // The files that went, as the kept resolution has them (in the build, so active), by their package's place.
  const wentFiles: (DescribedFile & { pkgAt: number })[] = [];
  const pkgs = new Set(came.map((c) => c.pkgAt));
  for (const path of went) {
    const f = kept.session.fileInBuild(path);
    const i = f && pkgAt.get(f.importPath);
    if (!f || i === undefined) return undefined;
    wentFiles.push({ path, active: true, constraint: f.constraint, pkgAt: i });
    pkgs.add(i);
  }
  const cameAt = new Set(came.map((c) => c.path));
  const parts = d.parts.slice();
  for (const i of pkgs) {
    const p = d.packages[i];
    // The package's files as the state had them: in its order, each with the facts it had.
    const files: DescribedFile[] = [...p.files.filter((f) => !cameAt.has(f.path)), ...wentFiles.filter((f) => f.pkgAt === i)];
    files.sort((a, b) => at.get(a.path)! - at.get(b.path)!);
    parts[i] = partOfFiles(p.importPath, files, files.map((f) => was.files[at.get(f.path)!][2]));
  }
  if (keyOfDescription({ ...d, parts }) !== was.key) return undefined;
  return {
    came: came.map((c) => {
      const files = c.pkg.files;
      const j = files.findIndex((f) => f.path === c.path);
      return { path: c.path, importPath: c.pkg.importPath, active: c.active, constraint: files[j].constraint, before: files.slice(j + 1).find((f) => !cameAt.has(f.path))?.path };
    }),
    went,
  };
}

/** The query store of `graph` written, made from its packed form when the caller has it (see encodeStoreParts). */
function writeStore(file: string, graph: Graph, key: string, packed?: PackedGraph, keep = false, reuse?: Reuse): void {
  writeParts(file, encodeStoreParts(graph, key, packed, { keep, recycle: keep }), reuse);
}

/** The manifest file beside the query store (see FRESH_FILE): the files behind graph `key`, with their stamp. */
function writeFreshnessFile(dir: string, stamp: string, key: string, manifest: Manifest, moved?: StoreMoves, reuse?: Reuse): void {
  writeParts(join(dir, FRESH_FILE), encodeFreshness(stamp, key, manifest, moved), reuse);
}

/**
 * The query store in `dir` made to hold graph `key` for files of `stamp`: written from `graph()` only
 * when it holds another graph or none (a new kubelet-atlas, a build stopped before it), and its
 * manifest file only when it is not this one already.
 */
function storeFor(dir: string, key: string, stamp: string, manifest: Manifest, graph: () => Graph, reuse?: Reuse): void {
  const stored = storeState(dir);
  if (stored.graph !== key) {
    writeStore(join(dir, STORE_FILE), graph(), key);
    writeFreshnessFile(dir, stamp, key, manifest, undefined, reuse);
  } else if (!stored.fresh || !sameFreshness(stored.fresh, stamp, manifest)) {
    // The same graph: the moves or delta kept for the store stay with it.
    writeFreshnessFile(dir, stamp, key, manifest, stored.fresh?.moved, reuse);
  }
}

/**
 * The query store in `dir`, which held graph `from`, made to hold graph `to`: `from`'s lines moved by
 * `shifts`. When the moves, with any it had already, map at most `limit` lines, the store stays as it
 * is and they go to its manifest file; else they are written into it (see moveStoreLinesParts). Written
 * anew from `graph()` when it holds another graph or cannot be moved.
 */
function moveStore(dir: string, from: string, to: string, stamp: string, manifest: Manifest, shifts: FileMove[], limit: number, graph: () => Graph, reuse?: Reuse): void {
  const file = join(dir, STORE_FILE);
  const stored = storeState(dir);
  const moved = stored.fresh?.moved;
  let moves: FileMove[] | undefined;
  try {
    moves = stored.graph === from ? composeMoves(stored.fresh ? storeMoves(stored.fresh) : [], shifts) : undefined;
  } catch {
    // Moves this code cannot read: the store is written anew.
  }
  if (moves) {
    const base = moved?.base ?? from;
    if (movedLineCount(moves) <= limit) {
      // A delta beside the store was written with the lines it had then: moved by this edit's shifts.
      const delta = moved?.delta && moveDeltaLines(moved.delta, shifts);
      writeFreshnessFile(dir, stamp, to, manifest, { base, moves: serializeMoves(moves), ...(delta && { delta }) }, reuse);
      return;
    }
    // The store is written whole when it has a delta beside it.
    if (!moved?.delta && moveStoreFile(file, base, to, moves)) {
      writeFreshnessFile(dir, stamp, to, manifest, undefined, reuse);
      return;
    }
  }
  writeStore(file, graph(), to);
  writeFreshnessFile(dir, stamp, to, manifest, undefined, reuse);
}

/**
 * The second cut-off: every changed file's facts are its old facts with their positions moved (see
 * positionShift), and (checked by the caller) nothing else that resolution reads changed. Resolution
 * reads positions only to compare them with others of the same file and to copy them out, and a shift
 * keeps every comparison, so the stored graph with those files' lines moved (remapLines) is the graph
 * it would make. A file whose declarations' docs or fingerprints changed as well (see factsShift) is
 * taken too: resolution reads neither, it copies them into the symbol records, so those records take
 * them from the new facts (symbolFields). Undefined when that cannot be shown: the old facts are gone,
 * a file is new, something else moved.
 */
function movedGraph(a: { state: IndexState; dir: string; packFile: string; changed: FileContent[]; before: Map<string, ResolveInputs['files'][number] | undefined>; early: Map<string, Parsed>; sourceDiagnostics: Diagnostic[]; limit: number; recycle: boolean; parsed?: Map<string, FileFacts>; read?: Map<string, Uint8Array> }): MovedGraph | undefined {
  const { state, changed, early } = a;
  // The content each changed file had.
  const old = new Map(changed.map((c) => [c.path, a.before.get(c.path)?.[1]]));
  if (changed.some((c) => old.get(c.path) === undefined)) return undefined;
  // A diagnostic of the source stage placed in a changed file would move here, and not in a rebuild.
  if (a.sourceDiagnostics.some((d) => d.line !== undefined && d.file !== undefined && early.has(d.file))) return undefined;
  const keys = changed.map((c) => factsKey(c.path, old.get(c.path)!, c.active));
  // The old facts as this process parsed them last, else read from the pack.
  const unread = keys.filter((k) => !a.parsed?.has(k) && !a.read?.has(k));
  const entries = new Map([...(a.read ?? []), ...(unread.length > 0 ? readFactsEntries(a.packFile, unread) : [])]);
  const shifts: FileMove[] = [];
  for (const [i, c] of changed.entries()) {
    const packed = entries.get(keys[i]);
    const parsed = early.get(c.path)!;
    // A file parsed in part comes with factsShift's answer (see splicePacked).
    const was = parsed.spliced ? undefined : (a.parsed?.get(keys[i]) ?? (packed && decodedOrNone(packed)));
    const shift = parsed.spliced ? parsed.spliced.shift : was && factsShift(was, parsed.facts);
    if (!shift) return undefined;
    shifts.push(shift.symbols ? [c.path, shift.lines, symbolFields(parsed.spliced?.declared() ?? parsed.facts)] : [c.path, shift.lines]);
  }
  // The graph file's lines are where the state's moves (if any) and then these shifts put them.
  const moves = composeMoves(state.moves ?? [], shifts);
  if (!moves) return undefined;
  // Every changed file's lines were shown to have a place when it joined the kept moves (and its
  // records to have fields, when they need them): the composed moves keep a place for each of those
  // lines (composeMoves), so the graph file need not be read. Its moved form is made when it is read.
  const kept = new Map((state.moves ?? []).map((m) => [m[0], m]));
  const keptAll = movedLineCount(moves) <= a.limit;
  const diagnostics = keptAll && state.summary ? moveDiagnostics(state.summary.diagnostics, shifts) : undefined;
  // Files whose lines move for the first time, or whose records take fields for the first time: the
  // graph file's rows are checked where they lie, a piece at a time (see withGraphLines), and not read
  // whole to be moved and thrown away. Their moves as composed: the graph file's lines are what they map.
  if (diagnostics) {
    const first = new Set(shifts.filter(([file, , fields]) => !kept.has(file) || (fields !== undefined && kept.get(file)![2] === undefined)).map((m) => m[0]));
    const fits = first.size === 0 || withGraphLines(join(a.dir, GRAPH_FILE), fileLabelOf(state), state.delta, (g) => movesFit(g, moves.filter((m) => first.has(m[0]))));
    if (fits === false) return undefined;
    // Read later as the next build will read it: the state's graph file with these moves.
    const graph = fits && storedGraphLater(a.dir, { ...state, moves });
    if (graph) return { shifts, moves, diagnostics, graph };
  }
  // The moves stay beside the graph file (see build) when they are few: its bytes are then read only to
  // check them, and read again if the graph is wanted. A process that builds again and again reads them
  // into the same memory each time (see graph/scratch.ts): 27 MB on v1.28, which would otherwise count
  // towards V8's next full collection at each such edit.
  const checkOnly = a.recycle && keptAll;
  const bytes = storedGraph(a.dir, state, checkOnly ? (n) => Buffer.from(scratch(Uint8Array, 'graph.read', n, true).buffer, 0, n) : undefined);
  if (!bytes) return undefined;
  try {
    const moved = remapPackedBytes(bytes, moves);
    if (moved && checkOnly) {
      const graph = storedGraphLater(a.dir, { ...state, moves });
      return graph && { shifts, moves, diagnostics: moved.rest.diagnostics, graph };
    }
    return moved && { shifts, moves, diagnostics: moved.rest.diagnostics, graph: () => decodePacked(Buffer.concat(moved.parts)), parts: moved.parts };
  } catch {
    // A graph file this code cannot read: resolved again, and written anew.
    return undefined;
  }
}

/**
 * What movedGraph found: the changed files' shifts, the moves from the graph file's lines, the moved
 * diagnostics, the moved graph (decoded when asked) and, when the graph file was read to check the
 * moves, its moved bytes.
 */
interface MovedGraph {
  shifts: FileMove[];
  moves: FileMove[];
  diagnostics: Diagnostic[];
  graph(): PackedGraph;
  parts?: Buffer[];
}

/** A graph file's bytes with the moves' lines moved, as pieces; throws when they cannot be. */
function movedParts(bytes: Buffer | undefined, moves: FileMove[]): Buffer[] {
  const moved = bytes && remapPackedBytes(bytes, moves);
  if (!moved) badMoves();
  return moved.parts;
}

/** The store at `file`, of graph `from`, with the shifts' lines moved, as graph `to` (see moveStoreLinesParts); false when it cannot be. */
function moveStoreFile(file: string, from: string, to: string, shifts: FileMove[]): boolean {
  let bytes: Buffer;
  try {
    bytes = readWhole(file);
  } catch {
    return false;
  }
  const parts = moveStoreLinesParts(bytes, from, to, shifts);
  if (!parts) return false;
  writeParts(file, parts);
  return true;
}

/** A file's facts made in this build, with the hash of their encoded bytes (as the facts pack keeps them). */
interface Parsed {
  facts: FileFacts;
  packed: Uint8Array;
  factsHash: string;
  /** For facts made from the file's old ones (see splicePacked): what factsShift would say of the old and these. */
  spliced?: Spliced;
}

/**
 * The changed files' facts. A process that builds again and again (it keeps a memo: index --watch)
 * keeps their syntax trees, so that the next edit of one is parsed from its tree (see
 * FlatParser.parse); else, given a file's old facts (`old`), its parse starts from those (see
 * splice.ts).
 */
function parseChanged(changed: ParseInput[], opts: IndexOptions, old?: (path: string) => Uint8Array | undefined): Map<string, Parsed> {
  const made = new Map<string, Parsed>();
  // A file changed only in comments after its last declaration keeps its old facts (see keptFacts):
  // it is not parsed. Another is parsed in part where it can be (see splicePacked). Either way its
  // facts are decoded only if read.
  const rest: ParseInput[] = [];
  for (const c of changed) {
    const was = c.active ? old?.(c.path) : undefined;
    const kept = was && keptFacts(bytesOf(c), was);
    const spliced = was && !kept ? splicePacked(c.path, bytesOf(c), was) : undefined;
    if (kept || spliced) made.set(c.path, keptParsed(kept || spliced!.packed, spliced));
    else rest.push(c);
  }
  const packed: Uint8Array[] = [];
  const retain = opts.memo !== undefined;
  const facts = extractAll(rest.map((c) => ({ path: c.path, bytes: bytesOf(c), declarationsOnly: !c.active, retain })), { workers: opts.workers, onPacked: (i, p) => (packed[i] = p) });
  rest.forEach((c, i) => made.set(c.path, { facts: facts[i], packed: packed[i], factsHash: factsHash(packed[i]) }));
  return new Map(changed.map((c) => [c.path, made.get(c.path)!]));
}

/** A file's encoded facts as parseChanged gives them, decoded when first read. */
function keptParsed(packed: Uint8Array, spliced?: Spliced): Parsed {
  let facts: FileFacts | undefined;
  return {
    packed,
    factsHash: factsHash(packed),
    spliced,
    get facts() {
      return (facts ??= unpackFacts(packed));
    },
  };
}

/**
 * See ResolveInputs: everything resolution reads, each file's facts by their hash. `factsOf` is asked
 * for the files that were read; a file that could not be read has none. The key is the hash of a
 * description made in two levels (see Described): each package's part is hashed on its own, and the
 * key hashes the head and those hashes. With `memo` (a process that builds again and again), only the
 * parts of the packages whose files' facts changed are hashed again, when nothing else changed. Before,
 * one text of the whole description (650 KB on v1.28) was hashed, after an edit spliced from the last
 * one: hashing it and the text of the inputs before the edit (see inputsWith) took 6-12 ms of each of
 * the watch's edits.
 */
function resolveInputs(root: string, modulePath: string, ctx: BuildContext, diagnostics: Diagnostic[], packages: SourcePackage[], contents: FileContent[], factsOf: (c: FileContent, i: number) => string | undefined, memo?: PackMemo, scope?: { structure(): string; stored?: ResolveInputs }): ResolveInputs {
  const files: ResolveInputs['files'] = contents.map((c, i) => [c.path, c.hash, factsOf(c, i) ?? '']);
  const facts = factsInOrder(packages, files);
  const head = JSON.stringify([root, modulePath, ctx, diagnostics]);
  const last = (memo && described.get(memo)) || (scope && storedDescription(scope.stored, head, packages, scope.structure));
  const parts = (last && partsWith(last, head, packages, facts)) ?? partsOf(packages, facts);
  const description: Described = { head, packages, facts, parts };
  if (memo) described.set(memo, description);
  const inputs: ResolveInputs = { key: keyOfDescription(description), files };
  if (scope) {
    // The structure is taken when the state is written (see writeState): a scan that walked hashes it
    // then (2-3 ms on v1.28), after a watch has reported the build.
    inputs.parts = { v: PARTS_FORMAT, structure: '', head, list: parts };
    structureOf.set(inputs, scope.structure);
  }
  describedAs.set(inputs, description);
  return inputs;
}

/** The scope's structure for inputs resolveInputs made (see ResolveInputs.parts), asked when they are written. */
const structureOf = new WeakMap<ResolveInputs, () => string>();

/**
 * Each file's facts in the packages' order, from `files` (the inputs' entries): the packages' files
 * are the entries' in order, less the files that could not be read (none: undefined).
 */
function factsInOrder(packages: SourcePackage[], files: ResolveInputs['files']): (string | undefined)[] {
  let k = 0;
  const facts: (string | undefined)[] = [];
  for (const p of packages) for (const f of p.files) facts.push(files[k]?.[0] === f.path ? files[k++][2] : undefined);
  return facts;
}

/**
 * The description the stored inputs were made from (the state's, written by another process), as
 * partsWith reads it, when they were made over a scope of this structure (the same packages, files,
 * build flags and constraints, in order: those of `packages`) and with this head; else undefined.
 */
function storedDescription(stored: ResolveInputs | undefined, head: string, packages: SourcePackage[], structure: () => string): Described | undefined {
  const parts = stored?.parts;
  if (parts?.v !== PARTS_FORMAT || parts.head !== head || parts.list.length !== packages.length || parts.structure !== structure()) return undefined;
  return { head, packages, facts: factsInOrder(packages, stored!.files), parts: parts.list };
}

/**
 * A description of resolution's inputs, as resolveInputs makes it: the head (root, module, build
 * context, the source stage's diagnostics, as JSON), the packages, each of their files' facts (in the
 * scope's order) and the hash of each package's part (see partOf).
 */
interface Described {
  head: string;
  packages: SourcePackage[];
  facts: (string | undefined)[];
  parts: string[];
}

/** The last description resolveInputs made in a process that builds again and again. */
const described = new WeakMap<PackMemo, Described>();

/** The description resolveInputs made for each of its answers (see inputsWith). */
const describedAs = new WeakMap<ResolveInputs, Described>();

/** A description's key: the head and each package's hash, a line each (JSON has no line break of its own). */
function keyOfDescription(d: Described): string {
  return textHash(`${d.head}\n${d.parts.join('\n')}`);
}

/** The hash of package `p`'s part of a description: its import path and its files, their facts from `facts[from]` on. */
function partOf(p: SourcePackage, facts: readonly (string | undefined)[], from: number): string {
  return partOfFiles(p.importPath, p.files, p.files.map((_, j) => facts[from + j]));
}

/** The hash of a package's part of a description (see partOf): its import path, its files and their facts, in order. */
function partOfFiles(importPath: string, files: readonly DescribedFile[], facts: readonly (string | undefined)[]): string {
  return textHash(JSON.stringify([importPath, files.map((f, j) => describedFile(f, facts[j]))]));
}

/** What a description reads of a file (see describedFile). */
type DescribedFile = Pick<SourcePackage['files'][number], 'path' | 'active' | 'constraint'>;

/** Each package's part (see partOf). */
function partsOf(packages: SourcePackage[], facts: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const p of packages) {
    out.push(partOf(p, facts, at));
    at += p.files.length;
  }
  return out;
}

/**
 * The parts of the description of `packages` with `facts`, made from the last one by hashing again
 * the packages whose files changed: their facts, or which files they hold, whether each is in the
 * build and its constraint (files that came or went). Undefined when anything else changed (the head:
 * root, module, context, diagnostics; which packages there are, in order) or when more than
 * CUTOFF_MAX_FILES files changed (a file that came or went, or whose facts changed, or every file of
 * a package whose files otherwise changed).
 */
function partsWith(last: Described, head: string, packages: SourcePackage[], facts: (string | undefined)[]): string[] | undefined {
  if (last.head !== head || last.packages.length !== packages.length) return undefined;
  // The same packages (a description of stored inputs over a scope of the same structure: see storedDescription).
  const same = last.packages === packages;
  if (same && last.facts.length !== facts.length) return undefined;
  const changed: [pkg: number, from: number][] = [];
  let files = 0;
  // Where the package's files start in `facts`, and in the last description's.
  let at = 0;
  let was = 0;
  for (let i = 0; i < packages.length; i++) {
    const p = packages[i];
    const q = last.packages[i];
    if (!same && p.importPath !== q.importPath) return undefined;
    const from = at;
    at += p.files.length;
    if (!same && !sameFiles(p.files, q.files)) {
      files += Math.max(p.files.length, q.files.length);
      changed.push([i, from]);
      was += q.files.length;
      continue;
    }
    let mine = false;
    for (let j = 0; j < p.files.length; j++) {
      if (facts[from + j] === last.facts[was + j]) continue;
      files++;
      mine = true;
    }
    was += q.files.length;
    if (mine) changed.push([i, from]);
  }
  if (files > CUTOFF_MAX_FILES || at !== facts.length || was !== last.facts.length) return undefined;
  const parts = last.parts.slice();
  for (const [i, from] of changed) parts[i] = partOf(packages[i], facts, from);
  return parts;
}

/** Whether two packages' lists of files describe the same files: paths, whether each is in the build, constraints. */
function sameFiles(a: readonly DescribedFile[], b: readonly DescribedFile[]): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) {
    const f = a[j];
    const g = b[j];
    if (f.path !== g.path || f.active !== g.active || (f.constraint ?? null) !== (g.constraint ?? null)) return false;
  }
  return true;
}

/** A file as resolveInputs describes it: path, whether it is in the build, its constraint, its facts' hash. */
function describedFile(f: DescribedFile, facts: string | undefined): [string, boolean, string | null, string | null] {
  return [f.path, f.active, f.constraint ?? null, facts || null];
}

/**
 * resolveInputs as it would be with the changed files' facts `was` instead (undefined: none), made
 * from `inputs` (resolveInputs' answer) by hashing again the parts of those files' packages, not by
 * describing every package again.
 */
function inputsWith(inputs: ResolveInputs, changed: FileContent[], was: (path: string) => string | undefined): ResolveInputs {
  const at = new Map(changed.map((c) => [c.path, c]));
  const d = describedAs.get(inputs);
  if (d === undefined) throw new Error('inputsWith: inputs not made by resolveInputs');
  const facts = d.facts.slice();
  // Each changed package's place in the scope's files (of its first file).
  const pkgs = new Map<number, number>();
  for (const c of changed) {
    const from = pkgs.get(c.pkgAt) ?? firstFileOf(d.packages, c.pkgAt);
    if (d.packages[c.pkgAt] !== c.pkg || c.pkg.files[c.at - from]?.path !== c.path) throw new Error(`inputsWith: ${c.path} is not in the scope`);
    facts[c.at] = was(c.path);
    pkgs.set(c.pkgAt, from);
  }
  const parts = d.parts.slice();
  for (const [i, from] of pkgs) parts[i] = partOf(d.packages[i], facts, from);
  const prior: Described = { ...d, facts, parts };
  const out: ResolveInputs = { key: keyOfDescription(prior), files: inputs.files.map((e) => (at.has(e[0]) ? [e[0], e[1], was(e[0]) ?? ''] : e)) };
  describedAs.set(out, prior);
  return out;
}

/** The place in the scope's files (see Described.facts) of package `i`'s first file. */
function firstFileOf(packages: readonly SourcePackage[], i: number): number {
  let n = 0;
  for (let k = 0; k < i; k++) n += packages[k].files.length;
  return n;
}

interface FileContent {
  pkg: SourcePackage;
  /** The package's index in the scope, and the file's among the scope's files (both in order). */
  pkgAt: number;
  at: number;
  path: string;
  abs: string;
  active: boolean;
  hash: string;
  /** Absent when the hash came from the source snapshot: read when the file must be parsed. */
  bytes?: Uint8Array;
}

/** What parsing a file reads of it (see bytesOf). */
type ParseInput = Pick<FileContent, 'path' | 'abs' | 'active' | 'hash' | 'bytes'>;

/** A file's bytes for parsing: the ones the build read, or read now and checked against the hash it was given. */
function bytesOf(c: ParseInput): Uint8Array {
  if (c.bytes) return c.bytes;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(c.abs);
  } catch {
    throw new ChangedUnderBuild(c.path);
  }
  if (contentHash(bytes) !== c.hash) throw new ChangedUnderBuild(c.path);
  return bytes;
}

/**
 * Parse (cached per file), then resolve. The facts and the resolver's tables become garbage when this
 * returns, so the writers run without them.
 */
function rebuildGraph(contents: FileContent[], packages: SourcePackage[], packFile: string, opts: IndexOptions, meta: ResolveMeta, lap: (name: string) => void, before: Before) {
  // Only now, when the graph must be rebuilt, is the (large) per-file facts pack worth loading.
  const { factsByPath, parsed, parser, parseThreads, factsHashes } = parseFiles(contents, packFile, opts, lap, before);
  return { ...resolveScope(packages, factsByPath, meta, lap, keepsResolution(opts.memo)), parsed, parser, parseThreads, factsHashes };
}

/** What a build already knows before the facts pack is read: files it parsed for the early cut-off, and the state's facts hashes (see factsKnown). */
interface Before {
  early?: Map<string, Parsed>;
  known?: (c: FileContent, i: number) => string | undefined;
  /** The facts of the `i`-th file, `c`, decoded already (see factsDecoded), or undefined. */
  decoded?: (c: FileContent, i: number) => FileFacts | undefined;
}

/**
 * The facts a kept resolution holds, for each file of the build whose facts are the ones it took (its
 * facts hash, and so its content, is the one the state's inputs give the file: see factsKnown). A
 * process whose kept resolution refuses an edit (a method added, a type changed) resolves from nothing,
 * and takes these rather than decoding every file's facts from the pack again (2-3 s of such a build
 * on v1.28's default scope). The facts are not changed by resolution. The map is made before the
 * resolution is let go, so that it does not live on beside the new one.
 */
function factsDecoded(kept: KeptSession, known: (c: FileContent, i: number) => string | undefined): (c: FileContent, i: number) => FileFacts | undefined {
  const facts = new Map<string, FileFacts>();
  for (const [path, , hash] of kept.inputs.files) {
    const f = hash ? kept.session.factsOf(path) : undefined;
    if (f) facts.set(`${path}\0${hash}`, f);
  }
  return (c, i) => {
    const hash = known(c, i);
    return hash ? facts.get(`${c.path}\0${hash}`) : undefined;
  };
}

/**
 * The facts hash the state's inputs give the `i`-th file of the build, `c`, when its content is the one
 * they were made from; undefined when they have no such file with that content. Looked up by place
 * first (an edit leaves the list of files as it was), by path when the file there is another.
 */
function factsKnown(inputs: ResolveInputs): (c: FileContent, i: number) => string | undefined {
  const files = inputs.files;
  let byPath: Map<string, ResolveInputs['files'][number]> | undefined;
  return (c, i) => {
    let e: ResolveInputs['files'][number] | undefined = files[i];
    if (e?.[0] !== c.path) e = (byPath ??= new Map(files.map((x) => [x[0], x]))).get(c.path);
    return e && e[1] === c.hash ? e[2] : undefined;
  };
}

type ResolveMeta = Parameters<typeof resolveProgram>[1];

/** The facts pack's key for a file's content as it is now. */
function keyOf(c: FileContent): string {
  return factsKey(c.path, c.hash, c.active);
}

/**
 * The pack keys the tree has now (one per file): entries under other keys may go when the pack is
 * compacted. The set is made only if the pack is (see appendFactsEntries).
 */
function liveKeys(contents: readonly FileContent[]): LiveKeys {
  let keys: Set<string> | undefined;
  return { size: contents.length, has: (k) => (keys ??= new Set(contents.map(keyOf))).has(k) };
}

/**
 * Each file's facts: from the old facts pack when its bytes are unchanged (or from another index's, see
 * addDonated), else extracted. A file outside the build is extracted with its declarations only, and
 * kept so in the pack under its own key, so its facts are what resolution reads of it either way.
 * Writes the new facts pack as the entries come, so that they do not accumulate; the file bytes die
 * with this call.
 * Also each file's facts hash (see ResolveInputs), hashed only for the entries no earlier build hashed.
 */
function parseFiles(contents: FileContent[], packFile: string, opts: IndexOptions, lap: (name: string) => void, before: Before) {
  const factsByPath = new Map<string, FileFacts>();
  const factsHashes = new Map<string, string>();
  const strings: StringTable = new Map();
  const old: FactsPack = readFactsPack(packFile);
  const donated = addDonated(old, contents, packFile);
  lap('load');
  const kept: [string, Uint8Array][] = [];
  // Entries made in this build: by the early cut-off's parse, then by the extraction below.
  const fresh: [string, Uint8Array][] = [];
  const missing: FileContent[] = [];
  // Entries of the pack that could not be decoded.
  let damaged = 0;
  for (const [i, c] of contents.entries()) {
    const key = keyOf(c);
    const early = before.early?.get(c.path);
    const packed = early?.packed ?? old.get(key);
    if (early) fresh.push([key, early.packed]);
    // An entry that cannot be decoded (a damaged pack) is extracted again, and replaced.
    const facts = early ? early.facts : packed && (before.decoded?.(c, i) ?? decodedOrNone(packed, strings));
    if (packed && facts) {
      kept.push([key, packed]);
      factsByPath.set(c.path, facts);
      factsHashes.set(c.path, early?.factsHash ?? (before.known?.(c, i) || undefined) ?? factsHash(packed));
    } else {
      if (packed) damaged++;
      missing.push(c);
    }
  }
  // Cached facts decoded: with one file changed, most of what is left before resolution.
  lap('decode');
  const clock = newClock();
  // A few new entries are appended to the pack (see appendFactsEntries); more, and it is rewritten,
  // entries going to disk as they are made. Nothing new and nothing gone: it is left as it is.
  // Entries taken from other indexes are not in the pack's file yet, and damaged ones must go: either
  // way the pack is written whole.
  const whole = donated > 0 || damaged > 0;
  const append = old.size > 0 && !whole && missing.length + fresh.length <= CUTOFF_MAX_FILES;
  const pack = append || (!whole && missing.length === 0 && kept.length === old.size && fresh.length === 0) ? undefined : factsPackWriter(packFile);
  try {
    for (const [key, packed] of kept) pack?.add(key, packed);
    const cached = kept.length;
    const extracted = extractAll(missing.map((c) => ({ path: c.path, bytes: bytesOf(c), declarationsOnly: !c.active })), {
      workers: opts.workers,
      strings,
      clock,
      onProgress: opts.onProgress && ((done, _total, what) => opts.onProgress!(cached + done, contents.length, what)),
      onPacked: (i, packed) => {
        const key = keyOf(missing[i]);
        if (append) fresh.push([key, packed]);
        else pack?.add(key, packed);
        factsHashes.set(missing[i].path, factsHash(packed));
      },
    });
    missing.forEach((c, i) => factsByPath.set(c.path, extracted[i]));
  } catch (err) {
    pack?.abort();
    throw err;
  }
  for (const c of contents) c.bytes = undefined;
  lap('parse');
  pack?.close();
  if (append && fresh.length > 0) appendFactsEntries(packFile, fresh, liveKeys(contents));
  lap('write.facts');
  return { factsByPath, factsHashes, parsed: missing.length + (before.early?.size ?? 0), parser: { native: nativeParserInUse(), workers: workersFor(missing.length, opts.workers) }, parseThreads: clock };
}

/** A facts pack entry decoded, or undefined when it cannot be (a damaged pack). */
function decodedOrNone(packed: Uint8Array, strings?: StringTable): FileFacts | undefined {
  try {
    return unpackFacts(packed, strings);
  } catch {
    return undefined;
  }
}

/** Past this many files without facts, a build looks for them in the other indexes this version built. */
const DONORS_MIN_FILES = CUTOFF_MAX_FILES;
/** How many other indexes (the most recently built) a build reads facts from. */
const DONORS_MAX = 2;

/**
 * Adds to the facts pack `old` the entries of other indexes that this version of kubelet-atlas built
 * (another tree, scope or build context, in the same cache folder) for the files of `contents` it
 * lacks, when it lacks many; returns how many it added. A file's facts depend only on its path and
 * bytes (and whether it is in the build), so another checkout of a close release, or the default scope
 * before `--scope all`, spares most of the parsing.
 */
function addDonated(old: FactsPack, contents: readonly FileContent[], packFile: string): number {
  const lacking = contents.map(keyOf).filter((key) => !old.has(key));
  if (lacking.length < DONORS_MIN_FILES) return 0;
  const dir = join(packFile, '..');
  let added = 0;
  for (const donor of siblingIndexes(join(dir, '..'), basename(dir), toolStamp(), DONORS_MAX)) {
    const pack = readFactsPack(join(donor, basename(packFile)));
    for (const key of lacking) {
      const packed = old.has(key) ? undefined : pack.get(key);
      if (packed) {
        old.set(key, packed);
        added++;
      }
    }
  }
  return added;
}

/** Declarations (pass 1), then references (pass 2): the facts in scope → the graph. */
function resolveScope(packages: SourcePackage[], factsByPath: Map<string, FileFacts>, meta: ResolveMeta, lap: (name: string) => void, keep: boolean): { graph: Graph; session?: ResolveSession } {
  const inputs: PackageInput[] = packages.map((p) => ({
    importPath: p.importPath,
    files: p.files.filter((f) => factsByPath.has(f.path)).map((f) => ({ facts: factsByPath.get(f.path)!, active: f.active, constraint: f.constraint })),
  }));
  const program = buildProgram(inputs);
  lap('program');
  // A process that builds again and again keeps the resolution, with what each part of it read.
  if (keep) {
    const { session, graph } = ResolveSession.start(program, inputs, meta);
    lap('resolve');
    return { graph, session };
  }
  meta.diagnostics.push(...factsDiagnostics(inputs));
  const graph = resolveProgram(program, meta);
  lap('resolve');
  return { graph };
}
