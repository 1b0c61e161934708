/**
 * Which concrete types can flow into an interface-typed expression: what variable type analysis does,
 * done over our plain facts. Sources followed: composite literals and `&T{}`, constructor results
 * (the callee's return statements), locals and their assignments, struct fields (keyed literals and
 * assignments anywhere in scope), parameters (the arguments at every call site), package vars.
 * Exact when every source is found; the answer is `undefined` (unknown) as soon as one source cannot
 * be told, and the caller then keeps class-hierarchy dispatch. Field, parameter and result answers are
 * queries of their own (see Queries): cycles among them are answered as fixpoints, whatever asked
 * first. Approximate: a bounded depth of expressions within each query, no flows through channels,
 * maps of interfaces or reflection.
 */
import type { Expr } from '../parse/index.js';
import type { FuncInfo, TypeInfo } from './program.js';
import type { CallResolver } from './calls.js';
import type { Scope } from './types.js';

type Types = Set<TypeInfo> | undefined;

const MAX_DEPTH = 7;

export class FlowTypes {
  constructor(private r: CallResolver) {}

  /** Nesting across re-entrant calls (a flow query resolves calls, which may ask flow queries). */
  private nesting = 0;

  /** Runs `f` at nesting level 0, as at the top level (the call-site table is built so). */
  atTop<T>(f: () => T): T {
    const nesting = this.nesting;
    this.nesting = 0;
    try {
      return f();
    } finally {
      this.nesting = nesting;
    }
  }

  of(e: Expr, scope: Scope, depth = 0): Types {
    if (depth > MAX_DEPTH || this.nesting > 12) return undefined;
    this.r.noteQuery();
    this.r.noteBody(scope.fn);
    this.nesting++;
    try {
      return this.ofInner(e, scope, depth);
    } finally {
      this.nesting--;
    }
  }

  private ofInner(e: Expr, scope: Scope, depth: number): Types {
    const T = this.r.types;
    const t = T.unalias(T.typeOf(e, scope));
    const base = t.k === 'ptr' ? T.unalias(t.e) : t;
    // A value whose static type is already concrete is its own answer.
    if (base.k === 'named' && !T.isInterface(base)) return new Set([base.t]);
    switch (e.k) {
      case 'comp':
      case 'un':
      case 'conv':
        return e.k === 'comp' ? undefined : this.of(e.x, scope, depth + 1);
      case 'assert':
        return this.of(e.x, scope, depth + 1);
      case 'lit':
        return e.t === 'nil' ? new Set() : undefined;
      case 'id':
        return this.ident(e.n, scope, depth);
      case 'sel':
        return this.selector(e, scope, depth);
      case 'call':
        return this.callResult(e, scope, 0);
      default:
        return undefined;
    }
  }

  private ident(name: string, scope: Scope, depth: number): Types {
    const T = this.r.types;
    const local = T.findBind(name, scope);
    if (!local) {
      const v = scope.file.pkg.values.get(name);
      if (v?.facts.v && v.facts.vi === undefined) return this.of(v.facts.v, { file: v.file, fn: v.pkg.funcs.get('init'), pos: 0 }, depth + 1);
      return undefined;
    }
    const b = local.bind;
    const fn = local.fn;
    if (b.from === 'param') return this.param(fn, name);
    if (b.from === 'recv' || b.from === 'range' || b.from === 'typeswitch' || b.from === 'select' || b.from === 'result') return undefined;
    const parts: Types[] = [];
    if (b.v) parts.push(b.vi === undefined ? this.of(b.v, { ...scope, fn, pos: b.pos }, depth + 1) : b.v.k === 'call' ? this.callResult(b.v, { ...scope, fn, pos: b.pos }, b.vi) : undefined);
    else parts.push(new Set());
    for (const a of fn.facts.assigns) {
      if (a.lhs.k === 'id' && a.lhs.n === name && a.pos >= b.pos && a.pos <= b.end) {
        parts.push(a.vi === undefined ? this.of(a.rhs, { ...scope, fn, pos: a.pos }, depth + 1) : undefined);
      }
    }
    return union(parts);
  }

