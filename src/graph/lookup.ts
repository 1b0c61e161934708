/**
 * Finds symbols by full ID or short form: `Kubelet.syncLoop`, `(*Kubelet).syncLoop`,
 * `pleg.GenericPLEG.Relist`, `kubelet.(*Kubelet).Run`. Pointer marks are optional; the package part may
 * be any trailing run of path elements. Ambiguity lists candidates; a miss suggests the nearest names.
 */
import type { SymbolRecord } from '../model/index.js';

export type Lookup =
  | { ok: true; symbol: SymbolRecord }
  | { ok: false; reason: 'ambiguous' | 'unknown'; query: string; candidates: string[] };

/** A symbol's name in its package: its ID without `pkg.` (the key of SymbolFields in resolve/symbols.ts). */
export function symbolName(id: string, pkg: string): string {
  return id.slice(pkg.length + 1);
}

export function normalizeId(id: string): string {
  return id.replace(/\(\*([^)]+)\)/g, '$1');
}

/** Symbols kept elsewhere (the query store), decoded one at a time. */
export interface SymbolSource {
  get(id: string): SymbolRecord | undefined;
  /** Unique IDs; the record `get` returns for each is the active build variant's. */
  symbolIds(): string[];
  allSymbols(): IterableIterator<SymbolRecord>;
  /** IDs whose last element is `name`, when the source keeps such an index. */
  withLastName?(name: string): string[];
  /** The IDs symbolIds gives whose last name `keep` takes, for names of a length in [min, max], when the source can find them faster than symbolIds can list them. */
  symbolIdsByLastName?(keep: (last: string) => boolean, min?: number, max?: number): string[];
  /** Records among allSymbols' that may hold `text` (lower case) in their ID, name or doc, lower cased; at least every one that does. */
  symbolsHolding?(text: string): IterableIterator<SymbolRecord>;
}

/**
 * Whether a later record of an ID takes the place of the one kept so far: the first record of an ID is
 * kept, unless a later one is in the active build variant and it is not.
 */
export function replacesRecord(keptActive: boolean, laterActive: boolean): boolean {
  return !keptActive && laterActive;
}

export class SymbolTable {
  private byId = new Map<string, SymbolRecord>();
  private names?: Map<string, SymbolRecord[]>;
  private readonly source?: SymbolSource;
  private readonly list?: SymbolRecord[];

  constructor(symbols: SymbolRecord[] | SymbolSource) {
    if (!Array.isArray(symbols)) {
      this.source = symbols;
      return;
    }
    this.list = symbols;
    for (const s of symbols) {
      const prev = this.byId.get(s.id);
      if (!prev || replacesRecord(prev.active, s.active)) this.byId.set(s.id, s);
    }
  }

  /** Symbols by their last name, built on the first use (exact IDs never need it). */
  private get byName(): Map<string, SymbolRecord[]> {
    if (!this.names) {
      this.names = new Map();
      if (this.source) for (const id of this.source.symbolIds()) push(this.names, lastName(id), this.source.get(id)!);
      else for (const s of this.byId.values()) push(this.names, lastName(s.id), s);
    }
    return this.names;
  }

  /** One last name's symbols. Over the store, a scan of the IDs is cheaper than the whole name index. */
  private named(name: string): SymbolRecord[] {
    if (this.names || !this.source) return this.byName.get(name) ?? [];
    if (this.source.withLastName) return this.source.withLastName(name).map((id) => this.source!.get(id)!);
    const out: SymbolRecord[] = [];
    for (const id of this.source.symbolIds()) if (id.endsWith(name) && lastName(id) === name) out.push(this.source.get(id)!);
    return out;
  }

  /** Every record as given (all build variants); over the store, the active ones. */
  get symbols(): SymbolRecord[] {
    return this.list ?? [...this.source!.allSymbols()];
  }

  get(id: string): SymbolRecord | undefined {
    return this.source ? this.source.get(id) : this.byId.get(id);
  }

  all(): IterableIterator<SymbolRecord> {
    return this.source ? this.source.allSymbols() : this.byId.values();
  }

  /** The records all() gives that may hold `text` (lower case) in their ID, name or doc, lower cased: at least every one that does. */
  holding(text: string): Iterable<SymbolRecord> {
    return this.source?.symbolsHolding ? this.source.symbolsHolding(text) : this.all();
  }

