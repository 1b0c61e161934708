/**
 * Types without a type checker. Exact for declared types, fields, signatures and composite literals;
 * approximate for locals (block scopes are byte ranges, the latest binding before a use wins), and
 * unknown for type parameters and anything out of scope that is not declared in an in-scope package.
 */
import type { Bind, Expr, MethodSig, Param, TypeExpr, FieldDecl } from '../parse/index.js';
import type { FileInfo, FuncInfo, Program, TypeInfo, ValueInfo } from './program.js';

export type RType =
  | { k: 'named'; t: TypeInfo }
  | { k: 'ext'; pkg: string; n: string }
  | { k: 'ptr'; e: RType }
  | { k: 'slice'; e: RType }
  | { k: 'map'; key: RType; e: RType }
  | { k: 'chan'; e: RType }
  | { k: 'func'; params: RType[]; results: RType[]; variadic?: boolean; fn?: FuncInfo }
  | { k: 'iface'; methods: MethodSig[]; embeds: TypeExpr[]; file: FileInfo; key: string }
  | { k: 'struct'; fields: FieldDecl[]; file: FileInfo }
  | { k: 'basic'; n: string }
  | { k: 'tuple'; items: RType[] }
  | { k: 'pkg'; path: string }
  | { k: 'typename'; t: RType }
  | { k: 'unknown' };

export const UNKNOWN: RType = { k: 'unknown' };

const BASIC = new Set([
  'bool', 'string', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr',
  'float32', 'float64', 'complex64', 'complex128', 'byte', 'rune', 'error', 'any', 'comparable',
]);

export const BUILTIN_FUNCS = new Set([
  'append', 'cap', 'clear', 'close', 'complex', 'copy', 'delete', 'imag', 'len', 'make', 'max', 'min', 'new', 'panic',
  'print', 'println', 'real', 'recover',
]);

/** Where an expression is evaluated: the function (for locals), its file (imports) and a byte position. */
export interface Scope {
  fn?: FuncInfo;
  file: FileInfo;
  pos: number;
  tparams?: Set<string>;
}

export class Types {
  /** Weak: a session (see session.ts) replaces a function's facts, and its old bindings go with them. */
  private bindTypes = new WeakMap<Bind, RType>();
  private valueTypes = new Map<ValueInfo, RType>();
  private busy = new Set<object>();
  /**
   * Resolved types by written type, for the file they were resolved in, when no type parameters were
   * in play: a resolution depends on nothing else, and the same types are resolved over and over
   * (field lookups, method sets). Resolved types are never modified, so they can be shared.
   */
  private resolved = new WeakMap<TypeExpr, { file: FileInfo; r: RType }>();
  private underlyings = new Map<TypeInfo, RType>();
  private unaliased = new Map<TypeInfo, RType>();
  /** The named types of a struct's fields, by the struct's resolved type (see fieldTypes). */
  private namedFields = new WeakMap<RType, TypeInfo[]>();
  /**
   * Told the name of every member looked up (once per lookup, not per embedded level), when set: a
   * session notes it as read, so that a method that comes or goes finds what looked for its name.
   */
  onMember?: (name: string) => void;
  /** While a package value's type is made: the names looked up for it (see valueMembers). */
  private valueDepth = 0;
  /** The member names looked up while package values' types were made (kept with those types). */
  readonly valueMembers = new Set<string>();

  constructor(readonly program: Program) {}

  /**
   * Forgets the types of bindings: for a session, after a method came or went, when a binding's type
   * may read otherwise. The functions resolved again make them afresh; the others keep what they made.
   */
  forgetBindTypes(): void {
    this.bindTypes = new WeakMap();
  }

  /**
   * Forgets the underlying types of `types` and of every type defined by another named type (which
   * may be one of them, through others): for a session, after those struct types' fields changed.
   */
  forgetUnderlyings(types: ReadonlySet<TypeInfo>): void {
    for (const t of this.underlyings.keys()) if (types.has(t) || t.facts.t.k === 'named') this.underlyings.delete(t);
  }

