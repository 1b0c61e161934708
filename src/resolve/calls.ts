/**
 * Pass 2: call sites → edges. Exact: package-qualified functions (per-file aliases), methods on typed
 * receivers, parameters, locals and field chains, promoted methods, immediately invoked closures.
 * Approximate: interface calls go to every implementation in scope (CHA), ranked by confidence;
 * function values are traced through locals, fields (composite literals and assignments), package
 * vars and returned closures, and otherwise kept as unresolved sites with a reason.
 */
import type { CallFact, Expr } from '../parse/index.js';
import type { Edge, EdgeKind, UnresolvedSite } from '../model/index.js';
import { funcsInOrder, type FileInfo, type FuncInfo, type Program, type TypeInfo } from './program.js';
import { BUILTIN_FUNCS, Types, type RType, type Scope, type Member } from './types.js';
import { Implementations } from './impls.js';
import { FlowTypes } from './flow-types.js';
import { createdIn, withFieldTypes } from './instantiated.js';
import { Queries } from './queries.js';
import { PartsTable, type Part, type Rank } from './parts.js';
import type { Deps } from './deps.js';

/** Interface candidates that flow analysis or rapid type analysis rules out: stored, not shown by default. */
export const RULED_OUT_BY_FLOW = 'iface-ruled-out-by-flow';
export const RULED_OUT_BY_RTA = 'iface-never-created';
export const RULED_OUT = new Set([RULED_OUT_BY_FLOW, RULED_OUT_BY_RTA]);

export interface Target {
  callee: string;
  kind: EdgeKind;
  how: string;
  confidence: number;
}

type Outcome = { targets: Target[] } | { unresolved: string; callee: string };

export class CallResolver {
  readonly types: Types;
  readonly impls: Implementations;
  /** The field-flow table, by field (see flows). */
  private fieldFlows?: PartsTable<Flow, Flow>;

  readonly flowTypes: FlowTypes;
  /**
   * The recursive queries (field and flow queries), shared with the flow analysis. The call-site table
   * is built with an engine of its own (see callSitesOf), whose answers lack parameter flows.
   */
  queries: Queries;
  /** The call-site table's engine (see callSitesOf): kept, as a session re-resolves sites with it. */
  private siteQueries: Queries;

  /** `deps`, when given, is told what each function's resolution and each query read (see Deps). */
  constructor(readonly program: Program, readonly deps?: Deps) {
    this.queries = new Queries('q0', deps);
    this.siteQueries = new Queries('q1', deps);
    this.types = new Types(program);
    if (deps) this.types.onMember = (name) => deps.note(`m:${name}`);
    this.impls = new Implementations(program, this.types);
    this.flowTypes = new FlowTypes(this);
  }

  private units = new WeakMap<FuncInfo, number>();
  private nextUnit = 0;

  /** The number of `fn`'s unit: its top-level function, which it shares with the closures in it (see Deps). */
  unitOf(fn: FuncInfo): number {
    let top = fn;
    while (top.parent) top = top.parent;
    let n = this.units.get(top);
    if (n === undefined) {
      this.units.set(top, (n = this.nextUnit++));
      this.tops.set(n, top);
    }
    return n;
  }

  private tops = new Map<number, FuncInfo>();

  /** The top-level function of unit `n` (see unitOf). */
  unitTop(n: number): FuncInfo | undefined {
    return this.tops.get(n);
  }

  /** Forgets a unit whose function went (see unitOf). */
  forgetUnit(top: FuncInfo): void {
    const n = this.units.get(top);
    if (n !== undefined) this.tops.delete(n);
    this.units.delete(top);
  }

  /** Notes that the current reader read `fn`'s body (see Deps). */
  noteBody(fn: FuncInfo | undefined): void {
    if (this.deps && fn) this.deps.note(`b:${this.unitOf(fn)}`);
  }

  scopeOf(fn: FuncInfo, pos: number): Scope {
    return { fn, file: fn.file, pos };
  }

  /** Edges and unresolved sites of one function. */
  resolveFunction(fn: FuncInfo, edges: Edge[], unresolved: UnresolvedSite[]): void {
    const file = fn.file.facts.path;
    for (let i = 0; i < fn.facts.calls.length; i++) {
      const call = fn.facts.calls[i];
      const out = this.resolveSite(fn, i);
      if ('targets' in out) {
        for (const t of out.targets) {
          edges.push({ caller: fn.id, callee: t.callee, kind: t.kind, mode: call.mode, file, line: call.l, how: t.how, confidence: t.confidence });
        }
      } else if (out.unresolved !== 'builtin' && out.unresolved !== 'conversion') {
        unresolved.push({ caller: fn.id, file, line: call.l, callee: out.callee, reason: out.unresolved });
      }
    }
    for (const c of fn.facts.closures) {
      const facts = fn.file.facts.funcs[c];
      edges.push({ caller: fn.id, callee: `${fn.pkg.path}.${facts.local}`, kind: 'closure', mode: 'ref', file, line: facts.line, how: 'closure-defined', confidence: 1 });
    }
    for (const ref of fn.facts.refs) {
      for (const t of this.funcValueTargets(ref.x, this.scopeOf(fn, ref.pos), 0, true)) {
        // Only method values are recorded where they are taken; plain functions and closures where called.
        if (t.kind !== 'method-value') continue;
        edges.push({ caller: fn.id, callee: t.callee, kind: t.kind, mode: 'ref', file, line: ref.l, how: t.how, confidence: t.confidence });
      }
    }
  }

