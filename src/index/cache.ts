/**
 * On-disk cache of parsed files, keyed by content hash, and of the resolved graph. One pack file per
 * tree and build context, written atomically, so a second run re-parses only files whose bytes changed.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, rmSync, statSync, type BigIntStats } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { openAtomic, writeBytes, writeParts, type Reuse } from './atomic.js';
import { FACTS_VERSION } from './key.js';
import { align8, copyAs, openSections } from '../graph/sections.js';
import { EDGE_W, PACK_VERSION, PACKED_MAGIC, SYM_W, UNRES_W, type PackedGraph } from '../graph/pack.js';
import type { LineTable, PackedLines } from '../graph/remap.js';
import type { PackDelta } from '../graph/pack-delta.js';
import { readWhole } from './mapped.js';
import { factsIdentity } from '../parse/index.js';

export { writeBytes } from './atomic.js';
export { cacheKey, FACTS_VERSION, toolStamp } from './key.js';

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(FACTS_VERSION).update(bytes).digest('hex');
}

/** contentHash of the text's UTF-8 bytes, without making them a Buffer first. */
export function textHash(text: string): string {
  return createHash('sha1').update(FACTS_VERSION).update(text, 'utf8').digest('hex');
}

/**
 * The identity of a file's encoded facts (the codec is deterministic: equal facts, equal bytes). The
 * file's segments stored with them are left out (see factsIdentity): a comment edited inside a
 * function changes them and not the facts.
 */
export function factsHash(packed: Uint8Array): string {
  const [head, body] = factsIdentity(packed);
  return createHash('md5').update(head).update(body).digest('hex');
}

/**
 * Decoded pack files kept by a process that builds again and again (`index --watch`), each with the
 * identity of the file it came from (device, inode, size, mtime in ns): a read of a file that is still
 * that one returns the value without decoding it again, and a write keeps the value it wrote. Another
 * process's write is a rename of a new file, so another inode: it is decoded. The values are shared,
 * not copied: the build only reads the state and the snapshot it gets.
 */
export class PackMemo {
  private kept = new Map<string, { id: string; value: unknown }>();

  get(file: string, id: string): unknown {
    const k = this.kept.get(file);
    return k && k.id === id ? k.value : undefined;
  }

  set(file: string, id: string, value: unknown): void {
    this.kept.set(file, { id, value });
  }

  delete(file: string): void {
    this.kept.delete(file);
  }
}

function identity(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
}

export function readPack<T>(file: string, memo?: PackMemo): T | undefined {
  try {
    if (!memo) return deserialize(readWhole(file)) as T;
    const st = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!st) return undefined;
    const id = identity(st);
    const kept = memo.get(file, id);
    if (kept !== undefined) return kept as T;
    const value = deserialize(readWhole(file)) as T;
    memo.set(file, id, value);
    return value;
  } catch {
    return undefined;
  }
}

/**
 * Writes `value` (as `stored`, its form on disk, when given: what readPack gives back from the file)
 * and keeps `value` in the memo; with `reuse`, into the file's spare when no one holds it (see Reuse).
 */
export function writePack(file: string, value: unknown, memo?: PackMemo, stored: unknown = value, reuse?: Reuse): void {
  if (!memo) return writeBytes(file, serialize(stored));
  memo.delete(file);
  const out = openAtomic(file, reuse);
  let id: string;
  try {
    out.write(serialize(stored));
    id = identity(out.stat());
  } catch (err) {
    out.abort();
    throw err;
  }
  out.close();
  memo.set(file, id, value);
}

const GRAPH_MAGIC = 'KAG1';

/**
 * The resolved graph on disk: 'KAG1', a u32 length, a label (the graph's id and its packing version),
 * zeros to a multiple of 8 bytes, then the packed graph's bytes (see encodePacked: aligned, its columns
 * are read where they lie). The label is read without the rest, so a build can
 * tell that the file is the graph it expects and leave the decoding to whoever needs the graph.
 */
export function writeGraphFile(file: string, label: string, body: Uint8Array[], reuse?: Reuse): void {
  const id = Buffer.from(label);
  const head = Buffer.alloc(8);
  head.write(GRAPH_MAGIC, 0, 'latin1');
  head.writeUInt32LE(id.length, 4);
  writeParts(file, [head, id, Buffer.alloc(bodyAt(id.length) - 8 - id.length), ...body], reuse);
}

