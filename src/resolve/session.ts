/**
 * Resolution kept alive between builds, for a process that builds again and again (`index --watch`):
 * after an edit that changes function bodies only, it resolves again just the functions whose
 * results can change, and gives the graph a resolution from nothing would give.
 *
 * While it resolves, the session keeps what each function's resolution and each query read (see
 * Deps). An edit is taken when every changed file keeps its package, values and diagnostics (their
 * positions may move, a value's numbers may change, and constants and plain variables may come,
 * go or change: see literalsChanged and valuesTaken); plain functions and methods may come, go or take another signature (not a
 * generic function's, nor a method's receiver), a struct's fields (embedded ones too) and an
 * interface's methods and embedded interfaces may come, go or change, a type may come or go (with
 * its methods) where only its file's functions name it (see typesTaken), and imports may change
 * where the file's declarations name none of the names they bind otherwise (see importsTaken); files
 * may come or go in packages that stay, as files whose facts were or become empty (see FilesChange). The functions (with their closures) whose records changed
 * (or that name such a name) are *changed*, those whose records only moved are *moved*, and those
 * whose records are the same, positions included, keep their old records and are left alone. Then:
 *
 * 1. the program is changed in place (the same records for what stays, so that what the resolver
 *    keeps stays valid);
 * 2. what changed is named: the changed functions' bodies, the field flows and created types they
 *    add to, the bodies of the functions that name a function that came, went or took another
 *    signature (with the bindings' types, which their results may type), the names of the
 *    methods and fields that came, went or changed (every lookup of a member by name is read as
 *    `m:` and the name), with the bodies their readers read, and the dispatch answers of the
 *    interfaces whose implementations changed;
 * 3. every query and function that read one of those, directly or through other queries, is dropped
 *    or resolved again, with the changed ones; the call-site table is made again for them, and the
 *    callees whose sites changed are named in turn, until nothing more is named. A moved function that
 *    read none of those keeps its last resolution with its lines moved (see shiftOne);
 * 4. the graph's lists are made from the kept outputs (copied in runs from the last graph's), and a
 *    function's channel records are made again when what they read changed (see channelsNow).
 *
 * Any other edit is refused (the caller resolves from nothing), as is every edit after a guard of the
 * query engine fired (answers then depend on order).
 */
import type { ChannelOpRecord, Diagnostic, Edge, GoroutineRecord, Graph, GraphChanges, SymbolRecord, UnresolvedSite } from '../model/index.js';
import type { Expr, FileFacts, FuncFacts, TypeFacts, TypeExpr, ValueFacts } from '../parse/index.js';
import { recordsShift } from '../parse/index.js';
import type { FileInfo, FuncInfo, PackageInput, PkgInfo, Program, TypeInfo } from './program.js';
import { declareValues, factsDiagnostics, funcsInOrder, importsOf } from './program.js';
import { CallResolver } from './calls.js';
import { Deps } from './deps.js';
import { finishGraph, type ResolveMeta } from './finish.js';
import { fileSymbols, fitted, packageSymbol, SymbolSlots } from './symbols.js';
import type { Rank } from './parts.js';
import { channelsOf, goEdges, goroutinesOf } from './concurrency.js';

/**
 * Files that came or went with an update (see ResolveSession.update). A file that came has its facts
 * among the update's changed files, with its package (one the program has), whether it is in the
 * build (it must be), its build constraint, and the file of its package it comes before in the
 * scope's order (none: it is the last).
 */
export interface FilesChange {
  came: { path: string; importPath: string; active: boolean; constraint?: string; before?: string }[];
  went: string[];
}

/** An update's graph, with what may differ from the graph before it (undefined when not known: see finish). */
export type SessionUpdate = { graph: Graph; changes?: GraphChanges; functions: number; redone: number; timings: Record<string, number> } | { refused: string };

interface Output {
  edges: Edge[];
  unresolved: UnresolvedSite[];
}

/** The readers under which the channel records are made: this and the function's ID (see ResolveSession.channelsNow). */
const CHANNELS = 'c:';

/**
 * After an update, the functions whose channel records read only bodies that moved (see shiftOne):
 * their IDs, the lines of each one that moved itself (old to new), and each changed file's lines.
 */
interface ChannelMoves {
  ids: Set<string>;
  own: Map<string, Map<number, number>>;
  files: Map<string, Map<number, number>>;
}

/**
 * A function's channel records with their lines moved: its own by `own` (when it moved), and the lines
 * of the `make@FILE:LINE` origins they name by the moved lines of that file (a line there that did
 * not move stays). Undefined when a line of its own has no new line (the records are made again).
 */
function movedRecords(records: ChannelOpRecord[], own: Map<number, number> | undefined, files: Map<string, Map<number, number>>): ChannelOpRecord[] | undefined {
  const out: ChannelOpRecord[] = [];
  for (const r of records) {
    const line = own ? own.get(r.line) : r.line;
    if (line === undefined) return undefined;
    const origins = r.origins?.map((o) => {
      const m = /^make@(.*):(\d+)$/.exec(o);
      const to = m && files.get(m[1])?.get(Number(m[2]));
      return to === undefined || to === null ? o : `make@${m![1]}:${to}`;
    });
    out.push(line === r.line && origins?.every((o, i) => o === r.origins![i]) !== false ? r : { ...r, line, origins });
  }
  return out;
}

/** Records with their lines moved by `lines` (old line to new; a record whose line did not move is kept), or undefined when a line has no new line. */
function withLinesMoved<T extends { line: number }>(records: readonly T[], lines: Map<number, number>): T[] | undefined {
  const out: T[] = new Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const line = lines.get(r.line);
    if (line === undefined) return undefined;
    out[i] = line === r.line ? r : { ...r, line };
  }
  return out;
}

/** What a graph was made of, kept for the next (see ResolveSession.collect). */
interface Collected {
  order: FuncInfo[];
  edges: Edge[];
  unresolved: UnresolvedSite[];
  /** Where each function's edges, and its unresolved sites, begin in the lists (one more: the end). */
  edgeAt: Uint32Array;
  unresolvedAt: Uint32Array;
  /** The edges by kind, the kinds in the order the edges first have them. */
  kinds: Map<string, number>;
  /** The unresolved sites by reason (a reason no site has any more may stay, at 0). */
  reasons: Map<string, number>;
  goroutines: GoroutineRecord[];
  /** The functions that start goroutines. */
  starters: Set<FuncInfo>;
  /**
   * After an update, the callees of the last graph's edges that were dropped (those of functions
   * resolved again or gone); undefined without a last graph, or when the last order was not walked to
   * its end in step with this one.
   */
  dropped?: Set<string>;
}

/**
 * `counts` without kinds no edge has, in the order `edges` first have them (the order a count from
 * scratch gives): the first edges are read until every kind is met, most often a few.
 */
function firstSeen(counts: Map<string, number>, edges: Edge[]): Map<string, number> {
  const out = new Map<string, number>();
  let left = [...counts.values()].filter((n) => n > 0).length;
  for (let k = 0; k < edges.length && left > 0; k++) {
    const kind = edges[k].kind;
    if (out.has(kind)) continue;
    out.set(kind, counts.get(kind)!);
    left--;
  }
  return out;
}

/** The last stamp rankIn gave (see FuncInfo.rankOf). */
let rankStamps = 0;

/**
 * Each function's place in `order`: found by a scan for the first few asked (an update of a few
 * functions asks for those few), then written on the functions themselves, once, under a stamp of this
 * order's own (see FuncInfo.rankOf). A map of them all took 10-20 ms to make (80,000 functions on
 * v1.28), in every update that followed one whose functions came or went.
 */
function rankIn(order: FuncInfo[]): Rank {
  let stamp = 0;
  let scans = 0;
  const get = (fn: FuncInfo): number | undefined => {
    if (!stamp && scans++ < RANK_SCANS) {
      const i = order.indexOf(fn);
      return i < 0 ? undefined : i;
    }
    // Written when first needed, and again if another order has been written since.
    if (stamp === 0 || stamp !== rankStamps) {
      stamp = ++rankStamps;
      for (let i = 0; i < order.length; i++) {
        order[i].rankOf = stamp;
        order[i].rankAt = i;
      }
    }
    return fn.rankOf === stamp ? fn.rankAt : undefined;
  };
  return { get, has: (fn) => get(fn) !== undefined };
}

/** At most this many new functions are spliced into the last order (see Session.spliced). */
const SPLICED_MAX = 16;

/** How many places rankIn finds by a scan (each a pass over some 80,000 pointers on v1.28) before it writes them all on the functions. */
const RANK_SCANS = 16;

/** A function with its closures, by their indexes in the file's list: the top-level function first. */
type Unit = number[];

/** What an update will do to one file (see plan). */
interface FilePlan {
  file: FileInfo;
  next: FileFacts;
  /** Units by key (see unitsOf), old and new. */
  old: Map<string, Unit>;
  now: Map<string, Unit>;
  changed: string[];
  moved: string[];
  /** Each moved unit's old lines to its new ones (see recordsShift). */
  lines: Map<string, Map<number, number>>;
  /** Units whose records are the same as before, positions and links included (see apply). */
  same: string[];
  added: string[];
  removed: string[];
  /**
   * When the file's types changed in place (see typesTaken): the names of the struct fields that
   * came, went or took another type, and of the interface methods that came, went or took another
   * signature (`ifaces`, the interfaces that changed, when any did).
   */
  fields?: Set<string>;
  ifaces?: { types: Set<string>; names: Set<string> };
  /** The names of the types that came and went (see typesTaken), when any did. */
  typeNames?: { came: Set<string>; went: Set<string> };
  /** The structs whose embedded fields changed, and the names of the members those fields promote (see promotedNames), when any did. */
  embedding?: { types: Set<string>; names: Set<string> };
  /** Methods whose signatures changed (their receivers stay), by key. */
  resigned: string[];
  /** The names the file's imports bind now, when they changed, and the names bound otherwise (see importsTaken). */
  imports?: Pick<FileInfo, 'imports' | 'dot'> & { names: Set<string> };
  /** The package values whose numbers changed, and nothing else of them (see literalsChanged), when any did. */
  literals?: Set<string>;
  /** The constants and plain variables that came, went or changed otherwise (see valuesTaken), when any did. */
  valueNames?: Set<string>;
}

export class ResolveSession {
  private deps = new Deps();
  private resolver: CallResolver;
  private outputs = new Map<FuncInfo, Output>();
  /** The goroutines each function the program lists by its ID starts (see goroutinesOf). */
  private goroutines = new Map<FuncInfo, GoroutineRecord[]>();
  /** Each file's symbol records, made again when its facts are replaced. */
  private symbols = new Map<FileInfo, SymbolRecord[]>();
  /** The last graph's symbol list, by package and file (see SymbolSlots). */
  private slots?: SymbolSlots;
  /** Each package's own symbol record, kept while it reads the same (see finish). */
  private packageSymbols = new Map<PkgInfo, SymbolRecord>();
  /** The records the last graph had of the files whose records are to be made again (see finish). */
  private staleSymbols = new Map<FileInfo, SymbolRecord[]>();
  /** The last graph made. */
  private lastGraph?: Graph;
  /** The last update's order and the places in it. */
  private lastRank?: { order: FuncInfo[]; rank: Rank };
  /** The active files, by path. */
  private files = new Map<string, FileInfo>();
  /** Each active file's functions, in the order of its facts. */
  private infos = new Map<FileInfo, FuncInfo[]>();
  /** The inputs the program was built from, by path (the facts of changed files replaced as they change). */
  private inputs = new Map<string, PackageInput['files'][number]>();
  /** Set when an update failed half-way: the program may be half changed, so nothing more is taken. */
  private broken?: string;
  /** What the last graph was made of (see collect). */
  private last?: Collected;

  /**
   * The last graph's unresolved sites by reason, as its summary counts them (see summarizeGraph),
   * kept as updates go: counting them from the sites took 3-5 ms of a watch's build on v1.28 (21,000
   * sites, read all over the heap).
   */
  unresolvedReasons(): Map<string, number> | undefined {
    return this.last && new Map([...this.last.reasons].filter(([, n]) => n > 0));
  }
  /** Functions resolved again or dropped since the last graph was made. */
  private touched = new Set<FuncInfo>();
  /** The diagnostics of the files' facts (see factsDiagnostics), kept while no file that has or had some changes: a pass over every file. */
  private factsDiagnostics?: Diagnostic[];
  /** The arrays prepare made for the next graph's lists, taken by the graph that uses them. */
  private spare?: Spare;
  /** Files that went in the update being made, whose records the graph it makes drops (see finish). */
  private went = new Set<FileInfo>();

  private constructor(private program: Program, private packageInputs: PackageInput[]) {
    this.resolver = new CallResolver(program, this.deps);
    for (const input of packageInputs) for (const f of input.files) this.inputs.set(f.facts.path, f);
    const byFacts = new Map<FuncFacts, FuncInfo>();
    for (const fn of [...funcsInOrder(program), ...program.inits]) {
      byFacts.set(fn.facts, fn);
      for (const v of fn.variants ?? []) byFacts.set(v.facts, v);
    }
    for (const pkg of program.packages.values()) {
      for (const file of pkg.files) {
        if (!file.active) continue;
        const infos = file.facts.funcs.map((f) => byFacts.get(f));
        this.files.set(file.facts.path, file);
        // A file with a function the program does not list (a second declaration) is not patched.
        if (infos.every((i) => i !== undefined)) this.infos.set(file, infos as FuncInfo[]);
      }
    }
  }

