/**
 * Parses one Go file with tree-sitter and returns its facts as plain records. This is the only module
 * (with body.ts and types.ts) that touches tree-sitter nodes.
 * Mirrored in C by src/parse/native/extract_facts.c, which must write the same bytes for the files it
 * takes: a change here is made there too (test/parse/native-extract.test.ts compares the two).
 */
import { createRequire } from 'node:module';
import type Parser from 'tree-sitter';
import type { FileDiagnostic, FileFacts, FuncFacts, ImportFacts, TypeFacts, ValueFacts } from './facts.js';
import { walkExpression, walkFunction, type FileWalk } from './body.js';
import { typeOf, typeParamNames } from './types.js';
import { fingerprintOf } from './fingerprint.js';
import { checkCaptures, loadQuery, querySource } from './query.js';
import { flatParser, type FlatParser } from './flat.js';
import { timed, type ParseClock } from './clock.js';
import { declarationsOnly } from './declarations.js';
import { segmentsMade, segmentsOf, SEGMENTS_MIN_CHARS } from './segments.js';

import { LEAVES, lighten, LightNode, Source, type SyntaxNode } from './light.js';

const CAPTURES = [
  'package', 'import', 'definition.function', 'definition.method', 'definition.type', 'definition.var',
  'definition.const', 'error', 'missing',
] as const;

/** Files above this size are reported and skipped rather than parsed. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

let parser: Parser | undefined;
let declQuery: Parser.Query | undefined;

/**
 * The tree-sitter bindings and the Go grammar, loaded when first needed: the addon parser (flat.ts)
 * carries its own runtime and grammar, so a process that parses with it never loads them.
 */
let bindings: { Parser: typeof Parser; Go: unknown } | undefined;
function treeSitterBindings(): { Parser: typeof Parser; Go: unknown } {
  const require = createRequire(import.meta.url);
  return (bindings ??= { Parser: require('tree-sitter') as typeof Parser, Go: require('tree-sitter-go') as unknown });
}

function setup(): { parser: Parser; query: Parser.Query } {
  if (!parser) {
    const { Parser: P, Go } = treeSitterBindings();
    parser = new P();
    parser.setLanguage(Go as Parser.Language);
    declQuery = loadQuery(P, Go, 'declarations.scm', CAPTURES);
  }
  return { parser, query: declQuery! };
}

/** Anonymous tokens the extractor looks at (besides those with a field name, which are always kept). */
const KEPT_TOKENS = [':=', '*'];

let fast: FlatParser | null | undefined;

function fastParser(): FlatParser | undefined {
  if (fast === undefined) {
    const source = querySource('declarations.scm');
    // The addon compiles the query itself; its capture names are checked against CAPTURES here.
    checkCaptures('declarations.scm', source, CAPTURES);
    fast = flatParser(source, [...LEAVES], KEPT_TOKENS) ?? null;
  }
  return fast ?? undefined;
}

/** Whether the addon parser is in use (the benchmark reports it). */
export function nativeParserInUse(): boolean {
  return fastParser() !== undefined;
}

/** tree-sitter alone, for the benchmark's baseline: the addon's parse when it is in use, else the bindings'. */
export function parseOnly(text: string): void {
  const f = fastParser();
  if (f) f.parseOnly(text);
  else setup().parser.parse(text, undefined, { bufferSize: Math.max(32 * 1024, text.length * 2 + 16) });
}

/**
 * The bytes packFacts(extractFile(path, bytes, clock, declarations)) gives, made in C by the addon
 * (extract_facts.c) where it can: an ASCII file with no syntax error and a package clause, nested
 * less than 2,000 levels deep, as nearly every Go file is. Undefined for any other file (extract it
 * with extractFile), when the addon is not built, or with KUBELET_ATLAS_NATIVE_EXTRACT=0.
 */
export function extractPackedNative(path: string, bytes: Uint8Array, clock?: ParseClock, declarations = false): Uint8Array | undefined {
  if (process.env['KUBELET_ATLAS_NATIVE_EXTRACT'] === '0') return undefined;
  return fastParser()?.extractPacked(bytes, path, declarations, clock);
}

/** Decodes bytes as UTF-8, reporting the line of the first invalid sequence. */
export function decode(bytes: Uint8Array): { text: string; diagnostic?: FileDiagnostic } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const text = new TextDecoder('utf-8').decode(bytes);
    const bad = text.indexOf('\uFFFD');
    const line = bad < 0 ? 1 : text.slice(0, bad).split('\n').length;
    return { text, diagnostic: { code: 'encoding', message: 'invalid UTF-8; bad bytes were replaced', line } };
  }
}

