/**
 * Topics come from the annotations: each topic's front matter names a `component` (a dir under
 * pkg/kubelet, or `kubelet` for pkg/kubelet itself) and `entry` symbols. A topic covers its
 * component's packages and its entries' packages. When several topics share a package (pod workers,
 * sync loop and node status all live in pkg/kubelet), each keeps the files that hold its entries
 * and no other topic's entries (pod_workers.go for pod workers), and elsewhere only the symbols it
 * anchors, so their numbers differ.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { SymbolTable } from '../graph/lookup.js';
import type { TopicScope } from './types.js';

export interface TopicDef {
  id: string;
  title: string;
  /** Topic files (the topic and its translations), relative to the repository, e.g. annotations/pleg.md. */
  files: string[];
  component: string;
  entries: string[];
}

/** The anchors of the annotation lock: symbol ID → where it is anchored (`annotations/x.md:12`). */
export type LockAnchors = Map<string, string[]>;

export function loadTopics(dir: string, display = 'annotations'): { topics: TopicDef[]; problems: string[] } {
  const problems: string[] = [];
  const byId = new Map<string, TopicDef>();
  if (!existsSync(dir)) return { topics: [], problems };
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.md')).sort()) {
    const text = readFileSync(join(dir, name), 'utf8');
    const m = /^\ufeff?---\r?\n([\s\S]*?)\r?\n---\s*(\r?\n|$)/.exec(text);
    if (!m) {
      problems.push(`${display}/${name}: no front matter, not used as a topic`);
      continue;
    }
    let fm: Record<string, unknown>;
    try {
      fm = (parseYaml(m[1]) ?? {}) as Record<string, unknown>;
    } catch (err) {
      problems.push(`${display}/${name}: front matter is not valid YAML (${(err as Error).message.split('\n')[0]}), not used as a topic`);
      continue;
    }
    const id = typeof fm.id === 'string' ? fm.id : undefined;
    if (!id || typeof fm.component !== 'string') {
      problems.push(`${display}/${name}: front matter lacks id or component, not used as a topic`);
      continue;
    }
    const prev = byId.get(id);
    const file = `${display}/${name}`;
    if (prev) {
      prev.files.push(file);
      continue;
    }
    const entries = Array.isArray(fm.entry) ? fm.entry.filter((e): e is string => typeof e === 'string') : [];
    const title = typeof fm.title === 'string' ? fm.title : id;
    byId.set(id, { id, title, files: [file], component: fm.component, entries });
  }
  // A translation may sort before its original; the original's title is the one to show.
  return { topics: [...byId.values()].sort((a, b) => a.id.localeCompare(b.id)), problems };
}

/** Reads `anchored` (ID → anchors) from the lock, or undefined when there is no usable lock. */
export function readLockAnchors(file: string): LockAnchors | undefined {
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  const anchored = (raw as { anchored?: unknown })?.anchored;
  if (typeof anchored !== 'object' || anchored === null) return undefined;
  const out: LockAnchors = new Map();
  for (const [id, rec] of Object.entries(anchored as Record<string, unknown>)) {
    const anchors = (rec as { anchors?: unknown })?.anchors;
    const at = Array.isArray(anchors) ? anchors.map((a) => (a as { at?: unknown })?.at).filter((x): x is string => typeof x === 'string') : [];
    out.set(id, at);
  }
  return out;
}

export interface ScopeInput {
  topics: TopicDef[];
  lock?: LockAnchors;
  modulePath: string;
  /** Every package of both trees. */
  packages: Set<string>;
  from: SymbolTable;
  to: SymbolTable;
}

export function topicScopes(input: ScopeInput): Map<string, TopicScope[]> {
  const { topics, modulePath, packages } = input;
  const kubelet = `${modulePath}/pkg/kubelet`;
  const claims = new Map<string, { component: Set<string>; entry: Set<string> }>();
  const claim = (pkg: string, topic: string, how: 'component' | 'entry') => {
    let c = claims.get(pkg);
    if (!c) claims.set(pkg, (c = { component: new Set(), entry: new Set() }));
    c[how].add(topic);
  };
  for (const t of topics) {
    const base = t.component === 'kubelet' ? kubelet : `${kubelet}/${t.component}`;
    for (const p of packages) {
      if (p === base || (t.component !== 'kubelet' && p.startsWith(`${base}/`))) claim(p, t.id, 'component');
    }
    for (const e of t.entries) {
      const pkg = lookupPkg(e, input);
      if (pkg) claim(pkg, t.id, 'entry');
    }
  }

  // In a shared package a topic keeps the files that hold its entries and no other topic's entries,
  // and elsewhere in the package only the symbols it anchors.
  const entryFiles = new Map<string, Set<string>>();
  for (const t of topics) entryFiles.set(t.id, new Set(t.entries.flatMap((e) => places(e, input)).map((p) => `${p.pkg}\t${p.file}`)));
  const owners = new Map<string, number>();
  for (const files of entryFiles.values()) for (const f of files) owners.set(f, (owners.get(f) ?? 0) + 1);

  const out = new Map<string, TopicScope[]>();
  for (const t of topics) {
    const ids = anchoredIds(t, input);
    const scopes: TopicScope[] = [];
    for (const [pkg, c] of [...claims].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (!c.component.has(t.id) && !c.entry.has(t.id)) continue;
      const claimants = new Set([...c.component, ...c.entry]);
      if ((c.component.has(t.id) && c.component.size === 1) || claimants.size === 1) {
        scopes.push({ pkg });
        continue;
      }
      const files = [...entryFiles.get(t.id)!].filter((f) => f.startsWith(`${pkg}\t`) && owners.get(f) === 1).map((f) => f.slice(pkg.length + 1));
      const symbols = [...ids].filter((id) => [input.to, input.from].some((table) => table.get(id)?.pkg === pkg));
      if (files.length || symbols.length) scopes.push({ pkg, files: files.sort(), symbols: symbols.sort() });
    }
    out.set(t.id, scopes);
  }
  return out;
}

/** Package and file of a symbol in each tree that has it. */
function places(query: string, input: ScopeInput): { pkg: string; file: string }[] {
  const out: { pkg: string; file: string }[] = [];
  for (const table of [input.to, input.from]) {
    const r = table.lookup(query);
    if (r.ok) out.push({ pkg: r.symbol.pkg, file: r.symbol.file });
  }
  return out;
}

function lookupPkg(query: string, input: ScopeInput): string | undefined {
  for (const table of [input.to, input.from]) {
    const r = table.lookup(query);
    if (r.ok) return r.symbol.pkg;
  }
  return undefined;
}

/** The full IDs of a topic's entries and (from the lock) of every anchor in its files. */
function anchoredIds(t: TopicDef, input: ScopeInput): Set<string> {
  const ids = new Set<string>();
  for (const e of t.entries) {
    for (const table of [input.to, input.from]) {
      const r = table.lookup(e);
      if (r.ok) ids.add(r.symbol.id);
    }
  }
  if (input.lock) {
    const files = new Set(t.files);
    for (const [id, at] of input.lock) {
      if (at.some((a) => files.has(a.slice(0, a.lastIndexOf(':'))))) ids.add(id);
    }
  }
  return ids;
}