/**
 * The graph file's body (the packed graph's bytes), if the file is there and labelled `label`; else
 * undefined. With `into`, the file is read into the memory `into` gives for its size, not mapped: for
 * a process that reads it again and again and is done with the bytes each time (see movedGraph).
 */
export function readGraphFile(file: string, label: string, into?: (size: number) => Buffer): Buffer | undefined {
  const bytes = readMarked(file, GRAPH_MAGIC, into);
  const at = bodyAt(Buffer.byteLength(label));
  return bytes && hasLabel(bytes, label) && at <= bytes.length ? bytes.subarray(at) : undefined;
}

/** Whether a graph file's first bytes are its magic and `label`. */
function hasLabel(head: Buffer, label: string): boolean {
  const n = Buffer.byteLength(label);
  return head.length >= 8 + n && head.toString('latin1', 0, 4) === GRAPH_MAGIC && head.readUInt32LE(4) === n && head.toString('utf8', 8, 8 + n) === label;
}

/** Where a graph file's body starts, after a label of `n` bytes. */
function bodyAt(n: number): number {
  return align8(8 + n);
}

/** Whether the graph file is there and labelled `label`: its header alone is read. */
export function graphFileLabelled(file: string, label: string): boolean {
  try {
    const fd = openSync(file, 'r');
    try {
      const head = Buffer.alloc(8 + Buffer.byteLength(label));
      return readSync(fd, head, 0, head.length, 0) === head.length && hasLabel(head, label);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

/**
 * The file's bytes if it can be read and starts with `magic` (and holds at least 8 bytes); else
 * undefined. Read whole (see readWhole), or with `into` into the memory it gives (see readInto).
 */
function readMarked(file: string, magic: string, into?: (size: number) => Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = into ? readInto(file, into) : readWhole(file);
  } catch {
    return undefined;
  }
  return bytes.length >= 8 && bytes.toString('latin1', 0, 4) === magic ? bytes : undefined;
}

/** All of `file`'s bytes, read into the memory `into` gives for its size; throws as readFileSync does. */
function readInto(file: string, into: (size: number) => Buffer): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const memory = into(size);
    return memory.subarray(0, readSpan(fd, memory, 0, size));
  } finally {
    closeSync(fd);
  }
}

/** Reads up to `n` bytes of `fd` from offset `at` into the start of `into`; how many it read (fewer at the file's end). */
function readSpan(fd: number, into: Buffer, at: number, n: number): number {
  let done = 0;
  while (done < n) {
    const k = readSync(fd, into, done, n - done, at + done);
    if (k === 0) break;
    done += k;
  }
  return done;
}

/** How many ints each table's rows take. */
const WIDTHS: Record<LineTable, number> = { edges: EDGE_W, symbols: SYM_W, unresolved: UNRES_W };

/** The memory rows are read into, a piece at a time (see withGraphLines): made once, read into again. */
let rowPiece: Buffer | undefined;
const ROW_PIECE_BYTES = 1 << 20;

/**
 * `use` run on the graph file's tables as the check of moved lines reads them (see movesFit): each
 * table's rows read from the file a piece at a time into the same megabyte, the graph's records (its
 * `rest`) and, when asked, a file's string id or a single string; with `delta`, the graph the file and
 * the delta make together (see packDeltaBytes). Nothing else is read: the file is 27 MB on v1.28's
 * default scope, and reading it whole into memory the process had not touched yet took 200-400 ms of
 * the first edit of a watch that moved a file's lines (on the VM we measure on). Undefined when the
 * file is missing, of another label or format, does not go with `delta`, or cannot be read (or `use`
 * throws: the caller then takes the way that reads the file whole).
 */