  /** Resolves `program` (built from `inputs`) as resolveProgram does, keeping what each part read. */
  static start(program: Program, inputs: PackageInput[], meta: ResolveMeta): { session: ResolveSession; graph: Graph } {
    const session = new ResolveSession(program, inputs);
    const order = session.order();
    for (const fn of order) session.resolveOne(fn);
    session.startsOf(order);
    return { session, graph: session.finish(meta, order).graph };
  }

  /**
   * The graph after the files of `changed` took these facts (each file's path is in the facts), with
   * `meta` for the rest (its diagnostics those of the source stage); or why the edit is not taken.
   * A refused edit leaves the session as it was.
   */
  update(changed: FileFacts[], meta: ResolveMeta, files?: FilesChange): SessionUpdate {
    if (this.broken) return { refused: `an earlier update failed (${this.broken})` };
    if (this.resolver.guardsFired()) return { refused: 'a guard of the query engine fired: answers may depend on order' };
    // Files that came are planned as files whose facts were empty, and files that went as files whose
    // facts became empty: what they declare comes or goes as in an edit (see plan).
    const cameFiles = new Map<string, { file: FileInfo; came: FilesChange['came'][number] }>();
    for (const c of files?.came ?? []) {
      const why = this.comes(c);
      if (typeof why === 'string') return { refused: `${c.path}: ${why}` };
      cameFiles.set(c.path, { file: why, came: c });
    }
    const wentFiles = new Set<FileInfo>();
    const plans: FilePlan[] = [];
    for (const path of files?.went ?? []) {
      const file = this.files.get(path);
      if (!file) return { refused: `${path}: a file that went was not in the build` };
      const why = this.packageKeeps(file.pkg, path);
      if (why) return { refused: `${path}: ${why}` };
      const plan = this.plan(emptyFacts(path, file.facts.pkg));
      if (typeof plan === 'string') return { refused: `${path} went: ${plan}` };
      wentFiles.add(file);
      plans.push(plan);
    }
    // Each plan is made against the program before the edit: two files may not bring one name.
    const came = new Set<string>();
    for (const next of changed) {
      const cameFile = cameFiles.get(next.path);
      if (cameFile && next.pkg !== cameFile.file.pkg.name) return { refused: `${next.path}: a file of package ${next.pkg} came to package ${cameFile.file.pkg.name}` };
      const plan = this.plan(next, cameFile?.file);
      if (typeof plan === 'string') return { refused: `${next.path}${cameFile ? ' came' : ''}: ${plan}` };
      for (const n of plan.typeNames?.came ?? []) {
        const id = `${plan.file.pkg.path}.${n}`;
        if (came.has(id)) return { refused: `${next.path}: ${n} came in two files` };
        came.add(id);
      }
      plans.push(plan);
    }
    for (const path of cameFiles.keys()) if (!changed.some((f) => f.path === path)) return { refused: `${path}: a file that came has no facts` };
    const mentions = this.mentions(plans);
    if (typeof mentions === 'string') return { refused: mentions };
    try {
      for (const { file, came } of cameFiles.values()) this.attach(file, came);
      return this.apply(plans, mentions, meta, wentFiles);
    } catch (err) {
      this.broken = (err as Error).message;
      return { refused: `the update failed (${this.broken})` };
    }
  }

  /**
   * Makes the arrays the next update's graph will lay its edges, unresolved sites and symbol records
   * into, and the next order of functions when functions come or go, a little longer than the last
   * ones, for a caller that can run this while it waits for the next edit (the watch, after its
   * report). The next update takes them (no other holds them, so nothing anyone kept is written over);
   * an update whose list outgrew its array, or that comes with none made, makes its own. Making a list
   * the length of v1.28's edges (184,000 items) costs about 5 ms here, nearly all of it the system
   * mapping in fresh memory page by page: within an update, the three lists cost 10-15 ms of its
   * finish, and the order 3-5 ms of a function appended.
   */
  prepare(): void {
    const symbols = this.slots?.list;
    if (!this.last || !symbols) return;
    this.spare = { edges: room(this.last.edges.length), unresolved: room(this.last.unresolved.length), symbols: room(symbols.length), order: room(this.last.order.length) };
  }

  /**
   * Puts the program's map of functions back in order when an update left new IDs at its end (see
   * orderWith), for a caller that can run this while it waits for the next edit; otherwise the next
   * update that reads the map in order does it (on v1.28 the first file added after a warm start paid
   * it: 267 ms of its resolve.patch, 32 ms with the map put in order before).
   */
  settle(): void {
    funcsInOrder(this.program);
  }

  /** The array prepare made for the next order of functions, taken (once) by the update that makes one. */
  private takeOrder(): FuncInfo[] | undefined {
    const order = this.spare?.order;
    if (this.spare) this.spare.order = undefined;
    return order;
  }

  /** The last graph made (the one the next update starts from). */
  lastGraphMade(): Graph | undefined {
    return this.lastGraph;
  }

  /** The package and build constraint of the file at `path` when it is in the build (see FilesChange). */
  fileInBuild(path: string): { importPath: string; constraint?: string } | undefined {
    const file = this.files.get(path);
    return file && { importPath: file.pkg.path, constraint: file.constraint };
  }

  /** The facts the session has for the file at `path` (relative, as in the facts). */
  factsOf(path: string): FileFacts | undefined {
    return this.inputs.get(path)?.facts;
  }

  private order(): FuncInfo[] {
    return [...funcsInOrder(this.program), ...this.program.inits].filter((fn) => fn.file.active);
  }

  /**
   * A moved function's last resolution with its lines moved by `lines` (old line to new): what
   * resolving it again gives, since resolution reads positions only to compare them with others of the
   * same function and to copy them out (see the module's doc). False when a line of it has no new line
   * (it is resolved again). Resolving again the functions an edit moved (those after the edit in its
   * file) was most of an edit's resolution: a line added to a method of `kubelet.go` moved 52 others.
   */
  private shiftOne(fn: FuncInfo, lines: Map<number, number>): boolean {
    const was = this.outputs.get(fn);
    const edges = was && withLinesMoved(was.edges, lines);
    const unresolved = edges && withLinesMoved(was!.unresolved, lines);
    if (!unresolved) return false;
    this.outputs.set(fn, { edges, unresolved });
    this.touched.add(fn);
    return true;
  }

  private resolveOne(fn: FuncInfo): void {
    const out: Output = { edges: [], unresolved: [] };
    this.resolver.asUnit(fn, () => this.resolver.resolveFunction(fn, out.edges, out.unresolved));
    this.outputs.set(fn, out);
    this.touched.add(fn);
  }

  /**
   * The goroutines started by `fns` (those the program lists by their ID), read as part of their
   * resolution. A package's initializers share one ID: the one listed reads the `go` edges of all.
   */
  private startsOf(fns: Iterable<FuncInfo>): void {
    const inits = new Set([...fns].filter((fn) => fn.facts.local === 'init').map((fn) => fn.pkg));
    const todo = new Set([...fns].filter((fn) => this.program.funcs.get(fn.id) === fn));
    for (const pkg of inits) {
      const init = pkg.funcs.get('init');
      if (init && init.file.active && this.program.funcs.get(init.id) === init) todo.add(init);
    }
    for (const fn of todo) {
      const edges = fn.facts.local === 'init' ? [fn, ...this.program.inits.filter((i) => i.id === fn.id)].flatMap((i) => this.outputs.get(i)?.edges ?? []) : this.outputs.get(fn)?.edges ?? [];
      this.goroutines.set(fn, this.resolver.asUnit(fn, () => goroutinesOf(fn, this.resolver, goEdges(edges))));
    }
  }

  /**
   * The graph from the kept parts; `order` is the program's (see order), and `rank` each function's
   * place in it when an update has it. After an update, with what may differ from the graph before
   * (see GraphChanges): the edges of the functions resolved again or gone, the records of the files
   * whose records were made again and of the packages whose record changed.
   */
  private finish(meta: ResolveMeta, order = this.order(), rank?: Rank, channels?: Set<string>, moves?: ChannelMoves): { graph: Graph; changes?: GraphChanges } {
    const spare = this.spare;
    this.spare = undefined;
    const { edges, unresolved, kinds, goroutines, dropped } = (this.last = this.collect(order, rank, spare));
    const callers = new Set([...this.touched].map((fn) => fn.id));
    const records = new Set<string>();
    // The packages whose records were made again.
    const remade = new Set<PkgInfo>();
    this.touched.clear();
    const diagnostics = [...meta.diagnostics, ...(this.factsDiagnostics ??= factsDiagnostics(this.packageInputs))];
    const symbolsOf = (file: FileInfo) => {
      let list = this.symbols.get(file);
      if (!list) {
        this.symbols.set(file, (list = fileSymbols(file, this.resolver.types)));
        for (const r of [...(this.staleSymbols.get(file) ?? []), ...list]) records.add(r.id);
        this.staleSymbols.delete(file);
        remade.add(file.pkg);
      }
      return list;
    };
    // A package's record is the last one while it reads the same: the graph's writers copy what they
    // made for the records they had before (see runsOf), and a record made again would be written again.
    const packageOf = (pkg: PkgInfo) => {
      const was = this.packageSymbols.get(pkg);
      const now = packageSymbol(pkg);
      if (was && was.name === now.name && was.file === now.file) return was;
      this.packageSymbols.set(pkg, now);
      records.add(now.id);
      remade.add(pkg);
      return now;
    };
    // The records of files that went are gone (their packages' records are looked at for their IDs).
    for (const file of this.went) {
      for (const r of this.staleSymbols.get(file) ?? []) records.add(r.id);
      this.staleSymbols.delete(file);
      remade.add(file.pkg);
    }
    this.went.clear();
    // After an update, the records of the files it changed (and of their packages) are made again in
    // the last list; else every record is listed again.
    const stale = [...this.staleSymbols.keys()];
    const symbols = this.deps.none(() => (rank && this.slots ? this.slots.update(stale, symbolsOf, packageOf, spare?.symbols) : (this.slots = SymbolSlots.of(this.program, symbolsOf, packageOf)).list));
    const graph = this.deps.none(() => finishGraph(this.program, this.resolver, edges, unresolved, { ...meta, diagnostics }, { symbols, functions: this.slots!.functions, goroutines, kinds, channels: this.channelsNow(channels, rank, moves) }));
    const since = this.lastGraph;
    this.lastGraph = graph;
    // Every file's records made before this graph, but those made again for it (see apply).
    const known = since && dropped && this.staleSymbols.size === 0;
    this.staleSymbols.clear();
    if (!known) return { graph };
    return { graph, changes: { since, callers, into: dropped, records, edgesOf: (id) => this.edgesOf(id), recordsOf: () => this.recordsOf(records, remade) } };
  }

  /**
   * The last graph's edges of caller `id` (see GraphChanges.edgesOf): its function's kept output.
   * Undefined for a package's initializers, which share one ID.
   */
  private edgesOf(id: string): readonly Edge[] | undefined {
    const fn = this.program.funcs.get(id);
    if (!fn) return [];
    if (fn.facts.local === 'init') return undefined;
    return fn.file.active ? this.outputs.get(fn)?.edges : [];
  }

  /**
   * The last graph's records of the IDs `ids`, all of packages `pkgs` (see GraphChanges.recordsOf): an
   * ID's records are its package's, in the order the graph lists them (the package's own, then its
   * files'). Undefined when an ID could be another package's too (a path with a dot after its last slash).
   */
  private recordsOf(ids: ReadonlySet<string>, pkgs: ReadonlySet<PkgInfo>): Map<string, SymbolRecord[]> | undefined {
    for (const id of ids) {
      let owners = 0;
      for (let i = id.indexOf('.'); ; i = id.indexOf('.', i + 1)) {
        const pkg = this.program.packages.get(i < 0 ? id : id.slice(0, i));
        if (pkg && (!pkgs.has(pkg) || ++owners > 1)) return undefined;
        if (i < 0) break;
      }
      if (owners === 0) return undefined;
    }
    const out = new Map<string, SymbolRecord[]>();
    const add = (r: SymbolRecord) => {
      if (!ids.has(r.id)) return;
      const list = out.get(r.id);
      if (list) list.push(r);
      else out.set(r.id, [r]);
    };
    for (const pkg of pkgs) {
      add(this.packageSymbols.get(pkg) ?? packageSymbol(pkg));
      for (const file of pkg.files) for (const r of this.symbols.get(file) ?? []) add(r);
    }
    return out;
  }

  /**
   * The channel records, one function's at a time (see channelsOf): each function's made as reader
   * CHANNELS and its ID, so that an update can tell which read what changed (see apply). With `redo`
   * (an update's), those of the functions it names are made again, those of `moves` have their lines
   * moved (see movedRecords) and the others are kept; without it, every function's are made. Making
   * them all again took 60-80 ms of an edit on v1.28 (the records of some 380 functions, after any
   * edit that changed what one of them read).
   */
  private channelsNow(redo?: Set<string>, rank?: Rank, moves?: ChannelMoves): ChannelOpRecord[] {
    const was = redo && rank ? this.channels : undefined;
    if (was && moves) {
      // Records that only moved: their lines, and the lines of the origins they name, moved with them.
      for (const id of moves.ids) {
        const kept = was.byId.get(id);
        if (redo!.has(id) || !kept) continue;
        const records = movedRecords(kept.records, moves.own.get(id), moves.files);
        if (records) was.byId.set(id, { fn: kept.fn, records });
        else redo!.add(id);
      }
    }
    if (was && redo!.size === 0 && !moves?.ids.size) return was.list;
    const byId = was?.byId ?? new Map<string, { fn: FuncInfo; records: ChannelOpRecord[] }>();
    // The callers' table is made outside the readers: what making it reads is not what the records read.
    const callersOf = this.deps.none(() => this.resolver.callersTable());
    const make = (fn: FuncInfo) => byId.set(fn.id, { fn, records: this.deps.as(CHANNELS + fn.id, () => channelsOf(fn, this.program, this.resolver, callersOf)) });
    let owners: string[];
    if (was) {
      // A function keeps its place among the others in the program's order; a new one (or one
      // declared anew) is placed by its rank.
      let gained = false;
      for (const id of redo!) {
        this.deps.forget(CHANNELS + id);
        const had = byId.get(id)?.fn;
        byId.delete(id);
        const fn = this.program.funcs.get(id);
        if (!fn || !fn.file.active || fn.facts.chans.length === 0) continue;
        make(fn);
        gained ||= had !== fn;
      }
      owners = was.owners.filter((id) => byId.has(id));
      if (gained) owners = this.ranked([...byId.keys()], rank!);
    } else {
      for (const [id] of byId) this.deps.forget(CHANNELS + id);
      byId.clear();
      for (const fn of funcsInOrder(this.program)) if (fn.file.active && fn.facts.chans.length > 0) make(fn);
      owners = [...byId.keys()];
    }
    const list: ChannelOpRecord[] = [];
    for (const id of owners) for (const c of byId.get(id)!.records) list.push(c);
    this.channels = { byId, owners, list };
    return list;
  }