  /**
   * Outcomes of call sites as written, for the passes over every call (the call-site table, the edges,
   * the channel holders), which used to resolve each site again. An outcome is kept when it cannot
   * differ in another pass: it asked no flow, field or parameter question (so the table's state could
   * not matter), or it was computed outside the table's build, when every answer it used is final
   * (see Queries).
   */
  private settled = new Map<FuncInfo, (Outcome | undefined)[]>();
  /** The passes go function by function: the last function's outcomes, without a map lookup per site. */
  private lastSettled?: { fn: FuncInfo; list: (Outcome | undefined)[] };
  /** Counts the questions whose answers depend on the table's state: a site that asked none is pure. */
  private asked = 0;

  /** Notes a question that depends on the table's state (flow, field and parameter queries). */
  noteQuery(): void {
    this.asked++;
  }

  /** The outcome of `fn`'s i-th call site. */
  resolveSite(fn: FuncInfo, i: number): Outcome {
    let last = this.lastSettled;
    if (last?.fn !== fn) {
      let list = this.settled.get(fn);
      if (!list) this.settled.set(fn, (list = new Array(fn.facts.calls.length)));
      last = this.lastSettled = { fn, list };
    }
    const known = last.list[i];
    if (known) return known;
    const before = this.asked;
    const out = this.resolveCall(fn, fn.facts.calls[i]);
    if (this.asked === before || !this.buildingCallSites) last.list[i] = out;
    return out;
  }

  resolveCall(fn: FuncInfo, call: CallFact): Outcome {
    this.noteBody(fn);
    const scope = this.scopeOf(fn, call.pos);
    const f = call.f;
    const text = exprText(f);
    switch (f.k) {
      case 'fn': {
        const closure = this.types.closureAt(scope, f.i);
        return closure ? { targets: [{ callee: closure.id, kind: 'static', how: 'closure-call', confidence: 1 }] } : { unresolved: 'closure-missing', callee: text };
      }
      case 'id':
        return this.resolveIdent(f.n, scope, text);
      case 'sel':
        return this.resolveSelector(f, scope, text);
      case 'idx':
      case 'type': {
        // Generic instantiation: f[T](...) or pkg.F[T](...).
        const base = f.k === 'idx' ? f.x : undefined;
        if (base && (base.k === 'id' || base.k === 'sel')) {
          const out = base.k === 'id' ? this.resolveIdent(base.n, scope, text) : this.resolveSelector(base, scope, text);
          if ('targets' in out) return { targets: out.targets.map((t) => ({ ...t, how: `${t.how}+generic` })) };
          return out;
        }
        if (f.k === 'type' && f.t.k === 'named') {
          const target = f.t.pkg ? this.types.pkgMember(fn.file.imports.get(f.t.pkg) ?? '', f.t.n) : this.types.pkgLevelIdent(f.t.n, fn.file);
          if (target.k === 'func' && target.fn) return { targets: [{ callee: target.fn.id, kind: 'static', how: 'generic-func', confidence: 1 }] };
          if (target.k === 'typename') return { unresolved: 'conversion', callee: text };
        }
        return { unresolved: 'conversion', callee: text };
      }
      case 'call': {
        const targets = this.funcValueTargets(f, scope, 0, false);
        return targets.length ? { targets: targets.map((t) => ({ ...t, kind: 'func-value', how: `returned-${t.how}` })) } : { unresolved: 'func-value-untraced', callee: text };
      }
      case 'un':
      case 'conv':
      case 'assert': {
        const targets = this.funcValueTargets(f, scope, 0, false);
        return targets.length ? { targets } : { unresolved: 'func-value-untraced', callee: text };
      }
      default:
        return { unresolved: 'unsupported-callee-form', callee: text };
    }
  }

  private resolveIdent(name: string, scope: Scope, text: string): Outcome {
    const local = this.types.findBind(name, scope);
    if (local) {
      const targets = this.funcValueTargets({ k: 'id', n: name, l: 0 }, scope, 0, false);
      if (targets.length) return { targets: targets.map((t) => ({ ...t, kind: 'func-value', how: `local-${t.how}` })) };
      const t = this.types.bindType(local.bind, { ...scope, fn: local.fn, pos: local.bind.pos });
      if (t.k === 'typename') return { unresolved: 'conversion', callee: text };
      return { unresolved: 'func-value-untraced', callee: text };
    }
    const pkg = scope.file.pkg;
    const fn = pkg.funcs.get(name);
    if (fn && fn.facts.kind === 'func') return { targets: [{ callee: fn.id, kind: 'static', how: 'same-package-func', confidence: 1 }] };
    if (pkg.types.has(name)) return { unresolved: 'conversion', callee: text };
    const v = pkg.values.get(name);
    if (v) {
      const targets = this.funcValueTargets({ k: 'id', n: name, l: 0 }, scope, 0, false);
      return targets.length ? { targets: targets.map((t) => ({ ...t, kind: 'func-value', how: `pkg-var-${t.how}` })) } : { unresolved: 'func-value-untraced', callee: text };
    }
    for (const d of scope.file.dot) {
      const dfn = this.program.packages.get(d)?.funcs.get(name);
      if (dfn) return { targets: [{ callee: dfn.id, kind: 'static', how: 'dot-import-func', confidence: 1 }] };
    }
    if (BUILTIN_FUNCS.has(name)) return { unresolved: 'builtin', callee: text };
    if (/^(bool|string|int\d*|uint\d*|uintptr|float\d+|complex\d+|byte|rune|error|any)$/.test(name)) return { unresolved: 'conversion', callee: text };
    if (scope.fn && this.typeParam(scope.fn, name)) return { unresolved: 'conversion', callee: text };
    return { unresolved: 'unknown-identifier', callee: text };
  }