  private selector(e: Extract<Expr, { k: 'sel' }>, scope: Scope, depth: number): Types {
    const T = this.r.types;
    const x = T.typeOf(e.x, scope);
    if (x.k === 'pkg') {
      const v = this.r.program.packages.get(x.path)?.values.get(e.n);
      if (v?.facts.v && v.facts.vi === undefined) return this.of(v.facts.v, { file: v.file, fn: v.pkg.funcs.get('init'), pos: 0 }, depth + 1);
      return undefined;
    }
    const m = T.member(x, e.n);
    if (m?.kind !== 'field') return undefined;
    let owner = T.unalias(m.owner);
    if (owner.k === 'ptr') owner = T.unalias(owner.e);
    if (owner.k !== 'named') return undefined;
    const key = `${owner.t.id}#${e.n}`;
    return this.memo(`flow-field:${key}`, () => {
      const flows = this.r.flowsOf(key);
      return flows.length === 0 ? undefined : union(flows.map((f) => this.of(f.e, f.scope, 0)));
    });
  }

  private param(fn: FuncInfo, name: string): Types {
    const index = fn.facts.params.findIndex((p) => p.name === name);
    if (index < 0 || fn.facts.params[index].variadic) return undefined;
    const key = `${fn.id}#${index}`;
    return this.memo(`flow-param:${key}`, () => {
      const sites = this.r.callSitesOf(fn.id);
      // Exported functions can be called from code we do not see; closures and methods may be called through values.
      if (sites.length === 0 || fn.facts.kind === 'closure') return undefined;
      return union(sites.map(({ fn: caller, call }) => {
        const arg = call.a[index];
        return arg ? this.of(arg, this.r.scopeOf(caller, call.pos), 0) : undefined;
      }));
    });
  }

  private callResult(e: Extract<Expr, { k: 'call' }>, scope: Scope, vi: number): Types {
    if (!scope.fn) return undefined;
    const out = this.r.resolveCall(scope.fn, { f: e.f, a: e.a, l: e.l, col: 0, mode: 'call', pos: scope.pos });
    if (!('targets' in out)) {
      // errors.New, fmt.Errorf and other calls into packages outside the scope cannot produce our types.
      // Methods of outside types (a gRPC client, an HTTP response) may hand back values that came from
      // our code through interfaces: unknown, not empty.
      return undefined;
    }
    const callees = out.targets.map((t) => this.r.program.funcs.get(t.callee)).filter((f): f is FuncInfo => !!f);
    if (callees.length === 0) return out.targets.every((t) => t.how.startsWith('external')) ? new Set() : undefined;
    return union(callees.map((callee) => this.result(callee, vi)));
  }

  /** What a function returns in result position `vi`: a per-function summary, computed once. */
  private result(callee: FuncInfo, vi: number): Types {
    const key = `${callee.id}#r${vi}`;
    this.r.noteBody(callee);
    if (callee.facts.returns.length === 0) return undefined;
    return this.memo(`flow-result:${key}`, () => this.resultOf(callee, vi));
  }

  private resultOf(callee: FuncInfo, vi: number): Types {
    const parts: Types[] = [];
    for (const ret of callee.facts.returns) {
      if (ret.vals.length === 0) {
        parts.push(undefined); // naked return of named results
        break;
      }
      const v = ret.vals.length === 1 && vi > 0 ? undefined : ret.vals[vi];
      // A single call returning several values (return f()) passes f's results through.
      if (ret.vals.length === 1 && vi > 0 && ret.vals[0].k === 'call') {
        parts.push(this.callResult(ret.vals[0], { fn: callee, file: callee.file, pos: ret.pos }, vi));
        continue;
      }
      parts.push(v ? this.of(v, { fn: callee, file: callee.file, pos: ret.pos }, 0) : undefined);
      if (parts[parts.length - 1] === undefined) break;
    }
    return union(parts);
  }

  /**
   * The answer to the field, parameter or result query `key` (see Queries), computed with a budget of
   * its own (depth and nesting start again from 0), so that it does not depend on where it was asked.
   * Answers given while the call-site table is being built lack parameter flows: that build asks an
   * engine of its own, which only a session keeps once the table exists (see CallResolver.patchSites).
   */
  private memo(key: string, compute: () => Types): Types {
    return this.r.queries.ask(key, EMPTY, () => this.atTop(compute), sameTypes);
  }
}

const EMPTY: Types = new Set();

function sameTypes(a: Types, b: Types): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const t of a) if (!b.has(t)) return false;
  return true;
}

function union(parts: Types[]): Types {
  const out = new Set<TypeInfo>();
  for (const p of parts) {
    if (!p) return undefined;
    for (const t of p) out.add(t);
  }
  return out;
}