  /** Each function's channel records by ID (functions with channel operations), the IDs in the program's order, and the list. */
  private channels?: { byId: Map<string, { fn: FuncInfo; records: ChannelOpRecord[] }>; owners: string[]; list: ChannelOpRecord[] };

  /** Functions' IDs in the program's order (their places in `rank`). */
  private ranked(ids: string[], rank: Rank): string[] {
    const at = new Map(ids.map((id) => [id, rank.get(this.program.funcs.get(id)!)]));
    if ([...at.values()].some((i) => i === undefined)) throw new Error('a function with channel operations has no place in the order');
    return ids.sort((a, b) => at.get(a)! - at.get(b)!);
  }

  /**
   * Every function's edges and unresolved sites in `order`, the edges counted by kind, and the
   * goroutines started. Walking the kept outputs of 80,000 functions reads objects all over a heap of
   * 0.6 GB (v1.28's default scope: 24-30 ms, about one cache miss after another), so after an update
   * (with `rank`) the lists are copied from the last graph's, in the runs of functions it had at the
   * same place in the order with the same output: only the functions resolved again since are read.
   * The kinds are the last counts with what those functions had taken off and what they have added,
   * and the goroutines the last list when none of them starts or started one.
   */
  private collect(order: FuncInfo[], rank?: Rank, spare?: Spare): Collected {
    const last = rank ? this.last : undefined;
    const edges = new Laid<Edge>(last?.edges ?? []);
    const unresolved = new Laid<UnresolvedSite>(last?.unresolved ?? []);
    const edgeAt = new Uint32Array(order.length + 1);
    const unresolvedAt = new Uint32Array(order.length + 1);
    const kinds = new Map(last?.kinds);
    const count = (list: Edge[], from: number, to: number, by: number) => {
      for (let k = from; k < to; k++) kinds.set(list[k].kind, (kinds.get(list[k].kind) ?? 0) + by);
    };
    const reasons = new Map(last?.reasons);
    const tally = (list: UnresolvedSite[], from: number, to: number, by: number) => {
      for (let k = from; k < to; k++) reasons.set(list[k].reason, (reasons.get(list[k].reason) ?? 0) + by);
    };
    const dropped = new Set<string>();
    /** The last graph's function at place `at` of its order, resolved again or gone: its edges and sites no longer counted. */
    const drop = (at: number) => {
      const from = last!.edgeAt[at];
      const to = last!.edgeAt[at + 1];
      count(last!.edges, from, to, -1);
      for (let k = from; k < to; k++) dropped.add(last!.edges[k].callee);
      tally(last!.unresolved, last!.unresolvedAt[at], last!.unresolvedAt[at + 1], -1);
    };
    /** A function's edges and sites as resolved now, counted. */
    const add = (out: Output) => {
      count(out.edges, 0, out.edges.length, 1);
      tally(out.unresolved, 0, out.unresolved.length, 1);
    };
    let j = 0;
    const sameOrder = last !== undefined && sameFunctions(order, last.order);
    // The places in `order` of the functions resolved again (for the walk of the whole order).
    const again = new Uint8Array(sameOrder ? 0 : order.length);
    if (last && !sameOrder) {
      for (const fn of this.touched) {
        const i = rank!.get(fn);
        if (i !== undefined) again[i] = 1;
      }
    }
    if (sameOrder) {
      // The same functions in the same order (an edit of bodies, the usual update): between the
      // functions resolved again, the last lists' runs as they were, at places moved by what those
      // functions gained or lost. A pass over those functions, not over the order.
      const was = last!;
      let kept = 0;
      const keepTo = (end: number) => {
        const [byEdges, bySites] = [edges.length - was.edgeAt[kept], unresolved.length - was.unresolvedAt[kept]];
        edges.run(was.edgeAt[kept], was.edgeAt[end]);
        unresolved.run(was.unresolvedAt[kept], was.unresolvedAt[end]);
        for (let k = kept; k < end; k++) {
          edgeAt[k] = was.edgeAt[k] + byEdges;
          unresolvedAt[k] = was.unresolvedAt[k] + bySites;
        }
      };
      const redone = [...this.touched].map((fn) => rank!.get(fn)).filter((i): i is number => i !== undefined).sort((a, b) => a - b);
      for (const i of redone) {
        keepTo(i);
        edgeAt[i] = edges.length;
        unresolvedAt[i] = unresolved.length;
        drop(i);
        const out = this.outputs.get(order[i]);
        if (!out) throw new Error(`no resolution kept for ${order[i].id}`);
        edges.own(out.edges);
        unresolved.own(out.unresolved);
        add(out);
        kept = i + 1;
      }
      keepTo(order.length);
      j = was.order.length;
    }
    for (let i = sameOrder ? order.length : 0; i < order.length; ) {
      const fn = order[i];
      if (last) {
        // The last order's functions that are gone are passed over, their edges no longer counted.
        for (let gone = last.order[j]; j < last.order.length && gone !== fn && this.touched.has(gone) && !this.outputs.has(gone); gone = last.order[++j]) {
          drop(j);
        }
        if (j < last.order.length && last.order[j] === fn && !again[i]) {
          // From here, the functions the last order has next, none resolved again: their edges one run
          // of the last lists, at places moved by as much as this one's. One short loop, as this runs
          // once a build over 80,000 functions (a step per function with a run laid each took 7-10 ms
          // of a file's coming in a watch on v1.28, CPU profiles of 20 builds; 5 ms now).
          const from = j;
          const byEdges = edges.length - last.edgeAt[j];
          const bySites = unresolved.length - last.unresolvedAt[j];
          while (i < order.length && j < last.order.length && order[i] === last.order[j] && !again[i]) {
            edgeAt[i] = last.edgeAt[j] + byEdges;
            unresolvedAt[i] = last.unresolvedAt[j] + bySites;
            i++;
            j++;
          }
          edges.run(last.edgeAt[from], last.edgeAt[j]);
          unresolved.run(last.unresolvedAt[from], last.unresolvedAt[j]);
          continue;
        }
      }
      edgeAt[i] = edges.length;
      unresolvedAt[i] = unresolved.length;
      // Resolved again: its last edges no longer counted.
      if (last && j < last.order.length && last.order[j] === fn) {
        drop(j);
        j++;
      }
      const out = this.outputs.get(fn);
      if (!out) throw new Error(`no resolution kept for ${fn.id}`);
      edges.own(out.edges);
      unresolved.own(out.unresolved);
      if (last) add(out);
      i++;
    }
    // Gone functions that the last order listed after every function of this one (the last file's last).
    for (let gone = last?.order[j]; last && j < last.order.length && this.touched.has(gone!) && !this.outputs.has(gone!); gone = last.order[++j]) {
      drop(j);
    }
    edgeAt[order.length] = edges.length;
    unresolvedAt[order.length] = unresolved.length;
    const edgeList = edges.done(spare?.edges);
    const siteList = unresolved.done(spare?.unresolved);
    // Without a last graph, or when functions of it were neither kept nor passed over, counted anew.
    if (!last || j < last.order.length) {
      kinds.clear();
      count(edgeList, 0, edgeList.length, 1);
      reasons.clear();
      tally(siteList, 0, siteList.length, 1);
    }
    const starts = (fn: FuncInfo) => (this.goroutines.get(fn)?.length ?? 0) > 0 || last?.starters.has(fn) === true;
    let goroutines: GoroutineRecord[];
    let starters: Set<FuncInfo>;
    if (last && ![...this.touched].some(starts)) {
      goroutines = last.goroutines;
      starters = last.starters;
    } else {
      // The functions that start goroutines: after an update, the last ones with the functions resolved
      // again or gone since (and the initializer a package lists, which reads the goroutines of all
      // its initializers: see startsOf) added or taken out. Their goroutines in the program's order,
      // the functions it lists by their ID: a pass over the order, not the program's map of functions.
      if (last) {
        starters = new Set(last.starters);
        for (const fn of this.touched) {
          for (const f of fn.facts.local === 'init' ? [fn, fn.pkg.funcs.get('init')] : [fn]) {
            if (f && (this.goroutines.get(f)?.length ?? 0) > 0) starters.add(f);
            else if (f) starters.delete(f);
          }
        }
      } else {
        starters = new Set([...this.goroutines].filter(([, list]) => list.length > 0).map(([fn]) => fn));
      }
      goroutines = order.filter((fn) => starters.has(fn) && this.program.funcs.get(fn.id) === fn).flatMap((fn) => this.goroutines.get(fn)!);
    }
    return { order, edges: edgeList, unresolved: siteList, edgeAt, unresolvedAt, kinds: firstSeen(kinds, edgeList), reasons, goroutines, starters, dropped: last && j === last.order.length ? dropped : undefined };
  }

  /**
   * The record of a file that comes (not yet in its package's files: see attach), or why it cannot
   * come: it must be in the build, new to it, and of a package the program has, whose files all have
   * its package clause (the package's name is the one most of its files give).
   */
  private comes(c: FilesChange['came'][number]): FileInfo | string {
    if (!c.active) return 'a file outside the build came';
    if (this.files.has(c.path) || this.inputs.has(c.path)) return 'a file that came was there already';
    const pkg = this.program.packages.get(c.importPath);
    if (!pkg) return `a file of a package the program does not have came (${c.importPath})`;
    const why = this.packageKeeps(pkg, c.path);
    if (why) return why;
    return { facts: emptyFacts(c.path, pkg.name), pkg, imports: new Map(), dot: [], active: true, constraint: c.constraint };
  }

  /**
   * Why package `pkg` would not stay as it is with file `path` coming or going (undefined when it
   * would): each of its files in the build gives its name as package clause, and another stays.
   */
  private packageKeeps(pkg: PkgInfo, path: string): string | undefined {
    const input = this.inputOf(pkg);
    if (!input) return 'its package has no inputs';
    const others = input.files.filter((f) => f.active && f.facts.path !== path);
    if (others.length === 0) return 'its package would have no file in the build';
    if (others.some((f) => f.facts.pkg !== pkg.name)) return 'a file of its package gives another package clause';
    return undefined;
  }

  /** The inputs of package `pkg`. */
  private inputOf(pkg: PkgInfo): PackageInput | undefined {
    return this.packageInputs.find((i) => i.importPath === pkg.path);
  }

  /**
   * A file that came put among its package's files and inputs where a build from nothing has it (see
   * FilesChange), with no functions yet: apply gives it its facts as to any changed file.
   */
  private attach(file: FileInfo, came: FilesChange['came'][number]): void {
    const input = this.inputOf(file.pkg)!;
    const at = came.before === undefined ? -1 : input.files.findIndex((f) => f.facts.path === came.before);
    const entry = { facts: file.facts, active: true, constraint: came.constraint };
    const index = at < 0 ? input.files.length : at;
    // The program lists a package's files in the inputs' order (less those of another package clause).
    const after = new Set(input.files.slice(index).map((f) => f.facts.path));
    const place = file.pkg.files.findIndex((f) => after.has(f.facts.path));
    input.files.splice(index, 0, entry);
    file.pkg.files.splice(place < 0 ? file.pkg.files.length : place, 0, file);
    this.inputs.set(file.facts.path, entry);
    this.files.set(file.facts.path, file);
    this.infos.set(file, []);
    this.slots?.withFile(file);
    // The facts' diagnostics stay listed: the file's facts are empty until apply gives it its own,
    // and apply lists them again when those have some.
    this.importersWith(file);
  }

  /** A file went (its functions, types and values gone already: see apply): taken out of its package's files and inputs. */
  private detach(file: FileInfo): void {
    const path = file.facts.path;
    const input = this.inputOf(file.pkg)!;
    input.files.splice(input.files.findIndex((f) => f.facts.path === path), 1);
    file.pkg.files.splice(file.pkg.files.indexOf(file), 1);
    this.inputs.delete(path);
    this.files.delete(path);
    this.infos.delete(file);
    this.symbols.delete(file);
    this.went.add(file);
    this.slots?.withoutFile(file);
    // The facts' diagnostics stay listed: apply gave the file empty facts, and listed them again if
    // it had some.
    this.importersWithout(file);
  }

