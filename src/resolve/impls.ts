/**
 * Interface → implementations, the way Go's class-hierarchy analysis does it: every named type in
 * scope (from an active file) whose pointer method set, promoted methods included, covers the
 * interface's methods with the same parameter and result counts. Cheap filter first (an index from
 * method name to types), exact arity check last. Types from `fake` and `testing` packages are kept
 * but flagged, so views can rank them last.
 */
import type { FileInfo, FuncInfo, Program, TypeInfo } from './program.js';
import type { MethodSig, Param } from '../parse/index.js';
import { Types, typeString, type RType } from './types.js';

export interface Impl {
  type: TypeInfo;
  /** Method name → the declared method that runs (promoted ones resolve to the embedded type's). */
  methods: Map<string, FuncInfo>;
  fake: boolean;
}

export class Implementations {
  private byMethod = new Map<string, TypeInfo[]>();
  private methodSets = new Map<TypeInfo, Map<string, FuncInfo | null>>();
  /** The types whose method sets took promoted methods from each type (see methodsChanged). */
  private embedders = new Map<TypeInfo, Set<TypeInfo>>();
  /** The types that embed an interface (whose methods may come from interfaces it embeds in turn). */
  private embedsIface = new Set<TypeInfo>();
  /** Each answer of `of`, with the interface asked and the names of its methods (see methodsChanged). */
  private cache = new Map<string, Impl[]>();
  private asked = new Map<string, { iface: RType; names: string[] }>();

  constructor(private program: Program, private types: Types) {
    for (const t of program.types) {
      if (!this.listed(t)) continue;
      for (const name of this.methodSet(t).keys()) {
        let list = this.byMethod.get(name);
        if (!list) this.byMethod.set(name, (list = []));
        list.push(t);
      }
    }
  }

  /** Whether the index from method names lists `t` (a named type of an active file, not an alias nor an interface). */
  private listed(t: TypeInfo): boolean {
    return t.file.active && !t.facts.alias && this.types.underlying({ k: 'named', t }).k !== 'iface';
  }

  /**
   * For a session (see session.ts), after methods named `names` came to or went from the types
   * `types` (their `methods` changed in place) or took another signature: their method sets made
   * again, with those of the types that embed them, the index from those names made again, and the
   * answers of `of` for interfaces with one of those names asked again. With `ifaces` (interfaces'
   * methods changed, `types` holding them and the interfaces that embed them), also the answers for
   * those interfaces, for interfaces that are not named types (a literal may embed one) and for
   * named ones defined by another type (`type J I`): the
   * answer for another named interface changes only through a method of one of those names (a
   * type's method set gains or loses it, through an interface it embeds too). Returns the keys
   * (see keyOf) whose answers changed.
   */
  methodsChanged(types: Iterable<TypeInfo>, names: ReadonlySet<string>, ifaces = false): string[] {
    const given = new Set(types);
    const stale = new Set<TypeInfo>();
    const queue = [...given, ...(ifaces ? this.embedsIface : [])];
    while (queue.length) {
      const t = queue.pop()!;
      if (stale.has(t)) continue;
      stale.add(t);
      for (const e of this.embedders.get(t) ?? []) queue.push(e);
    }
    for (const t of stale) this.methodSets.delete(t);
    for (const name of names) {
      const list = this.program.types.filter((t) => this.listed(t) && this.methodSet(t).has(name));
      if (list.length) this.byMethod.set(name, list);
      else this.byMethod.delete(name);
    }
    const changed: string[] = [];
    for (const [key, { iface, names: wanted }] of this.asked) {
      if (!wanted.some((n) => names.has(n))) {
        if (!ifaces) continue;
        // A named interface defined by another type (`type J I`) takes that type's methods without
        // embedding it: asked again.
        const base = this.types.unalias(iface);
        if (base.k === 'named' && !given.has(base.t) && base.t.facts.t.k !== 'named') continue;
      }
      const was = this.cache.get(key)!;
      this.cache.delete(key);
      if (!sameImpls(was, this.of(iface))) changed.push(key);
    }
    return changed;
  }

  /** Drops the answers of `of` kept under `keys` (see keyOf): for a session, after types went. */
  forgetKeys(keys: ReadonlySet<string>): void {
    for (const key of keys) {
      this.cache.delete(key);
      this.asked.delete(key);
    }
  }