  /** Resolves a written type in the context of a file. */
  resolve(t: TypeExpr | undefined, file: FileInfo, tparams?: Set<string>): RType {
    if (!t) return UNKNOWN;
    if (tparams) return this.resolveExpr(t, file, tparams);
    const known = this.resolved.get(t);
    if (known?.file === file) return known.r;
    const r = this.resolveExpr(t, file, undefined);
    this.resolved.set(t, { file, r });
    return r;
  }

  private resolveExpr(t: TypeExpr, file: FileInfo, tparams: Set<string> | undefined): RType {
    switch (t.k) {
      case 'named': {
        if (t.pkg) {
          const path = file.imports.get(t.pkg);
          if (!path) return UNKNOWN;
          const info = this.program.packages.get(path)?.types.get(t.n);
          return info ? { k: 'named', t: info } : { k: 'ext', pkg: path, n: t.n };
        }
        if (tparams?.has(t.n)) return UNKNOWN;
        const info = file.pkg.types.get(t.n);
        if (info) return { k: 'named', t: info };
        for (const d of file.dot) {
          const dinfo = this.program.packages.get(d)?.types.get(t.n);
          if (dinfo) return { k: 'named', t: dinfo };
        }
        if (BASIC.has(t.n)) return { k: 'basic', n: t.n };
        return UNKNOWN;
      }
      case 'ptr':
        return { k: 'ptr', e: this.resolve(t.e, file, tparams) };
      case 'slice':
      case 'array':
        return { k: 'slice', e: this.resolve(t.e, file, tparams) };
      case 'map':
        return { k: 'map', key: this.resolve(t.key, file, tparams), e: this.resolve(t.e, file, tparams) };
      case 'chan':
        return { k: 'chan', e: this.resolve(t.e, file, tparams) };
      case 'func':
        return this.signature(t.params, t.results, file, tparams, t.variadic);
      case 'iface':
        return { k: 'iface', methods: t.methods, embeds: t.embeds, file, key: `${file.facts.path}#${t.methods.map((m) => m.name).join(',')}` };
      case 'struct':
        return { k: 'struct', fields: t.fields, file };
      default:
        return UNKNOWN;
    }
  }

  signature(params: Param[], results: Param[], file: FileInfo, tparams?: Set<string>, variadic?: boolean, fn?: FuncInfo): RType {
    return {
      k: 'func',
      params: params.map((p) => this.resolve(p.t, file, tparams)),
      results: results.map((p) => this.resolve(p.t, file, tparams)),
      variadic,
      fn,
    };
  }

  funcType(fn: FuncInfo): RType {
    const tp = typeParamsOf(fn);
    return this.signature(fn.facts.params, fn.facts.results, fn.file, tp, fn.facts.variadic, fn);
  }

  /** The underlying type of a named type (following definitions and aliases). */
  underlying(t: RType, depth = 0): RType {
    if (depth > 10) return UNKNOWN;
    if (t.k === 'named') {
      // From the outside (depth 0) the answer depends only on the type: kept.
      const known = depth === 0 ? this.underlyings.get(t.t) : undefined;
      if (known) return known;
      const def = this.resolve(t.t.facts.t, t.t.file, tparamSet(t.t.facts.tparams));
      const u = def.k === 'named' ? this.underlying(def, depth + 1) : def;
      if (depth === 0) this.underlyings.set(t.t, u);
      return u;
    }
    return t;
  }

  /**
   * The named types of the fields of the struct a named type is (embedded or not, aliases followed),
   * in the fields' order; none when it is not a struct. Kept by the struct's resolved type, which is
   * made again when the type's fields change (see forgetUnderlyings), as the fields' own resolutions
   * are kept (see resolve and unalias).
   */
  fieldTypes(t: TypeInfo): readonly TypeInfo[] {
    const u = this.underlying({ k: 'named', t });
    if (u.k !== 'struct') return [];
    let out = this.namedFields.get(u);
    if (!out) {
      out = [];
      for (const f of u.fields) {
        const ft = this.unalias(this.resolve(f.t, u.file));
        if (ft.k === 'named') out.push(ft.t);
      }
      this.namedFields.set(u, out);
    }
    return out;
  }