  /** What changes in one file (`came`: the record of a file that came, see comes), or why the change is not taken. Changes nothing. */
  private plan(next: FileFacts, came?: FileInfo): FilePlan | string {
    const file = came ?? this.files.get(next.path);
    if (!file) return 'not a file in the build';
    const infos = came ? [] : this.infos.get(file);
    if (!infos) return 'declares a function twice';
    const was = file.facts;
    if (was.pkg !== next.pkg) return 'its package clause changed';
    let literals: Set<string> | undefined;
    let valueNames: Set<string> | undefined;
    if (!recordsShift(was.values, next.values)) {
      literals = literalsChanged(was.values, next.values);
      if (!literals) {
        const taken = this.valuesTaken(file, next);
        if (typeof taken === 'string') return taken;
        valueNames = taken;
      }
    }
    if (!recordsShift(was.diagnostics, next.diagnostics)) return 'its diagnostics changed';
    let fields: Set<string> | undefined;
    let ifaces: FilePlan['ifaces'];
    let typeNames: FilePlan['typeNames'];
    let embedding: FilePlan['embedding'];
    if (!recordsShift(was.types, next.types)) {
      const taken = this.typesTaken(file, next);
      if (typeof taken === 'string') return taken;
      fields = taken.fields;
      if (taken.ifaces.types.size > 0) ifaces = taken.ifaces;
      if (taken.came.size + taken.went.size > 0) typeNames = { came: taken.came, went: taken.went };
      if (taken.embedding.types.size > 0) embedding = taken.embedding;
    }
    let imports: FilePlan['imports'];
    if (!recordsShift(was.imports, next.imports)) {
      const taken = this.importsTaken(file, next);
      if (typeof taken === 'string') return taken;
      imports = taken;
    }
    const old = unitsOf(was.funcs);
    const now = unitsOf(next.funcs);
    const plan: FilePlan = { file, next, old, now, changed: [], moved: [], lines: new Map(), same: [], added: [], removed: [], imports, fields, ifaces, typeNames, embedding, resigned: [], literals, valueNames };
    // With types that came or went, the functions that name one (before or after) read otherwise.
    const typeName = typeNames && new Set([...typeNames.came, ...typeNames.went]);
    const namesType = (funcs: FuncFacts[], unit: Unit, part: (f: FuncFacts) => unknown = (f) => f) => !!typeName && unit.some((i) => namesIn(part(funcs[i]), typeName));
    // With constants or plain variables that came, went or changed, the functions whose code names one (see valuesTaken).
    const namesValue = (funcs: FuncFacts[], unit: Unit) => !!valueNames && unit.some((i) => namesIn(funcs[i], valueNames));
    for (const [key, unit] of now) {
      const before = old.get(key);
      if (!before) {
        const why = this.addable(file.pkg, next.funcs[unit[0]], true, undefined, typeNames?.came);
        if (why) return why;
        plan.added.push(key);
      } else if (!recordsShift(signature(was.funcs[before[0]]), signature(next.funcs[unit[0]])) || namesType(was.funcs, before, signature) || namesType(next.funcs, unit, signature)) {
        const why = this.resignable(file.pkg, was.funcs[before[0]], next.funcs[unit[0]], infos[before[0]]);
        if (why) return `the signature of ${key} changed (${why})`;
        plan.changed.push(key);
        plan.resigned.push(key);
      } else if ((imports && unit.some((i) => namedIn(next.funcs[i], imports!.names))) || namesType(was.funcs, before) || namesType(next.funcs, unit) || namesValue(was.funcs, before) || namesValue(next.funcs, unit)) {
        // A name in its body stands for another package or type now (or for none): it is resolved
        // again, from its new records (what was made of the old ones is kept by them).
        plan.changed.push(key);
      } else if (before.length === unit.length && before.every((i, k) => sameFacts(was.funcs[i], next.funcs[unit[k]]))) {
        plan.same.push(key);
      } else {
        const shift = recordsShift(relative(was.funcs, before), relative(next.funcs, unit));
        if (shift) {
          plan.moved.push(key);
          plan.lines.set(key, shift.lines);
        } else plan.changed.push(key);
      }
    }
    for (const [key, unit] of old) {
      if (now.has(key)) continue;
      const why = this.addable(file.pkg, was.funcs[unit[0]], false, infos[unit[0]]);
      if (why) return why;
      plan.removed.push(key);
    }
    return plan;
  }

  /**
   * The names of the fields that came, went or took another type in `next`'s struct types (and of
   * the interfaces' methods that did, and of the types that came and went), when the file can take
   * its types in place, or why not: the types it keeps stay in their order, each type that came or
   * went can (see typeAddable), and each kept type that changed is a plain (not generic) struct or
   * interface of this build, none of those names having been looked up for a package value's type.
   * Embedded fields and interfaces that came or went (the file's imports staying) add the names of
   * the members they promote (see promotedNames) or the methods they bring, and for a struct its
   * name in `embedding` (its method set is made again).
   */
  private typesTaken(file: FileInfo, next: FileFacts): ({ fields: Set<string>; ifaces: NonNullable<FilePlan['ifaces']>; embedding: NonNullable<FilePlan['embedding']> } & NonNullable<FilePlan['typeNames']>) | string {
    const names = (types: TypeFacts[]) => types.map((t) => t.name);
    const [wasNames, nowNames] = [names(file.facts.types), names(next.types)];
    if (new Set(wasNames).size !== wasNames.length || new Set(nowNames).size !== nowNames.length) return 'its types changed (a type is declared twice)';
    const came = new Set(nowNames.filter((n) => !wasNames.includes(n)));
    const went = new Set(wasNames.filter((n) => !nowNames.includes(n)));
    const was = file.facts.types.filter((t) => !went.has(t.name));
    const kept = next.types.filter((t) => !came.has(t.name));
    if (was.some((t, i) => t.name !== kept[i].name)) return 'its types changed (their order)';
    const fields = new Set<string>();
    const ifaces = { types: new Set<string>(), names: new Set<string>() };
    const embedding = { types: new Set<string>(), names: new Set<string>() };
    const differ = <T extends { name: string }>(a: T[], b: T[], into: Set<string>) => {
      const before = new Map(a.map((x) => [x.name, JSON.stringify(x, noLines)]));
      const after = new Map(b.map((x) => [x.name, JSON.stringify(x, noLines)]));
      for (const [n, text] of before) if (after.get(n) !== text) into.add(n);
      for (const [n, text] of after) if (before.get(n) !== text) into.add(n);
    };
    for (let i = 0; i < was.length; i++) {
      const [a, b] = [was[i], kept[i]];
      if (typeText(a) === typeText(b)) continue;
      const plain = !a.alias && !b.alias && !a.tparams?.length && !b.tparams?.length && file.pkg.types.get(a.name)?.file === file;
      if (plain && a.t.k === 'struct' && b.t.k === 'struct') {
        const [ea, eb] = [a.t.fields.filter((f) => f.embedded), b.t.fields.filter((f) => f.embedded)];
        if (fieldText(ea) !== fieldText(eb)) {
          // Embedded fields make the struct's method set, and promote their types' members: those
          // (read with the file's imports, which must stay) are taken as members that changed.
          if (!recordsShift(file.facts.imports, next.imports)) return `its types changed (${a.name}: its embedded fields, with the file's imports)`;
          // Those that came or went (one that stays promotes what it did, but for names a new one
          // shadows or makes ambiguous, which that one promotes).
          for (const f of cameOrWent(ea, eb)) this.promotedNames(f.t, file, embedding.names);
          embedding.types.add(a.name);
        }
        differ(a.t.fields, b.t.fields, fields);
      } else if (plain && a.t.k === 'iface' && b.t.k === 'iface') {
        const embeds = cameOrWent(a.t.embeds, b.t.embeds);
        if (embeds.length > 0) {
          // The methods of the interfaces that came or went (read with the file's imports, which must stay).
          if (!recordsShift(file.facts.imports, next.imports)) return `its types changed (${a.name}: the interfaces it embeds, with the file's imports)`;
          for (const e of embeds) {
            const u = this.resolver.types.underlying(this.resolver.types.unalias(this.resolver.types.resolve(e, file)));
            if (u.k === 'iface') for (const n of this.resolver.types.ifaceMethods(u).keys()) ifaces.names.add(n);
            else if (u.k === 'basic' && u.n === 'error') ifaces.names.add('Error');
            else return `its types changed (${a.name}: it embeds what is not an interface this build knows)`;
          }
        }
        ifaces.types.add(a.name);
        differ(a.t.methods, b.t.methods, ifaces.names);
      } else return `its types changed (${a.name}: more than a struct's fields or an interface's methods)`;
    }
    for (const n of [...fields, ...ifaces.names, ...embedding.names]) if (this.resolver.types.valueMembers.has(n)) return `its types changed (a member ${n}, whose name a package value's type looked up)`;
    const taken = { came, went, members: new Set([...fields, ...ifaces.names]) };
    for (const n of came) {
      const why = this.typeAddable(file, next.types.find((t) => t.name === n)!, next, true, taken);
      if (why) return `its types changed (a type came: ${why})`;
    }
    for (const n of went) {
      const why = this.typeAddable(file, file.facts.types.find((t) => t.name === n)!, next, false, taken);
      if (why) return `its types changed (a type went: ${why})`;
    }
    return { fields, ifaces, came, went, embedding };
  }

  /**
   * Into `into`, the names of the members an embedded field of type `t` (in `file`) promotes: its
   * type's method set, and its struct's fields with what they embed in turn (as far as method sets
   * go). A type this build cannot tell promotes nothing, here as in resolution.
   */
  private promotedNames(t: TypeExpr, file: FileInfo, into: Set<string>, depth = 0): void {
    const types = this.resolver.types;
    let rt = types.unalias(types.resolve(t, file));
    if (rt.k === 'ptr') rt = types.unalias(rt.e);
    if (rt.k !== 'named') return;
    const u = types.underlying(rt);
    if (u.k === 'iface') {
      for (const n of types.ifaceMethods(u).keys()) into.add(n);
      return;
    }
    for (const n of this.resolver.impls.methodSet(rt.t).keys()) into.add(n);
    if (u.k !== 'struct' || depth > 6) return;
    for (const f of u.fields) {
      into.add(f.name);
      if (f.embedded) this.promotedNames(f.t, u.file, into, depth + 1);
    }
  }

  /**
   * Why a type cannot come to (or go from) `file`, its facts becoming `next`; undefined when it can.
   * Nothing but the file's functions, and the fields and interface methods of the file that came,
   * went or changed (`taken.members`), may read its name (those are resolved again: see plan and
   * apply), so that no answer kept elsewhere read it: no other file of its package or of their
   * importers names it, nor does a package value of the file or another type of it otherwise
   * (before or after), but for types that come or go too; no other declaration of the package has
   * its name. Its methods must come or go with it, in the
   * file (they are taken as methods that came or went: see apply); it must embed nothing (method sets
   * promote through embedding), and be neither generic nor an alias.
   */
  private typeAddable(file: FileInfo, t: TypeFacts, next: FileFacts, adding: boolean, taken: { came: Set<string>; went: Set<string>; members: Set<string> }): string | undefined {
    const pkg = file.pkg;
    const n = t.name;
    if (t.alias || t.tparams?.length) return `${n} is generic or an alias`;
    if ((t.t.k === 'struct' && t.t.fields.some((f) => f.embedded)) || (t.t.k === 'iface' && t.t.embeds.length > 0)) return `${n} embeds a type`;
    const info = pkg.types.get(n);
    if (adding ? info || pkg.funcs.has(n) || pkg.values.has(n) : info?.file !== file) return `${n} is declared elsewhere in its package`;
    // Its methods come and go with it, in the file: declared there before it came, or kept after it went, they are not taken.
    const hasMethods = (funcs: FuncFacts[]) => funcs.some((f) => f.kind === 'method' && f.recv?.type === n);
    if (hasMethods(adding ? file.facts.funcs : next.funcs)) return `${n} has methods that ${adding ? 'were there before it' : 'stay'}`;
    if (!adding && [...info!.methods.values()].some((m) => m.file !== file)) return `${n} has methods in another file`;
    const named = new Set([n]);
    for (const facts of [file.facts, next]) {
      // An assertion of the file (`var _ I = &T{}`) only creates its type, and the file's created types are made again.
      if (namesIn(facts.values.filter((v) => v.name !== '_' || !assertionLike(v)), named)) return `a package value of the file names ${n}`;
      for (const o of facts.types) {
        // Another type that comes or goes too, or a struct field or interface method that came, went
        // or changed (what looked its name up is resolved again: see apply).
        if (o.name === n || taken.came.has(o.name) || taken.went.has(o.name) || !namesIn(o.t, named)) continue;
        const parts: { name: string; embedded?: boolean }[] | undefined = o.t.k === 'struct' ? o.t.fields : o.t.k === 'iface' && !namesIn(o.t.embeds, named) ? o.t.methods : undefined;
        if (!parts || parts.some((p) => namesIn(p, named) && (p.embedded || !taken.members.has(p.name)))) return `another declaration of the file (${o.name}) names ${n}`;
      }
    }
    // Its package's files are among them (see importersOf).
    for (const other of this.importersOf(pkg.path)) {
      if (other === file) continue;
      if (other.facts.types.some((o) => o.name === n)) return `${n} is declared elsewhere in its package`;
      if (other.pkg === pkg && hasMethods(other.facts.funcs)) return `${n} has methods in another file`;
      const names = namesOfFile(other.facts);
      if (names.values.has(n) || names.funcs.has(n) || names.types.has(n)) return `${other.facts.path} names ${n}`;
    }
    return undefined;
  }