export function withGraphLines<T>(file: string, label: string, delta: PackDelta | undefined, use: (g: PackedLines) => T): T | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const readAt = (at: number, n: number, into?: Buffer): Buffer => {
      const b = into ?? Buffer.allocUnsafe(n);
      if (readSpan(fd, b, at, n) < n) throw new Error(`${file}: shorter than its header says`);
      return b;
    };
    const labelLength = Buffer.byteLength(label);
    if (!hasLabel(readAt(0, 8 + labelLength), label)) return undefined;
    const body = bodyAt(labelLength);
    const headerLength = readAt(body + 4, 4).readUInt32LE(0);
    const opened = openSections<{ v: number; sections: Record<string, [number, number]> }>(readAt(body, 8 + headerLength), PACKED_MAGIC, 'packed graph');
    if (!opened || opened.header.v !== PACK_VERSION) return undefined;
    const dataAt = body + align8(8 + headerLength);
    const place = (name: string): [number, number] => {
      const p = opened.header.sections[name];
      if (!p) throw new Error(`packed graph: no section ${name}`);
      return [dataAt + p[0], p[1]];
    };
    const baseStrings = place('stringEnds')[1] / 4;
    if (delta && delta.baseStrings !== baseStrings) return undefined;
    // The files table is a JSON list of [file, id] pairs (see encodePacked): a file's pair is found by
    // its opening, which no other part of the text can hold (a quote inside a string is escaped).
    const files = readAt(...place('files'));
    const fileId = (file: string): number | undefined => {
      const opening = Buffer.from(`${JSON.stringify([file]).slice(0, -1)},`);
      const at = files.indexOf(opening);
      if (at >= 0) return Number(files.toString('latin1', at + opening.length, files.indexOf(']', at + opening.length)));
      // A delta's strings come after the file's: a file the graph file does not name has its id there.
      const i = delta ? delta.strings.indexOf(file) : -1;
      return i >= 0 ? baseStrings + i : undefined;
    };
    const rest = delta ? delta.rest : (deserialize(readAt(...place('rest'))) as PackedGraph['rest']);
    // Rows [from, from + count) of a table of the file, `width` ints each, handed to `visit` in pieces.
    const stream = (at: number, width: number, from: number, count: number, visit: (rows: Int32Array) => void) => {
      rowPiece ??= Buffer.allocUnsafeSlow(ROW_PIECE_BYTES);
      const rowBytes = width * 4;
      const perPiece = Math.floor(ROW_PIECE_BYTES / rowBytes);
      for (let r = from; r < from + count; r += perPiece) {
        const n = Math.min(perPiece, from + count - r) * rowBytes;
        readAt(at + r * rowBytes, n, rowPiece);
        visit(new Int32Array(rowPiece.buffer, rowPiece.byteOffset, n / 4));
      }
    };
    // The string table's byte ends, read when a string is first asked for; each string read on its own.
    let ends: Uint32Array | undefined;
    const [textAt] = place('stringText');
    const string = (id: number): string | undefined => {
      if (id < 0) return undefined;
      if (id >= baseStrings) return delta?.strings[id - baseStrings];
      ends ??= copyAs(Uint32Array, readAt(...place('stringBytes')));
      const from = id === 0 ? 0 : ends[id - 1];
      return readAt(textAt + from, ends[id] - from).toString('utf8');
    };
    return use({
      fileId,
      rest,
      string,
      rows(table, visit) {
        const width = WIDTHS[table];
        const [at, length] = place(table);
        const rowsInFile = length / (width * 4);
        if (!delta) return stream(at, width, 0, rowsInFile, visit);
        const t = delta[table];
        let mine = 0;
        for (let r = 0; r < t.runs.length; r += 2) {
          const j = t.runs[r];
          const count = t.runs[r + 1];
          if (j >= 0) {
            if (j + count > rowsInFile) throw new Error('the graph delta runs past its graph file');
            stream(at, width, j, count, visit);
          } else {
            visit(t.rows.subarray(mine, mine + count * width));
            mine += count * width;
          }
        }
      },
    });
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The per-file facts cache: each entry is one file's facts as encoded by the parse stage's codec (by
 * the parse worker that made them), keyed by file path and content hash. Entries are decoded only when
 * used, and a rebuild writes unchanged entries back byte for byte.
 * Layout: 'KAF3', the entries, a JSON trailer { keys, lengths }, then the trailer's length as a u32:
 * entries are written as they are made, and the index once all are known.
 * Entries added by small builds since the pack was last written whole sit in a second, small pack beside
 * it (see appendFactsEntries); every reader here reads both.
 */
export type FactsPack = Map<string, Uint8Array>;

const FACTS_MAGIC = 'KAF3';