  /** For `type A = B` aliases, the aliased type. */
  unalias(t: RType): RType {
    if (t.k !== 'named' || !t.t.facts.alias) return t;
    const known = this.unaliased.get(t.t);
    if (known) return known;
    let cur: RType = t;
    for (let i = 0; i < 10 && cur.k === 'named' && cur.t.facts.alias; i++) cur = this.resolve(cur.t.facts.t, cur.t.file);
    this.unaliased.set(t.t, cur);
    return cur;
  }

  isInterface(t: RType): boolean {
    const u = this.underlying(this.unalias(t));
    return u.k === 'iface' || (u.k === 'basic' && (u.n === 'error' || u.n === 'any'));
  }

  /** The type of an expression; UNKNOWN when it cannot be told. */
  typeOf(e: Expr, scope: Scope): RType {
    switch (e.k) {
      case 'id':
        return this.identType(e.n, scope);
      case 'sel': {
        const x = this.typeOf(e.x, scope);
        if (x.k === 'pkg') return this.pkgMember(x.path, e.n);
        if (x.k === 'typename') {
          // Method expression T.M: a function taking the receiver first.
          const m = this.member(x.t, e.n);
          if (m?.kind === 'method') return this.funcType(m.fn);
          return UNKNOWN;
        }
        const m = this.member(x, e.n);
        if (!m) return UNKNOWN;
        if (m.kind === 'field') return m.type;
        if (m.kind === 'method') return this.funcType(m.fn);
        return this.resolveSig(m.sig, m.file);
      }
      case 'call': {
        const std = e.f.k === 'sel' && e.f.x.k === 'id' ? this.stdResult(e.f.x.n, e.f.n, scope) : undefined;
        if (std) return std;
        const f = this.typeOf(e.f, scope);
        if (f.k === 'typename') return f.t;
        if (e.f.k === 'id' && BUILTIN_FUNCS.has(e.f.n) && !this.isShadowed(e.f.n, scope)) return this.builtinResult(e, scope);
        if (e.f.k === 'type') return this.resolve(e.f.t, scope.file, scope.tparams);
        const u = this.underlying(this.unalias(f));
        if (u.k !== 'func') return UNKNOWN;
        if (u.results.length === 1) return u.results[0];
        if (u.results.length === 0) return UNKNOWN;
        return { k: 'tuple', items: u.results };
      }
      case 'comp':
        return e.t ? this.resolve(e.t, scope.file, scope.tparams) : UNKNOWN;
      case 'un': {
        const x = this.typeOf(e.x, scope);
        if (e.op === '&') return { k: 'ptr', e: x };
        if (e.op === '*') return x.k === 'ptr' ? x.e : x.k === 'typename' ? { k: 'typename', t: { k: 'ptr', e: x.t } } : UNKNOWN;
        if (e.op === '<-') {
          const u = this.underlying(this.unalias(x));
          return u.k === 'chan' ? u.e : UNKNOWN;
        }
        if (e.op === '!') return { k: 'basic', n: 'bool' };
        return x;
      }
      case 'fn': {
        const fn = this.closureAt(scope, e.i);
        return fn ? this.funcType(fn) : UNKNOWN;
      }
      case 'assert':
        return e.t ? this.resolve(e.t, scope.file, scope.tparams) : UNKNOWN;
      case 'idx': {
        const x = this.typeOf(e.x, scope);
        const u = this.underlying(this.unalias(x.k === 'ptr' ? x.e : x));
        if (u.k === 'map' || u.k === 'slice') return u.e;
        if (u.k === 'basic' && u.n === 'string') return { k: 'basic', n: 'byte' };
        if (x.k === 'func') return x; // generic instantiation f[T]
        if (x.k === 'typename') return x;
        return UNKNOWN;
      }
      case 'slice':
        return this.typeOf(e.x, scope);
      case 'bin': {
        if (['==', '!=', '<', '>', '<=', '>=', '&&', '||'].includes(e.op)) return { k: 'basic', n: 'bool' };
        const x = this.typeOf(e.x, scope);
        return x.k !== 'unknown' ? x : this.typeOf(e.y, scope);
      }
      case 'lit':
        return e.t === 'nil' ? UNKNOWN : { k: 'basic', n: e.t === 'int' ? 'int' : e.t === 'float' ? 'float64' : e.t === 'string' ? 'string' : e.t === 'bool' ? 'bool' : 'rune' };
      case 'type':
        return { k: 'typename', t: this.resolve(e.t, scope.file, scope.tparams) };
      case 'conv':
        return this.resolve(e.t, scope.file, scope.tparams);
      default:
        return UNKNOWN;
    }
  }

