/**
 * Walks a function body (or a closure's) and turns it into plain facts: local bindings with their
 * scopes, call sites, value references, assignments, returns, channel operations and nested closures.
 * It is syntactic only: what a name means is decided later by the resolver.
 * Mirrored in C by src/parse/native/extract_facts.c, which must write the same bytes for the files it
 * takes: a change here is made there too (test/parse/native-extract.test.ts compares the two).
 */
import type { SyntaxNode } from './light.js';
import type { Bind, CallMode, Expr, FuncFacts, TypeExpr } from './facts.js';
import { paramList, resultList, typeOf } from './types.js';
import { fingerprintOf } from './fingerprint.js';

/** Shared state of one file's extraction: every function (named or closure) lands in `funcs`. */
export interface FileWalk {
  funcs: FuncFacts[];
  text: string;
  /** The file's bytes when their offsets are the text's (an ASCII file): fingerprints read them. */
  bytes?: Uint8Array;
}

interface Ctx {
  file: FileWalk;
  fn: FuncFacts;
  scopeEnds: number[];
  closureCount: number;
  selectCount: number;
  select?: { index: number; caseIndex: number };
  mode?: CallMode;
}

const SCOPES = new Set([
  'block', 'if_statement', 'for_statement', 'expression_switch_statement', 'type_switch_statement',
  'select_statement', 'communication_case', 'expression_case', 'type_case', 'default_case',
]);

type FuncBase = Omit<FuncFacts, 'binds' | 'calls' | 'refs' | 'assigns' | 'returns' | 'chans' | 'selects' | 'closures' | 'params' | 'results' | 'fingerprint' | 'start' | 'end' | 'line' | 'endLine' | 'col'>;

/** The first keys of a function's record, by kind, each key kept even when its value is undefined (as a spread of `base` kept them). */
function head(base: FuncBase): Partial<FuncFacts> {
  switch (base.kind) {
    case 'closure':
      return { local: base.local, kind: base.kind, name: base.name, parent: base.parent };
    case 'method':
      return { local: base.local, kind: base.kind, name: base.name, recv: base.recv, doc: base.doc };
    default:
      return { local: base.local, kind: base.kind, name: base.name, tparams: base.tparams, doc: base.doc };
  }
}

/** Creates the facts record of a function-like node and walks its body. */
export function walkFunction(
  file: FileWalk,
  node: SyntaxNode,
  base: FuncBase,
): number {
  const { params, variadic } = paramList(node.childForFieldName('parameters'));
  const results = resultList(node.childForFieldName('result'));
  const body = node.childForFieldName('body');
  // The record is the head's keys, then these in this order (as `{ ...base, params, ... }` wrote it,
  // which V8 made through a slow path at tens of microseconds a record: about a second per 30,000
  // functions).
  const fn = head(base) as FuncFacts;
  fn.params = params;
  fn.results = results;
  fn.variadic = variadic || undefined;
  fn.line = node.startPosition.row + 1;
  fn.endLine = node.endPosition.row + 1;
  fn.col = node.startPosition.column + 1;
  fn.fingerprint = fingerprintOf(file, node.startIndex, node.endIndex);
  fn.binds = [];
  fn.calls = [];
  fn.refs = [];
  fn.assigns = [];
  fn.returns = [];
  fn.chans = [];
  fn.selects = [];
  fn.closures = [];
  fn.start = body?.startIndex ?? node.startIndex;
  fn.end = body?.endIndex ?? node.endIndex;
  const index = file.funcs.length;
  file.funcs.push(fn);
  const end = node.endIndex;
  const pos = body?.startIndex ?? node.startIndex;
  for (const p of params) if (p.name && p.name !== '_') fn.binds.push({ n: p.name, from: 'param', t: p.t, pos, end });
  for (const r of results) if (r.name && r.name !== '_') fn.binds.push({ n: r.name, from: 'result', t: r.t, pos, end });
  if (base.recv?.name) {
    const rt: TypeExpr = { k: 'named', n: base.recv.type };
    fn.binds.push({ n: base.recv.name, from: 'recv', t: base.recv.ptr ? { k: 'ptr', e: rt } : rt, pos, end });
  }
  if (body) {
    const ctx: Ctx = { file, fn, scopeEnds: [end], closureCount: 0, selectCount: 0 };
    stmt(ctx, body);
  }
  return index;
}