  private typeParam(fn: FuncInfo, name: string): boolean {
    for (let f: FuncInfo | undefined = fn; f; f = f.parent) {
      if (f.facts.tparams?.includes(name) || f.facts.recv?.tparams?.includes(name)) return true;
    }
    return false;
  }

  private resolveSelector(f: Extract<Expr, { k: 'sel' }>, scope: Scope, text: string): Outcome {
    const x = this.types.typeOf(f.x, scope);
    if (x.k === 'pkg') {
      const pkg = this.program.packages.get(x.path);
      if (!pkg) return { targets: [{ callee: `${x.path}.${f.n}`, kind: 'static', how: 'external-pkg-func', confidence: 1 }] };
      const fn = pkg.funcs.get(f.n);
      if (fn && fn.facts.kind === 'func') return { targets: [{ callee: fn.id, kind: 'static', how: 'pkg-func', confidence: 1 }] };
      if (pkg.types.has(f.n)) return { unresolved: 'conversion', callee: text };
      if (pkg.values.has(f.n)) {
        const targets = this.funcValueTargets(f, scope, 0, false);
        return targets.length ? { targets: targets.map((t) => ({ ...t, kind: 'func-value', how: `pkg-var-${t.how}` })) } : { unresolved: 'func-value-untraced', callee: text };
      }
      return { unresolved: 'no-such-member', callee: text };
    }
    if (x.k === 'typename') {
      const m = this.types.member(x.t, f.n);
      if (m?.kind === 'method') return { targets: [{ callee: m.fn.id, kind: 'static', how: 'method-expression', confidence: 1 }] };
      return { unresolved: 'unknown-receiver-type', callee: text };
    }
    if (x.k === 'unknown') return { unresolved: 'unknown-receiver-type', callee: text };
    if (x.k === 'ext' || (x.k === 'ptr' && x.e.k === 'ext')) return { unresolved: 'external-type', callee: text };
    const m = this.types.member(x, f.n);
    if (!m) return { unresolved: 'no-such-member', callee: text };
    return this.memberCall(m, f, scope, text);
  }

  private memberCall(m: Member, f: Extract<Expr, { k: 'sel' }>, scope: Scope, text: string): Outcome {
    const how = f.x.k === 'sel' ? 'field-chain' : 'receiver-method';
    if (m.kind === 'method') return { targets: [{ callee: m.fn.id, kind: 'static', how: m.depth > 0 ? 'promoted-method' : how, confidence: 1 }] };
    if (m.kind === 'imethod') {
      this.asked++;
      const all = this.dispatch(m.iface, f.n);
      if (all.length === 0) return { unresolved: 'interface-without-implementation', callee: text };
      // The call-site table keeps only callees, and narrowing drops a callee only when it is both
      // flowing and never created: without such a candidate, the flow query cannot change the answer.
      if (this.buildingCallSites && !all.some((t) => t.how === RULED_OUT_BY_RTA)) return { targets: all };
      // Narrow to the concrete types that can flow into the receiver, when every source is known.
      const flowing = this.flowTypes.of(f.x, scope);
      if (flowing) {
        const impls = this.impls.of(m.iface);
        const keep = new Set<string>();
        for (const impl of impls) if (flowing.has(impl.type)) { const fn = impl.methods.get(f.n); if (fn) keep.add(fn.id); }
        const narrowed = all.filter((t) => keep.has(t.callee) && !RULED_OUT.has(t.how));
        if (narrowed.length === 0 && flowing.size === 0) {
          // Only values of types outside the scope (or nil) reach here: no candidate in scope runs.
          return { targets: all.map((t) => ({ ...t, how: RULED_OUT_BY_FLOW, confidence: 0.02 })) };
        }
        if (narrowed.length > 0) {
          const conf = narrowed.length === 1 ? 1 : Math.round((0.95 / narrowed.length) * 100) / 100;
          // The other candidates are kept, marked ruled out, so views can still show them on demand.
          const rest = all.filter((t) => !keep.has(t.callee)).map((t) => ({ ...t, how: RULED_OUT_BY_FLOW, confidence: 0.02 }));
          return { targets: [...narrowed.map((t) => ({ ...t, how: 'iface-flow', confidence: conf })), ...rest] };
        }
      }
      // `err.Error()` on an error of unknown origin would list every error type in scope: most errors
      // come from the standard library or third parties, so such a list is noise, not a call graph.
      return { targets: all };
    }
    const targets = this.funcValueTargets(f, scope, 0, false);
    return targets.length ? { targets: targets.map((t) => ({ ...t, kind: 'func-value', how: `field-${t.how}` })) } : { unresolved: 'func-field-untraced', callee: text };
  }

  /** Interface dispatch: every implementation's method, real ones before fakes. */
  private created?: Set<TypeInfo>;

  /** Dispatch answers by interface (as `impls` keys it) and method: they depend on nothing else. */
  private dispatched = new Map<string, Target[]>();
  private dispatchedIfaces = new Map<string, RType>();

  dispatch(iface: RType, method: string): Target[] {
    const ikey = this.impls.keyOf(iface);
    const key = ikey ? `${ikey}#${method}` : '';
    if (key && this.deps) this.deps.note(`d:${key}`);
    const known = key ? this.dispatched.get(key) : undefined;
    if (known) return known;
    const out = this.dispatchOf(iface, method);
    if (key) {
      this.dispatched.set(key, out);
      this.dispatchedIfaces.set(key, iface);
    }
    return out;
  }

