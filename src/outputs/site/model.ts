/**
 * What the site is built from, and the per-symbol records written into the package data files.
 * Every href in these records is relative to the site root.
 */
import type { Graph, SymbolRecord } from '../../model/index.js';
import type { SymbolTable } from '../../graph/index.js';
import type { Topic } from '../../annotations/index.js';
import type { Note } from '../../notes/index.js';
import type { PortMapping } from '../../ports/index.js';

export interface SiteInput {
  graph: Graph;
  table: SymbolTable;
  outDir: string;
  /** Go source text by path relative to the tree root. */
  readSource: (file: string) => string | undefined;
  /** The Kubernetes tag the GitHub permalinks point at. */
  version: string;
  topics: Topic[];
  ports: PortMapping[];
  /** The TypeScript text of a port declaration. */
  readPort: (m: PortMapping) => string | undefined;
  notes: Note[];
  log?: (line: string) => void;
}

export interface SiteResult {
  outDir: string;
  ms: number;
  files: number;
  pages: number;
  bytes: number;
  largestPage: { path: string; bytes: number };
  largestData: { path: string; bytes: number };
  symbols: number;
  packages: number;
  timings: Record<string, number>;
}

/** Kinds that get a symbol view. Closures get one too: they are call targets. */
export const SITE_KINDS = new Set<SymbolRecord['kind']>(['func', 'method', 'closure', 'type', 'interface']);

/**
 * Rows of the data files point into the file's `refs` table, so long IDs and links are written once.
 * A ref is [id, href or '', index into `files`]; `files` holds [path, data key or ''].
 */
export type Ref = [string, string, number];

/**
 * [ref, line of the call site, code]: the code is the edge kind's first letter (static, interface,
 * method-value, func-value, closure), then the mode's (call, go, defer, ref), then for interface
 * candidates the likelihood in percent, e.g. `ig90`.
 */
export type EdgeRow = [number, number, string];

export interface SymbolData {
  id: string;
  kind: string;
  line: number;
  endLine: number;
  sig?: string;
  doc?: string;
  parent?: number;
  callers: EdgeRow[];
  nCallers: number;
  callees: EdgeRow[];
  nCallees: number;
  /** [target ref, via, period, line] */
  goroutines?: [number, string, string, number][];
  /** [op, channel, expression, line] */
  channels?: [string, string, string, number][];
  annotations?: { topic: string; href: string; where: string; html?: string }[];
  notes?: { author: string; date: string; kind: string; status: string; html: string }[];
  ports?: { name: string; file: string; line: number; code: string }[];
  methods?: [string, number][];
}

/** One Go file: its highlighted lines and the symbols declared in it, by name within the package. */
export interface FileData {
  file: string;
  pkg: string;
  /** GitHub permalink base: `${gh}${file}#Lx-Ly`. */
  gh: string;
  lines: string[];
  files: [string, string][];
  refs: Ref[];
  symbols: Record<string, SymbolData>;
}
