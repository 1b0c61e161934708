/** The diff report as an mdast tree, serialized with remark-stringify and GFM tables. */
import type { BlockContent, PhrasingContent, Root, RootContent } from 'mdast';
import { code, heading, list, para, table, text, toMarkdown, shortId } from '../notes/index.js';
import { detail } from './report.js';
import type { ChangeSet, Counts, DiffReport, StaleItem, SymbolChange, TopicDiff } from './types.js';

export interface MarkdownOptions {
  /** Items listed per section before "… and N more" (default 25). */
  limit?: number;
}

export function diffMarkdown(r: DiffReport, opts: MarkdownOptions = {}): string {
  const limit = opts.limit ?? 25;
  const out: RootContent[] = [
    heading(1, `Kubelet changes: ${r.from.label} → ${r.to.label}`),
    para(`Build context ${r.context}. ${r.from.label}: ${r.from.functions} functions and methods; ${r.to.label}: ${r.to.functions}. `
      + 'Changed means the body differs once comments and layout are ignored; churn is changed body lines plus the lines of added and removed functions. '
      + 'Call edges are caller→callee pairs with closures folded into their function and fakes left out.'),
    heading(2, 'Totals'),
    countsTable([['all compared packages', r.totals]]),
  ];
  for (const n of r.notes) out.push(para(n));

  if (r.topics.length) {
    out.push(heading(2, 'Topics, most changed first'));
    out.push(countsTable(r.topics.map((t) => [t.id, t.counts])));
    for (const t of r.topics) out.push(...topicSection(t, limit, r.module));
  }

  if (r.packages.length) {
    out.push(heading(2, 'Packages, most changed first'));
    out.push(countsTable(r.packages.map((p) => [shortPkg(p.pkg, r.module), p.counts])));
  }

  out.push(heading(2, 'What goes stale'));
  if (!r.stale.length) out.push(para('No annotation anchor, note or reference-port tag points at a symbol that changed, was removed or was renamed.'));
  else {
    out.push(table(['consumer', 'symbol', 'what happened', 'where it is used'], r.stale.map((s) => staleRow(s, limit))));
  }
  if (r.newInTo.length) {
    out.push(para(`${r.newInTo.length} anchors, notes or port tags name symbols that exist only in ${r.to.label}: `
      + `${countBy(r.newInTo.map((s) => s.consumer))}.`));
  }
  return toMarkdown({ type: 'root', children: out } satisfies Root);
}

const COLUMNS = ['', 'churn', 'changed', 'added', 'removed', 'renamed', 'moved', 'types', 'edges +/−', 'goroutines +/−', 'channels +/−'];

function countsTable(rows: [string, Counts][]) {
  return table(COLUMNS, rows.map(([name, c]) => [
    code(name), c.churn, c.changed, c.added, c.removed, c.renamed, c.moved, c.typesChanged,
    `+${c.edgesAdded} / −${c.edgesRemoved}`, `+${c.goroutinesAdded} / −${c.goroutinesRemoved}`, `+${c.channelsAdded} / −${c.channelsRemoved}`,
  ]), [null, ...COLUMNS.slice(1).map(() => 'right' as const)]);
}

function topicSection(t: TopicDiff, limit: number, mod: string): RootContent[] {
  const out: RootContent[] = [heading(3, `${t.title} (`, code(t.id), ')')];
  const scope: PhrasingContent[] = [text('Covers ')];
  t.scopes.forEach((s, i) => {
    if (i) scope.push(text(', '));
    scope.push(code(shortPkg(s.pkg, mod)));
    const parts = [...(s.files ?? []).map((f) => f.slice(f.lastIndexOf('/') + 1))];
    if (s.symbols?.length) parts.push(`${s.symbols.length} anchored symbol${s.symbols.length === 1 ? '' : 's'}`);
    if (parts.length) scope.push(text(` (only ${parts.join(', ')})`));
  });
  if (!t.scopes.length) scope.push(text('no package of either tree'));
  out.push(para(...scope, text('.')));
  const lists = changeLists(t, limit, mod);
  out.push(...(lists.length ? lists : [para('Nothing changed here.')]));
  return out;
}