  /** All methods callable on *T: declared, then promoted through embedded fields (null = via an embedded interface). */
  methodSet(t: TypeInfo, depth = 0): Map<string, FuncInfo | null> {
    const cached = this.methodSets.get(t);
    if (cached) return cached;
    const out = new Map<string, FuncInfo | null>();
    this.methodSets.set(t, out);
    for (const [n, fn] of t.methods) out.set(n, fn);
    if (depth > 6) return out;
    const u = this.types.underlying({ k: 'named', t });
    if (u.k !== 'struct') return out;
    for (const f of u.fields) {
      if (!f.embedded) continue;
      let ft = this.types.unalias(this.types.resolve(f.t, u.file));
      if (ft.k === 'ptr') ft = this.types.unalias(ft.e);
      if (ft.k !== 'named') continue;
      const fu = this.types.underlying(ft);
      let by = this.embedders.get(ft.t);
      if (!by) this.embedders.set(ft.t, (by = new Set()));
      by.add(t);
      if (fu.k === 'iface') {
        this.embedsIface.add(t);
        for (const n of this.types.ifaceMethods(fu).keys()) if (!out.has(n)) out.set(n, null);
      } else {
        for (const [n, fn] of this.methodSet(ft.t, depth + 1)) if (!out.has(n)) out.set(n, fn);
      }
    }
    return out;
  }

  private sigStrings = new Map<FuncInfo, string[]>();

  /** Forgets a method's signature as read (see methodSig): for a session, after it changed. */
  forgetSignature(fn: FuncInfo): void {
    this.sigStrings.delete(fn);
  }

  /** Parameter and result types, as strings; '?' where a type cannot be told. */
  private methodSig(fn: FuncInfo): string[] {
    let s = this.sigStrings.get(fn);
    if (!s) {
      s = [...fn.facts.params, { t: { k: 'named', n: '|' } } as Param, ...fn.facts.results].map((p) => (p.t.k === 'named' && p.t.n === '|' ? '|' : typeString(this.types.resolve(p.t, fn.file))));
      this.sigStrings.set(fn, s);
    }
    return s;
  }

  /** Same counts, and the same types wherever both sides can be told (a cheap stand-in for types.Identical). */
  private sameSignature(sig: MethodSig, file: FileInfo | undefined, fn: FuncInfo): boolean {
    if (fn.facts.params.length !== sig.params.length || fn.facts.results.length !== sig.results.length) return false;
    // The builtin error interface has no file: its types are universe types, resolvable anywhere.
    const ctx = file ?? fn.file;
    const want = [...sig.params, null, ...sig.results].map((p) => (p === null ? '|' : typeString(this.types.resolve(p.t, ctx))));
    const have = this.methodSig(fn);
    for (let i = 0; i < want.length; i++) {
      if (want[i].includes('?') || have[i].includes('?')) continue;
      if (want[i] !== have[i]) return false;
    }
    return true;
  }

  /** What `of` caches an interface's implementations under ('' when it has none). */
  keyOf(iface: RType): string {
    const base = this.types.unalias(iface);
    return base.k === 'named' ? base.t.id : base.k === 'iface' ? base.key : base.k === 'basic' ? base.n : '';
  }

  /** Implementations of an interface type (named or literal). */
  of(iface: RType): Impl[] {
    const base = this.types.unalias(iface);
    const key = this.keyOf(iface);
    if (!key) return [];
    const cached = this.cache.get(key);
    if (cached) return cached;
    const u = this.types.underlying(base);
    let wanted: Map<string, { sig: MethodSig; file?: FileInfo }>;
    if (u.k === 'iface') wanted = this.types.ifaceMethods(u);
    else if (u.k === 'basic' && u.n === 'error') wanted = new Map([['Error', { sig: { name: 'Error', params: [], results: [{ t: { k: 'named', n: 'string' } }] } }]]);
    else return [];
    const names = [...wanted.keys()];
    const result: Impl[] = [];
    if (names.length > 0) {
      names.sort((a, b) => (this.byMethod.get(a)?.length ?? 0) - (this.byMethod.get(b)?.length ?? 0));
      for (const t of this.byMethod.get(names[0]) ?? []) {
        const set = this.methodSet(t);
        const methods = new Map<string, FuncInfo>();
        let ok = true;
        for (const n of names) {
          if (!set.has(n)) { ok = false; break; }
          const fn = set.get(n);
          if (fn) {
            const w = wanted.get(n)!;
            if (!this.sameSignature(w.sig, w.file, fn)) { ok = false; break; }
            methods.set(n, fn);
          }
        }
        if (ok) result.push({ type: t, methods, fake: isFake(t.pkg.path) });
      }
    }
    this.cache.set(key, result);
    this.asked.set(key, { iface, names });
    return result;
  }
}

/** Whether two answers of `of` list the same types with the same methods, in the same order. */
function sameImpls(a: Impl[], b: Impl[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i].methods;
    const y = b[i].methods;
    if (a[i].type !== b[i].type || x.size !== y.size) return false;
    for (const [n, fn] of x) if (y.get(n) !== fn) return false;
  }
  return true;
}

export function isFake(pkgPath: string): boolean {
  return /(^|\/)(fake|fakes|testing|testutil|mock|mocks)(\/|$)/.test(pkgPath) || /(^|\/)\w*(fake|mock)\w*$/i.test(pkgPath);
}