  /**
   * The names of the constants and plain variables of `next` that came, went or changed (otherwise
   * than in where they are), when the file can take them in place, or why not. Constants are taken, and variables of a
   * basic type whose value is made of literals alone (see plainValue): another variable can hold a
   * function, a channel or a composite value, which other tables than the readers of its name keep.
   * Each constant, before and after, is made of names, numbers and operators (no call),
   * is declared in this file alone (one that came, nowhere else in its package), and no package
   * value names it (its type would be made from it), here or in another file of the package or its
   * importers. What names it in functions is resolved again (see plan and mentions), as for a
   * function that came or went.
   */
  private valuesTaken(file: FileInfo, next: FileFacts): Set<string> | string {
    const pkg = file.pkg;
    const text = (v: ValueFacts) => JSON.stringify(v, noLines);
    const byName = (values: readonly ValueFacts[]) => {
      const out = new Map<string, ValueFacts>();
      for (const v of values) {
        if (v.name === '_') continue;
        if (out.has(v.name)) return undefined;
        out.set(v.name, v);
      }
      return out;
    };
    const [was, now] = [byName(file.facts.values), byName(next.values)];
    if (!was || !now) return 'its values changed (a name is declared twice)';
    // Blank values (`var _ I = &T{}`) stay as they were, but for assertions (see assertionLike), which
    // only create their types (the created types of the file are made again: see apply), where the
    // package's first blank value, whose composite literals are read for field flows, is one too
    // before and after.
    const blank = (values: readonly ValueFacts[]) => values.filter((v) => v.name === '_');
    if (blank(file.facts.values).map(text).join('\0') !== blank(next.values).map(text).join('\0')) {
      if (![...blank(file.facts.values), ...blank(next.values)].every(assertionLike)) return 'its values changed (a blank one)';
      const first = this.firstBlank(pkg, file, next);
      if (!assertionLike(pkg.values.get('_')?.facts) || !assertionLike(first)) return 'its values changed (a blank one, and its package\'s first blank value is not an assertion)';
    }
    // The values that stay keep their order (the package's map of values lists them as declared).
    const kept = (a: Map<string, ValueFacts>, b: Map<string, ValueFacts>) => [...a.keys()].filter((n) => b.has(n));
    if (kept(was, now).join('\0') !== kept(now, was).join('\0')) return 'its values changed (their order)';
    const names = new Set<string>();
    for (const n of new Set([...was.keys(), ...now.keys()])) {
      const [a, b] = [was.get(n), now.get(n)];
      if (a && b && text(a) === text(b)) continue;
      for (const v of [a, b]) {
        if (v && !plainValue(v)) return `its values changed (${n} is neither a constant of names and numbers nor a variable of a basic type made of literals)`;
      }
      const info = pkg.values.get(n);
      if (a ? info?.file !== file : info || pkg.funcs.has(n) || pkg.types.has(n)) return `${n} is declared elsewhere in its package`;
      names.add(n);
    }
    // Its package's files are among them (see importersOf).
    for (const other of this.importersOf(pkg.path)) {
      if (other !== file && other.pkg === pkg && other.facts.values.some((v) => names.has(v.name))) return `a constant that changed is declared elsewhere in its package too`;
      if ([...namesOfFile(other.facts).values].some((n) => names.has(n))) return `${other.facts.path}: a package value names a constant that changed`;
    }
    if ([...namesOfFile(next).values].some((n) => names.has(n))) return `a package value names a constant that changed`;
    return names;
  }

  /** The package's first blank value of the build (see declareValues) once `file` has the facts `next`. */
  private firstBlank(pkg: PkgInfo, file: FileInfo, next: FileFacts): ValueFacts | undefined {
    let inactive: ValueFacts | undefined;
    for (const f of pkg.files) {
      const v = (f === file ? next : f.facts).values.find((x) => x.name === '_');
      if (!v) continue;
      if (f.active) return v;
      inactive ??= v;
    }
    return inactive;
  }

  /**
   * Why a function's new signature cannot be taken in place (undefined when it can), its record
   * being `info`. A method must keep its receiver and name, on a type a method can come to (see
   * methodAddable): what read its signature looked its name up. A plain function must not be generic
   * (its instances are kept by signature) and must be one that could go (see addable): what read its
   * signature named it, and is found as for a function that went and came (see mentions).
   */
  private resignable(pkg: PkgInfo, was: FuncFacts, now: FuncFacts, info: FuncInfo): string | undefined {
    if (was.kind === 'func' && now.kind === 'func') {
      if (was.tparams?.length || now.tparams?.length) return 'a generic function';
      return this.addable(pkg, was, false, info);
    }
    if (was.kind !== 'method' || now.kind !== 'method') return 'not a function or method';
    if (JSON.stringify(was.recv) !== JSON.stringify(now.recv) || was.name !== now.name) return 'its receiver changed';
    return this.methodAddable(pkg, now, false, pkg.funcs.get(was.local));
  }

  /**
   * The names `next`'s imports bind, when the file can take them in place, or why not: its dot
   * imports stay, and no declaration of the file that stays (a type, a package value, a function's
   * signature) names a name whose package changed, so that nothing the file declares reads otherwise
   * (what its bodies read is resolved again: see plan). A declaration that came is new to every
   * reader (what names it is resolved again, see mentions and typeAddable), and a file that came
   * (whose facts were empty) declares only such ones.
   */
  private importsTaken(file: FileInfo, next: FileFacts): FilePlan['imports'] | string {
    const now = importsOf(next, this.program);
    if (now.dot.length !== file.dot.length || now.dot.some((d, i) => d !== file.dot[i])) return 'its dot imports changed';
    const names = new Set<string>();
    for (const [n, path] of now.imports) if (file.imports.get(n) !== path) names.add(n);
    for (const [n, path] of file.imports) if (now.imports.get(n) !== path) names.add(n);
    // Only the declarations that stay were read: those that came (all of a file that came) are new.
    const was = { types: new Set(file.facts.types.map((t) => t.name)), values: new Set(file.facts.values.map((v) => v.name)), funcs: new Set(file.facts.funcs.filter((f) => f.parent === undefined).map((f) => f.local)) };
    const declared = [next.types.filter((t) => was.types.has(t.name)), next.values.filter((v) => was.values.has(v.name)), next.funcs.filter((f) => f.parent === undefined && was.funcs.has(f.local)).map(signature)];
    if (names.size > 0 && namedIn(declared, names)) return `its imports changed the package of a name its declarations use (${[...names].join(', ')})`;
    return { ...now, names };
  }

  /**
   * Why a top-level function or method cannot come (or go, with its record `info`) in place; undefined
   * when it can. `came`: the types that come with it.
   */
  private addable(pkg: PkgInfo, f: FuncFacts, adding: boolean, info?: FuncInfo, came?: ReadonlySet<string>): string | undefined {
    if (f.kind === 'method') return this.methodAddable(pkg, f, adding, info, came);
    if (f.kind !== 'func') return `a ${f.kind} ${adding ? 'was added' : 'was removed'} (${f.local})`;
    if (f.local === 'init' || f.local.endsWith('[...]') || f.name === '_') return `${f.local} ${adding ? 'was added' : 'was removed'}`;
    if (adding && pkg.funcs.has(f.local)) return `${f.local} is declared in another file too`;
    if (!adding && (pkg.funcs.get(f.local) !== info || info?.variants)) return `${f.local} has other declarations`;
    return undefined;
  }

  /**
   * Why a method cannot come (or go, with its record `info`) in place; undefined when it can: its
   * receiver's type is a plain (not generic) type of its package's build, with no other method of
   * that name, and no package value's type was made by looking its name up (those types are kept
   * apart from what the readers read: see Types.valueMembers).
   */
  private methodAddable(pkg: PkgInfo, f: FuncFacts, adding: boolean, info?: FuncInfo, came?: ReadonlySet<string>): string | undefined {
    const verb = adding ? 'was added' : 'was removed';
    if (adding && f.recv && came?.has(f.recv.type)) {
      // On a type that comes with it (see typeAddable).
      if (f.recv.tparams?.length) return `a method ${verb} (${f.local}) on a type that is generic`;
      if (this.resolver.types.valueMembers.has(f.name)) return `a method ${verb} (${f.local}) whose name a package value's type looked up`;
      return pkg.funcs.has(f.local) ? `${f.local} is declared in another file too` : undefined;
    }
    const type = f.recv && pkg.types.get(f.recv.type);
    if (!type || !type.file.active || type.facts.alias || type.facts.tparams?.length || f.recv?.tparams?.length) return `a method ${verb} (${f.local}) on a type that is generic or not of this build`;
    if (this.resolver.types.valueMembers.has(f.name)) return `a method ${verb} (${f.local}) whose name a package value's type looked up`;
    if (adding && (pkg.funcs.has(f.local) || type.methods.has(f.name))) return `${f.local} is declared in another file too`;
    if (!adding && (pkg.funcs.get(f.local) !== info || info?.variants || type.methods.get(f.name) !== info)) return `${f.local} has other declarations`;
    return undefined;
  }

