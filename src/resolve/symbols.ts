/** Symbol records for every function, method, closure, type, var and const in the program. */
import type { SymbolRecord } from '../model/index.js';
import type { Declared } from '../parse/index.js';
import type { FileInfo, PkgInfo, Program } from './program.js';
import type { Types } from './types.js';

/** Each package's own record, then its files' records, package by package (see SymbolSlots, which lays them out). */
export function collectSymbols(program: Program, types: Types): SymbolRecord[] {
  return SymbolSlots.of(program, (file) => fileSymbols(file, types), packageSymbol).list;
}

/**
 * The symbol list as collectSymbols makes it, kept with where each package's own record and each
 * file's records are in it (its *slots*), for a session: after an edit it makes again only the records
 * of the files the edit changed (and of their packages), and keeps the rest in place. A pass over
 * every package and file, pushing 88,000 records into a list that grew step by step, took about 5 ms
 * of each edit on v1.28. A session's edits keep the packages and their files (see session.ts).
 */
export class SymbolSlots {
  private constructor(
    private readonly slotOf: Map<PkgInfo | FileInfo, number>,
    /** Where each slot's records start in the list, and (last) where the list ends. */
    private starts: Int32Array,
    public list: SymbolRecord[],
    /** How many of the records are functions, methods and closures (see functionCount). */
    public functions = functionCount(list, 0, list.length),
  ) {}

  static of(program: Program, ofFile: (file: FileInfo) => SymbolRecord[], ofPackage: (pkg: PkgInfo) => SymbolRecord): SymbolSlots {
    const slotOf = new Map<PkgInfo | FileInfo, number>();
    const starts: number[] = [];
    const list: SymbolRecord[] = [];
    for (const pkg of program.packages.values()) {
      slotOf.set(pkg, starts.length);
      starts.push(list.length);
      list.push(ofPackage(pkg));
      for (const file of pkg.files) {
        slotOf.set(file, starts.length);
        starts.push(list.length);
        for (const r of ofFile(file)) list.push(r);
      }
    }
    starts.push(list.length);
    return new SymbolSlots(slotOf, Int32Array.from(starts), list);
  }

  /** Files that came since the last update (see withFile), and files that went (see withoutFile). */
  private readonly came = new Set<FileInfo>();
  private readonly went = new Set<FileInfo>();

  /**
   * An empty slot for a file that came, just put into its package's files (where a list made from
   * nothing has its records): the next update makes its records and its package's. The list is not
   * touched (the last graph holds it).
   */
  withFile(file: FileInfo): void {
    const pkgAt = this.slotOf.get(file.pkg);
    const place = file.pkg.files.indexOf(file);
    if (pkgAt === undefined || place < 0 || this.slotOf.has(file)) throw new Error(`${file.facts.path}: not a file that came to a package of the symbol list`);
    const at = pkgAt + 1 + place;
    const starts = new Int32Array(this.starts.length + 1);
    starts.set(this.starts.subarray(0, at + 1));
    starts.set(this.starts.subarray(at), at + 1);
    for (const [key, k] of this.slotOf) if (k >= at) this.slotOf.set(key, k + 1);
    this.slotOf.set(file, at);
    this.starts = starts;
    this.came.add(file);
  }

  /** A file that went, just taken out of its package's files: the next update drops its slot and records, and makes its package's again. */
  withoutFile(file: FileInfo): void {
    if (!this.slotOf.has(file)) throw new Error(`${file.facts.path}: not a file of the symbol list`);
    this.came.delete(file);
    this.went.add(file);
  }

