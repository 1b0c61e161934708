/**
 * The fast path of the parse stage: a small Node-API addon (src/parse/native) built from the very C
 * sources the tree-sitter and tree-sitter-go packages ship. It parses and returns the whole tree as one
 * integer array, where the tree-sitter bindings cost several native calls per node. When the addon was
 * not built (no compiler at install) or KUBELET_ATLAS_NATIVE=0, the extractor walks the bindings instead.
 */
import { loadAddon } from './addon.js';
import { adopt, LightNode, Source } from './light.js';
import { timed, type ParseClock } from './clock.js';

/** A syntax tree the addon kept (an external value: freed when it is collected). */
type KeptTree = { readonly __keptTree: unique symbol };

interface Addon {
  setup(query: string, leaves: string[], keep: string[]): { types: string[]; named: boolean[]; fields: string[]; captures: string[] };
  parse(text: string, target: ArrayBuffer, keep?: boolean, old?: KeptTree, edit?: Uint32Array): number;
  take(target: ArrayBuffer): number;
  keptTree(): KeptTree | undefined;
  parseOnly(text: string): void;
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
  root: LightNode;
  captures: { name: string; node: LightNode }[];
}

export interface FlatParser {
  /**
   * With `clock`, adds tree-sitter's time and the light copy's. With `key` (a file's path), the tree is
   * kept, and the next parse with that key starts from it: tree-sitter parses again only what the
   * change touched. The result is a parse from nothing's (a tree with a syntax error is made again from
   * nothing, see flat_tree.c).
   */
  parse(text: string, src: Source, clock?: ParseClock, key?: string): FlatParse;
  /** Parse and discard: tree-sitter's own cost, for the benchmark's baseline. */
  parseOnly(text: string): void;
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
  const fields = meta.fields.map((f) => f || null);
  // One buffer for every file, grown when a file needs more: no garbage per parse.
  let w = new Uint32Array(1 << 20);
  /** The light nodes and the captures of the tree the addon left in `w`. */
  const lightTree = (src: Source): FlatParse => {
    const count = w[0];
    const nodes: LightNode[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const o = 2 + i * 4;
      const packed = w[o];
      const sym = packed & 0xffff;
      // 0xffff is tree-sitter's ERROR symbol, which has no entry in the language's symbol table.
      const node = new LightNode(sym === 0xffff ? 'ERROR' : meta.types[sym], ((packed >>> 24) & 1) === 1, fields[(packed >>> 16) & 0xff], w[o + 1], w[o + 2], src);
      nodes[i] = node;
      const parent = w[o + 3];
      if (parent !== 0xffffffff) {
        node.parent = nodes[parent];
        adopt(nodes[parent], node);
      }
    }
    const captures: FlatParse['captures'] = [];
    for (let k = 0, o = 2 + count * 4; k < w[1]; k++, o += 2) captures.push({ name: meta.captures[w[o]], node: nodes[w[o + 1]] });
    return { root: nodes[0], captures };
  };
  /** Trees kept by key, with the text each was parsed from, least recently parsed first. */
  const kept = new Map<string, { text: string; tree: KeptTree }>();
  cached = {
    parseOnly: (text) => addon.parseOnly(text),
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
      return timed(clock, 'tree', () => lightTree(src));
    },
  };
  return cached;
}