  /** The types `types`, with those defined by one of them (`type V S`), through others as far as they go. */
  private definedBy(types: Set<TypeInfo>): Set<TypeInfo> {
    const out = new Set(types);
    const r = this.resolver.types;
    const defined = this.program.types.filter((t) => t.file.active && !t.facts.alias && t.facts.t.k === 'named');
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of defined) {
        if (out.has(t)) continue;
        const d = r.resolve(t.facts.t, t.file);
        if (d.k !== 'named' || !out.has(d.t)) continue;
        out.add(t);
        grew = true;
      }
    }
    return out;
  }

  /** The interfaces `changed`, with those that embed one of them, through others as far as they go. */
  private ifaceEmbedders(changed: TypeInfo[]): Set<TypeInfo> {
    const out = new Set(changed);
    const types = this.resolver.types;
    const embedding = this.program.types.filter((t) => t.file.active && !t.facts.alias && t.facts.t.k === 'iface' && t.facts.t.embeds.length > 0);
    for (let grew = true; grew; ) {
      grew = false;
      for (const t of embedding) {
        if (out.has(t) || t.facts.t.k !== 'iface') continue;
        const embeds = t.facts.t.embeds.some((e) => {
          const r = types.unalias(types.resolve(e, t.file));
          return r.k === 'named' && out.has(r.t);
        });
        if (!embeds) continue;
        out.add(t);
        grew = true;
      }
    }
    return out;
  }

  /**
   * The type `type`'s methods listed again in the order a build from nothing lists them (see
   * buildProgram): each method's name first set where its package's files first declare it. In
   * place: the type's build variants share the list.
   */
  private methodsInOrder(type: TypeInfo): void {
    const pkg = type.pkg;
    const seen = new Set<string>();
    const methods: FuncInfo[] = [];
    for (const file of pkg.files) {
      for (const f of file.facts.funcs) {
        if (f.kind !== 'method' || f.parent !== undefined || seen.has(f.local)) continue;
        seen.add(f.local);
        const fn = pkg.funcs.get(f.local);
        if (fn?.facts.kind === 'method' && fn.facts.recv?.type === type.facts.name) methods.push(fn);
      }
    }
    type.methods.clear();
    for (const fn of methods) type.methods.set(fn.facts.name, fn);
  }

  /**
   * The top-level functions whose code names a function that comes, goes or takes another signature
   * (its package's files and their importers'): their bodies read otherwise from now on. A name in a
   * package value's initializer is not taken, but for a call of a function whose results stay.
   */
  private mentions(plans: FilePlan[]): Set<FuncInfo> | string {
    const out = new Set<FuncInfo>();
    for (const plan of plans) {
      // A unit's top-level function, by key: before the edit and after.
      const was = (k: string) => plan.file.facts.funcs[plan.old.get(k)![0]];
      const now = (k: string) => plan.next.funcs[plan.now.get(k)![0]];
      // Methods are looked up by name on types, not named: what looked them up is found otherwise (see apply).
      const facts = [...[...plan.added, ...plan.resigned].map(now), ...plan.removed.map(was)].filter((f) => f.kind === 'func');
      if (facts.length === 0 && !plan.valueNames) continue;
      const pkg = plan.file.pkg;
      // Values that came, went or changed (see valuesTaken) are named as functions are (no package value names one).
      const wanted = new Set([...facts.map((f) => f.name), ...(plan.valueNames ?? [])]);
      // A package value may name a function whose results stay, by calling it (see calledOnly): its
      // type stays, and the calls are resolved again with the initializer that makes them, which
      // names it (see below).
      const callable = new Set(plan.resigned.filter((k) => sameResults(was(k), now(k))).map((k) => now(k).name));
      const meets = (names: Set<string>) => [...wanted].some((w) => names.has(w));
      for (const file of this.importersOf(pkg.path)) {
        const infos = this.infos.get(file);
        const names = namesOfFile(file.facts);
        if (meets(names.values) && ([...wanted].some((w) => names.values.has(w) && !callable.has(w)) || !file.facts.values.every((v) => calledOnly(v, wanted)))) {
          return `${file.facts.path}: a package value names ${[...wanted].join(', ')}`;
        }
        if (!meets(names.funcs)) continue;
        if (!infos) {
          if (file.active) return `${file.facts.path}: names ${[...wanted].join(', ')}`;
          continue;
        }
        file.facts.funcs.forEach((f, i) => {
          if (namesIn(f, wanted)) out.add(topOf(infos[i]));
        });
      }
    }
    return out;
  }

  /**
   * The files of package `path` and the files that import it, in the program's order (what mentions
   * reads), from an index made once and kept as files come, go or change their imports (see
   * importersWith).
   */
  private importersOf(path: string): FileInfo[] {
    if (!this.importers) {
      this.importers = new Map();
      for (const pkg of this.program.packages.values()) {
        for (const file of pkg.files) {
          // One call per path, with no list of them made: this runs over every file once an edit
          // changes which files there are.
          this.importer(pkg.path, file);
          for (const p of file.imports.values()) this.importer(p, file);
          for (let k = 0; k < file.dot.length; k++) this.importer(file.dot[k], file);
        }
      }
    }
    return this.importers.get(path) ?? [];
  }

  private importers?: Map<string, FileInfo[]>;

  /**
   * The paths whose importers' lists `file` is in: its package's, its imports' and its dot imports'
   * (see importersOf).
   */
  private importedBy(file: FileInfo): Set<string> {
    return new Set([file.pkg.path, ...file.imports.values(), ...file.dot]);
  }

  /**
   * `file` put into the importers' lists it belongs in, where importersOf lists it (the program's order:
   * its package's place, then its place among the package's files), when they are made. A file that
   * came, or whose imports changed, made them all again before (3 ms of a file's coming in a watch on
   * v1.28).
   */
  private importersWith(file: FileInfo): void {
    if (!this.importers) return;
    const pkgAt = new Map<PkgInfo, number>();
    for (const pkg of this.program.packages.values()) pkgAt.set(pkg, pkgAt.size);
    const before = (a: FileInfo, b: FileInfo) => {
      const pa = pkgAt.get(a.pkg)!;
      const pb = pkgAt.get(b.pkg)!;
      return pa !== pb ? pa < pb : a.pkg.files.indexOf(a) < b.pkg.files.indexOf(b);
    };
    for (const path of this.importedBy(file)) {
      let list = this.importers.get(path);
      if (!list) this.importers.set(path, (list = []));
      let at = list.length;
      while (at > 0 && before(file, list[at - 1])) at--;
      list.splice(at, 0, file);
    }
  }

  /** `file` taken out of the importers' lists it is in (see importersWith). */
  private importersWithout(file: FileInfo): void {
    if (!this.importers) return;
    for (const path of this.importedBy(file)) {
      const list = this.importers.get(path);
      const at = list ? list.indexOf(file) : -1;
      if (at < 0) continue;
      list!.splice(at, 1);
      if (list!.length === 0) this.importers.delete(path);
    }
  }

  /** `file` listed among the importers of `path` (once, when it names it again). */
  private importer(path: string, file: FileInfo): void {
    let list = this.importers!.get(path);
    if (!list) this.importers!.set(path, (list = []));
    if (list[list.length - 1] !== file) list.push(file);
  }

  private apply(plans: FilePlan[], mentions: Set<FuncInfo>, meta: ResolveMeta, wentFiles: ReadonlySet<FileInfo> = new Set()): SessionUpdate {
    const r = this.resolver;
    const timings: Record<string, number> = {};
    let t = performance.now();
    const lap = (name: string) => {
      const now = performance.now();
      timings[name] = (timings[name] ?? 0) + now - t;
      t = now;
    };
    const changedTops = new Set<FuncInfo>();
    // Each moved top-level function's old lines to its new ones.
    const movedTops = new Map<FuncInfo, Map<number, number>>();
    const goneTops = new Set<FuncInfo>();
    const redoTops = new Set<FuncInfo>(mentions);
    const gone: FuncInfo[] = [];
    const fresh: FuncInfo[] = [];
    // Types that went (their answers kept under their IDs are dropped: see typesGone) and came.
    const goneTypes: TypeInfo[] = [];
    for (const plan of plans) {
      const { file, next } = plan;
      const pkg = file.pkg;
      const infos = this.infos.get(file)!;
      if (plan.typeNames) {
        for (const n of plan.typeNames.went) {
          goneTypes.push(pkg.types.get(n)!);
          pkg.types.delete(n);
        }
        for (const t of next.types) if (plan.typeNames.came.has(t.name)) pkg.types.set(t.name, { id: `${pkg.path}.${t.name}`, pkg, file, facts: t, methods: new Map() });
      }
      for (const t of next.types) {
        const info = pkg.types.get(t.name);
        if (info?.file === file) info.facts = t;
      }
      for (const v of next.values) {
        const info = pkg.values.get(v.name);
        if (info?.file === file) info.facts = v;
      }
      // A function whose records are the same keeps its records (the same objects), and so everything
      // resolution made of them: most of a file's functions when an edit adds lines after them.
      for (const key of plan.same) {
        const before = plan.old.get(key)!;
        plan.now.get(key)!.forEach((k, m) => (next.funcs[k] = file.facts.funcs[before[m]]));
      }
      const nextInfos: FuncInfo[] = new Array(next.funcs.length);
      const used = new Set<FuncInfo>();
      for (const [key, unit] of plan.now) {
        const before = plan.old.get(key);
        const byLocal = new Map((before ?? []).map((i) => [infos[i].facts.local, infos[i]]));
        for (const i of unit) {
          const f = next.funcs[i];
          let info = byLocal.get(f.local);
          if (!info) {
            info = { id: `${pkg.path}.${f.local}`, pkg, file, facts: f };
            fresh.push(info);
          }
          info.facts = f;
          nextInfos[i] = info;
          used.add(info);
        }
      }
      next.funcs.forEach((f, i) => {
        if (f.parent !== undefined) nextInfos[i].parent = nextInfos[f.parent];
        else delete nextInfos[i].parent;
      });
      for (const info of infos) if (!used.has(info)) gone.push(info);
      for (const key of plan.removed) goneTops.add(infos[plan.old.get(key)![0]]);
      for (const key of plan.changed) changedTops.add(nextInfos[plan.now.get(key)![0]]);
      for (const key of plan.moved) movedTops.set(nextInfos[plan.now.get(key)![0]], plan.lines.get(key)!);
      for (const key of [...plan.changed, ...plan.moved, ...plan.added]) redoTops.add(nextInfos[plan.now.get(key)![0]]);
      // The facts' diagnostics are listed again only when the file had some or has some.
      if (file.facts.diagnostics.length > 0 || next.diagnostics.length > 0) this.factsDiagnostics = undefined;
      file.facts = next;
      if (plan.imports) {
        this.importersWithout(file);
        file.imports = plan.imports.imports;
        file.dot = plan.imports.dot;
        this.importersWith(file);
      }
      this.staleSymbols.set(file, this.symbols.get(file) ?? []);
      this.symbols.delete(file);
      this.inputs.get(next.path)!.facts = next;
      this.infos.set(file, nextInfos);
    }
    for (const file of wentFiles) this.detach(file);
    for (const info of gone) {
      if (this.program.funcs.get(info.id) === info) this.program.funcs.delete(info.id);
      if (info.pkg.funcs.get(info.facts.local) === info) info.pkg.funcs.delete(info.facts.local);
      this.outputs.delete(info);
      this.goroutines.delete(info);
      this.touched.add(info);
    }
    for (const info of fresh) {
      if (info.pkg.funcs.has(info.facts.local)) throw new Error(`${info.id} is declared twice`);
      info.pkg.funcs.set(info.facts.local, info);
    }
    // Values that came, went or changed (see valuesTaken): their packages' maps of values listed
    // again, those values with records of their own (a type made of the old value is kept by the old
    // record), and the bindings' types made afresh (a binding typed by such a value, see mentions).
    const valuePlans = plans.filter((p) => p.valueNames);
    for (const p of valuePlans) valuesInOrder(p.file.pkg, p.valueNames!);
    if (valuePlans.length > 0) r.types.forgetBindTypes();
    // A value of a type that came or went is made in a function whose records name it (resolved again
    // from its new records: see plan), or comes from a signature that names it (a function resolved
    // again with what names it, and the bindings' types: see mentions); no other declaration names it
    // (see typeAddable). So what looked up its fields and methods is resolved again.
    const typed = plans.filter((p) => p.typeNames);
    if (typed.length > 0) this.program.types = typesInOrder(this.program, new Set(typed.map((p) => p.file.pkg)));
    const typesDropped = r.typesGone(goneTypes);
    // Fields that came, went or took another type: the types made of those structs made again.
    const structs = plans.some((p) => p.fields);
    if (structs) {
      // The types of the files whose structs changed (their records are new).
      r.types.forgetUnderlyings(new Set(plans.filter((p) => p.fields).flatMap((p) => p.next.types.map((t) => p.file.pkg.types.get(t.name)!).filter((t) => t?.file === p.file))));
      r.types.forgetBindTypes();
    }
    // Methods that came or went: their types' lists of methods, and those types' records, made again.
    const methodTypes = new Set<TypeInfo>();
    const methodNames = new Set<string>();
    // The names of those on types that stay: a lookup of such a name on a type that came or went was
    // made by a function resolved again anyway (see typeAddable), so it is not read as changed.
    const keptTypeMethods = new Set<string>();
    const resigned = plans.flatMap((p) => p.resigned.map((key) => this.infos.get(p.file)![p.now.get(key)![0]]));
    const cameTypes = new Set(plans.flatMap((p) => [...(p.typeNames?.came ?? [])].map((n) => p.file.pkg.types.get(n)!)));
    for (const info of [...gone, ...fresh, ...resigned]) {
      if (info.facts.kind !== 'method' || info.parent) continue;
      // None for a type that went with its methods (the index of types by method name is made again without it).
      const type = info.pkg.types.get(info.facts.recv!.type);
      if (type) methodTypes.add(type);
      methodNames.add(info.facts.name);
      if (type && !cameTypes.has(type)) keptTypeMethods.add(info.facts.name);
    }
    for (const info of resigned) r.impls.forgetSignature(info);
    // A plain function that came, went or took another signature: a binding typed by its result, in a
    // body that names it (see mentions), is typed again; the bindings' types are kept for all readers.
    if ([...gone, ...fresh, ...resigned].some((fn) => fn.facts.kind === 'func')) r.types.forgetBindTypes();
    // Interfaces whose methods changed: what the implementations of any interface are is asked again.
    const ifaceTypes = plans.flatMap((p) => [...(p.ifaces?.types ?? [])].map((n) => p.file.pkg.types.get(n)!));
    // A struct that embeds one of them has their methods in its method set; an interface that embeds
    // one lists them in its record.
    for (const t of ifaceTypes.length ? this.ifaceEmbedders(ifaceTypes) : []) methodTypes.add(t);
    // The structs whose embedded fields changed, and the types defined by one (`type V S`, whose
    // method sets take what the struct's embedded fields promote): their method sets.
    const embeddingTypes = new Set(plans.flatMap((p) => [...(p.embedding?.types ?? [])].map((n) => p.file.pkg.types.get(n)!)));
    for (const t of embeddingTypes.size ? this.definedBy(embeddingTypes) : []) methodTypes.add(t);
    for (const p of plans) {
      // The members the structs' embedded fields promoted or promote.
      for (const n of [...(p.ifaces?.names ?? []), ...(p.embedding?.names ?? [])]) {
        methodNames.add(n);
        keptTypeMethods.add(n);
      }
    }
    for (const type of methodTypes) {
      this.methodsInOrder(type);
      if (!this.staleSymbols.has(type.file)) {
        this.staleSymbols.set(type.file, this.symbols.get(type.file) ?? []);
        this.symbols.delete(type.file);
      }
    }
    // Functions that went leave the program's order as it was; new ones take their places in it. When
    // none came or went (an edit of bodies), the order is the last graph's; when some came, the last
    // order with them spliced in (see orderWith); when functions only went, the last order less those:
    // not the map's 53,000 entries read again (10-14 ms of such an edit on v1.28). The order of the
    // program's map (see order()) when an initializer came or went (the program lists a package's
    // initializers apart), or when there is no last order.
    const inits = [...fresh, ...gone].some((fn) => fn.facts.local === 'init');
    if (!this.last && fresh.length > 0) this.place(fresh);
    const order = !this.last
      ? this.order()
      : fresh.length > 0
        ? this.orderWith(fresh, gone, inits)
        : gone.length > 0
          ? (inits ? this.order() : without(this.last.order, new Set(gone), this.takeOrder()))
          : this.last.order;
    // The same order keeps its places, and the map of them once made (see rankIn).
    const rank = order === this.lastRank?.order ? this.lastRank.rank : rankIn(order);
    this.lastRank = { order, rank };
    lap('patch');

    // What changed, as the keys of Deps.
    const seeds = new Set<string>();
    for (const top of [...changedTops, ...goneTops, ...mentions]) seeds.add(`b:${r.unitOf(top)}`);
    // Package values whose numbers changed, or that came, went or changed otherwise (see
    // valuesTaken): what read their expressions for a number (a goroutine's period, see
    // concurrency.ts) is resolved again. Nothing else reads a number's text.
    for (const p of plans) {
      for (const n of [...(p.literals ?? []), ...(p.valueNames ?? [])]) seeds.add(`v:${p.file.pkg.path}.${n}`);
    }
    // Members (methods, interface methods, fields) that came, went or changed: what looked their names
    // up, the bodies those readers read (whose bindings' types they made for others too), and the
    // field-flow parts that looked them up (a store into `x.m().f` is keyed by m's result).
    const looked = [...new Set([...keptTypeMethods, ...plans.flatMap((p) => [...(p.fields ?? [])])])].map((n) => `m:${n}`);
    for (const k of [...looked, ...this.deps.bodiesReadBy(looked)]) seeds.add(k);
    const forced = r.flowReaders(looked);
    // The dispatch answers of the interfaces whose implementations changed.
    // (With structs whose embedded fields changed, their method sets are made again even when those
    // promote nothing: which types they embed is kept with them, see Implementations.methodSet.)
    if (methodNames.size > 0 || ifaceTypes.length > 0 || embeddingTypes.size > 0) for (const key of r.methodsChanged(methodTypes, methodNames, ifaceTypes.length > 0)) seeds.add(`d:${key}`);
    // The created types follow fields from what is created: only fields of the structs that stay can
    // bring in other types than those of the types that came (no other declaration names one, see
    // typeAddable), and refreshCreated follows the fields of the types newly created.
    const keptFields = plans.some((p) => p.fields !== undefined && p.fields.size > 0);
    for (const key of [...typesDropped, ...r.refreshCreated(plans.map((p) => p.file), keptFields)]) seeds.add(`d:${key}`);
    lap('created');
    const members = (tops: Iterable<FuncInfo>) => [...tops].flatMap((top) => (this.infos.get(top.file) ?? []).filter((fn) => topOf(fn) === top));
    const moved = new Set(members(movedTops.keys()));
    // The moved functions that nothing else names (see shifted): their resolution is the last one with
    // its lines moved, not made again, unless they turn out to read something that changed.
    const shiftOnly = new Set([...movedTops.keys()].filter((top) => !mentions.has(top)));
    for (const key of r.patchFlows([...new Set([...members(redoTops), ...forced])], gone, moved, rank, forced)) seeds.add(`f:${key}`);
    lap('flows');
    // Readers of what changed, then of the callees whose sites changed with them, until none is new.
    const done = new Set<FuncInfo>();
    // The functions whose channel records must be made again, by ID (see channelsNow).
    const channels = new Set<string>();
    const chansOf = (readers: Iterable<string>, into = channels) => {
      for (const k of readers) if (k.startsWith(CHANNELS)) into.add(k.slice(CHANNELS.length));
    };
    let first = true;
    for (let keys = seeds; keys.size > 0 || first; first = false) {
      const readers = this.deps.readersOf(keys);
      chansOf(readers);
      r.resetQueries([...readers].filter((k) => k.startsWith('q')));
      for (const k of readers) {
        if (!k.startsWith('u:')) continue;
        const top = r.unitTop(Number(k.slice(2)));
        if (!top || goneTops.has(top)) continue;
        redoTops.add(top);
        // A moved function that reads what changed is resolved again after all.
        if (shiftOnly.delete(top)) done.delete(top);
      }
      const todo = [...redoTops].filter((top) => !done.has(top));
      for (const top of todo) {
        if (!shiftOnly.has(top)) this.deps.forget(`u:${r.unitOf(top)}`);
        done.add(top);
      }
      const callees = r.patchSites(members(todo), first ? gone : [], moved, rank, new Set(members(shiftOnly)));
      keys = new Set([...callees].map((c) => `s:${c}`).filter((k) => !seeds.has(k)));
      for (const k of keys) seeds.add(k);
    }
    for (const top of goneTops) {
      this.deps.forget(`u:${r.unitOf(top)}`);
      r.forgetUnit(top);
    }
    const redo = new Set(members(done));
    const shifted = new Set(members(shiftOnly));
    lap('sites');
    // Indexed: a for-of over the order allocated an iterator result per function (see deltaOf).
    for (let i = 0; i < order.length; i++) {
      const fn = order[i];
      if (!redo.has(fn)) continue;
      if (!shifted.has(fn) || !this.shiftOne(fn, movedTops.get(topOf(fn))!)) this.resolveOne(fn);
    }
    const callers = r.patchCallers([...redo], gone, moved, rank, shifted);
    this.startsOf(redo);
    // The channel records read the bodies of the functions they follow, not the answers a function's
    // resolution depends on alone: any function resolved again counts, as does a function whose
    // callers changed. A function that has or had channel operations and was resolved again or went
    // has its own made again. Those that read only bodies that moved (their own included) have their
    // lines moved instead (see movedRecords).
    const moves: ChannelMoves = { ids: new Set(), own: new Map(), files: new Map() };
    for (const fn of [...redo, ...gone]) {
      if (fn.facts.chans.length === 0 && !this.channels?.byId.has(fn.id)) continue;
      if (shifted.has(fn)) {
        moves.ids.add(fn.id);
        moves.own.set(fn.id, movedTops.get(topOf(fn))!);
      } else channels.add(fn.id);
    }
    chansOf(this.deps.readersOf([...[...done].filter((top) => !shiftOnly.has(top)).map((top) => `b:${r.unitOf(top)}`), ...[...callers].map((id) => `k:${id}`)]));
    chansOf(this.deps.readersOf([...shiftOnly].map((top) => `b:${r.unitOf(top)}`)), moves.ids);
    for (const [top, lines] of movedTops) {
      const path = top.file.facts.path;
      let all = moves.files.get(path);
      if (!all) moves.files.set(path, (all = new Map()));
      for (const [from, to] of lines) all.set(from, to);
    }
    lap('resolve');
    const { graph, changes } = this.finish(meta, order, rank, channels, moves);
    lap('finish');
    return { graph, changes, functions: order.length, redone: redo.size, timings };
  }

  /**
   * The order of the functions once `fresh` came and `gone` went (with a last order). New functions
   * that each go next to a function of the last order (see insert) are spliced into that order, and
   * put at the end of the program's map, which is put in its order again only when it is next read in
   * order (see funcsInOrder). Setting again the map's entries from the first new place on (see place)
   * set some 16,000 of them for a function appended to kubelet.go: 5-46 ms of such an edit on v1.28.
   * Otherwise place() puts them in the map, and the order is the map's.
   */
  private orderWith(fresh: FuncInfo[], gone: FuncInfo[], inits: boolean): FuncInfo[] {
    const spliced = inits ? undefined : this.spliced(fresh, gone);
    if (spliced) {
      for (const fn of fresh) this.program.funcs.set(fn.id, fn);
      this.unplaced.push(...fresh);
      this.program.unsettled = () => this.placeUnplaced();
      return spliced;
    }
    // place() reads the map in its order.
    funcsInOrder(this.program);
    const placed = this.place(fresh);
    return placed && !inits ? placed.concat(this.program.inits).filter((fn) => fn.file.active) : this.order();
  }

  /** The last order less `gone`, with `fresh` where place() would put them; undefined when one of them is not simply placed. */
  private spliced(fresh: FuncInfo[], gone: FuncInfo[]): FuncInfo[] | undefined {
    const funcs = this.program.funcs;
    // Each new function's place is found by a scan of the order (some 80,000 pointers).
    if (fresh.length > SPLICED_MAX || fresh.some((fn) => !fn.file.active || funcs.has(fn.id) || this.infos.get(fn.file)!.some((i) => i.variants))) return undefined;
    // Into the array made ahead (see prepare), with room for the new functions: a copy of the order
    // and a splice into it that grew it mapped in 0.6 MB twice.
    const out = without(this.last!.order, new Set(gone), this.takeOrder());
    return this.insert(out, fresh) === undefined ? undefined : out;
  }

  /**
   * Inserts `fresh` into `list` (the map's functions, or an order of them) where a build from nothing
   * puts them in the program's map: each right after the last function its file declares before it
   * that has its place (in the map and no build variant, or inserted just before), else right before
   * the first such one after it. Returns the first place that changed; undefined when a function has
   * no such neighbour in `list` (it may be left in part changed).
   */
  private insert(list: FuncInfo[], fresh: FuncInfo[]): number | undefined {
    const funcs = this.program.funcs;
    const placed = new Set<FuncInfo>();
    const settled = (f: FuncInfo) => !f.variants && (placed.has(f) || (!fresh.includes(f) && funcs.get(f.id) === f));
    let from = list.length;
    const byFile = [...fresh].sort((a, b) => this.infos.get(a.file)!.indexOf(a) - this.infos.get(b.file)!.indexOf(b));
    for (const fn of byFile) {
      const infos = this.infos.get(fn.file)!;
      const at = infos.indexOf(fn);
      let before = infos.slice(0, at).reverse().find(settled);
      let anchor = before ?? infos.slice(at + 1).find(settled);
      if (!anchor) [before, anchor] = this.besideFile(fn.file, settled);
      const where = anchor ? list.indexOf(anchor) : -1;
      if (where < 0) return undefined;
      const place = where + (before ? 1 : 0);
      list.splice(place, 0, fn);
      from = Math.min(from, place);
      placed.add(fn);
    }
    return from;
  }

  /**
   * For a file none of whose functions has its place (a file that came): the last function with its
   * place (see insert) of the nearest file before it in its package that has one (as `before`, and
   * the anchor), else the first of the nearest file after it. The functions of a file outside the
   * build hold places in the map too (an ID no file of the build declares), so they are looked at.
   */
  private besideFile(file: FileInfo, settled: (f: FuncInfo) => boolean): [before: FuncInfo | undefined, anchor: FuncInfo | undefined] {
    const files = file.pkg.files;
    const k = files.indexOf(file);
    const funcsOf = (f: FileInfo) => this.infos.get(f) ?? f.facts.funcs.map((x) => this.program.funcs.get(`${f.pkg.path}.${x.local}`)).filter((x): x is FuncInfo => x?.file === f);
    for (let j = k - 1; j >= 0; j--) {
      const last = [...funcsOf(files[j])].reverse().find(settled);
      if (last) return [last, last];
    }
    for (let j = k + 1; j < files.length; j++) {
      const first = funcsOf(files[j]).find(settled);
      if (first) return [undefined, first];
    }
    return [undefined, undefined];
  }

  /**
   * Puts `fresh` (new functions of changed files) into the program's map of functions where a build of
   * the program from nothing puts them: that map lists the functions in the order in which the
   * packages' files first declare their IDs, the order the graph lists edges in (see insert); when
   * a file declares an ID elsewhere too (build variants), every ID's place is found again. Returns the
   * map's functions in their new order, or undefined when they were put in order that other way (see
   * reorder).
   */
  private place(fresh: FuncInfo[]): FuncInfo[] | undefined {
    const funcs = this.program.funcs;
    const list = [...funcs.values()];
    // The first place in the list that changed.
    const from = fresh.every((fn) => this.infos.get(fn.file)!.every((i) => !i.variants)) ? this.insert(list, fresh) : undefined;
    if (from === undefined) {
      this.reorder(fresh);
      return undefined;
    }
    // In place: the resolver reads the same map. A map keeps the order its keys were set in: the
    // entries from the first new place on are set again, in order, and the ones before stay (making
    // the whole map again grew its table step by step: about 7 MB per edit on v1.28).
    for (let i = from; i < list.length; i++) funcs.delete(list[i].id);
    for (let i = from; i < list.length; i++) funcs.set(list[i].id, list[i]);
    return list;
  }

  /** The functions orderWith set at the end of the program's map, to be put in their places when the map is next read in order. */
  private unplaced: FuncInfo[] = [];

  /**
   * The functions orderWith left at the end of the map (those still there) put where place() puts
   * them: the entries from the first one's place on are set again. Every ID's place was found again
   * (reorder): 72-112 ms, once a file had come to pkg/kubelet on v1.28, in the watch's idle time
   * before its check of every path.
   */
  private placeUnplaced(): void {
    const funcs = this.program.funcs;
    const unplaced = this.unplaced.filter((fn) => funcs.get(fn.id) === fn);
    this.unplaced = [];
    for (const fn of unplaced) funcs.delete(fn.id);
    this.place(unplaced);
  }

  /** `fresh` added to the program's map of functions, and every ID put in its place again (see place). */
  private reorder(fresh: FuncInfo[]): void {
    for (const fn of fresh) this.program.funcs.set(fn.id, fn);
    const funcs = new Map<string, FuncInfo>();
    for (const pkg of this.program.packages.values()) {
      for (const file of pkg.files) {
        for (const f of file.facts.funcs) {
          const id = `${pkg.path}.${f.local}`;
          const info = this.program.funcs.get(id);
          if (info && !funcs.has(id)) funcs.set(id, info);
        }
      }
    }
    for (const [id, info] of this.program.funcs) if (!funcs.has(id)) funcs.set(id, info);
    this.program.funcs.clear();
    for (const [id, info] of funcs) this.program.funcs.set(id, info);
  }
}

