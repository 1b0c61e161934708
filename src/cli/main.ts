/** The command line: commander parses options and hands them to one handler per command. */
import { Command, CommanderError, Option } from './commander.js';
import * as cmd from './commands.js';
import { UserError } from './errors.js';
import type { CommonOptions, Io } from './context.js';

function common(c: Command): Command {
  return c
    .option('--source <dir>', 'a Kubernetes checkout (default: $KUBELET_ATLAS_SOURCE, else the pinned release is cloned)')
    .option('--ref <tag>', 'release to clone when no source is given', 'v1.28.0')
    .option('--goos <os>', 'GOOS of the build context', 'linux')
    .option('--goarch <arch>', 'GOARCH of the build context', 'amd64')
    .option('--tags <a,b>', 'build tags')
    .addOption(new Option('--scope <scope>', 'default: kubelet and what it imports; all: the whole tree').choices(['default', 'all']).default('default'))
    .option('--cache-dir <dir>', 'where the index and clones are kept')
    .option('--json', 'machine-readable output');
}

/**
 * The commands registered without loading a lazy module. The bin runs these from the bundle (see
 * bundle.ts), which holds no lazy module: its list must be this one (a test compares them).
 */
export const CORE_COMMANDS = ['index', 'fetch', 'callgraph', 'show', 'callers', 'callees', 'path', 'search', 'goroutines', 'channels'];

