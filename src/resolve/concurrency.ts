/**
 * Channel operations and goroutine starts. A channel expression is resolved to what holds it: a
 * struct field (`pkg.Type.field`), a package var, or — through locals, returns and parameters — the
 * field a method returns (`kl.pleg.Watch()` → `pleg.GenericPLEG.eventChannel`). Parameters are followed
 * back through the resolved call sites of their function, a few levels deep.
 */
import type { ChannelOpRecord, Edge, GoroutineRecord } from '../model/index.js';
import type { Expr, CallFact } from '../parse/index.js';
import { funcsInOrder, type FuncInfo, type Program } from './program.js';
import type { CallResolver } from './calls.js';
import { exprText } from './calls.js';
import type { Scope } from './types.js';

/** The `wait` helpers that run a function periodically or until a condition holds; arg = index of the func, period = index of the period. */
const PERIODIC: Record<string, { fn: number; period?: number }> = {
  Until: { fn: 0, period: 1 }, UntilWithContext: { fn: 1, period: 2 }, Forever: { fn: 0, period: 1 },
  NonSlidingUntil: { fn: 0, period: 1 }, NonSlidingUntilWithContext: { fn: 1, period: 2 },
  JitterUntil: { fn: 0, period: 1 }, JitterUntilWithContext: { fn: 1, period: 2 },
  BackoffUntil: { fn: 0 }, PollUntil: { fn: 1, period: 0 }, PollImmediate: { fn: 2, period: 0 },
  PollImmediateUntil: { fn: 1, period: 0 }, PollInfinite: { fn: 1, period: 0 }, Poll: { fn: 2, period: 0 },
  PollImmediateInfinite: { fn: 1, period: 0 }, PollUntilContextTimeout: { fn: 4, period: 1 },
  PollUntilContextCancel: { fn: 3, period: 1 },
};

export function collectGoroutines(program: Program, resolver: CallResolver, edges: Edge[]): GoroutineRecord[] {
  const out: GoroutineRecord[] = [];
  const byCall = goEdges(edges);
  for (const fn of funcsInOrder(program)) {
    if (!fn.file.active) continue;
    out.push(...goroutinesOf(fn, resolver, byCall));
  }
  return out;
}

/** The edges of `go` statements, by caller and line (what goroutinesOf reads of the edges). */
export function goEdges(edges: Iterable<Edge>): Map<string, Edge[]> {
  const byCall = new Map<string, Edge[]>();
  for (const e of edges) {
    // Only the targets of `go` statements are read below.
    if (e.mode !== 'go') continue;
    const key = `${e.caller}@${e.line}`;
    let list = byCall.get(key);
    if (!list) byCall.set(key, (list = []));
    list.push(e);
  }
  return byCall;
}

/** The goroutines one function starts; `byCall` holds at least the `go` edges of its ID (see goEdges). */
export function goroutinesOf(fn: FuncInfo, resolver: CallResolver, byCall: Map<string, Edge[]>): GoroutineRecord[] {
  const out: GoroutineRecord[] = [];
  for (const call of fn.facts.calls) {
    const helper = waitHelper(call, fn, resolver);
    if (helper) {
      const spec = PERIODIC[helper];
      const arg = call.a[spec.fn];
      const scope = resolver.scopeOf(fn, call.pos);
      const targets = arg ? resolver.funcValueTargets(arg, scope, 0, false) : [];
      const period = spec.period !== undefined && call.a[spec.period] ? periodText(call.a[spec.period], scope, resolver) : undefined;
      for (const t of targets) {
        out.push({ starter: fn.id, target: t.callee, via: `${call.mode === 'go' ? 'go ' : ''}wait.${helper}`, period, file: fn.file.facts.path, line: call.l });
      }
      if (targets.length === 0 && call.mode === 'go') {
        out.push({ starter: fn.id, target: exprText(arg ?? call.f), via: `go wait.${helper}`, period, file: fn.file.facts.path, line: call.l });
      }
      continue;
    }
    if (call.mode !== 'go') continue;
    const targets = byCall.get(`${fn.id}@${call.l}`)?.filter((e) => e.mode === 'go') ?? [];
    for (const t of targets) out.push({ starter: fn.id, target: t.callee, via: 'go', file: fn.file.facts.path, line: call.l });
    if (targets.length === 0) out.push({ starter: fn.id, target: exprText(call.f), via: 'go (unresolved)', file: fn.file.facts.path, line: call.l });
  }
  return out;
}

