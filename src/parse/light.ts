/**
 * A plain-JavaScript copy of a tree-sitter tree, made in one pass with a TreeCursor. Walking the Node
 * bindings' SyntaxNode objects costs a native call per property; copying once and walking the copy is
 * several times faster. LightNode offers the small part of the SyntaxNode API the extractor uses.
 */
import type Parser from 'tree-sitter';

/**
 * The part of tree-sitter's SyntaxNode API the extractor reads: what LightNode (a copy made through the
 * bindings) and FlatNode (a view of the addon's flat tree, flat.ts) both offer.
 */
export interface SyntaxNode {
  readonly type: string;
  readonly isNamed: boolean;
  readonly field: string | null;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly text: string;
  readonly startPosition: { row: number; column: number };
  readonly endPosition: { row: number; column: number };
  readonly children: SyntaxNode[];
  readonly namedChildren: SyntaxNode[];
  readonly previousNamedSibling: SyntaxNode | null;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): SyntaxNode[];
}

/** Shared by every leaf until it gets a child: most nodes are leaves, and an array each is garbage. */
const NO_CHILDREN: LightNode[] = [];

export class LightNode implements SyntaxNode {
  children: LightNode[] = NO_CHILDREN;
  parent: LightNode | null = null;
  private named?: LightNode[];

  constructor(
    readonly type: string,
    readonly isNamed: boolean,
    readonly field: string | null,
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly src: Source,
  ) {}

  get text(): string {
    return this.src.text.slice(this.startIndex, this.endIndex);
  }

  get startPosition(): { row: number; column: number } {
    return this.src.position(this.startIndex);
  }

  get endPosition(): { row: number; column: number } {
    return this.src.position(this.endIndex);
  }

  get namedChildren(): LightNode[] {
    return (this.named ??= this.children.filter((c) => c.isNamed));
  }

  childForFieldName(name: string): LightNode | null {
    for (const c of this.children) if (c.field === name) return c;
    return null;
  }

  childrenForFieldName(name: string): LightNode[] {
    return this.children.filter((c) => c.field === name);
  }

  get previousNamedSibling(): LightNode | null {
    if (!this.parent) return null;
    const siblings = this.parent.children;
    for (let i = siblings.indexOf(this) - 1; i >= 0; i--) if (siblings[i].isNamed) return siblings[i];
    return null;
  }
}

/** Appends a child, giving the parent its own array on the first one. */
function adopt(parent: LightNode, child: LightNode): void {
  if (parent.children === NO_CHILDREN) parent.children = [child];
  else parent.children.push(child);
}

/** The file text with a line index, so rows are computed only when asked for. */
export class Source {
  private lineStarts: number[];

  constructor(readonly text: string) {
    this.lineStarts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  position(index: number): { row: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - this.lineStarts[lo] };
  }
}

export const LEAVES = new Set(['interpreted_string_literal', 'raw_string_literal', 'rune_literal', 'comment', 'int_literal', 'float_literal']);

/** Copies the tree; anonymous leaf tokens are kept (the extractor looks for `*`, `:=`). */
export function lighten(tree: Parser.Tree, src: Source): LightNode {
  const cursor = tree.walk();
  const root = new LightNode(cursor.nodeType, true, null, cursor.startIndex, cursor.endIndex, src);
  const stack: LightNode[] = [root];
  if (!cursor.gotoFirstChild()) return root;
  for (;;) {
    const parent = stack[stack.length - 1];
    const node = new LightNode(cursor.nodeType, cursor.nodeIsNamed, cursor.currentFieldName || null, cursor.startIndex, cursor.endIndex, src);
    node.parent = parent;
    adopt(parent, node);
    // The insides of literals and comments are never looked at: do not copy them.
    if (!LEAVES.has(node.type) && cursor.gotoFirstChild()) {
      stack.push(node);
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return root;
      stack.pop();
      if (stack.length === 0) return root;
    }
  }
}
