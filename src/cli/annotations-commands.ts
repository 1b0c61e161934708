/** `check`, `annotations lock` and `annotations list`: thin handlers over src/annotations. */
import { existsSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from './commander.js';
import type { Diagnostic } from '../model/index.js';
import { resolveSourceDir } from '../source/index.js';
import {
  checkAnnotations, formatReport, loadAnnotations, lockAnnotations, readLock, treeReader, writeLock,
} from '../annotations/index.js';
import { loadIndex, type CommonOptions, type Io } from './context.js';
import { UserError } from './errors.js';
import { checkPortMappings, declaredInTree, portIds, readPortMappings } from '../ports/index.js';
import { checkNotesFolder, notesDir, readNotes } from '../notes/index.js';
import { lockKnows } from '../annotations/source.js';

export interface AnnotationOptions extends CommonOptions {
  annotations?: string;
  lock?: string;
  notes?: string;
}

/** The topics shipped with kubelet-atlas (dist/src/cli → repository root). */
const PACKAGED = fileURLToPath(new URL('../../../annotations', import.meta.url));

/** The options every annotations command takes, added by main.ts when it registers them. */
export function annotationOptions(c: Command): Command {
  return c
    .option('--annotations <dir>', 'folder of topic files (default: the annotations shipped with kubelet-atlas)')
    .option('--lock <file>', 'lock file (default: annotations.lock.json in the annotations folder)')
    .option('--notes <dir>', 'study-group notes folder (default: $KUBELET_ATLAS_NOTES, else notes/)');
}

function places(o: AnnotationOptions): { dir: string; lockPath: string; lockDisplay: string } {
  const dir = resolve(o.annotations ?? PACKAGED);
  if (!existsSync(dir)) throw new UserError(`annotations folder ${dir} does not exist`, 2, 'pass --annotations DIR');
  const lockPath = resolve(o.lock ?? join(dir, 'annotations.lock.json'));
  const rel = relative(join(dir, '..'), lockPath);
  return { dir, lockPath, lockDisplay: rel.startsWith('..') ? lockPath : rel };
}

export async function checkCommand(o: AnnotationOptions, io: Io): Promise<number> {
  const { dir, lockPath, lockDisplay } = places(o);
  const loaded = loadAnnotations(dir);
  const read = readLock(lockPath, lockDisplay);
  // Only an explicit tree (--source or KUBELET_ATLAS_SOURCE) is indexed: CI runs this without one.
  const wantTree = resolveSourceDir({ source: o.source, env: io.env }) !== undefined;
  const tree = wantTree ? await loadIndex(o, io) : undefined;
  const report = checkAnnotations({
    topics: loaded.topics,
    lock: read.lock,
    lockFile: lockDisplay,
    lockText: read.text,
    graph: tree?.result.graph,
    readSource: tree ? treeReader(tree.root) : undefined,
    diagnostics: [...loaded.diagnostics, ...read.diagnostics],
  });
  // The reference ports' @go tags: checked against the index when there is a tree, else the lock.
  const mappings = portMappingsNear(dir);
  const table = tree ? tree.table : undefined;
  const portDiagnostics = read.lock
    ? checkPortMappings(
      mappings,
      (id) => (table && tree ? table.get(id) !== undefined || declaredInTree(tree.root, tree.result.graph.modulePath, id) : lockKnows(read.lock!, id)),
      table ? 'the tree' : `the lock (${lockDisplay})`,
    )
    : [];
  const portErrors = portDiagnostics.filter((d) => d.severity === 'error');
  // Study-group notes: re-anchored like annotations when there is a tree; always parsed.
  const notesFolder = resolve(notesDir(o.notes, io.env));
  const notesCheck = tree ? checkNotesFolder(notesFolder, tree.result.graph) : { ...readNotes(notesFolder), checks: [], summary: undefined };
  const notesBroken = notesCheck.problems.length;
  const notesJson = { dir: notesFolder, problems: notesCheck.problems, checks: notesCheck.checks, summary: notesCheck.summary };
  if (o.json) io.out(JSON.stringify({ source: tree?.root, lock: lockDisplay, ...report, ports: { mappings: mappings.length, ids: portIds(mappings).length, diagnostics: portDiagnostics }, notes: notesJson }, null, 2) + '\n');
  else {
    io.out(formatReport(report, { topics: loaded.topics, lockFile: lockDisplay, source: tree?.root }));
    io.out(`reference ports: ${mappings.length} mappings naming ${portIds(mappings).length} Kubernetes symbols, ${portErrors.length} unknown\n`);
    io.out(portDiagnostics.map(diagText).join(''));
    io.out(formatNotesCheck(notesCheck, notesFolder));
  }
  return report.ok && portErrors.length === 0 && notesBroken === 0 ? 0 : 1;
}

export async function annotationsLockCommand(o: AnnotationOptions, io: Io): Promise<number> {
  const { dir, lockPath, lockDisplay } = places(o);
  const loaded = loadAnnotations(dir);
  const previous = existsSync(lockPath) ? readLock(lockPath, lockDisplay).lock : undefined;
  const tree = await loadIndex(o, io);
  const { lock, diagnostics } = lockAnnotations(loaded.topics, tree.result.graph, treeReader(tree.root), { previous });
  // Record the ports' Kubernetes IDs that exist in this tree, so CI can check the ports without one.
  const mappings = portMappingsNear(dir);
  // IDs in packages outside the indexed scope (test helpers) are checked against the tree's files.
  const modulePath = tree.result.graph.modulePath;
  const known = (id: string) => tree.table.get(id) !== undefined || declaredInTree(tree.root, modulePath, id);
  lock.symbols = portIds(mappings).filter(known);
  diagnostics.push(...checkPortMappings(mappings, known, 'the tree'));
  const all = [...loaded.diagnostics, ...diagnostics];
  const errors = all.filter((d) => d.severity === 'error');
  if (errors.length) {
    io.err(`not writing ${lockDisplay}: ${errors.length} problem${errors.length === 1 ? '' : 's'} to fix first\n`);
    io.err(all.map(diagText).join(''));
    return 1;
  }
  await writeLock(lockPath, lock);
  const anchors = loaded.topics.reduce((n, t) => n + t.anchors.length, 0);
  const summary = { lock: lockDisplay, version: lock.version, goos: lock.goos, goarch: lock.goarch, tags: lock.tags, topics: loaded.topics.length, anchors, queries: Object.keys(lock.queries).length, symbols: Object.keys(lock.anchored).length };
  if (o.json) io.out(JSON.stringify({ ...summary, diagnostics: all }, null, 2) + '\n');
  else {
    io.out(`wrote ${lockDisplay}: ${anchors} anchors in ${summary.topics} topics, ${summary.queries} distinct anchors, ${summary.symbols} symbols, ${lock.version} ${lock.goos}/${lock.goarch}\n`);
    io.out(all.map(diagText).join(''));
  }
  return 0;
}

export async function annotationsListCommand(o: AnnotationOptions, io: Io): Promise<number> {
  const { dir } = places(o);
  const { topics, diagnostics } = loadAnnotations(dir);
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  if (o.json) {
    const rows = topics.map((t) => ({
      id: t.id, lang: t.lang, translationOf: t.translationOf, order: t.order, title: t.title, component: t.component,
      version: t.version, summary: t.summary, file: t.file, entry: t.entry.map((a) => a.symbol),
      anchors: t.anchors.map(({ symbol, line, column, where, path }) => ({ symbol, line, column, where, path })),
      sections: t.sections.map((s) => ({ heading: s.heading, depth: s.depth, line: s.line, key: s.key })),
      tour: t.tour.map((s) => ({ symbol: s.symbol, line: s.line })),
      defaults: t.defaults, questions: t.questions,
    }));
    io.out(JSON.stringify({ topics: rows, diagnostics }, null, 2) + '\n');
    return errors ? 1 : 0;
  }
  io.out(`${topics.length} topics in ${basename(dir)}/\n`);
  for (const t of topics) {
    const lang = t.lang === 'en' ? '' : ` [${t.lang}]`;
    io.out(`  ${String(t.order).padStart(4)}  ${t.id}${lang}  ${t.title}  (${t.anchors.length} anchors${t.tour.length ? `, ${t.tour.length} tour steps` : ''})\n`);
  }
  if (diagnostics.length) io.out('\n' + diagnostics.map(diagText).join(''));
  return errors ? 1 : 0;
}

function diagText(d: Diagnostic): string {
  return `${d.file ?? ''}${d.line ? ':' + d.line : ''}: ${d.severity}: ${d.message}\n`;
}

/** The reference ports next to an annotations folder (none when the folder stands alone). */
function portMappingsNear(dir: string) {
  const root = join(dir, '..');
  return existsSync(join(root, 'reference-impl')) ? readPortMappings(root) : [];
}

function formatNotesCheck(c: { problems: { file: string; line?: number; message: string }[]; checks: { note: string; class: string; message: string }[]; summary?: Record<string, number> }, dir: string): string {
  const count = c.checks.length;
  let out = '';
  if (c.summary) out += `study-group notes in ${dir}: ${count} checked: ${Object.entries(c.summary).map(([k, v]) => `${k} ${v}`).join(', ')}\n`;
  else if (c.problems.length === 0) out += `study-group notes in ${dir}: parsed (pass --source DIR to re-anchor them)\n`;
  // Orphaned and changed notes are shown, never deleted.
  for (const x of c.checks) if (x.class !== 'fresh') out += `  ${x.class}: ${x.note}: ${x.message}\n`;
  for (const p of c.problems) out += `${p.file}${p.line ? ':' + p.line : ''}: error: ${p.message}\n`;
  return out;
}