  private dispatchOf(iface: RType, method: string): Target[] {
    this.created ??= this.createdTypes();
    const created = this.created;
    const cha = this.impls.of(iface);
    // Candidates that the code never creates cannot be behind the interface (rapid type analysis).
    const live = cha.filter((i) => created.has(i.type));
    const impls = live.length > 0 ? live : cha;
    const dead = live.length > 0 ? cha.filter((i) => !created.has(i.type)) : [];
    const real = impls.filter((i) => !i.fake).length;
    const out: Target[] = [];
    for (const impl of impls) {
      const fn = impl.methods.get(method);
      if (!fn) continue;
      const share = impl.fake ? 0.1 : real === 1 ? 0.9 : Math.max(0.2, 0.8 / Math.max(real, 1));
      out.push({ callee: fn.id, kind: 'interface', how: live.length > 0 ? 'iface-rta' : 'iface-cha', confidence: Math.round(share * 100) / 100 });
    }
    for (const impl of dead) {
      const fn = impl.methods.get(method);
      if (fn) out.push({ callee: fn.id, kind: 'interface', how: RULED_OUT_BY_RTA, confidence: 0.01 });
    }
    const seen = new Set<string>();
    return out.filter((t) => !seen.has(t.callee) && seen.add(t.callee));
  }

  /**
   * The functions a function-typed expression can hold. `asRef` is set for value positions
   * (method values passed as arguments), where only concrete functions and methods count.
   */
  funcValueTargets(e: Expr, scope: Scope, depth: number, asRef: boolean, elements = false): Target[] {
    if (depth > 10) return [];
    if (this.deps) this.noteBody(scope.fn);
    switch (e.k) {
      case 'comp':
        // A slice or map literal of functions: its elements are the values (rank funcs in a map).
        if (!elements || asRef) return [];
        return dedupe(e.elems.flatMap((el) => this.funcValueTargets(el.v, scope, depth + 1, false)));
      case 'idx':
        return asRef ? [] : this.funcValueTargets(e.x, scope, depth + 1, false, true);
      case 'fn': {
        const c = this.types.closureAt(scope, e.i);
        return c ? [{ callee: c.id, kind: 'closure', how: 'closure', confidence: 1 }] : [];
      }
      case 'id': {
        const local = this.types.findBind(e.n, scope);
        if (local) {
          if (asRef) return [];
          const b = local.bind;
          const lscope = { ...scope, fn: local.fn, pos: b.pos };
          const out: Target[] = [];
          if (b.from === 'param') out.push(...this.paramTargets(local.fn, e.n, depth, elements));
          if (b.v && b.vi === undefined && b.from !== 'range') out.push(...this.funcValueTargets(b.v, lscope, depth + 1, false, elements));
          if (b.v && b.from === 'range' && b.vi === 1) out.push(...this.funcValueTargets(b.v, lscope, depth + 1, false, true));
          if (b.v && b.vi === 0 && b.from === 'define' && b.v.k === 'idx') out.push(...this.funcValueTargets(b.v, lscope, depth + 1, false));
          // Later assignments to the same local name in that function.
          for (const a of local.fn.facts.assigns) {
            if (a.lhs.k === 'id' && a.lhs.n === e.n && a.vi === undefined && a.pos >= b.pos && a.pos <= b.end) {
              out.push(...this.funcValueTargets(a.rhs, { ...scope, fn: local.fn, pos: a.pos }, depth + 1, false, elements));
            }
            // m[k] = f: an element stored into a local map or slice.
            if (elements && a.lhs.k === 'idx' && a.lhs.x.k === 'id' && a.lhs.x.n === e.n && a.pos >= b.pos && a.pos <= b.end) {
              out.push(...this.funcValueTargets(a.rhs, { ...scope, fn: local.fn, pos: a.pos }, depth + 1, false));
            }
          }
          return dedupe(out);
        }
        const pkg = scope.file.pkg;
        const fn = pkg.funcs.get(e.n);
        if (fn && fn.facts.kind === 'func') return [{ callee: fn.id, kind: 'static', how: 'func', confidence: 1 }];
        const v = pkg.values.get(e.n);
        if (v && !asRef) return this.valueTargets(v.id, v.facts.v, { file: v.file, fn: v.pkg.funcs.get('init'), pos: 0 }, depth, elements);
        return [];
      }
      case 'sel': {
        const x = this.types.typeOf(e.x, scope);
        if (x.k === 'pkg') {
          const pkg = this.program.packages.get(x.path);
          const fn = pkg?.funcs.get(e.n);
          if (fn && fn.facts.kind === 'func') return [{ callee: fn.id, kind: 'static', how: 'pkg-func', confidence: 1 }];
          const v = pkg?.values.get(e.n);
          if (v && !asRef) return this.valueTargets(v.id, v.facts.v, { file: v.file, fn: v.pkg.funcs.get('init'), pos: 0 }, depth, elements);
          return [];
        }
        if (x.k === 'unknown' || x.k === 'ext') return [];
        const m = x.k === 'typename' ? this.types.member(x.t, e.n) : this.types.member(x, e.n);
        if (!m) return [];
        if (m.kind === 'method') return [{ callee: m.fn.id, kind: 'method-value', how: 'method-value', confidence: 1 }];
        if (m.kind === 'imethod') return this.dispatch(m.iface, e.n).map((t) => ({ ...t, kind: 'method-value', how: 'iface-method-value' }));
        if (asRef) return [];
        return this.fieldTargets(m.owner, m.field, elements);
      }
      case 'call': {
        if (asRef) return [];
        // append(xs, f, g): the elements of xs and the appended values.
        if (elements && e.f.k === 'id' && e.f.n === 'append' && !this.types.findBind('append', scope)) {
          const [first, ...rest] = e.a;
          // A copy: the answer for `xs` may be a cached field answer, which appending would change for everyone.
          const out = first ? [...this.funcValueTargets(first, scope, depth + 1, false, true)] : [];
          for (const r of rest) out.push(...this.funcValueTargets(r, scope, depth + 1, false, Boolean(e.spread)));
          return dedupe(out);
        }
        // A call whose result is a function: the closures and functions its callees return.
        const scope2 = scope;
        const callees = this.calleesOf(e, scope2);
        const out: Target[] = [];
        for (const callee of callees) {
          this.noteBody(callee);
          for (const r of callee.facts.returns) {
            if (r.vals.length === 0) continue;
            out.push(...this.funcValueTargets(r.vals[0], { fn: callee, file: callee.file, pos: r.pos }, depth + 1, false, elements));
          }
        }
        return dedupe(out);
      }
      case 'un':
        return e.op === '&' || e.op === '*' ? this.funcValueTargets(e.x, scope, depth + 1, asRef) : [];
      case 'conv':
        return this.funcValueTargets(e.x, scope, depth + 1, asRef);
      default:
        return [];
    }
  }

