/**
 * A file's facts as bytes: what a parse worker sends and the facts cache stores. node:v8's format
 * writes every property name of every object and every string occurrence again; facts are millions of
 * small records of a few dozen shapes, so here each record is a shape number followed by its values,
 * and each distinct string is written once. A record or list met again (the extractor shares some, such
 * as the type of `a, b int`) is written as a reference to the first, so it stays one object, as
 * node:v8 keeps it. Facts are trees with shared parts, never cycles.
 *
 * Layout: 'KFC1', u32 token count, u32 float count, u32 length of the strings JSON, u32 length of the
 * shapes JSON, u32 length of the segments (little-endian), then the floats (f64), the tokens (i32),
 * both in the platform's byte order, the strings (a JSON array), the shapes (a JSON array of key
 * lists) and the file's segments (see segments.ts), when extraction made them. The segments describe
 * the text, not the facts: the facts' identity (factsIdentity) leaves them and their length out.
 * A token is `payload << 4 | shared << 3 | tag`; the values of an array or record follow its token,
 * and `shared` marks one that a later REF token names by the position of its token.
 */
import type { FileFacts } from './facts.js';
import { sharedString, type StringTable } from './share.js';
import { decodeSegments, encodeSegments, segmentsMade, type Segments } from './segments.js';

const MAGIC = 0x3143464b; // 'KFC1'
const HEAD = 24;

const SPECIAL = 0; // payload: 0 undefined, 1 null, 2 false, 3 true
const INT = 1; // payload: the value, from INT_MIN to INT_MAX
const STR = 2; // payload: index into the strings
const ARR = 3; // payload: length
const REC = 4; // payload: index into the shapes
const FLOAT = 5; // payload: index into the floats
const REF = 6; // payload: the position of the token of a record or array met before
const SHARED = 8;

const INT_MIN = -(2 ** 26);
const INT_MAX = 2 ** 26 - 1;

/**
 * The key lists met so far, as a trie shared by every file a thread encodes: a record finds its shape
 * by one lookup per key as its values are written, with no list made per record. A shape's number is
 * per file (`file` says for which file `id` was given).
 */
interface ShapeNode {
  next: Map<string, ShapeNode>;
  /** The key and node last taken from here: records of one kind take the same path, so most steps need no map lookup. */
  lastKey: string | undefined;
  lastNext: ShapeNode | undefined;
  keys: string[];
  file: number;
  id: number;
}
const shapeRoot: ShapeNode = { next: new Map(), lastKey: undefined, lastNext: undefined, keys: [], file: -1, id: -1 };
let files = 0;
// The tokens of the file being encoded, in a buffer each thread reuses (grown as needed).
let tokens = new Int32Array(1 << 16);
let count = 0;

function emit(t: number): void {
  if (count === tokens.length) {
    const bigger = new Int32Array(tokens.length * 2);
    bigger.set(tokens);
    tokens = bigger;
  }
  tokens[count++] = t;
}

/**
 * Encodes one file's facts (plain records, arrays, strings, numbers, booleans, null, undefined). With
 * `table`, each string in the facts is also replaced, in place, by the table's copy (what shareStrings
 * does, see share.ts), in the same pass: a lookup in the table per distinct string of the file, where
 * a walk of its own would cost one per occurrence and a second visit of every record.
 */