function waitHelper(call: CallFact, fn: FuncInfo, resolver: CallResolver): string | undefined {
  if (call.f.k !== 'sel' || !(call.f.n in PERIODIC)) return undefined;
  const x = resolver.types.typeOf(call.f.x, resolver.scopeOf(fn, call.pos));
  return x.k === 'pkg' && /\/util\/wait$/.test(x.path) ? call.f.n : undefined;
}

/** The period as written, with a named constant's value appended when it can be read. */
function periodText(e: Expr, scope: Scope, resolver: CallResolver): string {
  const text = renderExpr(e);
  const value = constValue(e, scope, resolver, 0);
  return value && value !== text ? `${text} (= ${value})` : text;
}

function constValue(e: Expr, scope: Scope, resolver: CallResolver, depth: number): string | undefined {
  if (depth > 4) return undefined;
  if (e.k === 'id' || e.k === 'sel') {
    let v;
    if (e.k === 'id' && !resolver.types.findBind(e.n, scope)) v = scope.file.pkg.values.get(e.n);
    if (e.k === 'sel') {
      const x = resolver.types.typeOf(e.x, scope);
      if (x.k === 'pkg') v = resolver.program.packages.get(x.path)?.values.get(e.n);
    }
    if (!v) return undefined;
    // An edit of the value's numbers makes the reader's records again (see ResolveSession).
    resolver.deps?.note(`v:${v.id}`);
    if (v.facts.v) return constValue(v.facts.v, { file: v.file, pos: 0 }, resolver, depth + 1) ?? renderExpr(v.facts.v);
    return undefined;
  }
  if (e.k === 'bin') {
    const l = constValue(e.x, scope, resolver, depth + 1) ?? renderExpr(e.x);
    const r = constValue(e.y, scope, resolver, depth + 1) ?? renderExpr(e.y);
    return `${l} ${e.op} ${r}`;
  }
  return undefined;
}

export function renderExpr(e: Expr): string {
  switch (e.k) {
    case 'id': return e.n;
    case 'sel': return `${renderExpr(e.x)}.${e.n}`;
    case 'bin': return `${renderExpr(e.x)} ${e.op} ${renderExpr(e.y)}`;
    case 'lit': return e.v ?? e.t;
    case 'call': return `${renderExpr(e.f)}(${e.a.map(renderExpr).join(', ')})`;
    case 'conv': return `T(${renderExpr(e.x)})`;
    default: return exprText(e);
  }
}

/** The channel operations of every function of the program, in its order (see channelsOf). */
export function collectChannels(program: Program, resolver: CallResolver): ChannelOpRecord[] {
  const callersOf = resolver.callersTable();
  const out: ChannelOpRecord[] = [];
  for (const fn of funcsInOrder(program)) if (fn.file.active) out.push(...channelsOf(fn, program, resolver, callersOf));
  return out;
}

/**
 * The channel operations of one function, each resolved to what holds the channel. Each function
 * follows the holders afresh: an answer found for another function is not reused, so that what one
 * function's records read is all read while they are made (a session makes them again one function
 * at a time: see ResolveSession.channelsNow). An answer reused from a function followed before, at
 * another depth or while its own field was being followed, had lost origins: 19 of v1.28's 806
 * records have more origins this way, and none has fewer.
 */