  calleesOf(e: Extract<Expr, { k: 'call' }>, scope: Scope): FuncInfo[] {
    const fake: CallFact = { f: e.f, a: e.a, l: e.l, col: 0, mode: 'call', pos: scope.pos };
    const out = scope.fn ? this.resolveCall(scope.fn, fake) : { unresolved: 'x', callee: '' };
    if (!('targets' in out)) return [];
    return out.targets.map((t) => this.program.funcs.get(t.callee)).filter((f): f is FuncInfo => !!f);
  }

  private valueTargets(_id: string, v: Expr | undefined, scope: Scope, depth: number, elements = false): Target[] {
    return v ? this.funcValueTargets(v, scope, depth + 1, false, elements) : [];
  }

  /** The call-site table, by callee, from each function's part (kept so that a session can make a few again: see patchSites). */
  private callSites?: PartsTable<number, Site>;
  private buildingCallSites = false;

  /**
   * Call sites of each function, found with exact (non-flow) resolution; built once on first need, as
   * at the top level (nothing in progress, nesting 0) wherever that need arises, so that it is the
   * same table whichever question asked for it first.
   */
  callSitesOf(id: string): Site[] {
    if (!this.callSites) {
      if (this.buildingCallSites) return [];
      this.callSites = new PartsTable<number, Site>(siteOf, (l) => l.fn, undefined, this.deps !== undefined, refreshSite).build(this.siteFunctions(), (fn) => this.sitePartOf(fn));
      this.queries.absorb(this.siteQueries);
      // Only a session asks the table's engine again (see patchSites): otherwise its answers go.
      if (!this.deps) this.siteQueries = new Queries('q1');
    }
    if (this.deps) this.deps.note(`s:${id}`);
    return this.callSites.lists.get(id) ?? [];
  }

  /** The functions whose call sites the table holds, in its order. */
  private siteFunctions(): FuncInfo[] {
    return [...funcsInOrder(this.program), ...this.program.inits].filter((fn) => fn.file.active);
  }

  /** The callees of `fn`'s call sites as the table sees them (its own engine, no parameter flows), with each site's index. */
  private sitePartOf(fn: FuncInfo): Part<number> {
    const outer = this.queries;
    this.queries = this.siteQueries;
    this.buildingCallSites = true;
    try {
      return this.flowTypes.atTop(() => this.asUnit(fn, () => this.calleesPart(fn)));
    } finally {
      this.buildingCallSites = false;
      this.queries = outer;
    }
  }

  /** Runs `f` as the reader of `fn`'s unit (see Deps), when reads are kept. */
  asUnit<T>(fn: FuncInfo, f: () => T): T {
    return this.deps ? this.deps.as(`u:${this.unitOf(fn)}`, f) : f();
  }

  /**
   * A function-typed parameter holds whatever the function's callers pass in that position: a query by
   * function, position and element mode (see Queries), computed with a depth of its own, so that it
   * does not depend on the path that reached it.
   */
  private paramTargets(fn: FuncInfo, name: string, depth: number, elements: boolean): Target[] {
    this.asked++;
    const index = fn.facts.params.findIndex((p) => p.name === name);
    if (index < 0 || depth > 8) return [];
    // While the table is being built there are no call sites to read.
    if (this.buildingCallSites) return [];
    const sites = this.callSitesOf(fn.id);
    const key = `param:${fn.id}#${index}#${elements}`;
    return this.queries.ask(key, NO_TARGETS, () => this.flowTypes.atTop(() => {
      const variadic = fn.facts.params[index].variadic;
      const out: Target[] = [];
      for (const { fn: caller, call } of sites) {
        // Method calls through a method expression pass the receiver first; plain calls do not.
        const args = variadic ? call.a.slice(index) : [call.a[index]];
        for (const arg of args) if (arg) out.push(...this.funcValueTargets(arg, this.scopeOf(caller, call.pos), 0, false, elements && !variadic));
      }
      return dedupe(out);
    }), sameTargets).slice();
  }

  /**
   * Values stored in a func-typed struct field (keyed composite literals and assignments anywhere in
   * scope): a query by field and element mode (see Queries).
   */
  private fieldTargets(owner: RType, field: string, elements = false): Target[] {
    let base = this.types.unalias(owner);
    if (base.k === 'ptr') base = base.e;
    if (base.k !== 'named') return [];
    this.asked++;
    const key = `${base.t.id}#${field}#${elements}`;
    const t = base.t;
    // A field's flows do not depend on where it is read: the depth restarts here, and a cycle through
    // this field is answered as the fixpoint of its queries.
    return this.queries.ask(`field:${key}`, NO_TARGETS, () => this.flowTypes.atTop(() => {
      const out: Target[] = [];
      for (const { e, scope } of this.flowsOf(`${t.id}#${field}`)) out.push(...this.funcValueTargets(e, scope, 0, false, elements));
      return dedupe(out);
    }), sameTargets).slice();
  }