function topOf(fn: FuncInfo): FuncInfo {
  let top = fn;
  while (top.parent) top = top.parent;
  return top;
}

/** A file's functions grouped by top-level function, keyed by its local name (and its rank among those of that name). */
function unitsOf(funcs: FuncFacts[]): Map<string, Unit> {
  const byTop = new Map<number, Unit>();
  for (let i = 0; i < funcs.length; i++) {
    let top = i;
    while (funcs[top].parent !== undefined) top = funcs[top].parent!;
    const unit = byTop.get(top);
    if (unit) unit.push(i);
    else byTop.set(top, top === i ? [i] : [top, i]);
  }
  const out = new Map<string, Unit>();
  const seen = new Map<string, number>();
  for (const [top, unit] of [...byTop].sort((a, b) => a[0] - b[0])) {
    const local = funcs[top].local;
    const n = seen.get(local) ?? 0;
    seen.set(local, n + 1);
    out.set(n === 0 ? local : `${local}#${n}`, unit[0] === top ? unit : [top, ...unit.filter((i) => i !== top)]);
  }
  return out;
}

/**
 * Whether two functions' records are the same, compared as JSON texts: the extractor makes plain
 * records of strings, integers, booleans and lists, each kind with its keys in one order, so equal
 * texts are equal records (but for a field set to undefined against one left out, which nothing tells
 * apart). The texts are kept with the records, and an edit compares a file's records with the ones
 * the edit before made or kept: on v1.28's kubelet.go the comparison takes 3 ms, against 11 ms for
 * isDeepStrictEqual.
 */
function sameFacts(was: FuncFacts, now: FuncFacts): boolean {
  return textOf(was) === textOf(now);
}

const texts = new WeakMap<FuncFacts, string>();

function textOf(f: FuncFacts): string {
  let text = texts.get(f);
  if (text === undefined) texts.set(f, (text = JSON.stringify(f)));
  return text;
}

