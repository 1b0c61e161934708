/**
 * The query store's delta: what a process that writes the store after each edit (the watch) writes
 * instead of the whole store, while what changed since the store was written stays small. Writing the
 * store took 104-454 ms per edit on v1.28's default scope in one watch (encoding 57 MB, then writing
 * it); an edit of one function changes the edges of a few callers and the records of one file.
 *
 * The delta says, against the store it goes with (its base):
 * - for each caller whose edges changed since the base, all its edges now, in the graph's order;
 * - which callees' lists of callers changed: each is the base's list without the edges of those
 *   callers, with their edges to it now added;
 * - for each ID whose symbol record changed, its record now (the active variant's, as the store picks
 *   it) or none;
 * - the goroutine starts and channel operations, as the store's sections hold them, when they are not
 *   the very records of the graph the base was written from (null when they are);
 * - the graph's stats.
 * GraphStore.applyDelta reads a store through it and answers as the store written whole would.
 *
 * The writer keeps the last graph it was given and accumulates what changed since the base: what the
 * graph's maker says changed (GraphChanges), else each edit's records and edges compared with the last
 * graph's by identity, in runs (an edit's graph takes the records the edit left alone from the graph
 * before it, see runsOf). It keeps the last delta's lists and records too, and makes again only those
 * of an edit's changes when the maker tells them at once.
 */
import { deserialize, serialize } from 'node:v8';
import type { Edge, EdgeKind, EdgeMode, Graph, GraphChanges, SymbolRecord } from '../model/index.js';
import { replacesRecord } from './lookup.js';
import { runsOf } from './pack.js';
import type { FileMove } from './remap.js';
import { movedRecordOr, type StoredConcurrency } from './store.js';

/** An edge as the delta keeps it, its caller given by the list it is in: callee, kind, mode, file, line, how, confidence×1000. */
type DeltaEdge = [callee: string, kind: EdgeKind, mode: EdgeMode, file: string, line: number, how: string, confidence: number];

/** A delta as written (see the module's doc). */
export interface StoreDelta {
  stats: Record<string, number>;
  out: [caller: string, edges: DeltaEdge[]][];
  into: string[];
  /** Each ID's record as the store's JSON of it, or null when the ID has no record now. */
  records: [id: string, json: string | null][];
  /**
   * The goroutine starts and channel operations, each list's JSON in UTF-8 as the store's section of it
   * holds it (node:v8 would write a JSON string two bytes a character, as v1.28's holds an ellipsis),
   * each parsed when first read; or null when the store's sections hold them. Either way
   * at the lines they had when the delta was written: the moves beside the store are those made since
   * (a delta is written without them), and apply to them as to the store's own records (so
   * moveDeltaLines leaves them as they are: parsing, moving and writing v1.28's again took 16 ms of
   * each such edit). Absent from a delta written by kubelet-atlas before it carried them: the graph
   * file has them then.
   */
  concurrency?: { [K in keyof StoredConcurrency]: Uint8Array } | null;
}

/** What a delta applied to a store reads (see GraphStore.applyDelta). */
export interface Overlay {
  stats: Record<string, number>;
  /** Each caller of the delta, with its edges now in the graph's order. */
  out: Map<string, Edge[]>;
  /** The delta's edges by callee, in the order of `out`. */
  byCallee: Map<string, Edge[]>;
  into: Set<string>;
  records: Map<string, string | null>;
  /** The delta's goroutines and channels (see StoreDelta.concurrency), each list parsed when first read. */
  concurrency(): StoredConcurrency | null | undefined;
}

/**
 * A delta's bytes as a store's reader takes them. The edges become records with the fields, in the
 * order, the store gives them (a confidence read back from thousandths).
 */
export function readDelta(bytes: Buffer): Overlay {
  const d = deserialize(bytes) as StoreDelta;
  const out = new Map<string, Edge[]>();
  const byCallee = new Map<string, Edge[]>();
  for (const [caller, list] of d.out) {
    const edges = list.map(([callee, kind, mode, file, line, how, c]): Edge => ({ caller, callee, kind, mode, file, line, how, confidence: c / 1000 }));
    out.set(caller, edges);
    for (const e of edges) {
      const at = byCallee.get(e.callee);
      if (at) at.push(e);
      else byCallee.set(e.callee, [e]);
    }
  }
  const carried = d.concurrency;
  let goroutines: StoredConcurrency['goroutines'] | undefined;
  let channels: StoredConcurrency['channels'] | undefined;
  const lists = carried && {
    get goroutines() {
      return (goroutines ??= parseList(carried.goroutines) as StoredConcurrency['goroutines']);
    },
    get channels() {
      return (channels ??= parseList(carried.channels) as StoredConcurrency['channels']);
    },
  };
  const concurrency = (): StoredConcurrency | null | undefined => lists;
  return { stats: d.stats, out, byCallee, into: new Set(d.into), records: new Map(d.records), concurrency };
}