/** The small pack of entries appended since `file` was written whole. */
function addedFile(file: string): string {
  return `${file}.added`;
}

/**
 * Past this many bytes of appended entries, the next append writes the whole pack again (with them in
 * it) instead of the small one: each append writes the small pack whole, so it is kept small.
 */
const ADDED_MAX_BYTES = 4 * 1024 * 1024;

/** A facts pack entry's key: a file outside the build has its declarations only, under a key of its own. */
export function factsKey(path: string, hash: string, active = true): string {
  return active ? `${hash} ${path}` : `${hash} ${path} declarations`;
}

/** The entries of the pack at `file` and of the small pack beside it (see appendFactsEntries). */
export function readFactsPack(file: string): FactsPack {
  const out = readOnePack(file);
  for (const [k, b] of readOnePack(addedFile(file))) if (!out.has(k)) out.set(k, b);
  return out;
}

/** One pack file's entries; none when it is missing or not a pack. */
function readOnePack(file: string): FactsPack {
  const out: FactsPack = new Map();
  const buf = readMarked(file, FACTS_MAGIC);
  if (!buf) return out;
  const len = buf.readUInt32LE(buf.length - 4);
  let trailer: { keys: string[]; lengths: number[] };
  try {
    trailer = JSON.parse(buf.toString('utf8', buf.length - 4 - len, buf.length - 4)) as typeof trailer;
  } catch {
    return out;
  }
  let at = 4;
  trailer.keys.forEach((k, i) => {
    out.set(k, buf.subarray(at, at + trailer.lengths[i]));
    at += trailer.lengths[i];
  });
  return out;
}

export interface FactsPackWriter {
  add(key: string, entry: Uint8Array): void;
  /** Writes the index and puts the pack in place. */
  close(): void;
  /** Drops the partial pack (the old one, if any, stays). */
  abort(): void;
}

/**
 * A facts pack written entry by entry, so no entry needs to be kept until the end. Once it is in
 * place, the small pack of appended entries beside it goes: the whole pack holds what the build keeps.
 */
export function factsPackWriter(file: string): FactsPackWriter {
  const w = packWriter(file);
  return {
    ...w,
    close() {
      w.close();
      rmSync(addedFile(file), { force: true });
    },
  };
}

function packWriter(file: string): FactsPackWriter {
  const out = openAtomic(file);
  const keys: string[] = [];
  const lengths: number[] = [];
  out.write(Buffer.from(FACTS_MAGIC, 'latin1'));
  return {
    add(key, entry) {
      keys.push(key);
      lengths.push(entry.length);
      out.write(entry);
    },
    close() {
      out.write(trailerBytes({ keys, lengths }));
      out.close();
    },
    abort: () => out.abort(),
  };
}

interface Trailer {
  keys: string[];
  lengths: number[];
}

/** The end of a pack: the trailer's JSON, then its length as a u32. */
function trailerBytes(trailer: Trailer): Buffer {
  const json = Buffer.from(JSON.stringify(trailer));
  const out = Buffer.alloc(json.length + 4);
  json.copy(out);
  out.writeUInt32LE(json.length, json.length);
  return out;
}

/** A pack's trailer, read without the entries; undefined if it is no pack. */
function readTrailer(fd: number): Trailer | undefined {
  const size = fstatSync(fd).size;
  if (size < 8) return undefined;
  const head = Buffer.alloc(4);
  readSync(fd, head, 0, 4, 0);
  if (head.toString('latin1') !== FACTS_MAGIC) return undefined;
  readSync(fd, head, 0, 4, size - 4);
  const len = head.readUInt32LE(0);
  if (len + 8 > size) return undefined;
  const json = Buffer.alloc(len);
  readSync(fd, json, 0, len, size - 4 - len);
  const trailer = JSON.parse(json.toString('utf8')) as Trailer;
  const dataEnd = 4 + trailer.lengths.reduce((n, l) => n + l, 0);
  return dataEnd === size - 4 - len ? trailer : undefined;
}