function scopeEnd(ctx: Ctx): number {
  return ctx.scopeEnds[ctx.scopeEnds.length - 1];
}

function stmt(ctx: Ctx, node: SyntaxNode): void {
  const scoped = SCOPES.has(node.type);
  if (scoped) ctx.scopeEnds.push(node.endIndex);
  try {
    stmtInner(ctx, node);
  } finally {
    if (scoped) ctx.scopeEnds.pop();
  }
}

function stmtInner(ctx: Ctx, node: SyntaxNode): void {
  const fn = ctx.fn;
  switch (node.type) {
    case 'short_var_declaration': {
      const left = node.childForFieldName('left')?.namedChildren ?? [];
      const right = node.childForFieldName('right')?.namedChildren ?? [];
      const values = right.map((r) => expr(ctx, r, true));
      bindNames(ctx, left.map((l) => l.text), values, 'define', undefined, node.endIndex);
      return;
    }
    case 'var_declaration':
    case 'const_declaration': {
      for (const spec of specs(node)) {
        const names = spec.childrenForFieldName('name').map((n) => n.text);
        const t = spec.childForFieldName('type');
        const vals = spec.childForFieldName('value')?.namedChildren ?? [];
        const values = vals.map((v) => expr(ctx, v, true));
        bindNames(ctx, names, values, 'var', t ? typeOf(t) : undefined, spec.endIndex);
      }
      return;
    }
    case 'assignment_statement': {
      const left = node.childForFieldName('left')?.namedChildren ?? [];
      const right = node.childForFieldName('right')?.namedChildren ?? [];
      const lhs = left.map((l) => expr(ctx, l, false));
      const rhs = right.map((r) => expr(ctx, r, true));
      const op = node.childForFieldName('operator')?.text ?? '=';
      if (op === '=') {
        const line = node.startPosition.row + 1;
        if (rhs.length === lhs.length) lhs.forEach((l, i) => fn.assigns.push({ lhs: l, rhs: rhs[i], l: line, pos: node.startIndex }));
        else if (rhs.length === 1) lhs.forEach((l, i) => fn.assigns.push({ lhs: l, rhs: rhs[0], vi: i, l: line, pos: node.startIndex }));
      }
      return;
    }
    case 'go_statement':
    case 'defer_statement': {
      const call = node.namedChildren[0];
      if (call) {
        const saved = ctx.mode;
        ctx.mode = node.type === 'go_statement' ? 'go' : 'defer';
        expr(ctx, call, false);
        ctx.mode = saved;
      }
      return;
    }
    case 'send_statement': {
      const ch = expr(ctx, node.childForFieldName('channel'), false);
      expr(ctx, node.childForFieldName('value'), true);
      fn.chans.push({ op: 'send', ch, l: node.startPosition.row + 1, pos: node.startIndex, ...selectInfo(ctx) });
      return;
    }
    case 'receive_statement': {
      // Only inside select cases: `v := <-ch` / `v, ok = <-ch`.
      const right = node.childForFieldName('right');
      const value = expr(ctx, right, false);
      const left = node.childForFieldName('left')?.namedChildren ?? [];
      if (node.children.some((c) => c.type === ':=')) {
        bindNames(ctx, left.map((l) => l.text), [value], 'select', undefined, node.endIndex);
      }
      return;
    }
    case 'select_statement': {
      const index = ctx.selectCount++;
      const cases = node.namedChildren.filter((c) => c.type === 'communication_case' || c.type === 'default_case');
      fn.selects.push({ l: node.startPosition.row + 1, cases: cases.length });
      cases.forEach((c, caseIndex) => {
        const saved = ctx.select;
        ctx.scopeEnds.push(c.endIndex);
        const comm = c.childForFieldName('communication');
        if (comm) {
          ctx.select = { index, caseIndex };
          stmt(ctx, comm);
          ctx.select = saved;
        }
        // Nodes are compared by what they are, not by identity: a flat tree's node is made on each step to it.
        for (const ch of c.namedChildren) if (ch.field !== 'communication') stmt(ctx, ch);
        ctx.scopeEnds.pop();
      });
      return;
    }
    case 'for_statement': {
      const range = node.namedChildren.find((c) => c.type === 'range_clause');
      if (range) {
        const right = expr(ctx, range.childForFieldName('right'), false);
        const left = range.childForFieldName('left')?.namedChildren ?? [];
        if (range.children.some((c) => c.type === ':=')) {
          left.forEach((l, i) => {
            if (l.text !== '_') fn.binds.push({ n: l.text, from: 'range', v: right, vi: i, pos: range.endIndex, end: scopeEnd(ctx) });
          });
        }
        fn.chans.push({ op: 'range', ch: right, l: node.startPosition.row + 1, pos: node.startIndex });
      }
      for (const c of node.namedChildren) if (c.type !== 'range_clause') stmt(ctx, c);
      return;
    }
    case 'type_switch_statement': {
      const init = node.childForFieldName('initializer');
      if (init) stmt(ctx, init);
      const value = expr(ctx, node.childForFieldName('value'), false);
      const alias = node.childForFieldName('alias')?.namedChildren[0]?.text;
      for (const c of node.namedChildren) {
        if (c.type !== 'type_case' && c.type !== 'default_case') continue;
        ctx.scopeEnds.push(c.endIndex);
        if (alias && alias !== '_') {
          const types = c.type === 'type_case' ? c.childrenForFieldName('type') : [];
          const t = types.length === 1 ? typeOf(types[0]) : undefined;
          fn.binds.push({ n: alias, from: 'typeswitch', t, v: t ? undefined : value, pos: c.startIndex, end: c.endIndex });
        }
        for (const s of c.namedChildren) if (s.type === 'statement_list') stmt(ctx, s);
        ctx.scopeEnds.pop();
      }
      return;
    }
    case 'return_statement': {
      const list = node.namedChildren[0];
      const vals = list ? (list.type === 'expression_list' ? list.namedChildren : [list]).map((v) => expr(ctx, v, true)) : [];
      fn.returns.push({ vals, l: node.startPosition.row + 1, pos: node.startIndex });
      return;
    }
    case 'expression_statement':
      expr(ctx, node.namedChildren[0], false);
      return;
    case 'inc_statement':
    case 'dec_statement':
      expr(ctx, node.namedChildren[0], false);
      return;
    case 'labeled_statement':
      for (const c of node.namedChildren) if (c.type !== 'label_name') stmt(ctx, c);
      return;
    case 'func_literal':
    case 'call_expression':
    case 'unary_expression':
    case 'selector_expression':
    case 'identifier':
    case 'binary_expression':
    case 'parenthesized_expression':
    case 'index_expression':
    case 'composite_literal':
    case 'type_assertion_expression':
      expr(ctx, node, false);
      return;
    case 'comment':
      return;
    default:
      for (const c of node.namedChildren) stmt(ctx, c);
  }
}