  /** Result types of the few standard-library functions that make channels the kubelet selects on. */
  private stdResult(pkgName: string, fn: string, scope: Scope): RType | undefined {
    if (this.findBind(pkgName, scope)) return undefined;
    const path = scope.file.imports.get(pkgName);
    if (path !== 'time') return undefined;
    const timeType = (n: string): RType => ({ k: 'ext', pkg: 'time', n });
    switch (fn) {
      case 'NewTicker': return { k: 'ptr', e: timeType('Ticker') };
      case 'NewTimer': return { k: 'ptr', e: timeType('Timer') };
      case 'After':
      case 'Tick': return { k: 'chan', e: timeType('Time') };
      default: return undefined;
    }
  }

  private builtinResult(e: Extract<Expr, { k: 'call' }>, scope: Scope): RType {
    const name = (e.f as { n: string }).n;
    const arg0 = e.a[0];
    switch (name) {
      case 'new': {
        const t = arg0 ? this.typeOf(arg0, scope) : UNKNOWN;
        return t.k === 'typename' ? { k: 'ptr', e: t.t } : UNKNOWN;
      }
      case 'make': {
        const t = arg0 ? this.typeOf(arg0, scope) : UNKNOWN;
        return t.k === 'typename' ? t.t : UNKNOWN;
      }
      case 'append':
        return arg0 ? this.typeOf(arg0, scope) : UNKNOWN;
      case 'len':
      case 'cap':
      case 'copy':
        return { k: 'basic', n: 'int' };
      case 'recover':
        return { k: 'basic', n: 'any' };
      default:
        return UNKNOWN;
    }
  }

  closureAt(scope: Scope, index: number): FuncInfo | undefined {
    const facts = scope.file.facts.funcs[index];
    if (!facts) return undefined;
    return scope.file.pkg.funcs.get(facts.local);
  }

  private isShadowed(name: string, scope: Scope): boolean {
    return this.findBind(name, scope) !== undefined || scope.file.pkg.funcs.has(name) || scope.file.pkg.values.has(name);
  }

  /** The innermost binding of `name` visible at the scope's position, searching enclosing functions. */
  private bindIndex = new WeakMap<object, Map<string, Bind[]>>();

  private bindsNamed(fn: FuncInfo, name: string): Bind[] | undefined {
    let index = this.bindIndex.get(fn.facts);
    if (!index) {
      index = new Map();
      for (const b of fn.facts.binds) {
        const list = index.get(b.n);
        if (list) list.push(b);
        else index.set(b.n, [b]);
      }
      this.bindIndex.set(fn.facts, index);
    }
    return index.get(name);
  }

  findBind(name: string, scope: Scope): { bind: Bind; fn: FuncInfo } | undefined {
    let fn = scope.fn;
    let pos = scope.pos;
    while (fn) {
      let best: Bind | undefined;
      for (const b of this.bindsNamed(fn, name) ?? []) {
        if (b.pos <= pos && pos <= b.end && (!best || b.pos >= best.pos)) best = b;
      }
      if (best) return { bind: best, fn };
      pos = fn.facts.start;
      fn = fn.parent;
    }
    return undefined;
  }

  identType(name: string, scope: Scope): RType {
    const found = this.findBind(name, scope);
    if (found) return this.bindType(found.bind, { ...scope, fn: found.fn, pos: found.bind.pos });
    return this.pkgLevelIdent(name, scope.file, scope.tparams);
  }

