/**
 * Reading a symbol's source lines back from a tree, and the rename-proof "shape" of a body. Shared
 * with the version diff, which needs the same two things for both of its trees.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { tokens } from '../parse/fingerprint.js';

export interface SymbolSpan {
  id: string;
  file: string;
  line: number;
  endLine: number;
}

/** Returns the text of lines line..endLine of a symbol's file, or undefined when it cannot be read. */
export type ReadSource = (span: SymbolSpan) => string | undefined;

/** A reader over one tree that keeps each file's lines after the first read. */
export function treeSource(root: string): ReadSource {
  const files = new Map<string, string[] | null>();
  return (span) => {
    let lines = files.get(span.file);
    if (lines === undefined) {
      try {
        lines = readFileSync(join(root, span.file), 'utf8').split('\n');
      } catch {
        lines = null;
      }
      files.set(span.file, lines);
    }
    if (!lines || span.line < 1 || span.endLine > lines.length || span.endLine < span.line) return undefined;
    return lines.slice(span.line - 1, span.endLine).join('\n');
  };
}

/** `pkg/path.(*T).M.func1` → `(*T).M.func1`: the part after the package path. */
export function localPart(id: string): string {
  const paren = id.indexOf('(');
  const slash = id.lastIndexOf('/', paren < 0 ? id.length : paren);
  const dot = id.indexOf('.', slash + 1);
  return dot < 0 ? id : id.slice(dot + 1);
}

/** `k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist` → `k8s.io/kubernetes/pkg/kubelet/pleg`. */
export function packageOf(id: string): string {
  const paren = id.indexOf('(');
  const slash = id.lastIndexOf('/', paren < 0 ? id.length : paren);
  const dot = id.indexOf('.', slash + 1);
  return dot < 0 ? id : id.slice(0, dot);
}

/**
 * A fingerprint of the body with the symbol's own names (function, method, receiver type) blanked, so
 * `func (g *A) f()` renamed to `func (g *B) g()` keeps its shape while any change inside does not.
 */
export function shapeOf(text: string, id: string): string {
  const own = new Set(localPart(id).match(/[A-Za-z_][\w]*/g) ?? []);
  const toks = tokens(text).map((t) => (own.has(t) ? '_' : t));
  return createHash('sha1').update(toks.join(' ')).digest('hex').slice(0, 16);
}
