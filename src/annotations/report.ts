/** Text for people: one summary line per class, then what needs attention grouped by topic. */
import type { Diagnostic } from '../model/index.js';
import { splitAt } from './lock.js';
import type { CheckReport, SymbolClass, Topic } from './types.js';

export interface ReportContext {
  topics: readonly Topic[];
  lockFile: string;
  /** The tree checked against, if any. */
  source?: string;
}

export function formatReport(r: CheckReport, ctx: ReportContext): string {
  const s = r.summary;
  const out: string[] = [];
  const against = r.mode === 'tree' ? `against ${ctx.source ?? 'the tree'}` : 'against the lock only (no tree: pass --source DIR to check the code)';
  out.push(`checked ${s.topics} topics, ${s.anchors} anchors, lock ${ctx.lockFile}${r.lockVersion ? ` (${r.lockVersion})` : ''}, ${against}`);
  const row = (label: string, n: number, note = '') => out.push(`  ${label.padEnd(18)} ${String(n).padStart(5)}${note ? `  ${note}` : ''}`);
  if (r.mode === 'tree') {
    row('fresh', s.fresh);
    row('moved', s.moved, 'same body, other place');
    row('changed', s.changed, 'body differs: re-read the prose');
    row('renamed', s.renamed, 'same body under another name');
    row('orphaned', s.orphaned, s.orphaned ? 'FAIL' : '');
    row('unknown anchors', s.unknown, s.unknown ? 'FAIL' : '');
    row('ambiguous anchors', s.ambiguous, s.ambiguous ? 'FAIL' : '');
  }
  row('stale lock', s.stale, s.stale ? 'FAIL' : '');
  out.push(`  ${s.errors} errors, ${s.warnings} warnings: ${r.ok ? 'OK' : 'FAILED'}`);

  const byFile = new Map<string, string[]>();
  const add = (file: string, line: string) => byFile.set(file, [...(byFile.get(file) ?? []), line]);
  const order: SymbolClass[] = ['orphaned', 'renamed', 'changed', 'moved'];
  const shown = new Set<string>();
  for (const st of r.symbols.filter((x) => x.class !== 'fresh').sort((a, b) => order.indexOf(a.class) - order.indexOf(b.class) || a.id.localeCompare(b.id))) {
    for (const a of st.anchors) {
      const [file, line] = splitAt(a.at);
      add(file, `${String(line).padStart(5)}  \`@${a.as}\`  ${st.message}`);
      shown.add(a.at);
    }
  }
  // An anchor whose symbol is gone was just listed as renamed or orphaned, with suggestions; once is enough.
  for (const d of r.diagnostics) {
    if (d.code === 'anchor-unknown' && shown.has(`${d.file}:${d.line}`)) continue;
    add(d.file ?? '(no file)', diagLine(d));
  }
  const topicFiles = ctx.topics.map((t) => t.file);
  const files = [...topicFiles.filter((f) => byFile.has(f)), ...[...byFile.keys()].filter((f) => !topicFiles.includes(f)).sort()];
  for (const f of files) {
    const topic = ctx.topics.find((t) => t.file === f);
    out.push('', topic ? `${topic.id}${topic.lang !== 'en' ? ` (${topic.lang})` : ''}: ${f}` : f);
    for (const l of byFile.get(f)!) out.push(`  ${l}`);
  }
  return out.join('\n') + '\n';
}

function diagLine(d: Diagnostic): string {
  return `${String(d.line ?? '').padStart(5)}  ${d.severity}: ${d.message}${d.hint ? ` (${d.hint})` : ''}`;
}