/**
 * One file's facts. Never throws: a failure inside the extractor (a bug, not bad input) becomes an
 * 'extract' diagnostic on that file, with no facts, the same on a worker and on the calling thread.
 * With `clock`, adds the time of tree-sitter, of the tree's light copy and of the rest. With
 * `declarations`, a file outside the build: its function bodies are left out (see declarationsOnly).
 * With `retain`, the native parser keeps the file's syntax tree, and the next parse of the same path on
 * this thread starts from it (see FlatParser.parse): for a process that parses the files it is told
 * changed, again and again (index --watch).
 */
export function extractFile(path: string, bytes: Uint8Array, clock?: ParseClock, declarations = false, retain = false): FileFacts {
  const t0 = clock ? performance.now() : 0;
  const before = clock ? clock.treeSitter + clock.tree : 0;
  try {
    const facts = extractOrThrow(path, bytes, clock, retain, declarations ? undefined : 'segments');
    return declarations ? declarationsOnly(facts) : facts;
  } catch (err) {
    return {
      path, pkg: '', imports: [], funcs: [], types: [], values: [],
      diagnostics: [{ code: 'extract', message: `could not extract facts: ${(err as Error)?.message ?? String(err)}`, line: 1 }],
    };
  } finally {
    if (clock) clock.extract += performance.now() - t0 - (clock.treeSitter + clock.tree - before);
  }
}

/** A file's top-level layout as extraction finds it: see segments.ts. */
export interface Layout {
  /** The header's end; undefined when a top-level node is neither a comment nor a declaration. */
  header?: number;
  ends: number[];
  counts: number[];
}

/**
 * With `layout` 'segments', the facts of a file large enough get their segments (segmentsMade); with a
 * Layout, it is filled in.
 */
function extractOrThrow(path: string, bytes: Uint8Array, clock: ParseClock | undefined, retain: boolean, layout?: 'segments' | Layout): FileFacts {
  const facts: FileFacts = { path, pkg: '', imports: [], funcs: [], types: [], values: [], diagnostics: [] };
  if (bytes.length > MAX_FILE_BYTES) {
    facts.diagnostics.push({ code: 'too-large', message: `file is ${bytes.length} bytes, over the ${MAX_FILE_BYTES}-byte limit; skipped`, line: 1 });
    return facts;
  }
  const { text, diagnostic } = decode(bytes);
  if (diagnostic) facts.diagnostics.push(diagnostic);
  const src = new Source(text);
  let captures: { name: string; node: SyntaxNode }[];
  let root: SyntaxNode;
  try {
    ({ root, captures } = parseTree(text, src, clock, retain ? path : undefined));
  } catch (err) {
    facts.diagnostics.push({ code: 'syntax', message: `tree-sitter could not parse the file: ${(err as Error).message}`, line: 1 });
    return facts;
  }
  // Valid UTF-8 with as many bytes as its text has code units is ASCII: the offsets are the same in both.
  const walk: FileWalk = { funcs: facts.funcs, text, bytes: !diagnostic && bytes.length === text.length ? bytes : undefined };
  let initCount = 0;
  let errors = 0;
  // Each top-level declaration's end and the facts' counts after it (see segments.ts).
  const ends: number[] = [];
  const counts: number[] = [];
  for (const { name, node } of captures) {
    if (name === 'error' || name === 'missing') {
      if (errors++ < 5) {
        const what = name === 'missing' ? `missing ${node.type}` : `unexpected ${JSON.stringify(node.text.slice(0, 30))}`;
        facts.diagnostics.push({ code: 'syntax', message: `syntax error: ${what}`, line: node.startPosition.row + 1 });
      }
      continue;
    }
    switch (name) {
      case 'package':
        facts.pkg = node.text;
        break;
      case 'import':
        facts.imports.push(importOf(node));
        break;
      case 'definition.function': {
        const fname = node.childForFieldName('name')?.text ?? '';
        const tparams = typeParamNames(node.childForFieldName('type_parameters'));
        // Go names generic functions with a [...] suffix in stack traces: sets.New[...].
        const local = fname === 'init' ? `init.${initCount++}` : tparams ? `${fname}[...]` : fname;
        walkFunction(walk, node, { local, kind: 'func', name: fname, tparams, doc: docOf(node) });
        break;
      }
      case 'definition.method': {
        const recv = receiverOf(node);
        const mname = node.childForFieldName('name')?.text ?? '';
        const rtype = recv.tparams ? `${recv.type}[...]` : recv.type;
        const local = recv.ptr ? `(*${rtype}).${mname}` : `${rtype}.${mname}`;
        walkFunction(walk, node, { local, kind: 'method', name: mname, recv, doc: docOf(node) });
        break;
      }
      case 'definition.type':
        for (const spec of node.namedChildren) if (spec.type === 'type_spec' || spec.type === 'type_alias') facts.types.push(typeFacts(spec, node, walk));
        break;
      case 'definition.var':
      case 'definition.const':
        values(node, name === 'definition.var' ? 'var' : 'const', facts.values, walk);
        break;
    }
    if (name.startsWith('definition.')) {
      ends.push(node.endIndex);
      counts.push(facts.funcs.length, facts.types.length, facts.values.length);
    }
  }
  if (errors > 5) facts.diagnostics.push({ code: 'syntax', message: `${errors - 5} more syntax errors`, line: 1 });
  if (!facts.pkg) facts.diagnostics.push({ code: 'syntax', message: 'no package clause', line: 1 });
  if (typeof layout === 'object') Object.assign(layout, { header: headerEnd(root, ends), ends, counts });
  else if (layout && walk.bytes && text.length >= SEGMENTS_MIN_CHARS && facts.diagnostics.length === 0) {
    const header = headerEnd(root, ends);
    if (header !== undefined) segmentsMade.set(facts, segmentsOf(text, header, ends, counts));
  }
  return facts;
}

