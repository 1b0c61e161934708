/** `kubelet-atlas guide` and `kubelet-atlas tour export`: thin handlers over src/outputs. */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from './commander.js';
import writeFileAtomic from 'write-file-atomic';
import {
  checkAnnotations, lookupAnchor, parseAnnotations, readAnnotationFiles, readLock, treeReader, type AnnotationLock, type SymbolStatus, type Topic,
} from '../annotations/index.js';
import { readNotes, notesDir, type Note } from '../notes/index.js';
import { resolveSourceDir } from '../source/index.js';
import type { SymbolRecord } from '../model/index.js';
import { buildGuide, buildPlan, cachedPorts, driftFor, portLookup, stringify, type PlanEntry, type PortCode } from '../outputs/guide/index.js';
import { buildTours, formatTour } from '../outputs/codetour/index.js';
import { cacheDirOf, loadIndex, sourceDir, type CommonOptions, type Io, type Loaded } from './context.js';
import { UserError } from './errors.js';

interface GuideOptions extends CommonOptions {
  annotations?: string;
  lock?: string;
  out?: string;
  lang?: string;
  all?: boolean;
  notes?: string;
  portsRoot?: string;
  offline?: boolean;
}

/** The annotations and ports shipped with kubelet-atlas (dist/src/cli → repository root). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCE_HINT = 'pass --source DIR (a Kubernetes checkout, e.g. of v1.28.0), set KUBELET_ATLAS_SOURCE, or run `kubelet-atlas fetch` to clone the pinned release into the cache';

export function registerGuideCommands(program: Command, common: (c: Command) => Command, io: Io, done: (code: number) => void): void {
  const shared = (c: Command) => common(c)
    .option('--annotations <dir>', 'folder of topic files (default: the annotations shipped with kubelet-atlas)')
    .option('--lock <file>', 'lock file (default: annotations.lock.json in the annotations folder)')
    .addOption(new Option('--lang <lang>', 'language of the prose').choices(['en', 'zh']).default('en'))
    .addOption(new Option('--ports-root <dir>', 'folder holding reference-impl/ (default: the ports shipped with kubelet-atlas)').hideHelp());
  shared(program.command('guide [topic]').description('write Markdown study guides: one topic, or --all with a reading plan (index.md)'))
    .option('--all', 'every topic, plus index.md')
    .option('--offline', 'never clone the pinned release: fail when no tree is at hand')
    .option('--out <dir>', 'output folder', 'guides')
    .option('--notes <dir>', 'study-group notes folder (default: $KUBELET_ATLAS_NOTES, else notes/)')
    .action(async (topic: string | undefined, _o, c: Command) => { done(await guideCommand(topic, c.opts() as GuideOptions, io)); });
  const tour = program.command('tour').description('guided tours of the source');
  shared(tour.command('export').description('write CodeTour .tour files for VS Code: the startup tour and one per topic'))
    .option('--out <dir>', 'output folder', '.tours')
    .option('--offline', 'never clone the pinned release: fail when no tree is at hand')
    .action(async (_o, c: Command) => { done(await tourExportCommand(c.opts() as GuideOptions, io)); });
}

interface Prepared {
  topics: Topic[];
  originals: Topic[];
  lock?: AnnotationLock;
}

function prepare(o: GuideOptions, only?: string): Prepared & { dir: string } {
  const dir = resolve(o.annotations ?? join(PACKAGE_ROOT, 'annotations'));
  if (!existsSync(dir)) throw new UserError(`annotations folder ${dir} does not exist`, 2, 'pass --annotations DIR');
  const files = readAnnotationFiles(dir);
  // One topic needs only its own files (and its translations); parsing all of them costs seconds.
  const own = only ? files.filter((f) => new RegExp(`/${escapeRe(only)}(\\.[a-z]{2}(-[A-Za-z]+)?)?\\.md$`).test(f.path)) : [];
  let { topics } = parseAnnotations(own.length ? own : files);
  if (only && !topics.some((t) => t.id === only && !t.translationOf)) topics = parseAnnotations(files).topics;
  const lockPath = resolve(o.lock ?? join(dir, 'annotations.lock.json'));
  const lock = existsSync(lockPath) ? readLock(lockPath, lockPath).lock : undefined;
  return { dir, topics, originals: topics.filter((t) => !t.translationOf), lock };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function topicList(originals: Topic[]): string {
  return `the topics are:\n${originals.map((t) => `  ${t.id.padEnd(20)} ${t.title.replace(/^"|"$/g, '')}`).join('\n')}`;
}

/** An explicit tree, else a clone in the cache, else (unless --offline) the pinned release cloned now. */
async function requireSource(o: GuideOptions, io: Io): Promise<string> {
  const dir = resolveSourceDir({ source: o.source, env: io.env });
  if (dir) {
    if (!existsSync(dir)) throw new UserError(`source tree ${dir} does not exist`, 2, SOURCE_HINT);
    return dir;
  }
  const cached = join(cacheDirOf(o, io), 'src', (o.ref ?? 'v1.28.0').replace(/\//g, '_'));
  if (existsSync(join(cached, 'go.mod'))) return cached;
  if (o.offline) throw new UserError('no Kubernetes source tree to read: guides quote the Go code', 2, SOURCE_HINT);
  return sourceDir(o, io);
}

function resolver(loaded: Loaded): (written: string) => SymbolRecord | undefined {
  const memo = new Map<string, SymbolRecord | undefined>();
  return (w) => {
    if (!memo.has(w)) {
      const r = lookupAnchor(loaded.table, w);
      memo.set(w, r.ok ? r.symbol : undefined);
    }
    return memo.get(w);
  };
}

async function ports(o: GuideOptions, io: Io): Promise<(goId: string) => PortCode[]> {
  const root = resolve(o.portsRoot ?? PACKAGE_ROOT);
  try {
    const entries = await cachedPorts(root, cacheDirOf(o, io));
    const code = new Map(entries.map((e) => [e.mapping, e.code]));
    return portLookup(entries.map((e) => e.mapping), (m) => code.get(m) ?? '');
  } catch (err) {
    io.err(`warning: reference ports not read (${(err as Error).message}); guides go without them\n`);
    return () => [];
  }
}

function progress(io: Io, enabled: boolean, label: string) {
  const width = 24;
  return (done: number, total: number, what: string) => {
    if (!enabled) return;
    const fill = Math.round((done / Math.max(1, total)) * width);
    io.err(`\r${label} [${'#'.repeat(fill)}${' '.repeat(width - fill)}] ${done}/${total} ${what.padEnd(20)}`);
    if (done === total) io.err('\n');
  };
}

/** With KUBELET_ATLAS_TIMING set, each phase's elapsed milliseconds go to stderr. */
function timer(io: Io): (phase: string) => void {
  const t0 = performance.now();
  return io.env['KUBELET_ATLAS_TIMING'] ? (phase) => io.err(`timing: ${phase} ${Math.round(performance.now() - t0)} ms\n`) : () => {};
}

export async function guideCommand(topicArg: string | undefined, o: GuideOptions, io: Io): Promise<number> {
  const lap = timer(io);
  const p = prepare(o, o.all ? undefined : topicArg);
  lap('annotations');
  let chosen: Topic[];
  if (o.all) chosen = p.originals;
  else {
    const t = p.originals.find((x) => x.id === topicArg);
    if (!t) throw new UserError(topicArg ? `no topic '${topicArg}'` : 'name a topic, or pass --all', 2, topicList(p.originals));
    chosen = [t];
  }
  const lang = o.lang ?? 'en';
  const root = await requireSource(o, io);
  const loaded = await loadIndex({ ...o, source: root }, io);
  lap('index');
  const resolveW = resolver(loaded);
  const get = (id: string) => loaded.table.get(id);
  const read = treeReader(loaded.root);
  // One drift check over every topic: the lock is shared, so is its classification.
  const statuses: SymbolStatus[] = p.lock ? checkAnnotations({ topics: p.topics, lock: p.lock, graph: loaded.result.graph, readSource: read }).symbols : [];
  lap('drift check');
  const portOf = await ports(o, io);
  const notes: Note[] = readNotes(notesDir(o.notes, io.env)).notes;
  lap('ports and notes');

  const out = resolve(o.out ?? 'guides');
  mkdirSync(out, { recursive: true });
  const suffix = lang === 'en' ? '' : `.${lang}`;
  const tick = progress(io, Boolean(o.all) && io.isTTY, 'guides');
  const plan: PlanEntry[] = [];
  const written: string[] = [];
  for (const [i, original] of chosen.entries()) {
    const translated = lang === original.lang ? original : p.topics.find((t) => t.translationOf === original.id && t.lang === lang);
    const topic = translated ?? original;
    const tree = buildGuide({
      topic, fallbackFrom: translated ? undefined : lang, graph: loaded.result.graph, view: loaded.view, get, resolve: resolveW,
      readSource: read, ports: portOf, notes, drift: driftFor(original, statuses, p.lock),
    });
    const file = `${original.id}${suffix}.md`;
    await writeFileAtomic(join(out, file), stringify(tree));
    plan.push({ topic, file });
    written.push(file);
    tick(i + 1, chosen.length, original.id);
  }
  if (o.all) {
    const version = chosen[0]?.version || 'v1.28.0';
    const file = `index${suffix}.md`;
    await writeFileAtomic(join(out, file), stringify(buildPlan(plan, lang, version)));
    written.push(file);
  }
  lap(`${chosen.length} guide${chosen.length === 1 ? '' : 's'} written`);
  for (const f of written) io.out(`wrote ${join(o.out ?? 'guides', f)}\n`);
  return 0;
}

export async function tourExportCommand(o: GuideOptions, io: Io): Promise<number> {
  const p = prepare(o);
  const lang = o.lang ?? 'en';
  const root = await requireSource(o, io);
  const loaded = await loadIndex({ ...o, source: root }, io);
  const resolveW = resolver(loaded);
  const out = resolve(o.out ?? '.tours');
  mkdirSync(out, { recursive: true });
  let skipped = 0;
  for (const original of p.originals) {
    const topic = p.topics.find((t) => t.translationOf === original.id && t.lang === lang) ?? original;
    for (const f of buildTours(topic, resolveW)) {
      await writeFileAtomic(join(out, f.name), formatTour(f.tour));
      io.out(`wrote ${join(o.out ?? '.tours', f.name)} (${f.tour.steps.length} steps)\n`);
      for (const s of f.skipped) io.err(`warning: ${topic.file}: \`@${s}\` names no symbol in this tree; its step is left out\n`);
      skipped += f.skipped.length;
    }
  }
  if (skipped) io.err(`${skipped} step${skipped === 1 ? '' : 's'} left out\n`);
  return 0;
}