export function channelsOf(fn: FuncInfo, program: Program, resolver: CallResolver, callersOf: Map<string, { fn: FuncInfo; call: CallFact }[]>): ChannelOpRecord[] {
  const out: ChannelOpRecord[] = [];
  if (fn.facts.chans.length === 0) return out;
  const holders = new Holders(program, resolver, callersOf);
  for (const op of fn.facts.chans) {
    const scope = resolver.scopeOf(fn, op.pos);
    if (op.op === 'range') {
      const t = resolver.types.underlying(resolver.types.unalias(resolver.types.typeOf(op.ch, scope)));
      if (t.k !== 'chan') continue;
    }
    const found = holders.of(op.ch, scope, 0);
    const list = found.length ? found : [`?${exprText(op.ch)}`];
    const origins = holders.origins(op.ch, scope, 0);
    for (const channel of list) {
      out.push({ fn: fn.id, op: op.op, channel, expr: renderExpr(op.ch), file: fn.file.facts.path, line: op.l, select: op.select, caseIndex: op.caseIndex, origins: origins.length ? origins : undefined });
    }
  }
  return out;
}

class Holders {
  constructor(
    private program: Program,
    private resolver: CallResolver,
    private callersOf: Map<string, { fn: FuncInfo; call: CallFact }[]>,
  ) {}

  of(e: Expr, scope: Scope, depth: number): string[] {
    // What is read is noted for a session (see ResolveSession.channelsNow): the bodies of the functions
    // whose scopes are read, the callers of a parameter's function and the values stored into a field.
    this.resolver.noteBody(scope.fn);
    if (depth > 5) return [];
    const types = this.resolver.types;
    switch (e.k) {
      case 'sel': {
        const x = types.typeOf(e.x, scope);
        if (x.k === 'pkg') return [`${x.path}.${e.n}`];
        const m = types.member(x, e.n);
        if (m?.kind === 'field') {
          let owner = types.unalias(m.owner);
          if (owner.k === 'ptr') owner = owner.e;
          if (owner.k === 'named') return [`${owner.t.id}.${e.n}`];
        }
        return [];
      }
      case 'id': {
        const local = types.findBind(e.n, scope);
        if (!local) {
          const v = scope.file.pkg.values.get(e.n);
          return v ? [v.id] : [];
        }
        const b = local.bind;
        const fn = local.fn;
        if (b.from === 'param' || b.from === 'recv') return this.fromParam(fn, e.n, depth);
        const out: string[] = [];
        if (b.v && b.vi === undefined) out.push(...this.of(b.v, { ...scope, fn, pos: b.pos }, depth + 1));
        for (const a of fn.facts.assigns) {
          if (a.lhs.k === 'id' && a.lhs.n === e.n && a.pos >= b.pos && a.pos <= b.end) out.push(...this.of(a.rhs, { ...scope, fn, pos: a.pos }, depth + 1));
        }
        return [...new Set(out)];
      }
      case 'call':
        return [...new Set(this.returned(e, scope).flatMap((r) => this.of(r.e, r.scope, depth + 1)))];
      case 'un':
      case 'conv':
        return this.of(e.x, scope, depth + 1);
      default:
        return [];
    }
  }

