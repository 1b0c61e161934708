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

/** The value of a SPECIAL token's payload. */
function special(p: number): undefined | null | boolean {
  return p === 0 ? undefined : p === 1 ? null : p === 3;
}

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

/** The trie's node for `shape`'s keys and then `k`. */
function shapeStep(shape: ShapeNode, k: string): ShapeNode {
  let next = shape.lastKey === k ? shape.lastNext : shape.next.get(k);
  if (!next) {
    next = { next: new Map(), lastKey: undefined, lastNext: undefined, keys: [...shape.keys, k], file: -1, id: -1 };
    shape.next.set(k, next);
  }
  shape.lastKey = k;
  shape.lastNext = next;
  return next;
}

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
 * a walk of its own would cost one per occurrence and a second visit of every record. Without `table`
 * and `repack`, src/parse/native/extract_facts.c writes the same bytes for the files it extracts.
 */
export function packFacts(facts: FileFacts, table?: StringTable, repack?: Repack): Uint8Array {
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
    const id = stringId(v);
    emit((id << 4) | STR);
    return strings[id];
  };
  /** The number of a string, added to the strings if new. */
  const stringId = (v: string): number => {
    let id = stringIds.get(v);
    if (id === undefined) {
      id = strings.length;
      strings.push(table ? sharedString(v, table) : v);
      stringIds.add(v, id);
    }
    return id;
  };
  /** Writes a number: a whole one in range in its token, any other among the floats. */
  const number = (v: number): void => {
    if (Number.isInteger(v) && v >= INT_MIN && v <= INT_MAX && !Object.is(v, -0)) emit((v << 4) | INT);
    else {
      emit((floats.length << 4) | FLOAT);
      floats.push(v);
    }
  };
  const put = (v: unknown): void => {
    switch (typeof v) {
      case 'string':
        str(v);
        return;
      case 'number':
        number(v);
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
          if (copy !== undefined) putOld(v);
          else {
            for (let i = 0; i < v.length; i++) {
              const x: unknown = v[i];
              // Assigned even when equal: the table's copy is another string (flat, tied to no text).
              if (typeof x === 'string') {
                const kept = str(x);
                if (table) v[i] = kept;
              } else put(x);
            }
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
            shape = shapeStep(shape, k);
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
    if (copy !== undefined && v instanceof OldValue) {
      copy(v.at, repack!.old.next(v.at));
      return;
    }
    throw new TypeError(`facts hold a value the facts codec cannot write: ${Object.prototype.toString.call(v)}`);
  };
  /** A list's values with a Repack: old values one after the other among the old tokens are written in one go. */
  const putOld = (v: unknown[]): void => {
    const { old } = repack!;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (!(x instanceof OldValue)) {
        put(x);
        continue;
      }
      let end = old.next(x.at);
      while (i + 1 < v.length && v[i + 1] instanceof OldValue && (v[i + 1] as OldValue).at === end) end = old.next((v[++i] as OldValue).at);
      copy!(x.at, end);
    }
  };
  const copy = repack ? copier(repack) : undefined;
  /**
   * Writes old tokens [from, to) (whole values) as put would write them decoded and moved: one loop
   * over the tokens, where a walk of the records, in code that runs once per process, cost several
   * times as much. A record's shape is numbered when its last field is written, as put numbers it.
   */
  function copier({ old, move }: Repack): (from: number, to: number) => void {
    const { tokens: ot, classes, ends } = old;
    // Where each old record or list was written (-1: not yet): written once, then met as a reference,
    // as a decoded record met again is.
    const copied = new Int32Array(ot.length).fill(-1);
    // Each old string's number here (-1: not yet written).
    const stringAt = new Int32Array(old.strings.length).fill(-1);
    // Each old shape's node in the shape trie.
    const nodes: (ShapeNode | undefined)[] = [];
    // The open records: where each ends among the old tokens, its new token, its old shape.
    const closeAt: number[] = [];
    const made: number[] = [];
    const kinds: number[] = [];
    const ref = (to: number): void => {
      tokens[to] |= SHARED;
      emit((to << 4) | REF);
    };
    const range = (from: number, to: number): void => {
      const base = closeAt.length;
      for (let i = from; i < to; i++) {
        const t = ot[i];
        const p = t >> 4;
        switch (t & 7) {
          case INT:
            if (classes[i] === 0) emit(t);
            else number(move(p, classes[i]));
            break;
          case STR:
            if (stringAt[p] < 0) stringAt[p] = stringId(old.strings[p]);
            emit((stringAt[p] << 4) | STR);
            break;
          case SPECIAL:
            emit(t);
            break;
          case FLOAT:
            number(classes[i] === 0 ? old.floats[p] : move(old.floats[p], classes[i]));
            break;
          case REF:
            // A reference names a record or list before it.
            if (p >= i || ((ot[p] & 7) !== ARR && (ot[p] & 7) !== REC)) throw new Error('a damaged facts record');
            if (copied[p] >= 0) ref(copied[p]);
            // Its first place was not written (it was in the region): written here.
            else range(p, old.next(p));
            break;
          case ARR:
          case REC:
            if (copied[i] >= 0) {
              ref(copied[i]);
              i = ends[i] - 1;
              break;
            }
            copied[i] = count;
            if ((t & 7) === ARR) emit(t & ~SHARED);
            else {
              closeAt.push(ends[i]);
              made.push(count);
              kinds.push(p);
              emit(REC);
            }
            break;
          default:
            throw new Error('a damaged facts record');
        }
        for (let top = closeAt.length - 1; top >= base && closeAt[top] === i + 1; top--) {
          const node = (nodes[kinds[top]] ??= old.shapes[kinds[top]].reduce(shapeStep, shapeRoot));
          if (node.file !== file) {
            node.file = file;
            node.id = shapes.length;
            shapes.push(node.keys);
          }
          tokens[made[top]] |= node.id << 4;
          closeAt.pop();
          made.pop();
          kinds.pop();
        }
      }
    };
    return range;
  }
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
 * What packFacts needs to write facts made partly of another record's (see splice.ts): the old
 * record's tokens (`old`) and how each old number moves. Where the facts hold an OldValue, packFacts
 * writes the old value at that token, with its numbers moved, as it would write that value decoded
 * and moved (an old record met twice is written once, then referred to): the bytes are packFacts' of
 * the facts so made, and nothing old is decoded.
 */
export interface Repack {
  old: OldFacts;
  /** The value old number `v` of class `cls` (see OldFacts.classes) takes. */
  move(v: number, cls: number): number;
}

/** An old value in facts given to packFacts with a Repack: the old record's value at token `at`. */
export class OldValue {
  constructor(readonly at: number) {}
}

/** An encoded facts record read as tokens, for a Repack. */
export interface OldFacts {
  tokens: Int32Array;
  floats: Float64Array;
  strings: string[];
  shapes: string[][];
  /** For a record's or a list's token, the position after its values. */
  ends: Int32Array;
  /** Each number's class (see oldFactsOf's `classOf`), by token. */
  classes: Int8Array;
  /** The position after the value at token `at`. */
  next(at: number): number;
  /** The token of each of the root record's values, by key. */
  root: Map<string, number>;
  /** The tokens of the elements of each list the root record holds, by key. */
  lists: Map<string, number[]>;
  /**
   * The token of the first record for each key shareKey gives (asked of records of at most two
   * string fields): an OldValue of it written in place of a new record of that key stands for it, as
   * a record shared through a file is written once and then referred to.
   */
  shared: Map<string, number>;
  /** The string or number field `key` of the record at token `rec`, if it has one. */
  field(rec: number, key: string): string | number | undefined;
  /** The old value at token `at`, decoded as unpackFacts decodes it (what it shares, shared), on its own. */
  value(at: number): unknown;
}

/**
 * An encoded facts record's tokens, read without decoding its records. `classOf` gives the class of
 * the numbers of field `key` of a record whose `k` field is `kind` (`inList`: of the numbers in a list
 * that is that field's value): 1 to 127 for those a Repack moves, 0 for those that stay; it is asked
 * once per field of each shape and kind. `shareKey` names the records that stand for one another
 * (see `shared`).
 */
export function oldFactsOf(bytes: Uint8Array, shareKey: (v: object) => string | undefined, classOf: (key: string, inList: boolean, kind: string | undefined) => number): OldFacts {
  const { tokens, floats, strings, shapes } = recordParts(bytes);
  const nTokens = tokens.length;
  const ends = new Int32Array(nTokens);
  const classes = new Int8Array(nTokens);
  const shared = new Map<string, number>();
  // The classes of each shape's fields, as values and as lists, by shape and kind (a string's number).
  const fieldClasses = new Map<number, [Int8Array, Int8Array]>();
  const classesOf = (shape: number, kind: number): [Int8Array, Int8Array] => {
    const key = shape * (strings.length + 1) + kind + 1;
    let c = fieldClasses.get(key);
    if (!c) {
      const k = kind < 0 ? undefined : strings[kind];
      c = [Int8Array.from(shapes[shape], (f) => classOf(f, false, k)), Int8Array.from(shapes[shape], (f) => classOf(f, true, k))];
      fieldClasses.set(key, c);
    }
    return c;
  };
  /**
   * Walks the value at token `at`: a number of class `cls`, or a list whose numbers are of class
   * `listCls`. Returns the position after it. (A call per value: one loop with a stack of the open
   * records was slower here, where it runs once per process.)
   */
  const walk = (at: number, cls: number, listCls: number): number => {
    if (at >= nTokens) throw new Error('a damaged facts record');
    const t = tokens[at];
    const p = t >> 4;
    const tag = t & 7;
    if (tag === INT || tag === FLOAT) classes[at] = cls;
    if (tag !== ARR && tag !== REC) return at + 1;
    // The classes of a record's fields, or a list's values (a list in a list: none).
    let values: Int8Array | undefined;
    let lists: Int8Array | undefined;
    if (tag === REC) {
      const keys = shapes[p];
      if (keys === undefined) throw new Error('a damaged facts record');
      // The record's kind: its `k` field, when a string (found when the fields before it are one token each).
      const k = keys.indexOf('k');
      let kind = -1;
      if (k >= 0 && (tokens[at + 1 + k] & 7) === STR) {
        kind = tokens[at + 1 + k] >> 4;
        for (let i = 0; i < k; i++) if ((tokens[at + 1 + i] & 7) === ARR || (tokens[at + 1 + i] & 7) === REC) kind = -1;
      }
      [values, lists] = classesOf(p, kind);
    }
    // Values that are one token are walked here (most are): a call per record and list only.
    let next = at + 1;
    for (let i = 0, n = values ? values.length : p; i < n; i++) {
      const c = values ? values[i] : listCls;
      const u = next < nTokens ? tokens[next] & 7 : -1;
      if (u === ARR || u === REC || u < 0) next = walk(next, c, lists ? lists[i] : 0);
      else {
        if (u === INT || u === FLOAT) classes[next] = c;
        next++;
      }
    }
    closed(at, next);
    return next;
  };
  if (nTokens === 0 || (tokens[0] & 7) !== REC || walk(0, 0, 0) !== nTokens) throw new Error('a damaged facts record');
  /** Record or list `at` ends before token `end`; a record of at most two string fields may stand for a shared one (asked as an object). */
  function closed(at: number, end: number): void {
    ends[at] = end;
    const t = tokens[at];
    if ((t & 7) !== REC) return;
    const keys = shapes[t >> 4];
    if (keys.length > 2 || end !== at + 1 + keys.length) return;
    const r: Record<string, string> = {};
    for (let i = 0; i < keys.length; i++) {
      if ((tokens[at + 1 + i] & 7) !== STR) return;
      r[keys[i]] = strings[tokens[at + 1 + i] >> 4];
    }
    const key = shareKey(r);
    if (key !== undefined && !shared.has(key)) shared.set(key, at);
  }
  const next = (at: number): number => ((tokens[at] & 7) === ARR || (tokens[at] & 7) === REC ? ends[at] : at + 1);
  const field = (rec: number, key: string): string | number | undefined => {
    let at = rec + 1;
    for (const k of shapes[tokens[rec] >> 4]) {
      const t = tokens[at];
      if (k === key) return (t & 7) === STR ? strings[t >> 4] : (t & 7) === INT ? t >> 4 : undefined;
      at = next(at);
    }
    return undefined;
  };
  const root = new Map<string, number>();
  const lists = new Map<string, number[]>();
  for (let at = 1, i = 0, keys = shapes[tokens[0] >> 4]; i < keys.length; at = next(at), i++) {
    root.set(keys[i], at);
    if ((tokens[at] & 7) !== ARR) continue;
    const els: number[] = [];
    for (let j = 0, e = at + 1; j < tokens[at] >> 4; j++, e = next(e)) els.push(e);
    lists.set(keys[i], els);
  }
  // Values decoded so far, by token: a reference decodes the value it names once.
  const decoded = new Map<number, unknown>();
  let makers: Maker[] | undefined;
  const value = (at: number): unknown => {
    const t = tokens[at];
    const p = t >> 4;
    switch (t & 7) {
      case INT:
        return p;
      case STR:
        return strings[p];
      case SPECIAL:
        return special(p);
      case FLOAT:
        return floats[p];
      case REF:
        return value(p);
    }
    if (decoded.has(at)) return decoded.get(at);
    let from = at + 1;
    const step = (): unknown => {
      const v = value(from);
      from = next(from);
      return v;
    };
    let v: unknown;
    if ((t & 7) === ARR) {
      const a = new Array(p);
      for (let i = 0; i < p; i++) a[i] = step();
      v = a;
    } else v = (makers ??= shapes.map(makerOf))[p](step);
    decoded.set(at, v);
    return v;
  };
  return { tokens, floats, strings, shapes, ends, classes, next, root, lists, shared, field, value };
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

/** An encoded facts record's tokens, floats, strings and shapes (each shape a key list), checked against its head. */
function recordParts(bytes: Uint8Array): { tokens: Int32Array; floats: Float64Array; strings: string[]; shapes: string[][] } {
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
  const shapes = JSON.parse(buf.toString('utf8', stringsAt + stringsLen, shapesEnd)) as string[][];
  // Copied out: the tokens' offset in a pooled or sliced buffer need not be 4-byte aligned.
  const tokens = new Int32Array(nTokens);
  new Uint8Array(tokens.buffer).set(buf.subarray(tokensAt, stringsAt));
  const floats = new Float64Array(nFloats);
  new Uint8Array(floats.buffer).set(buf.subarray(HEAD, tokensAt));
  return { tokens, floats, strings, shapes };
}

/**
 * Decodes packFacts' bytes. With `table`, each distinct string is replaced by the one copy the table
 * keeps, so equal strings across files are stored once (see share.ts); that costs a lookup per
 * distinct string of the file, not per occurrence.
 */
export function unpackFacts(bytes: Uint8Array, table?: StringTable): FileFacts {
  const { tokens, floats, strings, shapes: keyLists } = recordParts(bytes);
  const nTokens = tokens.length;
  if (table) {
    for (let i = 0; i < strings.length; i++) {
      const s = strings[i];
      const kept = table.get(s);
      if (kept === undefined) table.set(s, s);
      else strings[i] = kept;
    }
  }
  const shapes = keyLists.map(makerOf);
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
        return special(p);
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