/** The store a delta is written against, as the files on disk say. */
export interface StoreOnDisk {
  /** The label of the store file's own graph (its base). */
  base?: string;
  /** The label of the graph the store holds with what its manifest adds (a delta, moves): a warm start's base must hold its graph alone. */
  holds?: string;
  /**
   * Whether the manifest has line moves for it. A delta written after them leaves them out: it is made
   * from the graph the process holds, which is the one they led to (the process's resolution takes
   * an edit with the facts of every file whose lines they moved: see sessionBehind in
   * index/build.ts), and the store's records that the delta does not replace are the ones that graph
   * has, at the lines it has them.
   */
  moves: boolean;
}

/** What the writer keeps from one delta to the next (see storeDelta). */
interface Kept {
  file: string;
  base: string;
  last: Graph;
  callers: Set<string>;
  into: Set<string>;
  records: Set<string>;
  /** The last delta's lists of edges by caller and records by ID, which the next starts from when its maker can tell what changed at once (see deltaOf). */
  made: { lists: Map<string, DeltaEdge[]>; records: Map<string, string | null> };
  /** The goroutines and channels of the graph the base was written from. */
  based: StoredConcurrency;
  /** Each list a delta last carried, with its bytes (made again only when the list holds other records). */
  carried: Partial<Record<keyof StoredConcurrency, { list: readonly object[]; bytes: Uint8Array }>>;
}

let kept: Kept | undefined;

/**
 * The largest delta written, in bytes, its goroutines and channels aside: past it the store is written
 * whole. Every query reads the delta whole (v8 deserializes about 300 MB/s here), and it grows with
 * each edit since the store. The goroutines and channels are one run of bytes (0.5 MB on v1.28),
 * copied whole by the deserializer and parsed only by the queries that read them.
 */
export const DELTA_MAX_BYTES = 1 << 20;

/**
 * For a process that writes the query store `file` again and again: graph `g` (labelled `key`, with
 * what its maker says may differ from the graph before, see GraphChanges) as a
 * delta over the store on disk, or undefined when the store is to be written whole. The delta is
 * made only when the store file on disk is the one this process wrote last (its base), from the
 * graphs this process was given since: what else is beside the store (the moves of edits that only
 * moved lines) is left out (see StoreOnDisk.moves). It is kept under DELTA_MAX_BYTES. When undefined
 * is returned, the caller writes `g` whole, and it is the base of the next deltas.
 */
export function storeDelta(file: string, g: Graph, key: string, disk: StoreOnDisk, changes?: GraphChanges): Buffer | undefined {
  const k = kept;
  if (k && k.file === file && disk.base === k.base) {
    // What its maker says may differ from the last graph, when it says so of that graph; else found by comparing the two.
    const known = changes?.since === k.last ? changes : undefined;
    if (known) {
      for (const c of known.callers) k.callers.add(c);
      for (const c of known.into) k.into.add(c);
      for (const id of known.records) k.records.add(id);
    } else noteChanges(k, g);
    // Each changed caller, callee and record ID is written once at least, a byte a character or more:
    // when they alone pass the limit (a graph resolved again from nothing, whose records are all new),
    // the delta is not made only to be dropped (on v1.28 that cost 1-2 s of such a build in a watch).
    const delta = namedSize(k) <= DELTA_MAX_BYTES ? deltaOf(k, g, known) : undefined;
    const bytes = delta && serialize(delta);
    const lists = delta?.concurrency;
    if (bytes && bytes.length - (lists ? lists.goroutines.byteLength + lists.channels.byteLength : 0) <= DELTA_MAX_BYTES) {
      k.last = g;
      return bytes;
    }
  }
  kept = newBase(file, key, g);
  return undefined;
}

/**
 * Takes the store `file` on disk as the base of the next deltas, when it holds graph `g` (labelled
 * `key`) and nothing beside it: for a process that found its graph stored rather than writing it
 * (see warmIndex), so that its first edit is written as a delta too.
 */