  /** The values stored into each struct field (`type ID#field`), in the order of the functions that store them, then package vars. */
  flows(): Map<string, Flow[]> {
    if (this.fieldFlows) return this.fieldFlows.lists;
    const values = new Map<string, Flow[]>();
    for (const pkg of this.program.packages.values()) {
      for (const v of pkg.values.values()) {
        if (!v.facts.v) continue;
        const scope = { file: v.file, fn: pkg.funcs.get('init'), pos: 0 };
        walkComps(v.facts.v, (c) => this.compFlows(c, scope, (key, flow) => {
          let list = values.get(key);
          if (!list) values.set(key, (list = []));
          list.push(flow);
        }));
      }
    }
    const fns = this.listedFunctions();
    // A package var's values end its fields' lists (their scope is the package's init, whose own flows come earlier).
    const tail = new Set([...values.values()].flat());
    this.fieldFlows = new PartsTable<Flow, Flow>((_fn, flow) => flow, (l) => (tail.has(l) ? undefined : l.scope.fn), values, this.deps !== undefined).build(fns, (fn) => this.flowPart(fn));
    return this.fieldFlows.lists;
  }

  /** The values stored into field `key`, noted as read (see Deps). */
  flowsOf(key: string): Flow[] {
    if (this.deps) this.deps.note(`f:${key}`);
    return this.flows().get(key) ?? [];
  }

  /**
   * `fn`'s part of the field-flow table, made as a reader of its own when reads are kept (`p:` and a
   * number of the function's): a field assignment is keyed by the type of what it assigns into, which
   * a lookup of a field's name can decide (see flowReaders, and ResolveSession.typesTaken).
   */
  private flowPart(fn: FuncInfo): Part<Flow> {
    const deps = this.deps;
    if (!deps) return this.flowPartOf(fn);
    let key = this.partKeys.get(fn);
    if (!key) {
      this.partKeys.set(fn, (key = `p:${this.nextPart++}`));
      this.partReaders.set(key, fn);
    }
    deps.forget(key);
    return deps.as(key, () => this.flowPartOf(fn));
  }

  private partKeys = new WeakMap<FuncInfo, string>();
  private partReaders = new Map<string, FuncInfo>();
  private nextPart = 0;

  /** The functions whose parts of the field-flow table read one of `keys` (see flowPart), of those the table lists. */
  flowReaders(keys: Iterable<string>): Set<FuncInfo> {
    const out = new Set<FuncInfo>();
    for (const r of this.deps?.readersDirect(keys) ?? []) {
      const fn = this.partReaders.get(r);
      if (fn && this.listed(fn)) out.add(fn);
    }
    return out;
  }

  /** The keyed literals and field assignments in `fn`, by field. */
  private flowPartOf(fn: FuncInfo): Part<Flow> {
    const part: Part<Flow> = { facts: fn.facts, keys: [], values: [] };
    const add = (key: string, flow: Flow) => {
      part.keys.push(key);
      part.values.push(flow);
    };
    // Each literal is resolved where it stands, so the locals it names are in scope.
    const all: [Expr, number][] = [];
    for (const c of fn.facts.calls) for (const a of c.a) all.push([a, c.pos]);
    for (const r of fn.facts.returns) for (const v of r.vals) all.push([v, r.pos]);
    for (const b of fn.facts.binds) if (b.v) all.push([b.v, b.pos]);
    for (const a of fn.facts.assigns) all.push([a.rhs, a.pos]);
    for (const [e, pos] of all) {
      const scope = this.scopeOf(fn, pos);
      walkComps(e, (c) => this.compFlows(c, scope, add));
    }
    for (const a of fn.facts.assigns) {
      if (a.lhs.k !== 'sel') continue;
      const scope = this.scopeOf(fn, a.pos);
      let t = this.types.unalias(this.types.typeOf(a.lhs.x, scope));
      if (t.k === 'ptr') t = this.types.unalias(t.e);
      if (t.k === 'named') add(`${t.t.id}#${a.lhs.n}`, { e: a.rhs, scope });
    }
    return part;
  }

  private compFlows(e: Expr, scope: Scope, add: (key: string, flow: Flow) => void): void {
    if (e.k === 'un') return this.compFlows(e.x, scope, add);
    if (e.k !== 'comp' || !e.t) return;
    const t = this.types.unalias(this.types.resolve(e.t, scope.file));
    if (t.k !== 'named') return;
    for (const el of e.elems) if (el.key) add(`${t.t.id}#${el.key}`, { e: el.v, scope });
  }

  /**
   * For a session (see session.ts), after the program changed in place: the field-flow table's parts
   * of `fns` made again where their facts were replaced, and of `gone` dropped; `rank` orders the
   * functions as the program lists them now. Returns the fields whose lists say something else now:
   * the lists a function adds to, when its facts were replaced by others than `moved` ones (whose
   * records only moved) or its items differ (see PartsTable.patch).
   */
  patchFlows(fns: FuncInfo[], gone: FuncInfo[], moved: Set<FuncInfo>, rank: Rank, force?: Set<FuncInfo>): Set<string> {
    this.flows();
    const table = this.fieldFlows!;
    const redo = fns.filter((fn) => table.factsOf(fn) !== fn.facts || force?.has(fn));
    for (const fn of gone) {
      const key = this.partKeys.get(fn);
      if (!key) continue;
      this.deps?.forget(key);
      this.partReaders.delete(key);
    }
    return table.patch(redo, gone, moved, (fn) => this.flowPart(fn), (fn) => this.listed(fn), false, rank);
  }

