/**
 * The fast path of the parse stage: a small Node-API addon (src/parse/native) built from the very C
 * sources the tree-sitter and tree-sitter-go packages ship. It parses and returns the whole tree as one
 * integer array, where the tree-sitter bindings cost several native calls per node. When the addon was
 * not built (no compiler at install) or KUBELET_ATLAS_NATIVE=0, the extractor walks the bindings instead.
 */
import { loadAddon } from './addon.js';
import { adopt, LightNode, Source } from './light.js';
import { timed, type ParseClock } from './clock.js';

interface Addon {
  setup(query: string, leaves: string[], keep: string[]): { types: string[]; named: boolean[]; fields: string[]; captures: string[] };
  parse(text: string, target: ArrayBuffer): number;
  take(target: ArrayBuffer): number;
  parseOnly(text: string): void;
}

export interface FlatParse {
  root: LightNode;
  captures: { name: string; node: LightNode }[];
}

export interface FlatParser {
  /** With `clock`, adds tree-sitter's time and the light copy's. */
  parse(text: string, src: Source, clock?: ParseClock): FlatParse;
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
  cached = {
    parseOnly: (text) => addon.parseOnly(text),
    parse(text, src, clock) {
      timed(clock, 'treeSitter', () => {
        const n = addon.parse(text, w.buffer as ArrayBuffer);
        if (n < 0) {
          w = new Uint32Array(Math.max(-n, w.length * 2));
          addon.take(w.buffer as ArrayBuffer);
        }
      });
      return timed(clock, 'tree', () => lightTree(src));
    },
  };
  return cached;
}