function changeLists(c: ChangeSet, limit: number, mod: string): RootContent[] {
  const out: RootContent[] = [];
  const group = (title: string, items: BlockContent[][] | PhrasingContent[][], total: number) => {
    if (!total) return;
    out.push(heading(4, `${title} (${total})`));
    out.push(list(items));
    if (total > items.length) out.push(para(`… and ${total - items.length} more (see --json).`));
  };
  const fns = (cls: string) => c.functions.filter((f) => f.class === cls);
  for (const [cls, title] of [['changed', 'Functions changed'], ['added', 'Functions added'], ['removed', 'Functions removed'], ['renamed', 'Functions renamed'], ['moved', 'Functions moved to another file']] as const) {
    const xs = fns(cls);
    group(title, xs.slice(0, limit).map(fnItem), xs.length);
  }
  group('Types changed, added or removed', c.types.slice(0, limit).map(fnItem), c.types.length);
  // Calls into the module's own code first: they say more about the kubelet than calls into libraries.
  const own = (id: string) => (id.startsWith(`${mod}/`) ? 0 : 1);
  const edges = (kind: 'added' | 'removed') => c.edges.filter((e) => e.change === kind).sort((x, y) => own(x.callee) - own(y.callee));
  for (const kind of ['added', 'removed'] as const) {
    const xs = edges(kind);
    group(`Call edges ${kind}`, xs.slice(0, limit).map((e) => [code(shortId(e.caller)), text(' → '), code(shortId(e.callee))]), xs.length);
  }
  group('Goroutines started or no longer started', c.goroutines.slice(0, limit).map((g) => [
    text(g.change === 'added' ? 'new: ' : 'gone: '), code(shortId(g.starter)), text(' starts '), code(shortId(g.target)),
    text(` via ${g.via}${g.period ? `, every ${g.period}` : ''}${g.count > 1 ? ` (×${g.count})` : ''} — ${g.file}:${g.line}`),
  ]), c.goroutines.length);
  group('Channels used or no longer used', c.channels.slice(0, limit).map((ch) => [
    text(ch.change === 'added' ? 'new: ' : 'gone: '), code(shortId(ch.holder)), text(' in '),
    ...ch.users.flatMap((u, i) => (i ? [text(', '), code(shortId(u))] : [code(shortId(u))])),
  ]), c.channels.length);
  return out;
}

function fnItem(f: SymbolChange): PhrasingContent[] {
  const where = f.from && f.to ? `${loc(f.from)} → ${loc(f.to)}` : loc((f.to ?? f.from)!);
  const extra = f.class === 'added' || f.class === 'removed' ? `${f.lines ?? '?'} lines` : detail(f);
  const out = [code(shortId(f.id)), text(f.class === 'renamed' ? ` → ` : ''), ...(f.class === 'renamed' ? [code(shortId(f.newId!))] : []), text(` — ${f.class === 'renamed' ? `by ${f.renamedBy}` : extra}; ${where}`)];
  if (f.successor) {
    const d = f.successorChange;
    out.push(text('; probably now '), code(shortId(f.successor)), text(` (name case changed${d ? `, ${d.differ} of ${d.of} lines differ` : ''})`));
  }
  return out;
}

function loc(w: { file: string; line: number; endLine: number }): string {
  return `${w.file}:${w.line}-${w.endLine}`;
}

function staleRow(s: StaleItem, limit: number): (string | PhrasingContent)[] {
  const at = s.at.length > limit ? [...s.at.slice(0, limit), `… ${s.at.length - limit} more`] : s.at;
  return [s.consumer, code(shortId(s.id)), `${s.class}: ${s.detail}`, at.join(', ')];
}

function countBy(xs: string[]): string {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].map(([k, v]) => `${v} ${k}${v === 1 ? '' : 's'}`).join(', ');
}

/** Packages under pkg/kubelet by their path below it; the rest of the module without its prefix. */
export function shortPkg(pkg: string, mod: string): string {
  const kubelet = `${mod}/pkg/kubelet`;
  if (pkg === kubelet) return 'kubelet';
  if (pkg.startsWith(`${kubelet}/`)) return pkg.slice(kubelet.length + 1);
  if (pkg.startsWith(`${mod}/`)) return pkg.slice(mod.length + 1);
  return pkg;
}