  /**
   * Where the channel value was made: `make@FILE:LINE` sites, followed through locals, parameters,
   * returns and struct fields (a channel made once and stored in two fields has one origin), or
   * `time.Ticker.C`-style names for channels that the Go runtime feeds.
   */
  origins(e: Expr, scope: Scope, depth: number): string[] {
    this.resolver.noteBody(scope.fn);
    if (depth > 8) return [];
    const types = this.resolver.types;
    switch (e.k) {
      case 'call': {
        if (e.f.k === 'id' && e.f.n === 'make' && !types.findBind('make', scope)) return [`make@${scope.file.facts.path}:${e.l}`];
        // time.After / time.Tick: a channel the Go runtime sends on.
        if (e.f.k === 'sel' && e.f.x.k === 'id' && scope.file.imports.get(e.f.x.n) === 'time' && (e.f.n === 'After' || e.f.n === 'Tick')) return [`time.${e.f.n}`];
        return [...new Set(this.returned(e, scope).flatMap((r) => this.origins(r.e, r.scope, depth + 1)))];
      }
      case 'sel': {
        const x = types.typeOf(e.x, scope);
        const xb = x.k === 'ptr' ? x.e : x;
        if (xb.k === 'ext') return [`${xb.pkg}.${xb.n}.${e.n}`];
        if (x.k === 'pkg') {
          const v = this.program.packages.get(x.path)?.values.get(e.n);
          return v?.facts.v ? this.origins(v.facts.v, { file: v.file, fn: v.pkg.funcs.get('init'), pos: 0 }, depth + 1) : [];
        }
        const m = types.member(x, e.n);
        if (m?.kind !== 'field') return [];
        let owner = types.unalias(m.owner);
        if (owner.k === 'ptr') owner = owner.e;
        if (owner.k !== 'named') return [];
        const key = `${owner.t.id}#${e.n}`;
        if (this.fieldOrigins.has(key)) return this.fieldOrigins.get(key)!;
        this.fieldOrigins.set(key, []);
        const res: string[] = [];
        this.resolver.note(`f:${key}`);
        for (const f of this.resolver.flows().get(key) ?? []) res.push(...this.origins(f.e, f.scope, depth + 1));
        const result = [...new Set(res)];
        this.fieldOrigins.set(key, result);
        return result;
      }
      case 'id': {
        const local = types.findBind(e.n, scope);
        if (!local) {
          const v = scope.file.pkg.values.get(e.n);
          return v?.facts.v ? this.origins(v.facts.v, { file: v.file, fn: v.pkg.funcs.get('init'), pos: 0 }, depth + 1) : [];
        }
        const b = local.bind;
        const fn = local.fn;
        if (b.from === 'param') {
          const index = fn.facts.params.findIndex((p) => p.name === e.n);
          const res: string[] = [];
          this.resolver.note(`k:${fn.id}`);
          for (const { fn: caller, call } of this.callersOf.get(fn.id) ?? []) {
            const arg = call.a[index];
            if (arg) res.push(...this.origins(arg, this.resolver.scopeOf(caller, call.pos), depth + 1));
          }
          return [...new Set(res)];
        }
        const res: string[] = [];
        if (b.v && b.vi === undefined) res.push(...this.origins(b.v, { ...scope, fn, pos: b.pos }, depth + 1));
        for (const a of fn.facts.assigns) {
          if (a.lhs.k === 'id' && a.lhs.n === e.n && a.pos >= b.pos && a.pos <= b.end) res.push(...this.origins(a.rhs, { ...scope, fn, pos: a.pos }, depth + 1));
        }
        return [...new Set(res)];
      }
      case 'un':
      case 'conv':
        return this.origins(e.x, scope, depth + 1);
      default:
        return [];
    }
  }

  private fieldOrigins = new Map<string, string[]>();

  /** The first returned value of every function a call can reach, each with its scope. */
  private returned(e: Extract<Expr, { k: 'call' }>, scope: Scope): { e: Expr; scope: Scope }[] {
    const call: CallFact = { f: e.f, a: e.a, l: e.l, col: 0, mode: 'call', pos: scope.pos };
    const out = scope.fn ? this.resolver.resolveCall(scope.fn, call) : undefined;
    if (!out || !('targets' in out)) return [];
    const res: { e: Expr; scope: Scope }[] = [];
    for (const t of out.targets) {
      const callee = this.program.funcs.get(t.callee);
      if (!callee) continue;
      this.resolver.noteBody(callee);
      for (const r of callee.facts.returns) if (r.vals[0]) res.push({ e: r.vals[0], scope: { fn: callee, file: callee.file, pos: r.pos } });
    }
    return res;
  }

  /** A parameter holds whatever its function's callers pass in that position. */
  private fromParam(fn: FuncInfo, name: string, depth: number): string[] {
    const index = fn.facts.params.findIndex((p) => p.name === name);
    if (index < 0) return [];
    const out: string[] = [];
    this.resolver.note(`k:${fn.id}`);
    for (const { fn: caller, call } of this.callersOf.get(fn.id) ?? []) {
      const arg = call.a[index];
      if (arg) out.push(...this.of(arg, this.resolver.scopeOf(caller, call.pos), depth + 1));
    }
    return [...new Set(out)];
  }
}
