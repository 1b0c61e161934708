/** One handler per command: each takes parsed options, calls the library, and writes text or JSON. */
import type { Edge } from '../model/index.js';
import { channelProducers, edgesToTsv, isRuledOut, type CallTree } from '../graph/index.js';
import { join } from 'node:path';
import { buildIndexResult, indexOptions, loadIndex, withOptimizingCompiler, withQueries, symbolArg, cacheDirOf, type CommonOptions, type Io } from './context.js';
import { backgroundFromEnv, keepInBackground, minutesOf } from './background.js';
import { indexDir } from '../index/stored.js';
import type { IndexResult, WatchBuild } from '../index/build.js';
import { UserError } from './errors.js';

export async function indexCommand(o: CommonOptions & { unresolved?: boolean; watch?: boolean; background?: string; idleExit?: string }, io: Io): Promise<number> {
  if (o.watch && o.background !== undefined) throw new UserError('--background starts a watch of its own: give --watch or --background, not both', 2);
  if (!o.watch && o.idleExit !== undefined) throw new UserError('--idle-exit is for a watch: give it with --watch', 2);
  if (o.watch) return watchCommand(o, io);
  const minutes = o.background !== undefined ? minutesOf(o.background, '--background') : backgroundFromEnv(io.env);
  const options = minutes === undefined ? undefined : await indexOptions(o, io);
  const built = await buildIndexResult(o, io, options?.root);
  const code = printIndex(built.result, o, io, built.watch);
  // A few files changed and the whole scope was resolved again: a watch would have taken it in part.
  const r = built.result;
  if (minutes === undefined && !o.json && r.changed && r.changed.length <= 8 && !r.fromCache && !r.cutOff && !r.incremental && io.isTTY) {
    io.err(`kubelet-atlas: ${r.changed.length === 1 ? 'one file' : `${r.changed.length} files`} changed and every function was resolved again; \`index --background 30\` keeps a watch that resolves such an edit in part (see README: Commands)\n`);
  }
  if (options && minutes !== undefined) {
    const kept = await keepInBackground(o, io, options.root, options.cacheDir ?? cacheDirOf(o, io), indexDir(options), minutes, 5000);
    const say = o.json ? io.err : io.out;
    if ('running' in kept) say(`kept up to date by the watch already running on this index (process ${kept.running.pid})\n`);
    else if ('started' in kept) say(`kept up to date in the background by process ${kept.started}, until ${minutes} minutes pass with no change (log: ${kept.log})\n`);
    else io.err(`kubelet-atlas: the background watch did not start: ${kept.failed}\n`);
  }
  return code;
}

/** How a build's graph was had without resolving (see IndexResult.cutOff), or '' when it was resolved. */
function graphFrom(result: IndexResult, watch?: number): string {
  if (watch !== undefined) return `graph as the index watch (process ${watch}) left it`;
  return result.cutOff === 'facts'
    ? 'graph from cache (the changed files\' facts are the same)'
    : result.cutOff === 'positions'
      ? 'graph from cache with the changed files\' lines moved'
      : result.cutOff === 'records'
        ? 'graph from cache with the changed files\' lines moved and their symbols\' docs and fingerprints made again'
        : result.fromCache ? 'graph from cache' : '';
}

