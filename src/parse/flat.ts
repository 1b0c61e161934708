/**
 * The fast path of the parse stage: a small Node-API addon (src/parse/native) built from the very C
 * sources the tree-sitter and tree-sitter-go packages ship. It parses and returns the whole tree as one
 * integer array, where the tree-sitter bindings cost several native calls per node. When the addon was
 * not built (no compiler at install) or KUBELET_ATLAS_NATIVE=0, the extractor walks the bindings instead.
 */
import { loadAddon } from './addon.js';
import type { Source, SyntaxNode } from './light.js';
import { timed, type ParseClock } from './clock.js';

/** A syntax tree the addon kept (an external value: freed when it is collected). */
type KeptTree = { readonly __keptTree: unique symbol };

interface Addon {
  setup(query: string, leaves: string[], keep: string[]): { types: string[]; named: boolean[]; fields: string[]; captures: string[] };
  parse(text: string, target: ArrayBuffer, keep?: boolean, old?: KeptTree, edit?: Uint32Array): number;
  take(target: ArrayBuffer): number;
  keptTree(): KeptTree | undefined;
  parseOnly(text: string): void;
  extractPacked?(bytes: Uint8Array, path: string, declarationsOnly: boolean, times?: Float64Array): Uint8Array | undefined;
}

/** How many files' trees a thread keeps for their next parse, the least recently parsed dropped first. */
const KEPT_TREES = 16;

/**
 * The edit that turns `a` into `b` as tree-sitter takes it (see parse_again in flat_tree.c): the text
 * between their common prefix and common suffix replaced, in bytes of UTF-16 and as rows and byte
 * columns.
 */