/** extractFile's facts of a file parsed in part (see splice.ts), with its layout; throws where extractFile gives a diagnostic. */
export function extractLayout(path: string, bytes: Uint8Array, clock?: ParseClock): { facts: FileFacts; layout: Layout } {
  const layout: Layout = { ends: [], counts: [] };
  return { facts: extractOrThrow(path, bytes, clock, false, layout), layout };
}

/**
 * The end of a file's header (its package clause and imports), when every other top-level node is a
 * comment or one of the declarations that end at `ends`, in order; else undefined.
 */
function headerEnd(root: SyntaxNode, ends: readonly number[]): number | undefined {
  let header = 0;
  let k = 0;
  for (const c of root.namedChildren) {
    if (c.type === 'comment') continue;
    if ((c.type === 'package_clause' || c.type === 'import_declaration') && k === 0) header = c.endIndex;
    else if (k < ends.length && c.endIndex === ends[k]) k++;
    else return undefined;
  }
  return k === ends.length ? header : undefined;
}

/** The declaration query's captures, each on the tree the extractor walks (the addon's flat tree, else the bindings' light copy). */
function parseTree(text: string, src: Source, clock: ParseClock | undefined, key: string | undefined): { root: SyntaxNode; captures: { name: string; node: SyntaxNode }[] } {
  const f = fastParser();
  if (f) return f.parse(text, src, clock, key);
  const { parser, query } = setup();
  const tree = timed(clock, 'treeSitter', () => parser.parse(text, undefined, { bufferSize: Math.max(32 * 1024, text.length * 2 + 16) }));
  const root = timed(clock, 'tree', () => lighten(tree, src));
  // The query runs natively; its captures are mapped onto the light copy by position and type.
  const byPlace = new Map<string, LightNode>();
  const index = (n: LightNode) => {
    byPlace.set(`${n.startIndex}:${n.type}`, n);
    for (const c of n.children) if (c.type !== 'block' && c.type !== 'func_literal') index(c);
  };
  index(root);
  const out: { name: string; node: SyntaxNode }[] = [];
  for (const capture of query.captures(tree.rootNode)) {
    const name = capture.name;
    if (name === 'error' || name === 'missing') {
      // Errors may sit inside bodies, which the index above skips: copy the few facts a message needs.
      const n = capture.node;
      const copy = new LightNode(n.type, n.isNamed, null, n.startIndex, n.endIndex, src);
      out.push({ name, node: copy });
      continue;
    }
    const node = byPlace.get(`${capture.node.startIndex}:${capture.node.type}`);
    if (node) out.push({ name, node });
  }
  return { root, captures: out };
}

function importOf(node: SyntaxNode): ImportFacts {
  const alias = node.childForFieldName('name')?.text;
  const raw = node.childForFieldName('path')?.text ?? '""';
  return { alias, path: raw.slice(1, -1), line: node.startPosition.row + 1 };
}

