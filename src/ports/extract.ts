/** The TypeScript text of one mapping, for guides that print a port beside its Go original. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PortMapping } from './types.js';

export interface ExtractOptions {
  /** The repository the mapping's `file` is relative to; defaults to this package's own root. */
  root?: string;
  /** Also return the JSDoc block(s) right above the declaration. */
  withDoc?: boolean;
}

/** The declaration's source lines (line..endLine), optionally with the comment above it. */
export function extractPortCode(mapping: PortMapping, opts: ExtractOptions = {}): string {
  const root = opts.root ?? packageRoot();
  const lines = readFileSync(join(root, mapping.file), 'utf8').split('\n');
  if (mapping.line < 1 || mapping.endLine > lines.length || mapping.endLine < mapping.line) {
    throw new RangeError(`${mapping.file}: lines ${mapping.line}-${mapping.endLine} are outside the file (${lines.length} lines); re-read the mappings`);
  }
  let start = mapping.line - 1;
  if (opts.withDoc) start = docStart(lines, start);
  return lines.slice(start, mapping.endLine).join('\n');
}

/** Walks up over a JSDoc block that ends on the line just above `index`. */
function docStart(lines: string[], index: number): number {
  let i = index - 1;
  if (i < 0 || !lines[i].trim().endsWith('*/')) return index;
  while (i >= 0 && !lines[i].trim().startsWith('/**')) i--;
  return i >= 0 ? i : index;
}

let cachedRoot: string | undefined;

/** The folder holding this package's package.json (works from src/ under tsx and from dist/). */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'reference-impl'))) return (cachedRoot = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the kubelet-atlas package root above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}