export function editBetween(a: string, b: string): Uint32Array {
  const n = Math.min(a.length, b.length);
  let p = 0;
  while (p < n && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < n - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  const oldEnd = a.length - s;
  const newEnd = b.length - s;
  // The prefix is common: rows up to `p` are counted once, and each end is found from there.
  const start = rowAt(a, 0, 0, 0, p);
  const oldRow = rowAt(a, p, start.row, start.lineStart, oldEnd);
  const newRow = rowAt(b, p, start.row, start.lineStart, newEnd);
  return Uint32Array.of(p * 2, oldEnd * 2, newEnd * 2, start.row, column(start, p), oldRow.row, column(oldRow, oldEnd), newRow.row, column(newRow, newEnd));
}

/** The row of offset `at` in `text` and where that row starts, given both (`row`, `lineStart`) for offset `from`. */
function rowAt(text: string, from: number, row: number, lineStart: number, at: number): { row: number; lineStart: number } {
  for (let i = text.indexOf('\n', from); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, lineStart };
}

/** The byte column (two bytes a code unit) of offset `at` on its row. */
function column(row: { lineStart: number }, at: number): number {
  return (at - row.lineStart) * 2;
}

export interface FlatParse {
  root: SyntaxNode;
  captures: { name: string; node: SyntaxNode }[];
}

export interface FlatParser {
  /**
   * With `clock`, adds tree-sitter's time and the view's. With `key` (a file's path), the tree is
   * kept, and the next parse with that key starts from it: tree-sitter parses again only what the
   * change touched. The result is a parse from nothing's (a tree with a syntax error is made again from
   * nothing, see flat_tree.c). Its nodes read the thread's one buffer: they are valid until the next
   * parse on this thread.
   */
  parse(text: string, src: Source, clock?: ParseClock, key?: string): FlatParse;
  /** Parse and discard: tree-sitter's own cost, for the benchmark's baseline. */
  parseOnly(text: string): void;
  /**
   * The file's facts extracted and encoded in C (extract_facts.c): the bytes packFacts(extractFile(...))
   * gives, or undefined for a file it leaves to the TypeScript extractor (not ASCII, a syntax error, no
   * package clause, too large, nested deeper than its walk goes). With `clock`, adds tree-sitter's
   * time, the flat tree's, the extraction's and the encoding's.
   */
  extractPacked(bytes: Uint8Array, path: string, declarationsOnly: boolean, clock?: ParseClock): Uint8Array | undefined;
}

/**
 * One file's flat tree as the addon left it (`w`: per node its symbol, field and flags, start, end and
 * parent, in preorder), with each node's first child and its siblings on either side, made in one pass.
 */
interface FlatTree {
  w: Uint32Array;
  first: Int32Array;
  next: Int32Array;
  prev: Int32Array;
  src: Source;
  types: readonly string[];
  fields: readonly (string | null)[];
}

/**
 * A node of a FlatTree: its index and the tree. Made when the extractor steps to it and dropped soon
 * after, so a file's nodes never outlive its walk as a tree of objects (a copy of every node as an
 * object cost a pass over the tree and, on the calling thread, seconds of young-generation
 * collections over the default scope, each one copying the file's tree again).
 */
class FlatNode implements SyntaxNode {
  constructor(
    private readonly t: FlatTree,
    private readonly i: number,
  ) {}

  get type(): string {
    const sym = this.t.w[2 + this.i * 4] & 0xffff;
    // 0xffff is tree-sitter's ERROR symbol, which has no entry in the language's symbol table.
    return sym === 0xffff ? 'ERROR' : this.t.types[sym];
  }

  get isNamed(): boolean {
    return namedAt(this.t, this.i);
  }

  get field(): string | null {
    return fieldAt(this.t, this.i);
  }

  get startIndex(): number {
    return this.t.w[3 + this.i * 4];
  }

  get endIndex(): number {
    return this.t.w[4 + this.i * 4];
  }

  get text(): string {
    return this.t.src.text.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): { row: number; column: number } {
    return this.t.src.position(this.startIndex);
  }

  get endPosition(): { row: number; column: number } {
    return this.t.src.position(this.endIndex);
  }

  get children(): SyntaxNode[] {
    const { first, next } = this.t;
    const out: SyntaxNode[] = [];
    for (let c = first[this.i]; c >= 0; c = next[c]) out.push(new FlatNode(this.t, c));
    return out;
  }

  get namedChildren(): SyntaxNode[] {
    const { first, next } = this.t;
    const out: SyntaxNode[] = [];
    for (let c = first[this.i]; c >= 0; c = next[c]) if (namedAt(this.t, c)) out.push(new FlatNode(this.t, c));
    return out;
  }

  get previousNamedSibling(): SyntaxNode | null {
    const { prev } = this.t;
    for (let c = prev[this.i]; c >= 0; c = prev[c]) if (namedAt(this.t, c)) return new FlatNode(this.t, c);
    return null;
  }

  childForFieldName(name: string): SyntaxNode | null {
    const { first, next } = this.t;
    for (let c = first[this.i]; c >= 0; c = next[c]) if (fieldAt(this.t, c) === name) return new FlatNode(this.t, c);
    return null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    const { first, next } = this.t;
    const out: SyntaxNode[] = [];
    for (let c = first[this.i]; c >= 0; c = next[c]) if (fieldAt(this.t, c) === name) out.push(new FlatNode(this.t, c));
    return out;
  }
}

/** Whether node `i` of a flat tree is named (bit 24 of its first word). */
function namedAt(t: FlatTree, i: number): boolean {
  return ((t.w[2 + i * 4] >>> 24) & 1) === 1;
}

/** The field name of node `i` of a flat tree (bits 16-23 of its first word), or null. */
function fieldAt(t: FlatTree, i: number): string | null {
  return t.fields[(t.w[2 + i * 4] >>> 16) & 0xff];
}

let cached: FlatParser | null | undefined;

/** The addon-backed parser, or undefined when it is not available. */
export function flatParser(query: string, leaves: readonly string[], keep: readonly string[]): FlatParser | undefined {
  if (cached !== undefined) return cached ?? undefined;
  const addon = loadAddon<Addon>('flat_tree');
  if (!addon) {
    cached = null;
    return undefined;
  }
  const meta = addon.setup(query, [...leaves], [...keep]);
  // Names as property keys are internalized: the extractor's literals then compare by identity.
  const intern = (s: string) => Object.keys({ [s]: 0 })[0];
  const types = meta.types.map(intern);
  const fields = meta.fields.map((f) => (f ? intern(f) : null));
  // One buffer for every file, grown when a file needs more: no garbage per parse. The links between
  // nodes likewise.
  let w = new Uint32Array(1 << 20);
  let first = new Int32Array(1 << 16);
  let next = new Int32Array(1 << 16);
  let prev = new Int32Array(1 << 16);
  /** The view of the tree the addon left in `w`, and its captures. */
  const flatTree = (src: Source): FlatParse => {
    const count = w[0];
    if (first.length < count) {
      const size = Math.max(count, first.length * 2);
      first = new Int32Array(size);
      next = new Int32Array(size);
      prev = new Int32Array(size);
    }
    first.fill(-1, 0, count);
    prev[0] = -1;
    next[0] = -1;
    // Backwards, each node put first among its parent's children: they end in order.
    for (let i = count - 1; i > 0; i--) {
      const p = w[5 + i * 4];
      const after = first[p];
      next[i] = after;
      prev[i] = -1;
      if (after >= 0) prev[after] = i;
      first[p] = i;
    }
    const tree: FlatTree = { w, first, next, prev, src, types, fields };
    const captures: FlatParse['captures'] = [];
    for (let k = 0, o = 2 + count * 4; k < w[1]; k++, o += 2) captures.push({ name: meta.captures[w[o]], node: new FlatNode(tree, w[o + 1]) });
    return { root: new FlatNode(tree, 0), captures };
  };
  /** Trees kept by key, with the text each was parsed from, least recently parsed first. */
  const kept = new Map<string, { text: string; tree: KeptTree }>();
  const times = new Float64Array(4);
  cached = {
    parseOnly: (text) => addon.parseOnly(text),
    extractPacked(bytes, path, declarationsOnly, clock) {
      // An addon built before the extraction in C (an install that could not build it again leaves
      // the old one in place) has no extractPacked: every file is extracted in TypeScript then.
      if (typeof addon.extractPacked !== 'function') return undefined;
      if (!clock) return addon.extractPacked(bytes, path, declarationsOnly);
      times.fill(0);
      const packed = addon.extractPacked(bytes, path, declarationsOnly, times);
      clock.treeSitter += times[0];
      clock.tree += times[1];
      clock.extract += times[2];
      clock.encode += times[3];
      return packed;
    },
    parse(text, src, clock, key) {
      timed(clock, 'treeSitter', () => {
        const before = key === undefined ? undefined : kept.get(key);
        const n = before ? addon.parse(text, w.buffer as ArrayBuffer, true, before.tree, editBetween(before.text, text)) : addon.parse(text, w.buffer as ArrayBuffer, key !== undefined);
        if (n < 0) {
          w = new Uint32Array(Math.max(-n, w.length * 2));
          addon.take(w.buffer as ArrayBuffer);
        }
        if (key !== undefined) {
          const tree = addon.keptTree();
          kept.delete(key);
          if (tree) kept.set(key, { text, tree });
          if (kept.size > KEPT_TREES) kept.delete(kept.keys().next().value!);
        }
      });
      return timed(clock, 'tree', () => flatTree(src));
    },
  };
  return cached;
}