  /**
   * The list with the records of `files` and of their packages made again (the same list when there
   * are none), laid into `into` when it has room (see fitted); with those of files that came made, and
   * those of files that went dropped with their slots.
   */
  update(files: Iterable<FileInfo>, ofFile: (file: FileInfo) => SymbolRecord[], ofPackage: (pkg: PkgInfo) => SymbolRecord, into?: SymbolRecord[]): SymbolRecord[] {
    const made = new Map<number, SymbolRecord[]>();
    const slot = (x: FileInfo | PkgInfo, path: string) => {
      const at = this.slotOf.get(x);
      if (at === undefined) throw new Error(`${path}: not a file the symbol list was made with`);
      return at;
    };
    for (const file of [...files, ...this.came]) {
      made.set(slot(file, file.facts.path), ofFile(file));
      made.set(slot(file.pkg, file.facts.path), [ofPackage(file.pkg)]);
    }
    for (const file of this.went) {
      made.set(slot(file, file.facts.path), []);
      made.set(slot(file.pkg, file.facts.path), [ofPackage(file.pkg)]);
    }
    this.came.clear();
    if (made.size === 0) return this.list;
    const slots = [...made.keys()].sort((x, y) => x - y);
    const { starts, list } = this;
    // Each slot from the first one made again starts where the lengths before it now put it.
    const next = starts.slice();
    for (let k = slots[0], shift = 0; k < next.length - 1; k++) {
      const mine = made.get(k);
      if (mine) shift += mine.length - (starts[k + 1] - starts[k]);
      next[k + 1] = starts[k + 1] + shift;
    }
    // Copied once into one array: slices joined copied each record twice, into two new arrays.
    const out = fitted(into, next[next.length - 1]);
    let o = 0;
    let from = 0;
    for (const k of slots) {
      for (let i = from; i < starts[k]; i++) out[o++] = list[i];
      for (const r of made.get(k)!) out[o++] = r;
      from = starts[k + 1];
    }
    for (let i = from; i < list.length; i++) out[o++] = list[i];
    for (const [k, mine] of made) this.functions += functionCount(mine, 0, mine.length) - functionCount(list, starts[k], starts[k + 1]);
    this.starts = this.went.size > 0 ? this.slotsDropped(next) : next;
    this.list = out;
    return out;
  }

  /** `starts` less the (now empty) slots of the files that went, each other slot renumbered. */
  private slotsDropped(starts: Int32Array): Int32Array {
    const gone = [...this.went].map((f) => this.slotOf.get(f)!).sort((x, y) => x - y);
    for (const file of this.went) this.slotOf.delete(file);
    this.went.clear();
    const below = (k: number) => {
      let n = 0;
      while (n < gone.length && gone[n] < k) n++;
      return n;
    };
    for (const [key, k] of this.slotOf) this.slotOf.set(key, k - below(k));
    const goneSet = new Set(gone);
    return starts.filter((_, k) => !goneSet.has(k));
  }
}

/** How many of records[from..to) are functions, methods and closures (the graph's count of functions). */
export function functionCount(records: readonly SymbolRecord[], from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const kind = records[i].kind;
    if (kind === 'func' || kind === 'method' || kind === 'closure') n++;
  }
  return n;
}

/** `into` cut to `n` items when it has room for them (its items are written over), else a new array of `n`. */
export function fitted<T>(into: T[] | undefined, n: number): T[] {
  if (!into || into.length < n) return new Array<T>(n);
  into.length = n;
  return into;
}

/** A package's own record: its path and name, and its first file at line 1. */
export function packageSymbol(pkg: PkgInfo): SymbolRecord {
  return { id: pkg.path, kind: 'package', pkg: pkg.path, name: pkg.name, file: pkg.files[0]?.facts.path ?? '', line: 1, endLine: 1, fingerprint: '', active: true };
}

/**
 * The records of one file's declarations. They read the file's facts and the declarations of its
 * package (which variant of a name is active, a type's methods), nothing of other files' bodies.
 */