export function packFacts(facts: FileFacts, table?: StringTable): Uint8Array {
  const file = files++;
  count = 0;
  const floats: number[] = [];
  const strings: string[] = [];
  const stringIds = new Split<string, number>();
  const shapes: string[][] = [];
  const seen = new Split<object, number>();
  // The records and lists being written: met again inside themselves, they would be a cycle.
  const open: object[] = [];
  /** Writes a string and gives the copy to keep in its place (the table's, or the string itself). */
  const str = (v: string): string => {
    let id = stringIds.get(v);
    if (id === undefined) {
      id = strings.length;
      strings.push(table ? sharedString(v, table) : v);
      stringIds.add(v, id);
    }
    emit((id << 4) | STR);
    return strings[id];
  };
  const put = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        str(v);
        return;
      case 'number':
        if (Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX && !Object.is(v, -0)) emit((v << 4) | INT);
        else {
          emit((floats.length << 4) | FLOAT);
          floats.push(v);
        }
        return;
      case 'boolean':
        emit(((v ? 3 : 2) << 4) | SPECIAL);
        return;
      case 'undefined':
        emit(SPECIAL);
        return;
      case 'object':
        if (v === null) {
          emit((1 << 4) | SPECIAL);
          return;
        }
        {
          const first = seen.get(v);
          if (first !== undefined) {
            if (open.includes(v)) throw new TypeError('facts hold a cycle, which the facts codec cannot write');
            tokens[first] |= SHARED;
            emit((first << 4) | REF);
            return;
          }
          seen.add(v, count);
        }
        if (Array.isArray(v)) {
          emit((v.length << 4) | ARR);
          open.push(v);
          for (let i = 0; i < v.length; i++) {
            const x: unknown = v[i];
            // Assigned even when equal: the table's copy is another string (flat, tied to no text).
            if (typeof x === 'string') {
              const kept = str(x);
              if (table) v[i] = kept;
            } else put(x);
          }
          open.pop();
          return;
        }
        if (Object.getPrototypeOf(v) === Object.prototype) {
          // The record's token is filled in once its keys, hence its shape, are known.
          const at = count;
          emit(REC);
          const r = v as Record<string, unknown>;
          open.push(v);
          let shape = shapeRoot;
          for (const k in r) {
            let next = shape.lastKey === k ? shape.lastNext : shape.next.get(k);
            if (!next) {
              next = { next: new Map(), lastKey: undefined, lastNext: undefined, keys: [...shape.keys, k], file: -1, id: -1 };
              shape.next.set(k, next);
            }
            shape.lastKey = k;
            shape.lastNext = next;
            shape = next;
            const x = r[k];
            if (typeof x === 'string') {
              const kept = str(x);
              if (table) r[k] = kept;
            } else put(x);
          }
          open.pop();
          if (shape.file !== file) {
            shape.file = file;
            shape.id = shapes.length;
            shapes.push(shape.keys);
          }
          tokens[at] |= shape.id << 4;
          return;
        }
    }
    throw new TypeError(`facts hold a value the facts codec cannot write: ${Object.prototype.toString.call(v)}`);
  };
  put(facts);
  const stringBytes = Buffer.from(JSON.stringify(strings));
  const shapeBytes = Buffer.from(JSON.stringify(shapes));
  const floatsAt = HEAD;
  const tokensAt = floatsAt + floats.length * 8;
  const stringsAt = tokensAt + count * 4;
  const segments = segmentsMade.get(facts);
  const segmentBytes = segments ? encodeSegments(segments) : undefined;
  const segmentsLen = segmentBytes?.byteLength ?? 0;
  const out = Buffer.alloc(stringsAt + stringBytes.length + shapeBytes.length + segmentsLen);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(count, 4);
  out.writeUInt32LE(floats.length, 8);
  out.writeUInt32LE(stringBytes.length, 12);
  out.writeUInt32LE(shapeBytes.length, 16);
  out.writeUInt32LE(segmentsLen, 20);
  // In the platform's byte order: a cache is read where it was written.
  out.set(new Uint8Array(Float64Array.from(floats).buffer), floatsAt);
  out.set(new Uint8Array(tokens.buffer, 0, count * 4), tokensAt);
  stringBytes.copy(out, stringsAt);
  shapeBytes.copy(out, stringsAt + stringBytes.length);
  if (segmentBytes) out.set(segmentBytes, stringsAt + stringBytes.length + shapeBytes.length);
  return out;
}

/**
 * The parts of an encoded facts record that say what the facts are: the bytes before the segments'
 * length and those after it up to the segments (equal facts, equal parts, whatever their file's
 * layout).
 */
export function factsIdentity(bytes: Uint8Array): [Uint8Array, Uint8Array] {
  return [bytes.subarray(0, 20), bytes.subarray(HEAD, Math.max(HEAD, bytes.byteLength - segmentsLength(bytes)))];
}

/** The segments stored with an encoded facts record, if any. */
export function segmentsIn(bytes: Uint8Array): Segments | undefined {
  const n = segmentsLength(bytes);
  return n > 0 && n <= bytes.byteLength - HEAD ? decodeSegments(bytes.subarray(bytes.byteLength - n)) : undefined;
}

/** An encoded facts record with other segments: the same facts, the same identity (see factsIdentity). */
export function withSegments(bytes: Uint8Array, segments: Segments): Uint8Array {
  const facts = bytes.subarray(0, bytes.byteLength - segmentsLength(bytes));
  const tail = encodeSegments(segments);
  const out = Buffer.alloc(facts.byteLength + tail.byteLength);
  out.set(facts, 0);
  out.set(tail, facts.byteLength);
  out.writeUInt32LE(tail.byteLength, 20);
  return out;
}

/** The length of the segments an encoded facts record holds, as its head says (0 for a record too short to have a head). */
function segmentsLength(bytes: Uint8Array): number {
  return bytes.byteLength >= HEAD ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32LE(20) : 0;
}