/** The summary of a build, as `index` prints it (or its JSON); the exit code: 1 when it has errors. */
function printIndex(result: IndexResult, o: CommonOptions & { unresolved?: boolean }, io: Io, watch?: number): number {
  // The summary kept with the graph: the graph itself is decoded only to list unresolved sites.
  const g = result.summary;
  const errors = g.diagnostics.filter((d) => d.severity === 'error');
  if (o.json) {
    io.out(JSON.stringify({ stats: g.stats, files: result.files, timings: result.timings, parseThreads: result.parseThreads, fromCache: result.fromCache, cutOff: result.cutOff, watch, diagnostics: g.diagnostics, unresolved: o.unresolved ? result.graph.unresolved : undefined }, null, 2) + '\n');
    return errors.length ? 1 : 0;
  }
  const s = g.stats;
  io.out(`indexed ${g.root}\n`);
  const how = result.parser && result.files.parsed ? ` with the ${result.parser.native ? 'native parser' : 'tree-sitter bindings'} on ${result.parser.workers ? `${result.parser.workers} threads` : 'one thread'}` : '';
  const from = graphFrom(result, watch);
  const graphFromText = from ? `, ${from}` : '';
  // How many files were read and hashed: the others' stats were as the last scan left them.
  const read = result.files.read === undefined ? '' : `, ${result.files.read} read`;
  io.out(`  packages ${s.packages}, files ${s.files} (${result.files.cached} from cache, ${result.files.parsed} parsed${how}${read})${graphFromText}\n`);
  io.out(`  symbols ${s.symbols} (functions, methods and closures: ${s.functions})\n`);
  const kinds = Object.keys(s).filter((k) => k.startsWith('edges.')).sort().map((k) => `${k.slice(6)} ${s[k]}`).join(', ');
  io.out(`  edges ${s.edges}: ${kinds}\n`);
  io.out(`  goroutine starts ${s.goroutines}, channel operations ${s.channelOps}\n`);
  io.out(`  unresolved call sites ${g.unresolved}: ${g.unresolvedByReason.map(([r, n]) => `${r} ${n}`).join(', ')}\n`);
  io.out(`  diagnostics ${g.diagnostics.length} (${errors.length} errors)\n`);
  for (const d of g.diagnostics.filter((x) => x.severity !== 'info').slice(0, 20)) io.out(`    ${d.file ?? ''}${d.line ? ':' + d.line : ''}: ${d.severity}: ${d.message}\n`);
  if (o.unresolved) {
    io.out('\nunresolved call sites by reason:\n');
    const byReason = new Map<string, typeof result.graph.unresolved>();
    for (const u of result.graph.unresolved) {
      const list = byReason.get(u.reason);
      if (list) list.push(u);
      else byReason.set(u.reason, [u]);
    }
    for (const [reason, list] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
      io.out(`  ${reason} (${list.length})\n`);
      for (const u of list.slice(0, 200)) io.out(`    ${u.file}:${u.line}  ${u.callee}  in ${u.caller}\n`);
      if (list.length > 200) io.out(`    … ${list.length - 200} more (use --json for all)\n`);
    }
  }
  return errors.length ? 1 : 0;
}

/**
 * `index --watch`: the first build's summary as `index` prints it, then one line per build that found
 * a change (with --json, one JSON object per line), until SIGINT or SIGTERM. A build that fails is
 * reported and the watch goes on; exit code 0 when stopped, 2 when the first build or the watch fails.
 */
async function watchCommand(o: CommonOptions & { unresolved?: boolean; idleExit?: string }, io: Io): Promise<number> {
  const idle = o.idleExit === undefined ? undefined : minutesOf(o.idleExit, '--idle-exit');
  const options = await indexOptions(o, io, true);
  const { watchIndex, WatchError } = await import('../index/build.js');
  const { SourceError } = await import('../source/errors.js');
  const stop = io.stop ?? interrupted();
  const clock = () => new Date().toTimeString().slice(0, 8);
  let first = true;
  let failed: Error | undefined;
  const onBuild = (b: WatchBuild) => {
    if (first) {
      first = false;
      if (o.json) io.out(JSON.stringify(watchRecord(b)) + '\n');
      else {
        printIndex(b.result, o, io);
        io.out(`watching ${b.watching} folders for changes to Go files and go.mod (Ctrl-C stops)\n`);
      }
      return;
    }
    if (!b.changed) return;
    if (o.json) {
      io.out(JSON.stringify(watchRecord(b)) + '\n');
      return;
    }
    const r = b.result;
    const what = b.touched.length === 0 ? 'a change' : b.touched.length <= 3 ? b.touched.join(', ') : `${b.touched.slice(0, 3).join(', ')} and ${b.touched.length - 3} more`;
    const part = r.incremental ? ` (${r.incremental.redone} of ${r.incremental.functions} functions)` : r.refused ? ` (all of it: ${r.refused})` : '';
    const how = graphFrom(r) || `resolved again${part}: ${r.summary.stats.symbols} symbols, ${r.summary.stats.edges} edges, ${r.summary.unresolved} unresolved sites`;
    const errors = r.summary.diagnostics.filter((d) => d.severity === 'error');
    const after = b.sinceEvent === undefined ? '' : ` (${Math.round(b.sinceEvent)} ms after the first change)`;
    io.out(`${clock()} ${what}: re-indexed in ${Math.round(b.ms)} ms${after}, ${r.files.parsed} parsed, ${how}${errors.length ? `; ${errors.length} errors` : ''}\n`);
    for (const d of errors.slice(0, 5)) io.out(`    ${d.file ?? ''}${d.line ? ':' + d.line : ''}: ${d.message}\n`);
  };
  const onError = (err: Error) => {
    if (err instanceof WatchError) failed = err;
    if (o.json) io.out(JSON.stringify({ event: 'error', message: err.message }) + '\n');
    else if (err instanceof WatchError) io.err(`kubelet-atlas: ${err.message}\n`);
    else io.err(`${clock()} kubelet-atlas: the index could not be built: ${err.message} (the watch goes on: it builds again at the next change)\n`);
  };
  // When the first build found the graph stored, the watch then makes its resolution, kept for edits;
  // either way it rehearses the edits' updates (see index/rehearse.ts).
  const onWarm = (w: { ms: number; kept: boolean }) => {
    if (o.json) io.out(JSON.stringify({ event: 'warm', ms: Math.round(w.ms), kept: w.kept }) + '\n');
    else if (w.kept && w.ms >= 1000) io.out(`${clock()} resolution kept and rehearsed in ${(w.ms / 1000).toFixed(1)} s: an edit of function bodies is re-indexed in part\n`);
  };
  let watch;
  try {
    const idleMs = idle === undefined ? undefined : idle * 60_000;
    const onIdle = () => {
      if (o.json) io.out(JSON.stringify({ event: 'idle', minutes: idle }) + '\n');
      else io.out(`${clock()} no change for ${idle} minutes: the watch stops\n`);
    };
    watch = watchIndex({ ...options, signal: stop, onBuild, onError, onWarm, idleMs, onIdle });
  } catch (err) {
    if (err instanceof SourceError || err instanceof WatchError) throw new UserError(err.message, 2, err instanceof SourceError ? err.hint : undefined);
    throw err;
  }
  await watch.closed;
  return failed ? 2 : 0;
}