  pkgLevelIdent(name: string, file: FileInfo, tparams?: Set<string>): RType {
    const pkg = file.pkg;
    const fn = pkg.funcs.get(name);
    if (fn && fn.facts.kind === 'func') return this.funcType(fn);
    const v = pkg.values.get(name);
    if (v) return this.valueType(v);
    const t = pkg.types.get(name);
    if (t) return { k: 'typename', t: { k: 'named', t } };
    const imp = file.imports.get(name);
    if (imp) return { k: 'pkg', path: imp };
    for (const d of file.dot) {
      const m = this.pkgMember(d, name);
      if (m.k !== 'unknown') return m;
    }
    if (tparams?.has(name)) return { k: 'typename', t: UNKNOWN };
    if (BASIC.has(name)) return { k: 'typename', t: { k: 'basic', n: name } };
    return UNKNOWN;
  }

  pkgMember(path: string, name: string): RType {
    const pkg = this.program.packages.get(path);
    if (!pkg) return UNKNOWN;
    const fn = pkg.funcs.get(name);
    if (fn && fn.facts.kind === 'func') return this.funcType(fn);
    const v = pkg.values.get(name);
    if (v) return this.valueType(v);
    const t = pkg.types.get(name);
    if (t) return { k: 'typename', t: { k: 'named', t } };
    return UNKNOWN;
  }

  valueType(v: ValueInfo): RType {
    const cached = this.valueTypes.get(v);
    if (cached) return cached;
    if (this.busy.has(v)) return UNKNOWN;
    this.busy.add(v);
    let t: RType = UNKNOWN;
    if (v.facts.t) t = this.resolve(v.facts.t, v.file);
    else if (v.facts.v) {
      const init = v.pkg.funcs.get('init');
      this.valueDepth++;
      try {
        t = pick(this.typeOf(v.facts.v, { file: v.file, fn: init, pos: 0 }), v.facts.vi);
      } finally {
        this.valueDepth--;
      }
    }
    this.busy.delete(v);
    this.valueTypes.set(v, t);
    return t;
  }

  bindType(b: Bind, scope: Scope): RType {
    const cached = this.bindTypes.get(b);
    if (cached) return cached;
    if (this.busy.has(b)) return UNKNOWN;
    this.busy.add(b);
    let t: RType = UNKNOWN;
    const tp = scope.fn ? typeParamsOf(scope.fn) : undefined;
    if (b.t) t = this.resolve(b.t, scope.file, tp);
    else if (b.v) {
      const vt = this.typeOf(b.v, { ...scope, tparams: tp });
      if (b.from === 'range') {
        const u = this.underlying(this.unalias(vt.k === 'ptr' ? vt.e : vt));
        if (u.k === 'slice') t = b.vi === 0 ? { k: 'basic', n: 'int' } : u.e;
        else if (u.k === 'map') t = b.vi === 0 ? u.key : u.e;
        else if (u.k === 'chan') t = b.vi === 0 ? u.e : UNKNOWN;
        else if (u.k === 'basic' && u.n === 'string') t = b.vi === 0 ? { k: 'basic', n: 'int' } : { k: 'basic', n: 'rune' };
      } else if (b.from === 'typeswitch') {
        t = vt;
      } else {
        t = pick(vt, b.vi);
      }
    }
    this.busy.delete(b);
    this.bindTypes.set(b, t);
    return t;
  }

  resolveSig(sig: MethodSig, file: FileInfo): RType {
    return this.signature(sig.params, sig.results, file);
  }