function specs(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const c of node.namedChildren) {
    if (c.type === 'var_spec' || c.type === 'const_spec') out.push(c);
    else if (c.type === 'var_spec_list' || c.type === 'const_spec_list') out.push(...specs(c));
  }
  return out;
}

function selectInfo(ctx: Ctx): { select?: number; caseIndex?: number } {
  return ctx.select ? { select: ctx.select.index, caseIndex: ctx.select.caseIndex } : {};
}

function bindNames(ctx: Ctx, names: string[], values: Expr[], from: Bind['from'], t: TypeExpr | undefined, pos: number): void {
  const end = scopeEnd(ctx);
  names.forEach((n, i) => {
    if (n === '_') return;
    if (values.length === names.length) ctx.fn.binds.push({ n, from, t, v: values[i], pos, end });
    else if (values.length === 1) ctx.fn.binds.push({ n, from, t, v: values[0], vi: i, arity: names.length, pos, end });
    else ctx.fn.binds.push({ n, from, t, pos, end });
  });
}

// One record per kind of literal, shared by every literal of that kind (one per content: a file parsed
// in part shares the old facts' records in their place, see splice.ts).
const STRING: Expr = { k: 'lit', t: 'string' };
const BOOL: Expr = { k: 'lit', t: 'bool' };
const LITERALS: Record<string, Expr> = {
  int_literal: { k: 'lit', t: 'int' },
  float_literal: { k: 'lit', t: 'float' },
  imaginary_literal: { k: 'lit', t: 'imag' },
  interpreted_string_literal: STRING,
  raw_string_literal: STRING,
  rune_literal: { k: 'lit', t: 'rune' },
  true: BOOL,
  false: BOOL,
  nil: { k: 'lit', t: 'nil' },
};