function receiverOf(node: SyntaxNode): { name?: string; type: string; ptr: boolean; tparams?: string[] } {
  const decl = node.childForFieldName('receiver')?.namedChildren.find((c) => c.type === 'parameter_declaration');
  const name = decl?.childForFieldName('name')?.text;
  let t = decl?.childForFieldName('type') ?? null;
  let ptr = false;
  if (t?.type === 'pointer_type') {
    ptr = true;
    t = t.namedChildren[0] ?? null;
  }
  if (t?.type === 'parenthesized_type') t = t.namedChildren[0] ?? null;
  let tparams: string[] | undefined;
  if (t?.type === 'generic_type') {
    tparams = t.childForFieldName('type_arguments')?.namedChildren.map((a) => a.text);
    t = t.childForFieldName('type');
  }
  return { name: name === '_' ? undefined : name, type: t?.text ?? '?', ptr, tparams };
}

function typeFacts(spec: SyntaxNode, decl: SyntaxNode, file: FileWalk): TypeFacts {
  return {
    name: spec.childForFieldName('name')?.text ?? '',
    t: typeOf(spec.childForFieldName('type')),
    alias: spec.type === 'type_alias',
    tparams: typeParamNames(spec.childForFieldName('type_parameters')),
    line: spec.startPosition.row + 1,
    endLine: spec.endPosition.row + 1,
    doc: docOf(decl.namedChildren.length === 1 ? decl : spec),
    fingerprint: fingerprintOf(file, spec.startIndex, spec.endIndex),
  };
}

/** Package-level var and const specs; closures in initializers become `glob..funcN`. */
function values(node: SyntaxNode, kind: 'var' | 'const', out: ValueFacts[], walk: FileWalk): void {
  const specs: SyntaxNode[] = [];
  const collect = (n: SyntaxNode) => {
    for (const c of n.namedChildren) {
      if (c.type === 'var_spec' || c.type === 'const_spec') specs.push(c);
      else if (c.type === 'var_spec_list' || c.type === 'const_spec_list') collect(c);
    }
  };
  collect(node);
  let init: FuncFacts | undefined;
  for (const spec of specs) {
    const names = spec.childrenForFieldName('name').map((n) => n.text);
    const t = spec.childForFieldName('type');
    const vals = spec.childForFieldName('value')?.namedChildren ?? [];
    if (vals.length > 0 && kind === 'var') init ??= packageInit(walk);
    // Const values are kept as expressions (periods and thresholds are read from them); they hold no calls worth a node.
    const exprs = vals.map((v) => (init ? initExpr(walk, init, v) : kind === 'const' ? walkExpression(walk, scratch(), v) : undefined));
    names.forEach((name, i) => {
      const v = exprs.length === names.length ? exprs[i] : exprs[0];
      const vi = exprs.length === names.length ? undefined : i;
      out.push({
        name, kind, t: t ? typeOf(t) : undefined, v, vi, arity: vi === undefined ? undefined : names.length,
        line: spec.startPosition.row + 1, doc: docOf(specs.length === 1 ? node : spec),
      });
    });
  }
}

/** A throwaway function record for expressions whose calls are not wanted (const initializers). */
function scratch(): FuncFacts {
  return {
    local: 'const', kind: 'func', name: 'const', params: [], results: [], line: 1, endLine: 1, col: 1, fingerprint: '',
    binds: [], calls: [], refs: [], assigns: [], returns: [], chans: [], selects: [], closures: [], start: 0, end: 0,
  };
}

/** The package initializer that holds calls made by var initializers (one per file, merged later). */
function packageInit(walk: FileWalk): FuncFacts {
  const existing = walk.funcs.find((f) => f.local === 'init' && f.kind === 'func');
  if (existing) return existing;
  const fn: FuncFacts = {
    local: 'init', kind: 'func', name: 'init', params: [], results: [], line: 1, endLine: 1, col: 1, fingerprint: '',
    binds: [], calls: [], refs: [], assigns: [], returns: [], chans: [], selects: [], closures: [], start: 0, end: 0,
  };
  walk.funcs.push(fn);
  return fn;
}

/** Walks an initializer expression inside the package initializer, so closures get glob names. */
function initExpr(walk: FileWalk, init: FuncFacts, node: SyntaxNode) {
  return walkExpression(walk, init, node);
}

function docOf(node: SyntaxNode): string | undefined {
  const lines: string[] = [];
  let prev = node.previousNamedSibling;
  let row = node.startPosition.row;
  while (prev && prev.type === 'comment' && prev.endPosition.row === row - 1) {
    lines.unshift(prev.text);
    row = prev.startPosition.row;
    prev = prev.previousNamedSibling;
  }
  if (lines.length === 0) return undefined;
  return lines.map((l) => l.replace(/^\/\/ ?/, '').replace(/^\/\*|\*\/$/g, '')).join('\n').trim();
}
