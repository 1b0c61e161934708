/** A key function's Go source, capped, with its permalink; and the reference port's code beside it. */
import type { RootContent } from 'mdast';
import type { SymbolRecord } from '../../model/index.js';
import type { ReadSource } from '../../annotations/index.js';
import type { Labels } from './labels.js';
import { code, heading, link, para, text } from './md.js';
import { symbolLink } from './symbols.js';

export interface PortCode {
  /** Relative to the kubelet-atlas root, e.g. `reference-impl/pleg/generic.ts`. */
  file: string;
  line: number;
  endLine: number;
  code: string;
}

export function goExcerpt(s: SymbolRecord, read: ReadSource, version: string, maxLines: number, depth: number, l: Labels): RootContent[] {
  const url = symbolLink(version, s);
  const where = `${s.file}#L${s.line}-L${s.endLine}`;
  const out: RootContent[] = [heading(depth, l.go)];
  const src = read(s.file);
  const lines = src?.split('\n').slice(s.line - 1, s.endLine) ?? [];
  if (!lines.length) {
    out.push(para(text(`${l.source}: `), link(url, where)));
    return out;
  }
  const shownLines = lines.slice(0, maxLines);
  out.push(code('go', shownLines.join('\n').replace(/\s+$/, '')));
  if (lines.length > shownLines.length) out.push(para(text(`${l.moreLines(lines.length - shownLines.length)} `), link(url, where)));
  else out.push(para(text(`${l.source}: `), link(url, where)));
  return out;
}

export function portBlocks(ports: readonly PortCode[], maxLines: number, depth: number, l: Labels): RootContent[] {
  const out: RootContent[] = [];
  for (const p of ports) {
    const lines = p.code.split('\n');
    out.push(heading(depth, l.port(p.file)));
    out.push(code('ts', lines.slice(0, maxLines).join('\n').replace(/\s+$/, '')));
    const at = `${p.file}:${p.line}-${p.endLine}`;
    out.push(para(text(lines.length > maxLines ? `${l.moreLines(lines.length - maxLines)} ${at}` : `${l.source}: ${at}`)));
  }
  return out;
}