const TYPE_NODES = new Set([
  'slice_type', 'array_type', 'map_type', 'channel_type', 'pointer_type', 'function_type', 'interface_type',
  'struct_type', 'qualified_type', 'generic_type', 'type_identifier', 'implicit_length_array_type',
]);

/**
 * Converts an expression, recording calls, closures and channel receives found inside it.
 * `value` marks positions where a function or method value may flow (arguments, right-hand sides,
 * returns, composite literal elements): selectors and identifiers there become RefFacts.
 */
function expr(ctx: Ctx, node: SyntaxNode | null | undefined, value: boolean): Expr {
  if (!node) return { k: 'other' };
  const line = node.startPosition.row + 1;
  switch (node.type) {
    case 'identifier': {
      const e: Expr = { k: 'id', n: node.text, l: line };
      if (value) ctx.fn.refs.push({ x: e, l: line, pos: node.startIndex });
      return e;
    }
    case 'selector_expression': {
      const x = expr(ctx, node.childForFieldName('operand'), false);
      const e: Expr = { k: 'sel', x, n: node.childForFieldName('field')?.text ?? '', l: line };
      if (value) ctx.fn.refs.push({ x: e, l: line, pos: node.startIndex });
      return e;
    }
    case 'parenthesized_expression':
      return expr(ctx, node.namedChildren[0], value);
    case 'call_expression':
      return call(ctx, node);
    case 'func_literal':
      return closure(ctx, node);
    case 'unary_expression': {
      const op = node.childForFieldName('operator')?.text ?? '';
      const x = expr(ctx, node.childForFieldName('operand'), op === '&' ? false : value);
      if (op === '<-') ctx.fn.chans.push({ op: 'recv', ch: x, l: line, pos: node.startIndex, ...selectInfo(ctx) });
      return { k: 'un', op, x };
    }
    case 'binary_expression': {
      const x = expr(ctx, node.childForFieldName('left'), false);
      const y = expr(ctx, node.childForFieldName('right'), false);
      return { k: 'bin', op: node.childForFieldName('operator')?.text ?? '', x, y };
    }
    case 'composite_literal': {
      const t = typeOf(node.childForFieldName('type'));
      return { k: 'comp', t, elems: literalElems(ctx, node.childForFieldName('body')), l: line };
    }
    case 'type_assertion_expression': {
      const x = expr(ctx, node.childForFieldName('operand'), false);
      const tn = node.childForFieldName('type');
      return { k: 'assert', x, t: tn ? typeOf(tn) : undefined };
    }
    case 'type_conversion_expression':
      return { k: 'conv', t: typeOf(node.childForFieldName('type')), x: expr(ctx, node.childForFieldName('operand'), value) };
    case 'index_expression': {
      const x = expr(ctx, node.childForFieldName('operand'), false);
      const idx = node.childrenForFieldName('index').map((i) => expr(ctx, i, false));
      return { k: 'idx', x, i: idx };
    }
    case 'generic_type': {
      // `New[string]` in value position parses as a generic type.
      const t = typeOf(node);
      return { k: 'type', t };
    }
    case 'slice_expression':
      return { k: 'slice', x: expr(ctx, node.childForFieldName('operand'), false) };
    default: {
      const lit = LITERALS[node.type];
      // Numbers keep their text: periods and thresholds are read from them.
      if (lit && (node.type === 'int_literal' || node.type === 'float_literal')) return { k: 'lit', t: lit.k === 'lit' ? lit.t : 'int', v: node.text };
      if (lit) return lit;
      if (TYPE_NODES.has(node.type)) return { k: 'type', t: typeOf(node) };
      for (const c of node.namedChildren) expr(ctx, c, false);
      return { k: 'other' };
    }
  }
}