export function fileSymbols(file: FileInfo, types: Types): SymbolRecord[] {
  const out: SymbolRecord[] = [];
  const pkg = file.pkg;
  for (const f of file.facts.funcs) {
    if (f.local === 'init' && f.line === 1 && f.kind === 'func' && f.fingerprint === '') continue;
    const id = `${pkg.path}.${f.local}`;
    const info = pkg.funcs.get(f.local);
    const sig = `func(${f.params.map((p) => (p.name ? p.name + ' ' : '') + shortType(p.t)).join(', ')})${f.results.length ? ' ' + (f.results.length > 1 ? '(' + f.results.map((r) => shortType(r.t)).join(', ') + ')' : shortType(f.results[0].t)) : ''}`;
    out.push({
      id, kind: f.kind === 'closure' ? 'closure' : f.kind === 'method' ? 'method' : 'func', pkg: pkg.path, name: f.name,
      file: file.facts.path, line: f.line, endLine: f.endLine, doc: f.doc, fingerprint: f.fingerprint, signature: sig,
      active: file.active && (info?.facts === f || !info), constraint: file.constraint,
      parent: f.parent !== undefined ? `${pkg.path}.${file.facts.funcs[f.parent].local}` : undefined,
    });
  }
  for (const t of file.facts.types) {
    const info = pkg.types.get(t.name);
    const u = info ? types.underlying({ k: 'named', t: info }) : undefined;
    const isIface = u?.k === 'iface';
    out.push({
      id: `${pkg.path}.${t.name}`, kind: isIface ? 'interface' : 'type', pkg: pkg.path, name: t.name, file: file.facts.path,
      line: t.line, endLine: t.endLine, doc: t.doc, fingerprint: t.fingerprint, active: file.active && info?.facts === t,
      constraint: file.constraint, typeKind: u?.k === 'named' ? 'named' : u?.k ?? t.t.k,
      fields: t.t.k === 'struct' ? t.t.fields.map((fd) => ({ name: fd.name, type: shortType(fd.t), embedded: fd.embedded })) : undefined,
      methods: isIface && u?.k === 'iface' ? [...types.ifaceMethods(u).keys()] : info ? [...info.methods.keys()] : undefined,
    });
  }
  for (const v of file.facts.values) {
    out.push({
      id: `${pkg.path}.${v.name}`, kind: v.kind, pkg: pkg.path, name: v.name, file: file.facts.path, line: v.line, endLine: v.line,
      doc: v.doc, fingerprint: '', active: file.active, constraint: file.constraint,
      signature: v.t ? shortType(v.t) : undefined,
    });
  }
  return out;
}

/**
 * The doc and fingerprint each symbol record of a file takes from its facts, by the symbol's name in
 * its package (what follows `pkg.` in its ID: `f`, `(*T).m`, `f.func1`, `T`, `v`; see symbolName in
 * graph/lookup.ts), in the file's order; a name can repeat (`var _ I = ...`). What collectSymbols would
 * write, for a file whose other facts did not change (see factsShift).
 */
export type SymbolFields = Map<string, { doc?: string; fingerprint: string }[]>;

export function symbolFields(facts: Declared): SymbolFields {
  const out: SymbolFields = new Map();
  const add = (name: string, doc: string | undefined, fingerprint: string) => {
    const list = out.get(name);
    if (list) list.push({ doc, fingerprint });
    else out.set(name, [{ doc, fingerprint }]);
  };
  for (const f of facts.funcs) add(f.local, f.doc, f.fingerprint);
  for (const t of facts.types) add(t.name, t.doc, t.fingerprint);
  // Values have no fingerprint of their own in their records.
  for (const v of facts.values) add(v.name, v.doc, '');
  return out;
}

import type { TypeExpr } from '../parse/index.js';
export function shortType(t: TypeExpr): string {
  switch (t.k) {
    case 'named': return `${t.pkg ? t.pkg + '.' : ''}${t.n}${t.args ? '[' + t.args.map(shortType).join(', ') + ']' : ''}`;
    case 'ptr': return `*${shortType(t.e)}`;
    case 'slice': return `[]${shortType(t.e)}`;
    case 'array': return `[N]${shortType(t.e)}`;
    case 'map': return `map[${shortType(t.key)}]${shortType(t.e)}`;
    case 'chan': return `${t.dir === 'recv' ? '<-chan' : t.dir === 'send' ? 'chan<-' : 'chan'} ${shortType(t.e)}`;
    case 'func': return `func(${t.params.map((p) => shortType(p.t)).join(', ')})`;
    case 'iface': return 'interface{...}';
    case 'struct': return 'struct{...}';
    default: return '?';
  }
}