/** The trailer of the pack at `file`, or undefined when there is no readable pack. */
function trailerOf(file: string): Trailer | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      return readTrailer(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/**
 * The entries under `keys` that the pack or the small pack beside it holds, read one by one, not the
 * whole pack. The small pack is read first: it holds the facts that edits since the pack was written
 * brought, which are most often the ones an edit's build asks for (the facts its file had before),
 * and when it has them all the pack's index (about 0.6 MB of JSON on v1.28) is not read. An entry's
 * bytes are the same in either pack (its key names its file's content).
 */
export function readFactsEntries(file: string, keys: string[]): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const wanted = new Set(keys);
  for (const [k, b] of readOnePack(addedFile(file))) if (wanted.has(k)) out.set(k, b);
  if (out.size === wanted.size) return out;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    fd = -1;
  }
  if (fd >= 0) {
    try {
      const trailer = readTrailer(fd);
      const places = trailer ? [...placesIn(trailer.keys, [...wanted].filter((k) => !out.has(k)))].sort((a, b) => a[1] - b[1]) : [];
      // Each entry's offset from the lengths before it, with no key of the pack looked at again.
      let at = 4;
      let i = 0;
      for (const [k, place] of places) {
        for (; i < place; i++) at += trailer!.lengths[i];
        const b = Buffer.alloc(trailer!.lengths[place]);
        readSync(fd, b, 0, b.length, at);
        out.set(k, b);
      }
    } catch {
      // A damaged pack: what the small pack had stands.
    } finally {
      closeSync(fd);
    }
  }
  return out;
}

/**
 * The place in `keys` (a pack's, in order) of each of `wanted` it holds (the first, if twice). A few
 * are looked for one by one: a set of the pack's keys hashes every one of them (5,200 of 110 bytes on
 * v1.28: 3 ms, where a one-shot build after an edit asks for one or two).
 */
function placesIn(keys: readonly string[], wanted: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (wanted.length <= FEW_KEYS) {
    for (const k of wanted) {
      const i = keys.indexOf(k);
      if (i >= 0) out.set(k, i);
    }
    return out;
  }
  const set = new Set(wanted);
  for (let i = 0; i < keys.length; i++) if (set.has(keys[i]) && !out.has(keys[i])) out.set(keys[i], i);
  return out;
}

/** Up to how many keys placesIn looks for one by one. */
const FEW_KEYS = 16;

/** The keys an index still uses, as appendFactsEntries reads them: how many, and whether one is. */
export interface LiveKeys {
  readonly size: number;
  has(key: string): boolean;
}

/**
 * Adds entries to a pack without rewriting the ones it has: they go to the small pack beside it, which
 * is written whole (with the entries it had) and renamed into place; the large one is not touched.
 * Keys either already holds are skipped. `live`: the keys the index still uses. Entries of old
 * versions of edited files pile up with each append; once they would be more than a fifth of the
 * entries, the pack is written whole with the live ones only. It is also written whole, with every
 * entry, once the small pack would pass ADDED_MAX_BYTES, and when there is no readable pack at `file`
 * (then of the small pack's entries and the new ones).
 */
export function appendFactsEntries(file: string, entries: [string, Uint8Array][], live?: LiveKeys): void {
  const trailer = trailerOf(file);
  const added = readOnePack(addedFile(file));
  const candidates = entries.filter(([k]) => !added.has(k));
  const held = trailer ? placesIn(trailer.keys, candidates.map(([k]) => k)) : new Map<string, number>();
  const fresh = candidates.filter(([k]) => !held.has(k));
  if (fresh.length === 0) return;
  // The small pack's entries as they are: one that the pack holds too (a rewrite stopped before the
  // small pack went) is the same bytes under the same key, read from either, and is written once when
  // the pack is written whole.
  const all = [...added, ...fresh];
  const tooMany = live !== undefined && ((trailer?.keys.length ?? 0) + all.length) * 4 > live.size * 5;
  const whole = !trailer || tooMany || all.reduce((n, [, b]) => n + b.length, 0) > ADDED_MAX_BYTES;
  const keep = ([k]: [string, Uint8Array]) => !tooMany || live!.has(k);
  const out = whole ? factsPackWriter(file) : packWriter(addedFile(file));
  try {
    const large = whole ? readOnePack(file) : undefined;
    if (large) for (const entry of large) if (keep(entry)) out.add(...entry);
    for (const entry of all) if (!large?.has(entry[0]) && keep(entry)) out.add(...entry);
  } catch (err) {
    out.abort();
    throw err;
  }
  out.close();
}