/**
 * A map kept as several maps of at most SPLIT_MAX entries, so that none of their tables grows into
 * V8's space for large objects (past 4,096 entries a Map's table is over 128 KB). Memory there is
 * mapped in fresh for each object, one page at a time: on this project's machines a Map of 10,000
 * objects took 2.7-4 ms to fill, 280 ns an entry, against 20-45 ns an entry up to 4,096. `kubelet.go`'s
 * facts hold 10,300 records and lists. A lookup asks each map in turn (a miss costs a few ns each).
 */
class Split<K, V> {
  private readonly full: Map<K, V>[] = [];
  private last = new Map<K, V>();

  get(k: K): V | undefined {
    const v = this.last.get(k);
    if (v !== undefined) return v;
    for (let i = 0; i < this.full.length; i++) {
      const w = this.full[i].get(k);
      if (w !== undefined) return w;
    }
    return undefined;
  }

  /** Sets a key not set before (a key set again would be held twice). */
  add(k: K, v: V): void {
    if (this.last.size === SPLIT_MAX) {
      this.full.push(this.last);
      this.last = new Map();
    }
    this.last.set(k, v);
  }
}

const SPLIT_MAX = 4096;

/** A record maker per key list, shared by every file: an object literal gets its shape at once. */
type Maker = (next: () => unknown) => unknown;
const makers = new Map<string, Maker>();

function makerOf(keys: string[]): Maker {
  // In an object literal this key would set the prototype; the extractor never writes it.
  if (keys.includes('__proto__')) throw new Error('a damaged facts record');
  const key = JSON.stringify(keys);
  let make = makers.get(key);
  if (!make) {
    // Values are read in key order: an object literal evaluates its properties left to right.
    make = new Function('next', `return { ${keys.map((k) => `${JSON.stringify(k)}: next()`).join(', ')} };`) as Maker;
    makers.set(key, make);
  }
  return make;
}

/**
 * Decodes packFacts' bytes. With `table`, each distinct string is replaced by the one copy the table
 * keeps, so equal strings across files are stored once (see share.ts); that costs a lookup per
 * distinct string of the file, not per occurrence.
 */
export function unpackFacts(bytes: Uint8Array, table?: StringTable): FileFacts {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEAD || buf.readUInt32LE(0) !== MAGIC) throw new Error('not a facts record of this version');
  const nTokens = buf.readUInt32LE(4);
  const nFloats = buf.readUInt32LE(8);
  const stringsLen = buf.readUInt32LE(12);
  const shapesLen = buf.readUInt32LE(16);
  const segmentsLen = buf.readUInt32LE(20);
  const tokensAt = HEAD + nFloats * 8;
  const stringsAt = tokensAt + nTokens * 4;
  const shapesEnd = stringsAt + stringsLen + shapesLen;
  if (shapesEnd + segmentsLen !== buf.length) throw new Error('a damaged facts record');
  const strings = JSON.parse(buf.toString('utf8', stringsAt, stringsAt + stringsLen)) as string[];
  if (table) {
    for (let i = 0; i < strings.length; i++) {
      const s = strings[i];
      const kept = table.get(s);
      if (kept === undefined) table.set(s, s);
      else strings[i] = kept;
    }
  }
  const shapes = (JSON.parse(buf.toString('utf8', stringsAt + stringsLen, shapesEnd)) as string[][]).map(makerOf);
  // Copied out: the tokens' offset in a pooled or sliced buffer need not be 4-byte aligned.
  const tokens = new Int32Array(nTokens);
  new Uint8Array(tokens.buffer).set(buf.subarray(tokensAt, stringsAt));
  const floats = new Float64Array(nFloats);
  new Uint8Array(floats.buffer).set(buf.subarray(HEAD, tokensAt));
  const shared = new Map<number, unknown>();
  let at = 0;
  const next = (): unknown => {
    if (at >= nTokens) throw new Error('a damaged facts record');
    const here = at;
    const t = tokens[at++];
    const p = t >> 4;
    switch (t & 7) {
      case INT:
        return p;
      case STR:
        return strings[p];
      case REC: {
        const r = shapes[p](next);
        if (t & SHARED) shared.set(here, r);
        return r;
      }
      case ARR: {
        const a = new Array(p);
        for (let i = 0; i < p; i++) a[i] = next();
        if (t & SHARED) shared.set(here, a);
        return a;
      }
      case SPECIAL:
        return p === 0 ? undefined : p === 1 ? null : p === 3;
      case FLOAT:
        return floats[p];
      case REF: {
        const v = shared.get(p);
        if (v !== undefined) return v;
      }
    }
    throw new Error('a damaged facts record');
  };
  const facts = next() as FileFacts;
  if (at !== nTokens) throw new Error('a damaged facts record');
  return facts;
}