  /**
   * For a session: the call-site table's parts of `fns` made again (their outcomes forgotten first) and
   * of `gone` dropped; those of `shifted` (moved functions not resolved again) keep their outcomes and
   * their parts' callees (see PartsTable.patch). Returns the callees whose lists changed (see patchFlows).
   */
  patchSites(fns: FuncInfo[], gone: FuncInfo[], moved: Set<FuncInfo>, rank: Rank, shifted?: Set<FuncInfo>): Set<string> {
    this.callSitesOf('');
    this.lastSettled = undefined;
    for (const fn of [...fns, ...gone]) if (!shifted?.has(fn)) this.settled.delete(fn);
    return this.callSites!.patch(fns, gone, moved, (fn) => this.sitePartOf(fn), (fn) => fn.file.active, true, rank, shifted);
  }

  /**
   * The call sites of the functions the program lists by ID, by the callees they resolve to now, as
   * the edges have them (what the channel analysis follows parameters back through). Made from the
   * outcomes kept for the edges; a session makes a few functions' parts again (see patchCallers).
   */
  callersTable(): Map<string, Site[]> {
    this.callers ??= new PartsTable<number, Site>(siteOf, (l) => l.fn, undefined, this.deps !== undefined, refreshSite).build(this.listedFunctions(), (fn) => this.calleesPart(fn));
    return this.callers.lists;
  }

  /**
   * For a session: callersTable's parts of `fns` (resolved again) made again, and of `gone` dropped.
   * Returns the callees whose lists changed (see patchFlows).
   */
  patchCallers(fns: FuncInfo[], gone: FuncInfo[], moved: Set<FuncInfo>, rank: Rank, shifted?: Set<FuncInfo>): Set<string> {
    if (!this.callers) return new Set();
    return this.callers.patch(fns, gone, moved, (fn) => this.calleesPart(fn), (fn) => this.listed(fn), true, rank, shifted);
  }

  /** Notes that the current reader read what `key` names (see Deps). */
  note(key: string): void {
    this.deps?.note(key);
  }

  private callers?: PartsTable<number, Site>;

  /** The active functions the program lists by ID (a package's first init only), in its order: what the field-flow and callers tables read. */
  private listedFunctions(): FuncInfo[] {
    return [...funcsInOrder(this.program)].filter((fn) => fn.file.active);
  }

  /** Whether `fn` is among listedFunctions. */
  private listed(fn: FuncInfo): boolean {
    return fn.file.active && this.program.funcs.get(fn.id) === fn;
  }

  /** The callees of `fn`'s call sites, with each site's index, as resolveSite finds them now. */
  private calleesPart(fn: FuncInfo): Part<number> {
    const part: Part<number> = { facts: fn.facts, keys: [], values: [] };
    for (let i = 0; i < fn.facts.calls.length; i++) {
      const out = this.resolveSite(fn, i);
      if (!('targets' in out)) continue;
      for (const t of out.targets) {
        part.keys.push(t.callee);
        part.values.push(i);
      }
    }
    return part;
  }

  /** The types each active file's code creates, and how many times the program creates each (see instantiated.ts). */
  private createdParts = new Map<FileInfo, TypeInfo[]>();
  private createdCounts = new Map<TypeInfo, number>();

  /** The created types (rapid type analysis), from every active file's part. */
  private createdTypes(): Set<TypeInfo> {
    for (const pkg of this.program.packages.values()) {
      for (const file of pkg.files) {
        if (!file.active) continue;
        const part = createdIn(this.program, this.types, file);
        if (this.deps) this.createdParts.set(file, part);
        for (const t of part) this.createdCounts.set(t, (this.createdCounts.get(t) ?? 0) + 1);
      }
    }
    return withFieldTypes(this.types, this.createdCounts.keys());
  }

  /**
   * For a session: the parts of `files` (whose facts were replaced) made again, and the created types
   * with them when a type is created now and was not, or the other way round, or when a struct's
   * fields changed (`fieldsChanged`); returns the dispatch answers (by key, see dispatch) that changed
   * with them, made again.
   */
  refreshCreated(files: Iterable<FileInfo>, fieldsChanged = false): string[] {
    if (!this.created) return [];
    const touched = new Map<TypeInfo, boolean>();
    const add = (t: TypeInfo, by: number) => {
      const n = this.createdCounts.get(t) ?? 0;
      if (!touched.has(t)) touched.set(t, n > 0);
      if (n + by > 0) this.createdCounts.set(t, n + by);
      else this.createdCounts.delete(t);
    };
    for (const file of files) {
      for (const t of this.createdParts.get(file) ?? []) add(t, -1);
      const part = createdIn(this.program, this.types, file);
      this.createdParts.set(file, part);
      for (const t of part) add(t, 1);
    }
    // The fields of a struct that changed can bring other types in with it (see withFieldTypes).
    if (!fieldsChanged && [...touched].every(([t, was]) => was === this.createdCounts.has(t))) return [];
    const before = this.created;
    // Types only added (no struct's fields changed): what their fields bring, added to what was created
    // (following fields from a set of types is following them from each), and they are what changed.
    // The set is added to in place: copied, with both sets walked for what differs, it took 3-4 ms of
    // a file's coming in a watch on v1.28 (some 20,000 types created).
    const added = [...touched].filter(([t, was]) => !was && this.createdCounts.has(t)).map(([t]) => t);
    const onlyAdded = !fieldsChanged && [...touched].every(([t, was]) => !was || this.createdCounts.has(t));
    const delta = new Set<TypeInfo>();
    if (onlyAdded) {
      for (const t of withFieldTypes(this.types, added)) {
        if (before.has(t)) continue;
        before.add(t);
        delta.add(t);
      }
    } else {
      this.created = withFieldTypes(this.types, this.createdCounts.keys());
      for (const t of this.created) if (!before.has(t)) delta.add(t);
      for (const t of before) if (!this.created.has(t)) delta.add(t);
    }
    if (delta.size === 0) return [];
    const changed: string[] = [];
    for (const [key, targets] of this.dispatched) {
      const at = key.lastIndexOf('#');
      const again = this.dispatchedIfaces.get(key);
      // An answer reads the created set only at the interface's implementations (see dispatchOf).
      if (!again || !this.impls.of(again).some((i) => delta.has(i.type))) continue;
      const out = this.dispatchOf(again, key.slice(at + 1));
      if (!sameTargets(out, targets)) {
        changed.push(key);
        this.dispatched.set(key, out);
      }
    }
    return changed;
  }