/** One build of the watch as a JSON record. */
function watchRecord(b: WatchBuild): object {
  const r = b.result;
  return {
    event: 'build', ms: Math.round(b.ms), sinceEvent: b.sinceEvent === undefined ? undefined : Math.round(b.sinceEvent), touched: b.touched, changed: b.changed,
    cutOff: r.cutOff, incremental: r.incremental, refused: r.refused, fromCache: r.fromCache, files: r.files, timings: r.timings, stats: r.summary.stats, unresolved: r.summary.unresolved,
    errors: r.summary.diagnostics.filter((d) => d.severity === 'error').length, watching: b.watching, fromEvents: b.fromEvents,
  };
}

/** Aborted at the first SIGINT or SIGTERM (the handlers are removed then, so a second one ends the process). */
function interrupted(): AbortSignal {
  const c = new AbortController();
  const stop = () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    c.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return c.signal;
}

export async function fetchCommand(o: CommonOptions, io: Io): Promise<number> {
  const { fetchRelease } = await import('../source/index.js');
  const dir = await fetchRelease({ ref: o.ref, cacheDir: join(cacheDirOf(o, io), 'src'), onProgress: (l) => io.err(`${l}\n`) });
  io.out(`${dir}\n`);
  return 0;
}

export async function callgraphCommand(o: CommonOptions & { format?: string; refs?: boolean; allCandidates?: boolean }, io: Io): Promise<number> {
  const { result } = await loadIndex(o, io);
  const format = o.format ?? 'tsv';
  if (format === 'tsv') io.out(edgesToTsv(result.graph, o.refs, o.allCandidates));
  else if (format === 'json') io.out(JSON.stringify(result.graph.edges.filter((e) => (o.refs || e.mode !== 'ref') && (o.allCandidates || !isRuledOut(e)))) + '\n');
  else throw new UserError(`--format must be tsv or json, not '${format}'`);
  return 0;
}