export function takeDeltaBase(file: string, g: Graph, key: string, disk: StoreOnDisk): void {
  kept = disk.base === key && disk.holds === key && !disk.moves ? newBase(file, key, g) : undefined;
}

/**
 * A delta's bytes with the shifts' lines moved, as a query moves the store's own (GraphStore.moveLines,
 * movedRecordOr): a build whose edits only moved lines keeps them beside the store and its delta,
 * whose edges and records were written with the lines they had then. Its goroutines and channels are
 * left as they are: the moves beside the store apply to them (see StoreDelta.concurrency).
 */
export function moveDeltaLines(bytes: Buffer, shifts: readonly FileMove[]): Buffer {
  const d = deserialize(bytes) as StoreDelta;
  const moved = new Map(shifts.map(([file, lines, fields]) => [file, { lines, fields }]));
  for (const [, edges] of d.out) {
    for (const e of edges) {
      const m = moved.get(e[3]);
      if (m) e[4] = m.lines.get(e[4]) ?? e[4];
    }
  }
  d.records = d.records.map(([id, json]) => {
    const rec = json === null ? undefined : (JSON.parse(json) as SymbolRecord);
    const m = rec && moved.get(rec.file);
    // The package's own record stays at line 1 (see remapLines).
    return m && rec.id !== rec.pkg ? [id, JSON.stringify(movedRecordOr(rec, m.lines, m.fields))] : [id, json];
  });
  return serialize(d);
}

/**
 * What the writer keeps for a new base: nothing changed since it, so the delta's lists and records
 * start empty (and the first delta after it makes only its edit's, as the next ones do).
 */
function newBase(file: string, base: string, g: Graph): Kept {
  return { file, base, last: g, callers: new Set(), into: new Set(), records: new Set(), made: { lists: new Map(), records: new Map() }, based: { goroutines: g.goroutines, channels: g.channels }, carried: {} };
}

/** Forgets the store the deltas go with (a process that no longer writes it). */
export function forgetDeltaBase(): void {
  kept = undefined;
}

/** The characters of the IDs a delta names (see storeDelta): fewer than the bytes it takes. */
function namedSize(k: Kept): number {
  let n = 0;
  for (const set of [k.callers, k.into, k.records]) for (const id of set) n += id.length;
  return n;
}

/** What changed from the last graph to `g`, added to what changed since the base. */
function noteChanges(k: Kept, g: Graph): void {
  gone(g.edges, k.last.edges, (e) => k.callers.add(e.caller), (e) => {
    k.callers.add(e.caller);
    k.into.add(e.callee);
  });
  gone(g.symbols, k.last.symbols, (s) => k.records.add(s.id), (s) => k.records.add(s.id));
}

/** `made(x)` for each item of `items` not in `last`, `dropped(x)` for each item of `last` not in `items` (by identity, see runsOf). */
function gone<T>(items: readonly T[], last: readonly T[], made: (x: T) => void, dropped: (x: T) => void): void {
  const kept = new Uint8Array(last.length);
  runsOf(items, last, (i) => made(items[i]), (_i, j, n) => kept.fill(1, j, j + n));
  for (let j = kept.indexOf(0); j >= 0; j = kept.indexOf(0, j + 1)) dropped(last[j]);
}

/**
 * The delta of graph `g` over the base, from what changed since it: the last delta's with the callers
 * and records of `changes` made again, when its maker tells their edges and records at once (see
 * GraphChanges.edgesOf), else from passes over the graph's edges and records (reading each of its
 * 184,000 edges and 88,000 records on v1.28: 7-9 ms of each edit).
 */
function deltaOf(k: Kept, g: Graph, changes?: GraphChanges): StoreDelta {
  const made = (changes && changedPart(k, changes)) || madeWhole(k, g);
  k.made = made;
  return { stats: g.stats, out: [...made.lists], into: [...k.into], records: [...made.records], concurrency: concurrencyOf(k, g) };
}

/**
 * The delta's goroutines and channels (see StoreDelta.concurrency): null when they are the records the
 * base was written from, one by one (the graph's maker keeps the records an edit leaves alone), else
 * each list's bytes.
 */
function concurrencyOf(k: Kept, g: Graph): StoreDelta['concurrency'] {
  if (sameRecords(g.goroutines, k.based.goroutines) && sameRecords(g.channels, k.based.channels)) return null;
  return { goroutines: listBytes(k, 'goroutines', g.goroutines), channels: listBytes(k, 'channels', g.channels) };
}