  /**
   * For a session: after methods named `names` came to or went from `types`, or took another
   * signature, or interfaces' methods changed (`ifaces`: see
   * Implementations.methodsChanged), the dispatch answers of the interfaces whose implementations
   * changed made again, and the bindings' types forgotten (see Types.forgetBindTypes). Returns the
   * keys of those dispatch answers (see dispatch), changed or not: an answer that reads the same can
   * still be narrowed otherwise (see memberCall), as the implementations it narrows by changed.
   */
  methodsChanged(types: Iterable<TypeInfo>, names: ReadonlySet<string>, ifaces = false): string[] {
    this.types.forgetBindTypes();
    const changed = new Set(this.impls.methodsChanged(types, names, ifaces));
    const out: string[] = [];
    if (changed.size === 0) return out;
    for (const [key] of this.dispatched) {
      const at = key.lastIndexOf('#');
      if (!changed.has(key.slice(0, at))) continue;
      this.dispatched.set(key, this.dispatchOf(this.dispatchedIfaces.get(key)!, key.slice(at + 1)));
      out.push(key);
    }
    return out;
  }

  /**
   * For a session: after `types` went, the answers kept under their IDs (which a type of the same name
   * coming again would find) dropped; returns the keys of the dispatch answers dropped (see dispatch).
   */
  typesGone(types: readonly TypeInfo[]): string[] {
    if (types.length === 0) return [];
    const ids = new Set(types.map((t) => t.id));
    this.impls.forgetKeys(ids);
    const out: string[] = [];
    for (const key of [...this.dispatched.keys()]) {
      if (!ids.has(key.slice(0, key.lastIndexOf('#')))) continue;
      this.dispatched.delete(key);
      this.dispatchedIfaces.delete(key);
      out.push(key);
    }
    return out;
  }

  /** Whether a guard of either engine stopped a query (see Queries): answers may then depend on order. */
  guardsFired(): boolean {
    return this.queries.unsettled + this.queries.cut + this.siteQueries.unsettled + this.siteQueries.cut > 0;
  }

  /** Drops the answers of the queries `readers` names (reader keys, see Deps), in whichever engine holds them. */
  resetQueries(readers: Iterable<string>): void {
    for (const r of readers) {
      const at = r.indexOf(':');
      const tag = r.slice(0, at);
      if (tag === this.queries.tag) this.queries.reset(r.slice(at + 1));
      else if (tag === this.siteQueries.tag) this.siteQueries.reset(r.slice(at + 1));
    }
  }
}

interface Site {
  fn: FuncInfo;
  call: CallFact;
}

interface Flow {
  e: Expr;
  scope: Scope;
}

/** A call-site table's entry from a function and the index of its site. */
function siteOf(fn: FuncInfo, i: number): Site {
  return { fn, call: fn.facts.calls[i] };
}

/** A call-site table's entry made to read its function's facts now (a function whose lines moved: see PartsTable.patch). */
function refreshSite(site: Site, fn: FuncInfo, i: number): void {
  site.call = fn.facts.calls[i];
}

function walkComps(e: Expr, visit: (e: Expr) => void): void {
  switch (e.k) {
    case 'comp':
      visit(e);
      for (const el of e.elems) walkComps(el.v, visit);
      return;
    case 'un':
      if (e.x.k === 'comp') visit(e);
      walkComps(e.x, visit);
      return;
    case 'call':
      for (const a of e.a) walkComps(a, visit);
      return;
    default:
  }
}

const NO_TARGETS: Target[] = [];

function sameTargets(a: Target[], b: Target[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.callee !== y.callee || x.kind !== y.kind || x.how !== y.how || x.confidence !== y.confidence) return false;
  }
  return true;
}

function dedupe(ts: Target[]): Target[] {
  const seen = new Set<string>();
  return ts.filter((t) => !seen.has(t.callee) && seen.add(t.callee));
}

/** A short rendering of an expression for unresolved-site listings. */
export function exprText(e: Expr): string {
  switch (e.k) {
    case 'id': return e.n;
    case 'sel': return `${exprText(e.x)}.${e.n}`;
    case 'call': return `${exprText(e.f)}(${e.a.length ? '…' : ''})`;
    case 'un': return `${e.op}${exprText(e.x)}`;
    case 'fn': return 'func(){…}';
    case 'idx': return `${exprText(e.x)}[…]`;
    case 'assert': return `${exprText(e.x)}.(…)`;
    case 'conv': return `(…)(${exprText(e.x)})`;
    case 'lit': return e.t;
    case 'bin': return `${exprText(e.x)} ${e.op} ${exprText(e.y)}`;
    case 'type': return 'T';
    default: return '…';
  }
}
