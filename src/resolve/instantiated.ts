/**
 * Rapid type analysis's half: the named types the code in scope ever creates a value of — composite
 * literals (`T{}`, `&T{}`), `new(T)`, conversions `T(x)`, and variables or fields declared with type
 * T (their zero value is a usable value). A type that is never created cannot be the dynamic type
 * behind an interface, so class-hierarchy candidates are filtered by this set.
 */
import type { Expr, TypeExpr } from '../parse/index.js';
import type { FileInfo, Program, TypeInfo } from './program.js';
import type { Types } from './types.js';

/** The types one file's code creates, as often as it creates them, before fields are followed (see withFieldTypes). */
export function createdIn(program: Program, types: Types, file: FileInfo): TypeInfo[] {
  const out: TypeInfo[] = [];
  const addType = (t: TypeExpr | undefined, file: FileInfo) => {
    if (!t) return;
    const r = types.unalias(types.resolve(t, file));
    if (r.k === 'named') out.push(r.t);
  };
  const visit = (e: Expr, file: FileInfo): void => {
    switch (e.k) {
      case 'comp':
        addType(e.t, file);
        for (const el of e.elems) visit(el.v, file);
        return;
      case 'conv':
        addType(e.t, file);
        visit(e.x, file);
        return;
      case 'call':
        if (e.f.k === 'id' && (e.f.n === 'new') && e.a[0]?.k === 'type') addType(e.a[0].t, file);
        else if (e.f.k === 'id' && e.a.length === 1) {
          // T(x) written as a call: a conversion when T names a type.
          const t = file.pkg.types.get(e.f.n);
          if (t) out.push(t);
        } else if (e.f.k === 'sel' && e.f.x.k === 'id' && e.a.length === 1) {
          const path = file.imports.get(e.f.x.n);
          const t = path ? program.packages.get(path)?.types.get(e.f.n) : undefined;
          if (t) out.push(t);
        }
        for (const a of e.a) visit(a, file);
        return;
      case 'un':
      case 'assert':
      case 'slice':
        visit(e.x, file);
        return;
      case 'bin':
        visit(e.x, file);
        visit(e.y, file);
        return;
      case 'idx':
        visit(e.x, file);
        for (const i of e.i) visit(i, file);
        return;
      default:
    }
  };
  for (const fn of file.facts.funcs) {
    for (const c of fn.calls) visit({ k: 'call', f: c.f, a: c.a, l: c.l }, file);
    for (const b of fn.binds) {
      if (b.v) visit(b.v, file);
      else if (b.from === 'var') addType(b.t, file);
    }
    for (const a of fn.assigns) visit(a.rhs, file);
    for (const r of fn.returns) for (const v of r.vals) visit(v, file);
  }
  for (const v of file.facts.values) {
    if (v.v) visit(v.v, file);
    else addType(v.t, file);
  }
  return out;
}

/** `base` with the value-typed fields of created structs, followed: the created types. */
export function withFieldTypes(types: Types, base: Iterable<TypeInfo>): Set<TypeInfo> {
  const out = new Set(base);
  // Value-typed fields (embedded or not) of created structs are created with them.
  const queue = [...out];
  while (queue.length) {
    for (const ft of types.fieldTypes(queue.pop()!)) {
      if (out.has(ft)) continue;
      out.add(ft);
      queue.push(ft);
    }
  }
  return out;
}