export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  const program = new Command('kubelet-atlas');
  program.description('A source-reading companion for the Kubernetes kubelet').exitOverride().configureOutput({
    writeOut: (s) => io.out(s),
    writeErr: (s) => io.err(s),
  });
  let code = 0;
  const opts = (c: Command) => c.opts() as CommonOptions;
  common(program.command('index').description('build (or refresh) the index and print a summary'))
    .option('--unresolved', 'list unresolved call sites by reason')
    .option('--watch', 'keep running: build again after each change to a Go file in scope or go.mod')
    .option('--idle-exit <minutes>', 'with --watch: stop once this many minutes pass with no change')
    .option('--background <minutes>', 'then keep a watch running in the background until this many minutes pass with no change (also: $KUBELET_ATLAS_BACKGROUND, for every command)')
    .action(async (_o, c: Command) => { code = await cmd.indexCommand(opts(c), io); });
  common(program.command('fetch').description('clone the pinned release (shallow, sparse) into the cache'))
    .action(async (_o, c: Command) => { code = await cmd.fetchCommand(opts(c), io); });
  common(program.command('callgraph').description('print every call edge'))
    .addOption(new Option('--format <fmt>', 'tsv (CALLER CALLEE KIND FILE:LINE) or json').choices(['tsv', 'json']).default('tsv'))
    .option('--refs', 'also print reference edges (method values and closures taken, not called)')
    .option('--all-candidates', 'also print interface candidates that flow or rapid type analysis rules out')
    .action(async (_o, c: Command) => { code = await cmd.callgraphCommand(opts(c), io); });
  common(program.command('show <symbol>').description('a symbol: kind, signature, place, doc'))
    .action(async (s: string, _o, c: Command) => { code = await cmd.showCommand(s, opts(c), io); });
  common(program.command('callers <symbol>').description('who calls a symbol'))
    .action(async (s: string, _o, c: Command) => { code = await cmd.callersCommand(s, opts(c), io); });
  common(program.command('callees <symbol>').description('what a symbol calls, as a tree'))
    .option('--depth <n>', 'depth of the tree', '1')
    .action(async (s: string, _o, c: Command) => { code = await cmd.calleesCommand(s, opts(c), io); });
  common(program.command('path <from> <to>').description('a shortest call path between two symbols'))
    .action(async (a: string, b: string, _o, c: Command) => { code = await cmd.pathCommand(a, b, opts(c), io); });
  common(program.command('search <text>').description('symbols whose name, ID or doc contains the text'))
    .action(async (t: string, _o, c: Command) => { code = await cmd.searchCommand(t, opts(c), io); });
  common(program.command('goroutines').description('every goroutine the kubelet starts, who starts it and how often it runs'))
    .option('--all', 'include goroutines started outside cmd/kubelet and pkg/kubelet')
    .action(async (_o, c: Command) => { code = await cmd.goroutinesCommand(opts(c), io); });
  common(program.command('channels <symbol>').description('for each receive or select case in a function, the functions that send on that channel'))
    .action(async (s: string, _o, c: Command) => { code = await cmd.channelsCommand(s, opts(c), io); });
  // Heavier command modules (ts-morph, remark, the site builder) load only when their command runs,
  // or all of them for help and unknown commands, so a query does not pay for the site's start-up.
  const first = argv[2];
  const lazy = ['check', 'annotations', 'run', 'notes', 'diff', 'site', 'guide', 'tour'];
  // Help, unknown commands and the lazy ones themselves need their modules; the core commands do not.
  const need = (...names: string[]) => !CORE_COMMANDS.includes(first ?? '') && (first === undefined || !lazy.includes(first) || names.includes(first));
  if (need('check', 'annotations')) {
    const ann = await import('./annotations-commands.js');
  ann.annotationOptions(common(program.command('check').description('check annotation anchors against the lock; with --source, also classify the code under them (fresh, moved, changed, renamed, orphaned)')))
    .action(async (_o, c: Command) => { code = await ann.checkCommand(opts(c), io); });
  const annotations = program.command('annotations').description('topics anchored to Go symbols');
  ann.annotationOptions(common(annotations.command('lock').description('resolve every anchor in a tree and write the lock file')))
    .action(async (_o, c: Command) => { code = await ann.annotationsLockCommand(opts(c), io); });
  ann.annotationOptions(annotations.command('list').description('list the topics, their anchors and problems').option('--json', 'machine-readable output'))
    .action(async (_o, c: Command) => { code = await ann.annotationsListCommand(opts(c), io); });
  }
  if (need('run')) {
    const { runCommand } = await import('./run-command.js');
  program.command('run [scenario]').description('play a scenario (a bundled name or a YAML file) through the reference ports and print its timeline')
    .option('--file <path>', 'a scenario file').option('--list', 'list the bundled scenarios').option('--json', 'machine-readable output')
    .action(async (s: string | undefined, o: { json?: boolean; file?: string; list?: boolean }) => { code = await runCommand(s ?? '', o, io); });
  }
  if (need('notes')) (await import('./notes-commands.js')).registerNotesCommands(program, common, io, (c) => { code = c; });
  if (need('diff')) (await import('./diff-command.js')).registerDiffCommand(program, io, (c) => { code = c; });
  if (need('site')) (await import('./site-command.js')).registerSiteCommand(program, common, io, (c) => { code = c; });
  if (need('guide', 'tour')) (await import('./guide-commands.js')).registerGuideCommands(program, common, io, (c) => { code = c; });
  try {
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UserError) {
      io.err(`kubelet-atlas: ${err.message}\n${err.hint ? err.hint + '\n' : ''}`);
      return err.exitCode;
    }
    const e = err as Error & { code?: string; hint?: string };
    if (e && e.name === 'SourceError') {
      io.err(`kubelet-atlas: ${e.message}\n${e.hint ? e.hint + '\n' : ''}`);
      return 2;
    }
    io.err(`kubelet-atlas: internal error: ${e?.message ?? String(err)}\n`);
    if (io.env['KUBELET_ATLAS_DEBUG']) io.err(`${e?.stack}\n`);
    return 2;
  }
}

export function defaultIo(): Io {
  // A reader piping into `head` closes the pipe early: that is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  return {
    out: (s) => process.stdout.write(s),
    err: (s) => process.stderr.write(s),
    isTTY: Boolean(process.stderr.isTTY),
    env: process.env,
  };
}