/** What of a function its callers and the rest of the program read: its signature. */
function signature(f: FuncFacts): unknown {
  return { kind: f.kind, name: f.name, recv: f.recv, tparams: f.tparams, params: f.params, results: f.results, variadic: f.variadic };
}

/** A unit's records with their links to each other (parent, closures) as positions within the unit. */
function relative(funcs: FuncFacts[], unit: Unit): unknown {
  return unit.map((i) => ({ ...funcs[i], parent: funcs[i].parent === undefined ? -1 : unit.indexOf(funcs[i].parent!), closures: funcs[i].closures.map((c) => unit.indexOf(c)) }));
}

/**
 * The names (see namesIn) a file's package values, functions and types hold, kept with its facts: an
 * edit that adds or removes a function looks for its name in the files of its package and of their
 * importers, which are mostly the ones the edit before looked in, with the same facts.
 */
function namesOfFile(facts: FileFacts): FileNames {
  let names = fileNames.get(facts);
  if (!names) {
    names = { values: new Set(), funcs: new Set(), types: new Set() };
    for (const v of facts.values) collectNames(v, names.values);
    for (const f of facts.funcs) collectNames(f, names.funcs);
    for (const t of facts.types) collectNames(t.t, names.types);
    fileNames.set(facts, names);
  }
  return names;
}

/** The names a file's package values, functions and type declarations hold (see namesIn). */
interface FileNames {
  values: Set<string>;
  funcs: Set<string>;
  types: Set<string>;
}

const fileNames = new WeakMap<FileFacts, FileNames>();

/** Every name namesIn would find in `x`, added to `into`. */
function collectNames(x: unknown, into: Set<string>): void {
  someName(x, (n) => {
    into.add(n);
    return false;
  });
}

/**
 * The program's types in the order a build from nothing lists them (see buildProgram): each type
 * where its package's files declare the record the package took. With `changed`, the packages whose
 * types came or went: the list before (in that order, so each package's types in one stretch) with
 * those packages' stretches made again, where listing every type took 4-6 ms of a file's coming in a
 * watch on v1.28. A changed package that had no type before has no stretch to take the place of: the
 * list is then made whole.
 */
function typesInOrder(program: Program, changed?: ReadonlySet<PkgInfo>): TypeInfo[] {
  const out: TypeInfo[] = [];
  const listed = (pkg: PkgInfo) => {
    for (const file of pkg.files) {
      for (const t of file.facts.types) {
        const info = pkg.types.get(t.name);
        if (info?.file === file && info.facts === t) out.push(info);
      }
    }
  };
  if (!changed) {
    for (const pkg of program.packages.values()) listed(pkg);
    return out;
  }
  const before = program.types;
  const done = new Set<PkgInfo>();
  for (let k = 0; k < before.length; k++) {
    const pkg = before[k].pkg;
    if (!changed.has(pkg)) out.push(before[k]);
    else if (!done.has(pkg)) {
      done.add(pkg);
      listed(pkg);
    }
  }
  return done.size === changed.size ? out : typesInOrder(program);
}

/**
 * The package's map of values set again in the order a build from nothing sets it (see
 * buildProgram), with new records for the values named `fresh`; the others keep theirs.
 */
function valuesInOrder(pkg: PkgInfo, fresh: ReadonlySet<string>): void {
  const old = new Map(pkg.values);
  pkg.values.clear();
  for (const file of pkg.files) {
    declareValues(pkg, file, (facts) => {
      const kept = old.get(facts.name);
      return kept && kept.file === file && kept.facts === facts && !fresh.has(facts.name) ? kept : undefined;
    });
  }
}

/**
 * Whether a package value is an interface assertion with nothing else in it (or absent): `var _ I`,
 * `var _ I = &T{}`, `T{}`, `(*T)(nil)`. It names types, and creates one, but calls nothing and
 * stores nothing into a field.
 */
function assertionLike(v: ValueFacts | undefined): boolean {
  const e = v?.v;
  if (!v || e === undefined) return true;
  if (v.name !== '_' || v.vi !== undefined) return false;
  const empty = (x: Expr) => x.k === 'comp' && x.elems.length === 0;
  const typeName = (x: Expr): boolean => x.k === 'id' || (x.k === 'sel' && x.x.k === 'id');
  return empty(e) || (e.k === 'un' && e.op === '&' && empty(e.x)) || (e.k === 'call' && e.f.k === 'un' && e.f.op === '*' && typeName(e.f.x) && e.a.length === 1 && e.a[0].k === 'lit' && e.a[0].t === 'nil');
}

/** The predeclared types a variable taken by valuesTaken may have. */
const BASIC_TYPES = new Set(['bool', 'string', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr', 'byte', 'rune', 'float32', 'float64', 'complex64', 'complex128']);

/**
 * Whether valuesTaken can take a package value that comes, goes or changes: a constant made of
 * names, numbers and operators (see constantExpr), or a variable with no type or a predeclared basic
 * one whose value (if any) is made of literals and operators alone (no name: it cannot hold a
 * function, a channel or a composite value).
 */
function plainValue(v: ValueFacts): boolean {
  // One of several values of one expression (`a, b = f()`); a variable declared without one has a `vi` of its own.
  if (v.v !== undefined && v.vi !== undefined) return false;
  if (v.kind === 'const') return constantExpr(v.v);
  const basic = !v.t || (v.t.k === 'named' && !v.t.pkg && !v.t.args && BASIC_TYPES.has(v.t.n));
  return basic && (v.v !== undefined || v.t !== undefined) && constantExpr(v.v, false);
}

/** Whether a constant's expression is made of names (when `names`), numbers and operators alone (no call). */
function constantExpr(e: Expr | undefined, names = true): boolean {
  if (!e) return true;
  switch (e.k) {
    case 'lit':
      return true;
    case 'id':
      return names;
    case 'sel':
      return names && constantExpr(e.x);
    case 'un':
      return constantExpr(e.x, names);
    case 'bin':
      return constantExpr(e.x, names) && constantExpr(e.y, names);
    default:
      return false;
  }
}

/**
 * The names of the values of `now` whose numbers (integer and floating-point literals: the only
 * literals whose text the facts keep) differ from `was`'s, when nothing else of them does but where
 * they are (see recordsShift); undefined otherwise. A number's text is read only where a goroutine's
 * period is written out; its kind (integer or not), which gives it its type, must stay.
 */
function literalsChanged(was: readonly ValueFacts[], now: readonly ValueFacts[]): Set<string> | undefined {
  if (was.length !== now.length) return undefined;
  const texts: string[][] = [];
  // The records with each number's text taken out (and listed, in order, by value).
  const bare = (values: readonly ValueFacts[]) =>
    values.map((v) => {
      const found: string[] = [];
      texts.push(found);
      return JSON.parse(JSON.stringify(v), (_k, x: unknown) => {
        const lit = x as { k?: string; t?: string; v?: unknown } | null;
        if (lit?.k !== 'lit' || typeof lit.v !== 'string') return x;
        found.push(lit.v);
        return { k: 'lit', t: lit.t };
      }) as ValueFacts;
    });
  if (!recordsShift(bare(was), bare(now))) return undefined;
  const changed = new Set<string>();
  for (let i = 0; i < was.length; i++) {
    const [a, b] = [texts[i], texts[was.length + i]];
    if (a.length !== b.length || a.some((t, k) => t !== b[k])) changed.add(now[i].name);
  }
  return changed;
}

/** `order` less the functions of `gone`, in `into` when it has room for all of `order` (see fitted). */
function without(order: readonly FuncInfo[], gone: ReadonlySet<FuncInfo>, into?: FuncInfo[]): FuncInfo[] {
  const out = fitted(into, order.length);
  let o = 0;
  for (let i = 0; i < order.length; i++) if (!gone.has(order[i])) out[o++] = order[i];
  out.length = o;
  return out;
}

/** Whether two orders list the same functions in the same places. */
function sameFunctions(a: readonly FuncInfo[], b: readonly FuncInfo[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A list laid out from runs of another list's items (`src`) and lists of its own, in order, and copied
 * into one array at the end: collect copies most of the last graph's edges in a few long runs, which
 * pushing them one by one (into an array that grows step by step) cost 3-5 ms of each update on
 * v1.28.
 */
class Laid<T> {
  /** What is laid, in order: runs of `src` and lists of their own. */
  private readonly pieces: (T[] | Run)[] = [];
  /** The run of `src` not yet put in `pieces`. */
  private from = 0;
  private to = 0;
  /** The items laid so far. */
  length = 0;

  constructor(private readonly src: readonly T[]) {}

  /** src[from..to) next. */
  run(from: number, to: number): void {
    if (from !== this.to) {
      this.close();
      this.from = from;
    }
    this.to = to;
    this.length += to - from;
  }

  /** `items` next. */
  own(items: T[]): void {
    if (items.length === 0) return;
    this.close();
    this.pieces.push(items);
    this.length += items.length;
  }

  /**
   * The list, each item copied once into an array of its length: slicing the runs and joining the
   * slices copied each twice (9 ms of an update on v1.28, where this takes 5, measured apart). With
   * `into` (see ResolveSession.prepare) long enough, into that array, cut to the list's length.
   */
  done(into?: T[]): T[] {
    this.close();
    const { src } = this;
    const out = fitted(into, this.length);
    let o = 0;
    for (const p of this.pieces) {
      if (p instanceof Run) for (let k = p.from; k < p.to; k++) out[o++] = src[k];
      else for (let k = 0; k < p.length; k++) out[o++] = p[k];
    }
    return out;
  }

  private close(): void {
    if (this.to > this.from) this.pieces.push(new Run(this.from, this.to));
    this.from = this.to = 0;
  }
}

/** Arrays made ahead for the lists of a graph (see ResolveSession.prepare). */
interface Spare {
  edges: Edge[];
  unresolved: UnresolvedSite[];
  symbols: SymbolRecord[];
  /** Taken by an update whose functions came or went (see takeOrder). */
  order?: FuncInfo[];
}

/** An array for a list that had `n` items the last time: room for a few more (an edit that adds some edges fits). */
function room<T>(n: number): T[] {
  return new Array<T>(n + (n >> 6) + 64);
}

/** A run of a Laid's source list: its items [from, to). */
class Run {
  constructor(
    readonly from: number,
    readonly to: number,
  ) {}
}

/** Whether two functions' records give the same results (positions aside). */
function sameResults(was: FuncFacts, now: FuncFacts): boolean {
  return JSON.stringify(was.results, noLines) === JSON.stringify(now.results, noLines);
}

/**
 * Whether `x` (a package value's record) names one of `names` only as the function a call calls
 * (`f(...)` or `pkg.F(...)`): then its type reads only the functions' results.
 */
function calledOnly(x: unknown, names: Set<string>): boolean {
  if (typeof x !== 'object' || x === null) return true;
  if (Array.isArray(x)) return x.every((v) => calledOnly(v, names));
  const o = x as Record<string, unknown>;
  if (o.k === 'call') {
    const f = o.f as { k: string; n?: string; x?: unknown };
    const callee = (f.k === 'id' || f.k === 'sel') && names.has(f.n!);
    return (callee ? calledOnly(f.x, names) : calledOnly(f, names)) && calledOnly(o.a, names) && calledOnly(o.targs, names);
  }
  if (typeof o.n === 'string' && names.has(o.n)) return false;
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'object' && v !== null && !calledOnly(v, names)) return false;
  }
  return true;
}

/** Whether a record names one of `names` anywhere (an identifier or a selector: any `n` field). */
function namesIn(x: unknown, names: Set<string>): boolean {
  return someName(x, (n) => names.has(n));
}

/** A type's record as text, without positions, docs and fingerprints: what resolution reads of it. */
function typeText(t: TypeFacts): string {
  return JSON.stringify({ name: t.name, t: t.t, alias: t.alias, tparams: t.tparams }, noLines);
}

/** The items of `was` that `now` has not and those of `now` that `was` has not, compared as text without their lines. */
function cameOrWent<T>(was: readonly T[], now: readonly T[]): T[] {
  const text = (x: T) => JSON.stringify(x, noLines);
  const [before, after] = [new Set(was.map(text)), new Set(now.map(text))];
  return [...was.filter((x) => !after.has(text(x))), ...now.filter((x) => !before.has(text(x)))];
}

/** Fields as text, without their lines. */
function fieldText(fields: Extract<TypeExpr, { k: 'struct' }>['fields']): string {
  return JSON.stringify(fields, noLines);
}

function noLines(key: string, value: unknown): unknown {
  return key === 'line' || key === 'l' ? undefined : value;
}

/** Whether `x` names one of `names` (an `n` field, or a type's package qualifier, at any depth). */
function namedIn(x: unknown, names: Set<string>): boolean {
  return someName(x, (n) => names.has(n), true);
}

/**
 * Whether `found` holds for a name in `x` (any `n` field, at any depth, and with `qualifiers` any
 * `pkg` field: a type's package qualifier); the names are visited in order until it does.
 */
function someName(x: unknown, found: (name: string) => boolean, qualifiers = false): boolean {
  if (typeof x !== 'object' || x === null) return false;
  if (Array.isArray(x)) return x.some((v) => someName(v, found, qualifiers));
  const o = x as Record<string, unknown>;
  if (typeof o.n === 'string' && found(o.n)) return true;
  if (qualifiers && typeof o.pkg === 'string' && found(o.pkg)) return true;
  for (const k in o) {
    const v = o[k];
    if (typeof v === 'object' && v !== null && someName(v, found, qualifiers)) return true;
  }
  return false;
}

/** The facts of a file that declares nothing: a file before it came, or after it went. */
function emptyFacts(path: string, pkg: string): FileFacts {
  return { path, pkg, imports: [], funcs: [], types: [], values: [], diagnostics: [] };
}