export async function showCommand(sym: string, o: CommonOptions, io: Io): Promise<number> {
  return withQueries(o, io, ({ table, view }, out) => {
    const id = symbolArg(table, sym);
    const s = table.get(id)!;
    const callers = view.callers(id);
    const callees = view.callees(id);
    if (o.json) {
      out(JSON.stringify({ symbol: s, callers: callers.length, callees: callees.length }, null, 2) + '\n');
      return 0;
    }
    out(`${s.id}\n  ${s.kind}${s.signature ? ' ' + s.signature : ''}\n  ${s.file}:${s.line}-${s.endLine}${s.active ? '' : ' (inactive build variant)'}${s.constraint ? ` [//go:build ${s.constraint}]` : ''}\n`);
    if (s.parent) out(`  closure in ${s.parent}\n`);
    if (s.fields?.length) out(`  fields: ${s.fields.map((f) => (f.embedded ? `(embedded) ${f.type}` : `${f.name} ${f.type}`)).join('; ')}\n`);
    if (s.methods?.length) out(`  methods: ${s.methods.join(', ')}\n`);
    if (s.doc) out(`\n${s.doc.split('\n').map((l) => '  ' + l).join('\n')}\n`);
    out(`\n  ${callers.length} callers, ${callees.length} callees\n`);
    return 0;
  });
}

function edgeLine(e: Edge, side: 'caller' | 'callee'): string {
  const other = side === 'callee' ? e.callee : e.caller;
  const tags = [e.kind, e.mode !== 'call' ? e.mode : '', e.confidence < 1 ? `p=${e.confidence}` : ''].filter(Boolean).join(' ');
  return `${other}  [${tags}]  ${e.file}:${e.line}`;
}

export async function callersCommand(sym: string, o: CommonOptions, io: Io): Promise<number> {
  return withQueries(o, io, ({ table, view }, out) => {
    const id = symbolArg(table, sym);
    const edges = view.callers(id);
    if (o.json) out(JSON.stringify(edges, null, 2) + '\n');
    else {
      out(`${edges.length} callers of ${id}\n`);
      for (const e of edges) out(`  ${edgeLine(e, 'caller')}\n`);
    }
    return 0;
  });
}

export async function calleesCommand(sym: string, o: CommonOptions & { depth?: string }, io: Io): Promise<number> {
  return withQueries(o, io, ({ table, view }, out) => {
    const id = symbolArg(table, sym);
    const depth = Number(o.depth ?? 1);
    if (!Number.isInteger(depth) || depth < 1) throw new UserError(`--depth must be a positive integer, not '${o.depth}'`);
    const tree = view.calleeTree(id, depth);
    if (o.json) {
      out(JSON.stringify(tree, null, 2) + '\n');
      return 0;
    }
    out(`${id}\n`);
    const print = (t: CallTree, indent: string) => {
      for (const c of t.children) {
        out(`${indent}${edgeLine(c.edge, 'callee')}${c.tree.repeated ? '  (see above)' : ''}\n`);
        print(c.tree, indent + '  ');
      }
    };
    print(tree, '  ');
    return 0;
  });
}

export async function pathCommand(from: string, to: string, o: CommonOptions, io: Io): Promise<number> {
  return withQueries(o, io, ({ table, view }, out) => {
    const a = symbolArg(table, from);
    const b = symbolArg(table, to);
    const path = view.path(a, b);
    if (!path) {
      if (o.json) out('null\n');
      else out(`no path from ${a} to ${b}\n`);
      return 1;
    }
    if (o.json) {
      out(JSON.stringify(path, null, 2) + '\n');
      return 0;
    }
    out(`${a}\n`);
    for (const e of path) out(`  → ${e.callee}  [${e.kind}${e.mode !== 'call' ? ' ' + e.mode : ''}, ${e.how}]  ${e.file}:${e.line}\n`);
    return 0;
  });
}

export async function searchCommand(text: string, o: CommonOptions, io: Io): Promise<number> {
  return withQueries(o, io, ({ table, view }, out) => {
    const hits = withOptimizingCompiler(() => view.search(text, table.holding(text.toLowerCase())));
    if (o.json) out(JSON.stringify(hits, null, 2) + '\n');
    else for (const s of hits) out(`${s.id}  (${s.kind})  ${s.file}:${s.line}\n`);
    return hits.length ? 0 : 1;
  });
}

export async function goroutinesCommand(o: CommonOptions & { all?: boolean }, io: Io): Promise<number> {
  return withQueries(o, io, ({ concurrency }, out) => {
    const list = concurrency().goroutines.filter((g) => o.all || /\/(cmd|pkg)\/kubelet/.test(g.file) || g.file.startsWith('cmd/kubelet') || g.file.startsWith('pkg/kubelet'));
    if (o.json) out(JSON.stringify(list, null, 2) + '\n');
    else {
      out(`${list.length} goroutine starts\n`);
      for (const g of list) out(`  ${g.target}\n      started by ${g.starter} via ${g.via}${g.period ? `, every ${g.period}` : ''}  (${g.file}:${g.line})\n`);
    }
    return 0;
  });
}

export async function channelsCommand(sym: string, o: CommonOptions, io: Io): Promise<number> {
  return withQueries(o, io, ({ table, concurrency }, out) => {
    const id = symbolArg(table, sym);
    const rows = channelProducers(concurrency(), id);
    if (o.json) out(JSON.stringify(rows, null, 2) + '\n');
    else {
      out(`${id}: ${rows.length} receives\n`);
      for (const r of rows) {
        const where = r.select !== undefined ? `select #${r.select} case ${r.caseIndex}` : r.op;
        out(`  ${where}: <-${r.expr}  holds ${r.channel}${r.origins?.length ? `, made at ${r.origins.join(', ')}` : ''}  (${r.file}:${r.line})\n`);
        for (const p of r.producers) out(`      sent by ${p}\n`);
        if (r.producers.length === 0) out('      no sender found\n');
      }
    }
    return 0;
  });
}

