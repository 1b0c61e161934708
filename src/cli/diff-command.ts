/** `kubelet-atlas diff --from DIR --to DIR`: what changed in the kubelet between two Kubernetes trees. */
import { Command, Option } from './commander.js';
import writeFileAtomic from 'write-file-atomic';
import { diffMarkdown, diffTrees, notKubernetes, UnknownTopicError } from '../diff/index.js';
import { notesDir } from '../notes/index.js';
import { SourceError, type Scope } from '../source/index.js';
import { buildContext, cacheDirOf, type CommonOptions, type Io } from './context.js';
import { UserError } from './errors.js';

interface DiffOptions extends CommonOptions {
  from?: string;
  to?: string;
  topic?: string;
  out?: string;
  annotations?: string;
  notesDir?: string;
  ports?: string;
  allPackages?: boolean;
  fromLabel?: string;
  toLabel?: string;
  limit?: string;
}

export function registerDiffCommand(program: Command, io: Io, done: (code: number) => void): void {
  program.command('diff').description('compare two Kubernetes trees: functions, call edges, goroutines and channels per topic and package, and what goes stale')
    .requiredOption('--from <dir>', 'the older Kubernetes checkout')
    .requiredOption('--to <dir>', 'the newer Kubernetes checkout')
    .option('--topic <id>', 'only this topic (an annotation id, e.g. pleg)')
    .option('--json', 'the whole report as JSON')
    .option('--out <file>', 'write the report to a file instead of stdout')
    .option('--annotations <dir>', 'annotations folder: topics and annotations.lock.json', 'annotations')
    .option('--notes-dir <dir>', 'notes folder (default: $KUBELET_ATLAS_NOTES, else notes/)')
    .option('--ports <dir>', 'reference ports folder (its @go tags)', 'reference-impl')
    .option('--all-packages', 'compare every indexed package, not only cmd/kubelet and pkg/kubelet')
    .option('--from-label <name>', 'name of the older tree in the report (default: its folder name)')
    .option('--to-label <name>', 'name of the newer tree in the report (default: its folder name)')
    .option('--limit <n>', 'items listed per section in Markdown', '25')
    .option('--goos <os>', 'GOOS of the build context', 'linux')
    .option('--goarch <arch>', 'GOARCH of the build context', 'amd64')
    .option('--tags <a,b>', 'build tags')
    .addOption(new Option('--scope <scope>', 'default: kubelet and what it imports; all: the whole tree').choices(['default', 'all']).default('default'))
    .option('--cache-dir <dir>', 'where the indexes are kept')
    .action(async (_o: unknown, c: Command) => { done(await diffCommand(c.opts() as DiffOptions, io)); });
}

export async function diffCommand(o: DiffOptions, io: Io): Promise<number> {
  const problems = [o.from ? notKubernetes(o.from) : '--from is missing', o.to ? notKubernetes(o.to) : '--to is missing'].filter((p): p is string => !!p);
  if (problems.length) throw new UserError(problems.join('\n'), 2, 'pass two Kubernetes checkouts, e.g. --from ../k8s-1.20.4 --to ../k8s-1.28');
  const limit = Number(o.limit ?? 25);
  if (!Number.isInteger(limit) || limit < 1) throw new UserError(`--limit must be a positive integer, not '${o.limit}'`);
  let report;
  try {
    report = diffTrees({
      fromDir: o.from!, toDir: o.to!, ctx: buildContext(o), cacheDir: cacheDirOf(o, io), scope: (o.scope ?? 'default') as Scope,
      fromLabel: o.fromLabel, toLabel: o.toLabel, annotationsDir: o.annotations, notesDir: notesDir(o.notesDir, io.env), portsDir: o.ports,
      topic: o.topic, allPackages: o.allPackages,
      onStage: io.isTTY ? (s) => io.err(`${s}…\n`) : undefined,
    });
  } catch (err) {
    if (err instanceof UnknownTopicError) {
      throw new UserError(err.message, 2, err.known.length ? `topics: ${err.known.join(', ')}` : `no topics were found in ${o.annotations}; pass --annotations DIR`);
    }
    if (err instanceof SourceError) throw new UserError(err.message, 2, err.hint);
    throw err;
  }
  const text = o.json ? JSON.stringify(report, null, 2) + '\n' : diffMarkdown(report, { limit });
  if (o.out) {
    writeFileAtomic.sync(o.out, text);
    const t = report.totals;
    io.out(`wrote ${o.out}: ${t.changed} functions changed, ${t.added} added, ${t.removed} removed, ${t.renamed} renamed; ${report.stale.length} stale references\n`);
  } else io.out(text);
  return 0;
}