  lookup(query: string): Lookup {
    const table = this;
    const q = query.trim();
    const exact = this.get(q);
    if (exact) return { ok: true, symbol: exact };
    const nq = normalizeId(q);
    const name = lastName(nq);
    const pool = this.named(name);
    const direct = pool.filter((s) => normalizeId(s.id) === nq);
    if (direct.length === 1) return { ok: true, symbol: direct[0] };
    let matches = pool.filter((s) => {
      const n = normalizeId(s.id);
      return n === nq || n.endsWith(`/${nq}`) || n.endsWith(`.${nq}`);
    });
    // Prefer pointer/value form as typed, and kubelet's own code over its dependencies.
    if (matches.length > 1) {
      const sameForm = matches.filter((s) => s.id.endsWith(q));
      if (sameForm.length >= 1 && sameForm.length < matches.length) matches = sameForm;
    }
    if (matches.length > 1) {
      const funcs = matches.filter((s) => s.kind !== 'package');
      if (funcs.length >= 1) matches = funcs;
    }
    if (matches.length === 1) return { ok: true, symbol: matches[0] };
    if (matches.length > 1) return { ok: false, reason: 'ambiguous', query: q, candidates: matches.map((s) => s.id).sort() };
    // The nearest names are measured when first read: a caller may want them with V8's optimizing
    // compiler on (see cli/context.ts, symbolArg), or not at all.
    let near: string[] | undefined;
    const qualifier = nq.slice(0, Math.max(0, nq.length - name.length - 1));
    return {
      ok: false,
      reason: 'unknown',
      query: q,
      get candidates() {
        return (near ??= table.nearest(name, 5, qualifier));
      },
    };
  }

  /**
   * Names closest to `name` by edit distance, case-insensitively; IDs of equal distance whose part
   * before the name ends as `qualifier` does (`Kubelet` of `Kubelet.syncPod`, pointer marks aside)
   * first, then those nearer with case counted (`run` before `Run` for `runn`), then the shorter, then
   * by ID (UTF-16 code units: the same on every machine). Over the store only the IDs are read, not
   * the records, and only those whose last name is near are decoded (see
   * GraphStore.symbolIdsByLastName); each distinct last name is measured once.
   */
  nearest(name: string, n: number, qualifier = ''): string[] {
    const lower = name.toLowerCase();
    const limit = Math.max(2, Math.floor(name.length / 3));
    const measured = new Map<string, number>();
    const measure = (key: string): number => {
      let d = measured.get(key);
      // A name whose length differs by more than the limit is farther than it: not measured.
      if (d === undefined) measured.set(key, (d = Math.abs(key.length - name.length) > limit ? limit + 1 : distance(lower, key.toLowerCase())));
      return d;
    };
    // The distance with case counted, of the last names taken only.
    const exact = new Map<string, number>();
    const cased = (key: string): number => {
      let c = exact.get(key);
      if (c === undefined) exact.set(key, (c = distance(name, key)));
      return c;
    };
    const scored: { id: string; d: number; q: number; c: number }[] = [];
    const source = this.source;
    const ids = source?.symbolIdsByLastName
      ? source.symbolIdsByLastName((key) => measure(key) <= limit, name.length - limit, name.length + limit)
      : source
        ? source.symbolIds()
        : this.byId.keys();
    for (const id of ids) {
      const key = lastName(id);
      const d = measure(key);
      if (d <= limit) scored.push({ id, d, q: qualifier && qualified(id, key, qualifier) ? 0 : 1, c: cased(key) });
    }
    scored.sort((a, b) => a.d - b.d || a.q - b.q || a.c - b.c || a.id.length - b.id.length || byCodeUnits(a.id, b.id));
    return scored.slice(0, n).map((s) => s.id);
  }
}

/** Whether the part of `id` before its last name `last` ends with `qualifier` (after a `.` or `/`, or whole), pointer marks aside. */
function qualified(id: string, last: string, qualifier: string): boolean {
  const head = normalizeId(id.slice(0, id.length - last.length - 1));
  return head === qualifier || head.endsWith(`.${qualifier}`) || head.endsWith(`/${qualifier}`);
}

/**
 * Two IDs in the order of their UTF-16 code units: the same on every machine, where localeCompare
 * follows the locale, and costs nothing to start (the first localeCompare of a process loads ICU's
 * collation, about 8 ms on the VM we measure on, in a query of 150-200 ms).
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The last element of an ID: `syncLoop` of `pkg.(*Kubelet).syncLoop`, `func1` of a closure. */
export function lastName(id: string): string {
  // What /([^./()*]+)$/ takes, found from the end: the expression tried every start from the left.
  let i = id.length;
  while (i > 0 && !endsLastName(id.charCodeAt(i - 1))) i--;
  return i === id.length ? id : id.slice(i);
}

/** Whether the character (or byte) code `c` is one of . / ( ) *, before which an ID's last name ends (see lastName). */
function endsLastName(c: number): boolean {
  return c === 46 || c === 47 || c === 40 || c === 41 || c === 42;
}

function push<K, V>(map: Map<K, V[]>, key: K, v: V): void {
  const list = map.get(key);
  if (list) list.push(v);
  else map.set(key, [v]);
}

export function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 6) return 99;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}