function literalElems(ctx: Ctx, body: SyntaxNode | null): { key?: string; v: Expr }[] {
  const out: { key?: string; v: Expr }[] = [];
  if (!body) return out;
  for (const el of body.namedChildren) {
    if (el.type === 'keyed_element') {
      const [k, v] = el.namedChildren;
      const keyNode = k?.namedChildren[0] ?? k;
      const key = keyNode && (keyNode.type === 'identifier' || keyNode.type === 'field_identifier') ? keyNode.text : undefined;
      if (key === undefined && keyNode) expr(ctx, keyNode, false);
      out.push({ key, v: elemValue(ctx, v) });
    } else if (el.type === 'literal_element') {
      out.push({ v: elemValue(ctx, el) });
    }
  }
  return out;
}

function elemValue(ctx: Ctx, el: SyntaxNode | undefined): Expr {
  const inner = el?.namedChildren[0];
  if (!inner) return { k: 'other' };
  if (inner.type === 'literal_value') return { k: 'comp', elems: literalElems(ctx, inner), l: inner.startPosition.row + 1 };
  return expr(ctx, inner, true);
}

function call(ctx: Ctx, node: SyntaxNode): Expr {
  const mode = ctx.mode ?? 'call';
  ctx.mode = undefined;
  const fnNode = node.childForFieldName('function');
  const f = expr(ctx, fnNode, false);
  const targsNode = node.childForFieldName('type_arguments');
  const targs = targsNode ? targsNode.namedChildren.map((t) => typeOf(t.type === 'type_elem' ? t.namedChildren[0] : t)) : undefined;
  const argList = node.childForFieldName('arguments');
  const args: Expr[] = [];
  let spread = false;
  for (const a of argList?.namedChildren ?? []) {
    if (a.type === 'variadic_argument') {
      spread = true;
      args.push(expr(ctx, a.namedChildren[0], true));
    } else if (a.type !== 'comment') {
      args.push(expr(ctx, a, true));
    }
  }
  const line = node.startPosition.row + 1;
  const e: Expr = { k: 'call', f, a: args, l: line, targs, spread: spread || undefined };
  ctx.fn.calls.push({ f, a: args, l: line, col: node.startPosition.column + 1, mode, targs, pos: node.startIndex });
  if (f.k === 'id' && f.n === 'close' && args.length === 1) {
    ctx.fn.chans.push({ op: 'close', ch: args[0], l: line, pos: node.startIndex });
  }
  return e;
}

function closure(ctx: Ctx, node: SyntaxNode): Expr {
  const n = ++ctx.closureCount;
  const parent = ctx.fn;
  const parentIndex = ctx.file.funcs.indexOf(parent);
  // The package initializer's closures are named like Go's: glob..func1.
  const owner = parent.local === 'init' && parent.kind === 'func' ? 'glob.' : parent.local;
  const local = parent.kind === 'closure' ? `${owner}.${n}` : `${owner}.func${n}`;
  const index = walkFunction(ctx.file, node, { local, kind: 'closure', name: local, parent: parentIndex });
  parent.closures.push(index);
  return { k: 'fn', i: index };
}

/** Converts one expression in the context of `fn` (used for package-level initializers). */
export function walkExpression(file: FileWalk, fn: FuncFacts, node: SyntaxNode): Expr {
  const ctx: Ctx = { file, fn, scopeEnds: [node.endIndex], closureCount: fn.closures.length, selectCount: 0 };
  return expr(ctx, node, true);
}