  /** Looks up a field or method on a value of type `t`, including promoted members. */
  member(t: RType, name: string, depth = 0): Member | undefined {
    if (depth === 0) {
      this.onMember?.(name);
      if (this.valueDepth > 0) this.valueMembers.add(name);
    }
    if (depth > 6) return undefined;
    let base = this.unalias(t);
    if (base.k === 'ptr') base = this.unalias(base.e);
    if (base.k === 'named') {
      const m = base.t.methods.get(name);
      if (m) return { kind: 'method', fn: m, depth };
    }
    const u = this.underlying(base);
    if (u.k === 'iface') {
      const sig = this.ifaceMethods(u).get(name);
      if (sig) return { kind: 'imethod', sig: sig.sig, file: sig.file, iface: base.k === 'named' ? base : u, depth };
      return undefined;
    }
    if (u.k === 'basic' && u.n === 'error' && name === 'Error') {
      return { kind: 'imethod', sig: { name: 'Error', params: [], results: [{ t: { k: 'named', n: 'string' } }] }, file: undefined as unknown as FileInfo, iface: u, depth };
    }
    if (u.k !== 'struct') return undefined;
    for (const f of u.fields) {
      if (f.name === name) return { kind: 'field', type: this.resolve(f.t, u.file, base.k === 'named' ? tparamSet(base.t.facts.tparams) : undefined), depth, owner: base, field: f.name };
    }
    let best: Member | undefined;
    for (const f of u.fields) {
      if (!f.embedded) continue;
      const m = this.member(this.resolve(f.t, u.file), name, depth + 1);
      if (m && (!best || m.depth < best.depth)) best = m;
    }
    return best;
  }

  /** Method set of an interface type, embedded interfaces included. */
  ifaceMethods(t: Extract<RType, { k: 'iface' }>, depth = 0): Map<string, { sig: MethodSig; file: FileInfo }> {
    const out = new Map<string, { sig: MethodSig; file: FileInfo }>();
    for (const m of t.methods) out.set(m.name, { sig: m, file: t.file });
    if (depth > 8) return out;
    for (const e of t.embeds) {
      const et = this.underlying(this.unalias(this.resolve(e, t.file)));
      if (et.k === 'iface') {
        for (const [n, s] of this.ifaceMethods(et, depth + 1)) if (!out.has(n)) out.set(n, s);
      } else if (et.k === 'basic' && et.n === 'error' && !out.has('Error')) out.set('Error', { sig: { name: 'Error', params: [], results: [{ t: { k: 'named', n: 'string' } }] }, file: t.file });
    }
    return out;
  }
}

export type Member =
  | { kind: 'method'; fn: FuncInfo; depth: number }
  | { kind: 'imethod'; sig: MethodSig; file: FileInfo; iface: RType; depth: number }
  | { kind: 'field'; type: RType; depth: number; owner: RType; field: string };

function pick(t: RType, vi: number | undefined): RType {
  if (vi === undefined) return t.k === 'tuple' ? t.items[0] ?? UNKNOWN : t;
  if (t.k === 'tuple') return t.items[vi] ?? UNKNOWN;
  // `v, ok := m[k]` / `x, ok := y.(T)` / `v, ok := <-ch`: the first is the value, the second a bool.
  return vi === 0 ? t : vi === 1 ? { k: 'basic', n: 'bool' } : UNKNOWN;
}

export function tparamSet(names: string[] | undefined): Set<string> | undefined {
  return names && names.length ? new Set(names) : undefined;
}

export function typeParamsOf(fn: FuncInfo): Set<string> | undefined {
  let f: FuncInfo | undefined = fn;
  const names: string[] = [];
  while (f) {
    if (f.facts.tparams) names.push(...f.facts.tparams);
    if (f.facts.recv?.tparams) names.push(...f.facts.recv.tparams);
    f = f.parent;
  }
  return names.length ? new Set(names) : undefined;
}

/** A readable rendering of a type, used in signatures and for signature comparison. */
export function typeString(t: RType): string {
  switch (t.k) {
    case 'named': return t.t.id;
    case 'ext': return `${t.pkg}.${t.n}`;
    case 'ptr': return `*${typeString(t.e)}`;
    case 'slice': return `[]${typeString(t.e)}`;
    case 'map': return `map[${typeString(t.key)}]${typeString(t.e)}`;
    case 'chan': return `chan ${typeString(t.e)}`;
    case 'func': return `func(${t.params.map(typeString).join(', ')})`;
    case 'iface': return 'interface{...}';
    case 'struct': return 'struct{...}';
    case 'basic': return t.n === 'byte' ? 'uint8' : t.n === 'rune' ? 'int32' : t.n === 'any' ? 'interface{}' : t.n;
    case 'tuple': return `(${t.items.map(typeString).join(', ')})`;
    default: return '?';
  }
}