/**
 * A list's bytes as a delta keeps them (its JSON, as the store's section of it holds it), the last
 * delta's when the list holds the same records, else made of each record's bytes, kept for the next
 * delta (an edit that moves a file's lines makes that file's records anew and leaves the others). On
 * v1.28, writing the 1,151 records' JSON anew took 6 ms of each such edit, and joining their kept
 * JSON texts 8 ms (the text is two bytes a character, as it holds an ellipsis, and is then written
 * out in UTF-8); joining their kept bytes, the 25 records of `kubelet.go` made anew, takes 1.5-2.3 ms
 * once compiled.
 */
function listBytes(k: Kept, name: keyof StoredConcurrency, list: readonly object[]): Uint8Array {
  const last = k.carried[name];
  if (last && sameRecords(list, last.list)) return last.bytes;
  const parts: Uint8Array[] = [OPEN];
  for (let i = 0; i < list.length; i++) {
    if (i > 0) parts.push(COMMA);
    parts.push(recordBytes(list[i]));
  }
  parts.push(CLOSE);
  const bytes = Buffer.concat(parts);
  k.carried[name] = { list, bytes };
  return bytes;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** Each goroutine start's and channel operation's JSON in UTF-8, by record (see listBytes). */
const bytesOf = new WeakMap<object, Buffer>();

function recordBytes(r: object): Buffer {
  let bytes = bytesOf.get(r);
  if (bytes === undefined) bytesOf.set(r, (bytes = Buffer.from(JSON.stringify(r))));
  return bytes;
}

function parseList(bytes: Uint8Array): unknown {
  return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}

function sameRecords<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** An edge as a delta keeps it (see DeltaEdge). */
function deltaEdge(e: Edge): DeltaEdge {
  return [e.callee, e.kind, e.mode, e.file, e.line, e.how, Math.round(e.confidence * 1000)];
}

/** The record the store picks of an ID's records: the first, unless a later one is active and it is not. */
function picked(list: readonly SymbolRecord[]): SymbolRecord | undefined {
  let out: SymbolRecord | undefined;
  for (const s of list) if (!out || replacesRecord(out.active, s.active)) out = s;
  return out;
}

/** k.made with the callers and records of `changes` made again; undefined when their maker cannot tell them. */
function changedPart(k: Kept, changes: GraphChanges): Kept['made'] | undefined {
  const made = k.made;
  const lists = new Map<string, DeltaEdge[]>();
  for (const id of changes.callers) {
    const edges = changes.edgesOf?.(id);
    if (!edges) return undefined;
    lists.set(id, edges.map(deltaEdge));
  }
  const records = changes.records.size > 0 ? changes.recordsOf?.() : new Map<string, SymbolRecord[]>();
  if (!records) return undefined;
  // Set in place: a key set again keeps its place, the order in which the base's changes came.
  for (const [id, list] of lists) {
    made.lists.set(id, list);
    for (const e of list) k.into.add(e[0]);
  }
  for (const id of changes.records) {
    const s = picked(records.get(id) ?? []);
    made.records.set(id, s ? JSON.stringify(s) : null);
  }
  return made;
}

/** The delta's lists and records from passes over the graph (see deltaOf). */
function madeWhole(k: Kept, g: Graph): Kept['made'] {
  const lists = new Map<string, DeltaEdge[]>();
  for (const c of k.callers) lists.set(c, []);
  if (lists.size > 0) {
    // A caller's edges come together: its list is looked up once per run of them.
    let caller: string | undefined;
    let list: DeltaEdge[] | undefined;
    // Indexed loops here and below: run once per build, a for-of over 184,000 edges allocated an
    // iterator result per item before it was optimized (about 10 MB per build on v1.28).
    const edges = g.edges;
    for (let i = 0; i < edges.length; i++) {
      const e = edges[i];
      if (e.caller !== caller) {
        caller = e.caller;
        list = lists.get(caller);
      }
      if (!list) continue;
      list.push(deltaEdge(e));
      k.into.add(e.callee);
    }
  }
  // Each changed ID's record as the store picks it (see picked).
  const byId = new Map<string, SymbolRecord[]>();
  for (const id of k.records) byId.set(id, []);
  if (byId.size > 0) {
    const symbols = g.symbols;
    for (let i = 0; i < symbols.length; i++) byId.get(symbols[i].id)?.push(symbols[i]);
  }
  const records = new Map<string, string | null>();
  for (const [id, list] of byId) {
    const s = picked(list);
    records.set(id, s ? JSON.stringify(s) : null);
  }
  return { lists, records };
}
