/**
 * ResolveSession: resolution kept between builds re-resolves only what an edit can change, and must
 * give exactly the graph a resolution from nothing gives (the same records in the same order). Each
 * case edits files of a fixture tree, updates the session with their new facts, and compares.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { extractFile, type FileFacts } from '../../src/parse/index.js';
import { buildProgram, factsDiagnostics, resolveProgram, ResolveSession, type PackageInput } from '../../src/resolve/index.js';
import { funcsInOrder } from '../../src/resolve/program.js';
import { assertChangesHold } from '../helpers/graph-changes.js';

const ctx = defaultBuildContext();
const META = { root: '/fixture', modulePath: 'k8s.io/kubernetes', context: ctx, diagnostics: [] };

/** A fixture's files as texts, and its packages as the source stage gives them. */
function tree(name: string) {
  const root = resolve('test/fixtures/go', name);
  const { packages } = computeScope(openTree(root, ctx), 'default', ctx);
  const texts = new Map<string, string>();
  for (const p of packages) for (const f of p.files) texts.set(f.path, readFileSync(join(root, f.path), 'utf8'));
  const facts = (path: string, text: string, active: boolean): FileFacts => extractFile(path, Buffer.from(text), undefined, !active);
  const inputs = (): PackageInput[] => packages.map((p) => ({ importPath: p.importPath, files: p.files.map((f) => ({ facts: facts(f.path, texts.get(f.path)!, f.active), active: f.active, constraint: f.constraint })) }));
  const active = new Set(packages.flatMap((p) => p.files.filter((f) => f.active).map((f) => f.path)));
  return { texts, inputs, facts: (path: string) => facts(path, texts.get(path)!, active.has(path)), active };
}

function fromNothing(inputs: PackageInput[]): Graph {
  return resolveProgram(buildProgram(inputs), { ...META, diagnostics: factsDiagnostics(inputs) });
}

/**
 * Starts a session on the fixture; `edit` changes a file's text and returns what the session made of
 * it, checked against a resolution from nothing. With `prepare`, the session makes the arrays of each
 * update's lists before it (as the watch has it do between edits), and the last graphs it made stay as
 * they were made.
 */
function session(name: string, opts: { prepare?: boolean; texts?: Record<string, (text: string) => string> } = {}) {
  const t = tree(name);
  for (const [path, change] of Object.entries(opts.texts ?? {})) t.texts.set(path, change(t.texts.get(path)!));
  const inputs = t.inputs();
  const started = ResolveSession.start(buildProgram(inputs), inputs, META);
  assert.deepEqual(started.graph, fromNothing(t.inputs()), 'the session starts with the graph a resolution from nothing gives');
  const s = started.session;
  let last = started.graph;
  const made: [Graph, string][] = [];
  return {
    texts: t.texts,
    active: t.active,
    /**
     * Applies `change` to `path`'s text (and `more` to other files', in the same update); the
     * update's outcome (the graph checked, or why it was refused).
     */
    edit(path: string, change: (text: string) => string, more: [string, (text: string) => string][] = []): { redone?: number; refused?: string; graph?: Graph } {
      const edits: [string, (text: string) => string][] = [[path, change], ...more];
      const before = edits.map(([p]) => t.texts.get(p)!);
      for (const [p, c] of edits) t.texts.set(p, c(t.texts.get(p)!));
      if (opts.prepare) s.prepare();
      const out = s.update(edits.map(([p]) => t.facts(p)), META);
      if ('refused' in out) {
        edits.forEach(([p], i) => t.texts.set(p, before[i]));
        return { refused: out.refused };
      }
      const fresh = fromNothing(t.inputs());
      assert.deepEqual(out.graph, fresh, `${path}: the graph after the edit`);
      // What the session says may have changed since its last graph holds all that did.
      assertChangesHold(out.graph, out.changes, last, path);
      last = out.graph;
      // deepEqual does not compare the order of keys: the files written from the graph do.
      assert.equal(JSON.stringify(out.graph.stats), JSON.stringify(fresh.stats), `${path}: the counts, in order`);
      if (opts.prepare) {
        for (const [g, json] of made) assert.equal(JSON.stringify(g), json, `${path}: a graph made before the edit is as it was made`);
        // The last few: an array handed to the next update's graph again would be one of theirs.
        if (made.push([out.graph, JSON.stringify(out.graph)]) > 4) made.shift();
      }
      return { redone: out.redone, graph: out.graph };
    },
  };
}

const KUBELET = 'pkg/kubelet/kubelet.go';

function edgesAt(g: Graph, caller: string, line?: number): string[] {
  return g.edges.filter((e) => e.caller === caller && (line === undefined || e.line === line)).map((e) => `${e.callee} ${e.how}`).sort();
}

/** A session on the `session` fixture, its file of methods, and the edges of a caller there with the package left out of the IDs. */
function sessionFixture() {
  const s = session('session');
  const path = 'pkg/kubelet/methods.go';
  const pkg = 'k8s.io/kubernetes/pkg/kubelet';
  const edges = (g: Graph, caller: string) => edgesAt(g, `${pkg}.${caller}`).map((e) => e.replaceAll(`${pkg}.`, ''));
  return { s, path, pkg, edges, before: s.edit(path, (t) => t).graph! };
}

describe('ResolveSession', () => {
  it('re-resolves a flow a deleted assignment changed, in functions the edit did not touch', () => {
    const s = session('kubelike');
    const id = 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoop';
    const out = s.edit(KUBELET, (t) => t.replace(/\n\t\tklet\.pleg = pleg\.NewEventedPLEG\([^\n]*/, '\n\t\t_ = eventChannel'));
    assert.equal(out.refused, undefined);
    // Only GenericPLEG flows into the field now: syncLoop's kl.pleg.Watch() narrows to it.
    const watch = edgesAt(out.graph!, id).filter((e) => e.includes('Watch'));
    assert.deepEqual(watch, ['k8s.io/kubernetes/pkg/kubelet/pleg.(*EventedPLEG).Watch iface-ruled-out-by-flow', 'k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Watch iface-flow']);
  });

  it('takes a function appended, then removed, and a closure added to a function', () => {
    const s = session('kubelike');
    const added = s.edit(KUBELET, (t) => `${t}\nfunc atlasExtra(kl *Kubelet) {\n\tkl.BirthCry()\n}\n`);
    assert.equal(added.refused, undefined);
    assert.deepEqual(edgesAt(added.graph!, 'k8s.io/kubernetes/pkg/kubelet.atlasExtra'), ['k8s.io/kubernetes/pkg/kubelet.(*Kubelet).BirthCry receiver-method']);
    assert.ok(added.redone! < added.graph!.stats.functions, `${added.redone} functions resolved again`);
    const removed = s.edit(KUBELET, (t) => t.replace(/\nfunc atlasExtra[\s\S]*$/, '\n'));
    assert.equal(removed.refused, undefined);
    const closure = s.edit(KUBELET, (t) => t.replace('func (kl *Kubelet) BirthCry() {\n', 'func (kl *Kubelet) BirthCry() {\n\tf := func() { kl.StartGarbageCollection() }\n\tf()\n'));
    assert.equal(closure.refused, undefined);
    assert.ok(closure.graph!.edges.some((e) => e.caller === 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).BirthCry.func1'));
  });

  it('keeps the goroutines and the counts of edges by kind right when an edit starts a goroutine, adds a kind of edge, and takes both back', () => {
    const s = session('kubelike');
    const id = 'k8s.io/kubernetes/pkg/kubelet.atlasStarter';
    const before = s.edit(KUBELET, (t) => t);
    const started = s.edit(KUBELET, (t) => `${t}\nfunc atlasStarter(kl *Kubelet) {\n\tgo kl.BirthCry()\n\tf := kl.StartGarbageCollection\n\tf()\n}\n`);
    assert.equal(started.refused, undefined);
    assert.equal(started.graph!.goroutines.filter((g) => g.starter === id).length, 1, 'the goroutine it starts');
    assert.equal(started.graph!.goroutines.length, before.graph!.goroutines.length + 1);
    assert.equal(started.graph!.stats['edges.method-value'], (before.graph!.stats['edges.method-value'] ?? 0) + 1, 'its method value counted');
    const taken = s.edit(KUBELET, (t) => t.replace(/\nfunc atlasStarter[\s\S]*$/, '\n'));
    assert.deepEqual(taken.graph!.goroutines, before.graph!.goroutines);
    assert.equal(JSON.stringify(taken.graph!.stats), JSON.stringify(before.graph!.stats));
  });

  it('leaves alone the functions whose records are the same, positions included', () => {
    const s = session('kubelike');
    const appended = s.edit(KUBELET, (t) => `${t}\nfunc atlasAppended() {}\n`);
    const first = s.edit(KUBELET, (t) => `// a line first\n${t}`);
    assert.equal(appended.redone, 1, 'the new function alone: those above it did not move');
    assert.ok(first.redone! > 10, `every function moved: ${first.redone} resolved again`);
  });

  it('makes the channel records again when a function they follow moves, in a file without channel operations of its own', () => {
    const s = session('kubelike');
    const results = 'pkg/kubelet/prober/results/results_manager.go';
    const origin = (g: Graph) => [...new Set(g.channels.flatMap((c) => c.origins ?? []).filter((o) => o.includes(results)))];
    // NewManager, which makes the channel, put last in its file: a line put before it moves it alone,
    // not the functions after it that send on the channel.
    const last = s.edit(results, (t) => {
      const fn = /\nfunc NewManager\(\) Manager \{[\s\S]*?\n\}\n/.exec(t)![0];
      return `${t.replace(fn, '\n')}${fn}`;
    });
    const before = origin(last.graph!);
    assert.equal(before.length, 1, 'the probe results channel is made in NewManager');
    const moved = s.edit(results, (t) => t.replace('func NewManager() Manager {', '// a line before\nfunc NewManager() Manager {'));
    assert.equal(moved.redone, 1, 'NewManager alone moved');
    assert.deepEqual(origin(moved.graph!), [before[0].replace(/:(\d+)$/, (_, n) => `:${Number(n) + 1}`)], 'the origin is a line lower');
  });

  it('makes the channel records again when a function gains a channel operation, a field that holds a channel gains a value, or a new function has one', () => {
    const s = session('kubelike');
    const results = 'pkg/kubelet/prober/results/results_manager.go';
    const before = s.edit(results, (t) => t).graph!;
    // Get had no channel operation: the records never read it.
    const op = s.edit(results, (t) => t.replace('func (m *manager) Get(id kubecontainer.ContainerID) (Result, bool) {\n', 'func (m *manager) Get(id kubecontainer.ContainerID) (Result, bool) {\n\t<-m.updates\n'));
    assert.equal(op.graph!.channels.length, before.channels.length + 1, 'the receive is recorded');
    // A new function stores another channel into the field: only the field's list of values changed.
    const origins = (g: Graph) => new Set(g.channels.flatMap((c) => c.origins ?? []));
    const made = s.edit(results, (t) => `${t}\nfunc atlasOther() *manager {\n\treturn &manager{updates: make(chan Update, 1)}\n}\n`);
    assert.equal(origins(made.graph!).size, origins(op.graph!).size + 1, 'the second channel is an origin');
    // A new function with a channel operation: nothing the records read changed.
    const recv = s.edit(results, (t) => `${t}\nfunc atlasRecv(ch chan int) {\n\t<-ch\n}\n`);
    assert.equal(recv.graph!.channels.length, made.graph!.channels.length + 1, 'its receive is recorded');
    // A new caller passes another channel to podWorkerLoop, which ranges over its parameter: only the
    // callers of podWorkerLoop changed.
    const loop = (g: Graph) => g.channels.filter((c) => c.fn.endsWith('.(*podWorkers).podWorkerLoop')).flatMap((c) => c.origins ?? []);
    const workers = 'pkg/kubelet/pod_workers.go';
    const fed = s.edit(workers, (t) => `${t}\nfunc atlasFeed(p *podWorkers) {\n\tp.podWorkerLoop("x", make(chan struct{}))\n}\n`);
    assert.equal(loop(fed.graph!).length, loop(recv.graph!).length + 1, 'the channel it passes is an origin');
  });

  it('puts functions added in the middle of a file where a build from nothing puts them', () => {
    const s = session('kubelike');
    const pods = 'pkg/kubelet/pod_workers.go';
    const out = s.edit(pods, (t) => t.replace('func newPodWorkers(', 'func atlasFirst() {}\n\nfunc atlasSecond() { atlasFirst() }\n\nfunc newPodWorkers('));
    assert.equal(out.refused, undefined);
    const ids = out.graph!.edges.map((e) => e.caller);
    assert.ok(ids.includes('k8s.io/kubernetes/pkg/kubelet.atlasSecond'));
    // A closure added in the middle of a function, and a function in a file with build variants.
    assert.equal(s.edit(pods, (t) => t.replace('func atlasSecond() { atlasFirst() }', 'func atlasSecond() { f := func() { atlasFirst() }; f() }')).refused, undefined);
    assert.equal(s.edit('pkg/kubelet/cm/container_manager_linux.go', (t) => `${t}\nfunc atlasLinuxOnly() {}\n`).refused, undefined);
  });

  it('puts the program\'s map of functions, once settled, in the order a build from nothing has, after functions came in the middle of files and went', () => {
    const t = tree('kubelike');
    const inputs = t.inputs();
    const program = buildProgram(inputs);
    const s = ResolveSession.start(program, inputs, META).session;
    const pods = 'pkg/kubelet/pod_workers.go';
    const edits: [string, (text: string) => string][] = [
      [pods, (x) => x.replace('func newPodWorkers(', 'func atlasFirst() {}\n\nfunc atlasSecond() { atlasFirst() }\n\nfunc newPodWorkers(')],
      [KUBELET, (x) => `${x}\nfunc atlasAppended() {}\n`],
      [pods, (x) => x.replace('func atlasFirst() {}\n\n', '')],
    ];
    for (const [k, [path, change]] of edits.entries()) {
      t.texts.set(path, change(t.texts.get(path)!));
      const out = s.update([t.facts(path)], META);
      assert.ok('graph' in out, JSON.stringify(out));
      s.settle();
      assert.deepEqual([...funcsInOrder(program)].map((f) => f.id), [...buildProgram(t.inputs()).funcs.keys()], `edit ${k}: the map's order`);
    }
  });

  it('lists the goroutines and edges of functions added in the middle of a file in their places, over more edits and after an initializer came', () => {
    const s = session('kubelike');
    const pods = 'pkg/kubelet/pod_workers.go';
    const id = 'k8s.io/kubernetes/pkg/kubelet.atlasStarter';
    // Before UpdatePod, which starts a goroutine of its own: the new goroutine is listed before its.
    const out = s.edit(pods, (t) => t.replace('func newPodWorkers(', 'func atlasStarter(p *podWorkers) {\n\tgo p.SyncKnownPods(nil)\n}\n\nfunc newPodWorkers('));
    assert.equal(out.refused, undefined);
    const starters = out.graph!.goroutines.map((g) => g.starter);
    assert.ok(starters.indexOf(id) >= 0 && starters.indexOf(id) < starters.indexOf('k8s.io/kubernetes/pkg/kubelet.(*podWorkers).UpdatePod'), 'listed before the goroutine of UpdatePod');
    // A second function after it, then a body edit of the first: each graph as from nothing.
    assert.equal(s.edit(pods, (t) => t.replace('func newPodWorkers(', 'func atlasSecond(p *podWorkers) {\n\tgo atlasStarter(p)\n}\n\nfunc newPodWorkers(')).refused, undefined);
    assert.equal(s.edit(pods, (t) => t.replace('\tgo p.SyncKnownPods(nil)\n', '\tgo p.SyncKnownPods(nil)\n\tgo p.removeTerminatedWorker("")\n')).refused, undefined);
    // An initializer added: the order is the program's map's again, which must have the new functions in their places.
    const init = s.edit(KUBELET, (t) => `${t}\nfunc init() {\n\tgo atlasSecond(nil)\n}\n`);
    assert.equal(init.refused, undefined);
    const callers = [...new Set(init.graph!.edges.map((e) => e.caller))];
    assert.ok(callers.indexOf(id) < callers.indexOf('k8s.io/kubernetes/pkg/kubelet.(*podWorkers).UpdatePod'), 'the new function\'s edges still before those of UpdatePod');
  });

  it('re-resolves the callers of a function whose name came, and keeps lines moved above an edit right', () => {
    const s = session('kubelike');
    // A call of a function that does not exist yet: unresolved, then resolved once it is declared.
    const early = s.edit(KUBELET, (t) => t.replace('func (kl *Kubelet) BirthCry() {\n', 'func (kl *Kubelet) BirthCry() {\n\tatlasLater()\n'));
    assert.equal(early.refused, undefined);
    assert.ok(early.graph!.unresolved.some((u) => u.callee === 'atlasLater'));
    const later = s.edit('pkg/kubelet/pod_workers.go', (t) => `// a line first\n${t}\nfunc atlasLater() {}\n`);
    assert.equal(later.refused, undefined);
    assert.ok(later.graph!.edges.some((e) => e.callee === 'k8s.io/kubernetes/pkg/kubelet.atlasLater'));
  });

  it('follows a cycle of field and parameter flows after an edit (the memo fixture)', () => {
    const s = session('memo');
    const path = 'pkg/kubelet/runtime.go';
    const out = s.edit(path, (t) => t.replace(/return &cachedRuntime\{\}/, 'return nil'));
    assert.equal(out.refused, undefined);
  });

  it('re-resolves a function whose call sites moved to it from a function the edit did not touch', () => {
    const s = session('session');
    const runB = 'k8s.io/kubernetes/pkg/kubelet.runB';
    const before = s.edit('pkg/kubelet/runner.go', (t) => t);
    assert.deepEqual(edgesAt(before.graph!, runB), ['k8s.io/kubernetes/pkg/kubelet.criRuntime.SyncPod iface-ruled-out-by-flow', 'k8s.io/kubernetes/pkg/kubelet.fakeRuntime.SyncPod iface-flow']);
    // start's m.run(...) now calls runB: runB's parameter takes criRuntime too, though neither changed.
    const out = s.edit('pkg/kubelet/runner.go', (t) => t.replace('&manager{run: runA}', '&manager{run: runB}'));
    assert.equal(out.refused, undefined);
    assert.deepEqual(edgesAt(out.graph!, runB), ['k8s.io/kubernetes/pkg/kubelet.criRuntime.SyncPod iface-flow', 'k8s.io/kubernetes/pkg/kubelet.fakeRuntime.SyncPod iface-flow']);
  });

  it('takes methods that come and go, re-resolving what looked their names up in files the edit did not touch', () => {
    const s = session('session');
    const path = 'pkg/kubelet/methods.go';
    const pkg = 'k8s.io/kubernetes/pkg/kubelet';
    const edges = (g: Graph, caller: string) => edgesAt(g, `${pkg}.${caller}`).map((e) => e.replaceAll(`${pkg}.`, ''));
    const add = (where: string, code: string) => (t: string) => t.replace(`// ${where}\n`, `// ${where}\n\n${code}\n`);
    const before = s.edit(path, (t) => t).graph!;
    assert.deepEqual(edges(before, 'runWorker'), ['(*probeWorker).Probe receiver-method', 'newProber same-package-func', 'newProber same-package-func', 'probeAll same-package-func', 'stopAll same-package-func']);
    assert.deepEqual(edges(before, 'stopAll'), []);
    assert.deepEqual(edges(before, 'probeAll'), []);
    assert.deepEqual(edges(before, 'syncStatus'), ['(*baseManager).Sync promoted-method']);
    assert.deepEqual(edges(before, 'readResults'), []);
    const stop = s.edit(path, add('The session test adds Stop here.', 'func (w *probeWorker) Stop() {}'));
    assert.equal(stop.refused, undefined);
    // The call, the method value (and the call through it), and the dispatch of the interface probeWorker satisfies now.
    assert.deepEqual(edges(stop.graph!, 'runWorker'), ['(*probeWorker).Probe receiver-method', '(*probeWorker).Stop local-method-value', '(*probeWorker).Stop method-value', '(*probeWorker).Stop receiver-method', 'newProber same-package-func', 'newProber same-package-func', 'probeAll same-package-func', 'stopAll same-package-func']);
    assert.deepEqual(edges(stop.graph!, 'stopAll'), ['(*probeWorker).Stop iface-rta']);
    assert.deepEqual(edges(stop.graph!, 'probeAll'), ['(*probeWorker).Probe iface-rta']);
    assert.ok(stop.redone! < 10, `${stop.redone} functions resolved again`);
    const sync = s.edit(path, add('The session test adds (*statusManager).Sync and (*statusManager).Results here.', 'func (m *statusManager) Sync() {}'));
    assert.equal(sync.refused, undefined);
    assert.deepEqual(edges(sync.graph!, 'syncStatus'), ['(*statusManager).Sync receiver-method']);
    // A binding typed by the result of a method that comes: r.Get() resolves with it.
    const results = s.edit(path, add('The session test adds (*statusManager).Sync and (*statusManager).Results here.', 'func (m *statusManager) Results() *resultCache { return m.cache }'));
    assert.equal(results.refused, undefined);
    assert.deepEqual(edges(results.graph!, 'syncStatus'), ['(*resultCache).Get receiver-method', '(*statusManager).Results receiver-method', '(*statusManager).Sync receiver-method']);
    assert.deepEqual(edges(results.graph!, 'readResults'), ['(*resultCache).Get receiver-method', '(*statusManager).Results receiver-method']);
    // A method whose result keys a field store in a file the edit did not touch (storeVia, in status.go).
    const boxOf = s.edit('pkg/kubelet/sizes.go', (t) => `${t}\nfunc (h *boxHolder) boxOf() *boxA { return nil }\n`);
    assert.equal(boxOf.refused, undefined);
    assert.ok(edges(boxOf.graph!, 'fireVia').includes('helperB field-func'), 'fireVia calls what storeVia stored');
    assert.equal(s.edit('pkg/kubelet/sizes.go', (t) => t.replace('\nfunc (h *boxHolder) boxOf() *boxA { return nil }\n', '')).refused, undefined);
    // A method in another file than its type's: the type's record lists it.
    const size = s.edit('pkg/kubelet/sizes.go', (t) => `${t}\nfunc (c *resultCache) Size() int { return 0 }\n`);
    assert.equal(size.refused, undefined);
    assert.deepEqual(size.graph!.symbols.find((r) => r.id === `${pkg}.resultCache`)?.methods, ['Get', 'Size']);
    assert.ok(edges(size.graph!, 'syncStatus').includes('(*resultCache).Size field-chain'));
    // And back, one at a time and then together: each graph is a build from nothing's (see session).
    for (const code of ['func (m *statusManager) Sync() {}\n', 'func (w *probeWorker) Stop() {}\n']) {
      assert.equal(s.edit(path, (t) => t.replace(code, '')).refused, undefined, code);
    }
    assert.equal(s.edit('pkg/kubelet/sizes.go', (t) => t.replace('\nfunc (c *resultCache) Size() int { return 0 }\n', '')).refused, undefined);
    const gone = s.edit(path, (t) => t.replace('func (m *statusManager) Results() *resultCache { return m.cache }\n', ''));
    assert.equal(gone.refused, undefined);
    assert.deepEqual(edges(gone.graph!, 'syncStatus'), edges(before, 'syncStatus'));
    assert.deepEqual(edges(gone.graph!, 'runWorker'), edges(before, 'runWorker'));
    // Stop declared before Probe now: the type's record lists its methods in the order of the file.
    const both = s.edit(path, (t) => t.replace('func (b *baseManager) Sync() {}\n', '').replace('func (w *probeWorker) Probe', 'func (w *probeWorker) Stop() {}\n\nfunc (w *probeWorker) Probe'));
    assert.equal(both.refused, undefined);
    assert.deepEqual(edges(both.graph!, 'syncStatus'), []);
  });

  it('takes imports that come, go or change when the declarations name none of the names they change, resolving the file again', () => {
    const s = session('kubelike');
    const call = '\n\t_ = images.NewImageManager(nil, nil, nil, false, 0, 0)\n';
    const birthCry = 'func (kl *Kubelet) BirthCry() {\n';
    const used = s.edit(KUBELET, (t) => t.replace('import (\n', 'import (\n\t"k8s.io/kubernetes/pkg/kubelet/images"\n').replace(birthCry, `${birthCry}${call}`));
    assert.equal(used.refused, undefined);
    assert.ok(edgesAt(used.graph!, 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).BirthCry').includes('k8s.io/kubernetes/pkg/kubelet/images.NewImageManager pkg-func'));
    // The name alone goes, then comes back: the call in a body no edit changed resolves without, then with it.
    assert.equal(s.edit(KUBELET, (t) => t.replace('\t"k8s.io/kubernetes/pkg/kubelet/images"\n', '')).refused, undefined);
    assert.equal(s.edit(KUBELET, (t) => t.replace('\t"fmt"\n', '\t"fmt"\n\t"k8s.io/kubernetes/pkg/kubelet/images"\n')).refused, undefined);
    // The same name for another package: the call is resolved against it.
    assert.equal(s.edit(KUBELET, (t) => t.replace('\t"k8s.io/kubernetes/pkg/kubelet/images"\n', '\timages "k8s.io/kubernetes/pkg/kubelet/prober"\n')).refused, undefined);
    assert.equal(s.edit(KUBELET, (t) => t.replace('\timages "k8s.io/kubernetes/pkg/kubelet/prober"\n', '\t_ "k8s.io/kubernetes/pkg/kubelet/images"\n').replace(call, '\n')).refused, undefined);
    // The file is among the importers of a package it imports now: a function that comes there is
    // looked for in it (the index of importers was made by the edits before).
    const manager = 'pkg/kubelet/images/image_manager.go';
    assert.equal(s.edit(manager, (t) => `${t}\nfunc AtlasEarly() {}\n`).refused, undefined);
    assert.equal(s.edit(KUBELET, (t) => t.replace('\t_ "k8s.io/kubernetes/pkg/kubelet/images"\n', '\t"k8s.io/kubernetes/pkg/kubelet/images"\n').replace(birthCry, `${birthCry}\timages.AtlasLate()\n`)).refused, undefined);
    const late = s.edit(manager, (t) => `${t}\nfunc AtlasLate() {}\n`);
    assert.ok(edgesAt(late.graph!, 'k8s.io/kubernetes/pkg/kubelet.(*Kubelet).BirthCry').includes('k8s.io/kubernetes/pkg/kubelet/images.AtlasLate pkg-func'));
    const refused = s.edit(KUBELET, (t) => t.replace('\t"k8s.io/kubernetes/pkg/kubelet/pleg"\n', '\tplg "k8s.io/kubernetes/pkg/kubelet/pleg"\n'));
    assert.match(refused.refused ?? '', /imports changed the package of a name its declarations use \(.*pleg/);
    // An import that comes with declarations that came and name it (a function's signature, a type's
    // field, a method of that type): those are new to every reader.
    const probed = 'func atlasProbe(m probetest.FakeManager, kl *Kubelet) *atlasProbed {\n\tp := &atlasProbed{m: m}\n\tp.m.AddPod(nil)\n\tkl.BirthCry()\n\treturn p\n}\n\ntype atlasProbed struct{ m probetest.FakeManager }\n\nfunc (p *atlasProbed) start() { p.m.RemovePod(nil) }\n';
    const imported = '\tprobetest "k8s.io/kubernetes/pkg/kubelet/prober/testing"\n';
    const came = s.edit(KUBELET, (t) => `${t.replace('import (\n', `import (\n${imported}`)}\n${probed}`);
    assert.equal(came.refused, undefined, came.refused);
    assert.deepEqual(edgesAt(came.graph!, 'k8s.io/kubernetes/pkg/kubelet.(*atlasProbed).start'), ['k8s.io/kubernetes/pkg/kubelet/prober/testing.FakeManager.RemovePod field-chain'], 'the method of the new type calls through the new import');
    // And go again with it.
    assert.equal(s.edit(KUBELET, (t) => t.replace(imported, '').replace(`\n${probed}`, '')).refused, undefined);
  });

  it('takes fields of a struct that come, go or change type, re-resolving what looked their names up and the field flows keyed through them', () => {
    const { s, path, edges, before } = sessionFixture();
    assert.deepEqual(['readCache', 'readExtra', 'fire'].map((c) => edges(before, c)), [['(*resultCache).Get field-chain'], [], ['helperA field-func']]);
    const extra = s.edit(path, (t) => t.replace('\tbox   *boxA\n', '\tbox   *boxA\n\textra *resultCache\n'));
    assert.equal(extra.refused, undefined);
    assert.deepEqual(edges(extra.graph!, 'readExtra'), ['(*resultCache).Get field-chain']);
    assert.deepEqual(edges(extra.graph!, 'viewExtra'), ['(*resultCache).Get field-chain']);
    const other = s.edit(path, (t) => t.replace('\tcache *resultCache\n', '\tcache *otherCache\n'));
    assert.equal(other.refused, undefined);
    assert.deepEqual(edges(other.graph!, 'readCache'), ['(*otherCache).Get field-chain']);
    assert.deepEqual(edges(other.graph!, 'readVia'), ['(*otherCache).Get receiver-method']);
    // A value-typed field: otherCache is created with statusManager now, and getAll's candidates say so.
    const spare = s.edit(path, (t) => t.replace('\tbox   *boxA\n', '\tbox   *boxA\n\tspare otherCache\n'));
    assert.equal(spare.refused, undefined);
    assert.notDeepEqual(edges(spare.graph!, 'getAll'), edges(other.graph!, 'getAll'));
    // wire's store is keyed by the box's type: boxB's fn now holds helperA (see session: the graph a build from nothing gives).
    const box = s.edit(path, (t) => t.replace('\tbox   *boxA\n', '\tbox   *boxB\n'));
    assert.equal(box.refused, undefined);
    assert.deepEqual(edges(box.graph!, 'fire'), edges(before, 'fire'));
    assert.ok(edges(box.graph!, 'fire').length > 0, 'fire calls what wire stored');
    assert.equal(s.edit(path, (t) => t.replace('\textra *resultCache\n', '').replace('\tspare otherCache\n', '').replace('*otherCache\n', '*resultCache\n')).refused, undefined);
  });

  it('follows the value-typed fields of a type an edit creates for the first time: the types they hold are created with it', () => {
    const { s, edges, before } = sessionFixture();
    const funcs = 'pkg/kubelet/funcs.go';
    const holder = s.edit(funcs, (t) => `${t}\ntype atlasHolder struct{ spare otherCache }\n\nfunc useHolder(h *atlasHolder) {}\n`);
    assert.equal(holder.refused, undefined);
    assert.deepEqual(edges(holder.graph!, 'getAll'), edges(before, 'getAll'), 'nothing creates atlasHolder yet');
    const made = s.edit(funcs, (t) => `${t}\nfunc newHolder() *atlasHolder { return &atlasHolder{} }\n`);
    assert.equal(made.refused, undefined);
    assert.notDeepEqual(edges(made.graph!, 'getAll'), edges(before, 'getAll'), 'otherCache is created with atlasHolder: getAll\'s candidates say so');
    assert.equal(s.edit(funcs, (t) => t.replace('\nfunc newHolder() *atlasHolder { return &atlasHolder{} }\n', '')).refused, undefined);
  });

  it('takes a struct\'s embedded fields that come, go or change, with the members they promote and the method sets they make', () => {
    const { s, path, edges, before } = sessionFixture();
    assert.deepEqual(['syncVia', 'syncAll'].map((c) => edges(before, c)), [['(*baseManager).Sync promoted-method'], ['(*baseManager).Sync iface-flow']]);
    // resultCache in baseManager's place: Sync is promoted no more, so managerView is no Syncer and
    // syncAll falls back to the types that are; Get is promoted now.
    const other = s.edit(path, (t) => t.replace('\tbaseManager\n', '\tresultCache\n'));
    assert.equal(other.refused, undefined);
    assert.deepEqual(['syncVia', 'syncAll'].map((c) => edges(other.graph!, c)), [[], ['(*baseManager).Sync iface-cha']]);
    // Both, and an interface: its methods are in the method set too.
    const both = s.edit(path, (t) => t.replace('\tresultCache\n', '\tbaseManager\n\t*resultCache\n\tGetter\n'));
    assert.equal(both.refused, undefined);
    assert.deepEqual(edges(both.graph!, 'syncVia'), edges(before, 'syncVia'));
    const back = s.edit(path, (t) => t.replace('\tbaseManager\n\t*resultCache\n\tGetter\n', '\tbaseManager\n'));
    assert.equal(back.refused, undefined);
    assert.deepEqual(['syncVia', 'syncAll'].map((c) => edges(back.graph!, c)), ['syncVia', 'syncAll'].map((c) => edges(before, c)));
    // An embedded type that promotes nothing yet, then gains a method: the struct's method set has it.
    assert.equal(s.edit(path, (t) => t.replace('\tbaseManager\n', '\tbaseManager\n\tmarker\n')).refused, undefined);
    const mark = s.edit('pkg/kubelet/sizes.go', (t) => `${t}\nfunc (marker) Mark() {}\n`);
    assert.equal(mark.refused, undefined);
    assert.deepEqual(edges(mark.graph!, 'markAll'), ['marker.Mark iface-flow']);
    // Refused: embedded fields that change with the file's imports (read with the imports before).
    assert.match(s.edit(path, (t) => t.replace('package kubelet\n', 'package kubelet\n\nimport "sync"\n').replace('\tbaseManager\n', '\tbaseManager\n\tsync.Mutex\n')).refused ?? '', /embedded fields, with the file's imports/);
  });

  it('takes methods whose signatures change and interfaces whose methods change, asking again which types implement what', () => {
    const { s, path, edges, before } = sessionFixture();
    // Get returns an int: resultCache no longer implements Getter (see status.go).
    const int = s.edit(path, (t) => t.replace('func (c *resultCache) Get() string { return "" }', 'func (c *resultCache) Get() int { return 0 }'));
    assert.equal(int.refused, undefined);
    assert.notDeepEqual(edges(int.graph!, 'getAll'), edges(before, 'getAll'));
    assert.equal(s.edit(path, (t) => t.replace('func (c *resultCache) Get() int { return 0 }', 'func (c *resultCache) Get() string { return "" }')).refused, undefined);
    // Prober without Stop: probeWorker implements it, and probeAll's p.Probe() can reach it.
    const probe = s.edit(path, (t) => t.replace('\tProbe() bool\n\tStop()\n', '\tProbe() bool\n'));
    assert.equal(probe.refused, undefined);
    assert.deepEqual(edges(probe.graph!, 'probeAll'), ['(*probeWorker).Probe iface-rta']);
    // An interface that embeds it (fullProber, in status.go) has its methods; a struct that embeds that one has them too.
    assert.deepEqual(edges(probe.graph!, 'holdAll'), []);
    const back = s.edit(path, (t) => t.replace('\tProbe() bool\n', '\tProbe() bool\n\tStop()\n'));
    assert.equal(back.refused, undefined);
    assert.deepEqual(edges(back.graph!, 'probeAll'), edges(before, 'probeAll'));
    assert.deepEqual(edges(back.graph!, 'holdAll'), edges(before, 'holdAll'));
    // What an interface embeds: fullProber embeds Getter for Prober, then both; a struct that embeds it has their methods.
    const getter = s.edit('pkg/kubelet/status.go', (t) => t.replace('type fullProber interface{ Prober }', 'type fullProber interface{ Getter }'));
    assert.equal(getter.refused, undefined);
    assert.deepEqual(edges(getter.graph!, 'holdAll'), []);
    const both = s.edit('pkg/kubelet/status.go', (t) => t.replace('type fullProber interface{ Getter }', 'type fullProber interface {\n\tGetter\n\tProber\n}'));
    assert.equal(both.refused, undefined);
    assert.deepEqual(edges(both.graph!, 'holdAll'), edges(before, 'holdAll'));
    const embedded = s.edit('pkg/kubelet/status.go', (t) => t.replace('\tGetter\n\tProber\n', '\tGetter\n\tProber\n\tatlasNowhere\n'));
    assert.match(embedded.refused ?? '', /it embeds what is not an interface this build knows/);
    // A type defined by the interface (not embedding it) has its methods: it gains Stop with it.
    const defined = s.edit(path, (t) => `${t}\ntype definedProber Prober\n\nfunc probeDefined(ps []definedProber) {\n\tfor _, p := range ps {\n\t\tp.Probe()\n\t}\n}\n`);
    assert.equal(defined.refused, undefined);
    assert.deepEqual(edges(defined.graph!, 'probeDefined'), []);
    const lost = s.edit(path, (t) => t.replace('\tProbe() bool\n\tStop()\n', '\tProbe() bool\n'));
    assert.deepEqual(edges(lost.graph!, 'probeDefined'), ['(*probeWorker).Probe iface-rta']);
    const gained = s.edit(path, (t) => t.replace('\tProbe() bool\n', '\tProbe() bool\n\tStop()\n'));
    assert.equal(gained.refused, undefined);
    assert.deepEqual(edges(gained.graph!, 'probeDefined'), []);
  });

  it('takes plain functions whose signatures change or that go, re-resolving what names them in files the edit did not touch', () => {
    const { s, before } = sessionFixture();
    const path = 'pkg/kubelet/funcs.go';
    const pkg = 'k8s.io/kubernetes/pkg/kubelet';
    const edges = (g: Graph, caller: string) => edgesAt(g, `${pkg}.${caller}`).map((e) => e.replaceAll(`${pkg}.`, ''));
    assert.deepEqual(['readMade', 'readDropped', 'startWith'].map((c) => edges(before, c)), [['(*resultCache).Get receiver-method', 'newCache same-package-func'], ['(*resultCache).Get receiver-method', 'dropped same-package-func'], ['criRuntime.SyncPod iface-flow', 'fakeRuntime.SyncPod iface-ruled-out-by-flow']]);
    // A function goes: the binding its result typed in readDropped has no type now.
    const gone = s.edit(path, (t) => t.replace('func dropped() *resultCache { return nil }\n', ''));
    assert.equal(gone.refused, undefined);
    assert.deepEqual(edges(gone.graph!, 'readDropped'), []);
    const other = s.edit(path, (t) => t.replace('func newCache() *resultCache { return &resultCache{} }', 'func newCache() *otherCache { return &otherCache{} }'));
    assert.equal(other.refused, undefined);
    assert.deepEqual(edges(other.graph!, 'readMade'), ['(*otherCache).Get receiver-method', 'newCache same-package-func']);
    // A parameter comes first: the concrete types callers pass flow into another parameter.
    const param = s.edit(path, (t) => t.replace('func startWith(rt Runtime) {', 'func startWith(n int, rt Runtime) {'));
    assert.equal(param.refused, undefined);
    assert.notDeepEqual(edges(param.graph!, 'startWith'), edges(before, 'startWith'));
    const result = s.edit(path, (t) => t.replace('func pickRunner() func(rt Runtime) { return runA }', 'func pickRunner() func() { return helperA }'));
    assert.equal(result.refused, undefined);
    const back = s.edit(path, (t) => t.replace('func newCache() *otherCache { return &otherCache{} }', 'func newCache() *resultCache { return &resultCache{} }').replace('func startWith(n int, rt Runtime) {', 'func startWith(rt Runtime) {').replace('func pickRunner() func() { return helperA }', 'func pickRunner() func(rt Runtime) { return runA }').replace('func newCache', 'func dropped() *resultCache { return nil }\n\nfunc newCache'));
    assert.equal(back.refused, undefined);
    assert.deepEqual(['readMade', 'readDropped', 'startWith', 'runPicked'].map((c) => edges(back.graph!, c)), ['readMade', 'readDropped', 'startWith', 'runPicked'].map((c) => edges(before, c)));
    // Refused: a generic function, and a function a package value names.
    assert.match(s.edit(path, (t) => t.replace('func firstOf[T any](ts []T) T {', 'func firstOf[T any](ts []T, n int) T {')).refused ?? '', /signature of firstOf\[\.\.\.\] changed \(a generic function\)/);
    // A function a package value's initializer calls: a parameter is taken (the initializer's call is
    // resolved again), other results are not (the value's type would change); nor is a change of a
    // function a package value holds.
    assert.equal(s.edit(path, (t) => t.replace('func defaultRuntime() Runtime {', 'func defaultRuntime(n int) Runtime {')).refused, undefined);
    assert.match(s.edit(path, (t) => t.replace('func defaultRuntime(n int) Runtime {', 'func defaultRuntime(n int) criRuntime {')).refused ?? '', /a package value names defaultRuntime/);
    assert.match(s.edit(path, (t) => t.replace('func stopWith(rt Runtime) {}', 'func stopWith(rt Runtime, n int) {}')).refused ?? '', /a package value names stopWith/);
  });

  it('takes types that come and go (with their methods) when only their file\'s functions name them, re-resolving those and what names them', () => {
    const { s, before } = sessionFixture();
    const path = 'pkg/kubelet/funcs.go';
    const pkg = 'k8s.io/kubernetes/pkg/kubelet';
    const edges = (g: Graph, caller: string) => edgesAt(g, `${pkg}.${caller}`).map((e) => e.replaceAll(`${pkg}.`, ''));
    const callers = ['readLater', 'useLater', 'localLater', 'viaGetterish'];
    assert.deepEqual(callers.map((c) => edges(before, c)), [['(*resultCache).Get field-chain', 'newLater same-package-func'], ['(*resultCache).Get field-chain'], ['(*resultCache).Get field-chain'], ['(*otherCache).Get iface-ruled-out-by-flow', '(*resultCache).Get iface-flow']]);
    const box = 'type laterBox struct{ c *resultCache }\n';
    const gone = s.edit(path, (t) => t.replace(box, ''));
    assert.equal(gone.refused, undefined);
    assert.deepEqual(callers.map((c) => edges(gone.graph!, c)), [['newLater same-package-func'], [], [], edges(before, 'viaGetterish')]);
    // Back with another field type: what reads the field through newLater's result follows it.
    const back = s.edit(path, (t) => t.replace('func newLater()', `${box.replace('*resultCache', '*otherCache')}\nfunc newLater()`));
    assert.equal(back.refused, undefined);
    assert.deepEqual(callers.map((c) => edges(back.graph!, c)).slice(0, 3), [['(*otherCache).Get field-chain', 'newLater same-package-func'], ['(*otherCache).Get field-chain'], ['(*otherCache).Get field-chain']]);
    // An interface goes and comes back with another method: what was kept of its implementations is not.
    const iface = 'type getterish interface{ Get() string }\n';
    assert.equal(s.edit(path, (t) => t.replace(iface, '')).refused, undefined);
    const other = s.edit(path, (t) => t.replace('func viaGetterish', `${iface.replace('Get() string', 'Get() int')}\nfunc viaGetterish`));
    assert.equal(other.refused, undefined);
    assert.notDeepEqual(edges(other.graph!, 'viaGetterish'), edges(before, 'viaGetterish'));
    const added = s.edit(path, (t) => `${t}\ntype atlasPair struct{ a, b *resultCache }\n\nfunc atlasFirst(p atlasPair) string { return p.a.Get() }\n`);
    assert.equal(added.refused, undefined);
    assert.deepEqual(edges(added.graph!, 'atlasFirst'), ['(*resultCache).Get field-chain']);
    // The new type is among the program's types: a method that comes to it later makes it a Getter.
    const method = s.edit(path, (t) => `${t}\nfunc (p atlasPair) Get() string { return "" }\n\nfunc atlasFeed() string { return getAll(atlasPair{}) }\n`);
    assert.equal(method.refused, undefined);
    assert.ok(edges(method.graph!, 'getAll').includes('atlasPair.Get iface-flow'), 'getAll reaches the new type\'s method');
    // A type that comes with its methods implements Getter, and getAll reaches them; it goes with them, and comes back.
    const impl = '\ntype atlasGetter struct{}\n\nfunc (atlasGetter) Get() string { return "" }\n\nfunc atlasGetAll() string { return getAll(atlasGetter{}) }\n';
    const came = s.edit(path, (t) => `${t}${impl}`);
    assert.equal(came.refused, undefined);
    assert.ok(edges(came.graph!, 'getAll').includes('atlasGetter.Get iface-flow'), 'getAll reaches the new type\'s method');
    const went = s.edit(path, (t) => t.replace(impl, '\n'));
    assert.equal(went.refused, undefined);
    assert.ok(!edges(went.graph!, 'getAll').some((e) => e.startsWith('atlasGetter.')));
    assert.equal(s.edit(path, (t) => `${t}${impl}`).refused, undefined);
    // A type that comes with a field of a struct that names it, and another type it names that comes too.
    const methods = 'pkg/kubelet/methods.go';
    const holder = '\ntype atlasHolder struct{ inner *atlasInner }\n\ntype atlasInner struct{ c *resultCache }\n\nfunc readHolder(m *statusManager) string { return m.holder.inner.c.Get() }\n';
    const held = s.edit(methods, (t) => `${t.replace('\tbox   *boxA\n', '\tbox   *boxA\n\tholder *atlasHolder\n')}${holder}`);
    assert.equal(held.refused, undefined);
    assert.deepEqual(edges(held.graph!, 'readHolder'), ['(*resultCache).Get field-chain']);
    assert.match(s.edit(methods, (t) => t.replace('\ntype atlasHolder struct{ inner *atlasInner }\n', '\n')).refused ?? '', /another declaration of the file \(statusManager\) names atlasHolder/);
    assert.equal(s.edit(methods, (t) => t.replace('\tholder *atlasHolder\n', '').replace(holder, '\n')).refused, undefined);
    // Refused: a name another file names, a type that embeds another, and a type that goes while its method stays.
    assert.match(s.edit(path, (t) => `${t}\ntype run struct{}\n`).refused ?? '', /callers\.go names run/);
    assert.match(s.edit(path, (t) => `${t}\ntype atlasEmbed struct{ resultCache }\n`).refused ?? '', /atlasEmbed embeds a type/);
    assert.match(s.edit(path, (t) => t.replace('type atlasGetter struct{}\n', '')).refused ?? '', /atlasGetter has methods that stay/);
    assert.match(s.edit(path, (t) => `${t}\ntype atlasTwice struct{}\n`, [['pkg/kubelet/callers.go', (t) => `${t}\ntype atlasTwice struct{}\n`]]).refused ?? '', /atlasTwice came in two files/);
  });

  it('refuses edits of declarations, and is right after a refusal', () => {
    const s = session('kubelike');
    const refusals: [string, (t: string) => string, RegExp][] = [
      ['a type added that another file declares', (t) => `${t}\ntype podWorkers struct{}\n`, /a type came: podWorkers is declared elsewhere/],
      ['a method added on a type of another package', (t) => `${t}\nfunc (kl *Kubelet) atlasMethod() {}\nfunc (s *atlasNowhere) atlasMethod() {}\n`, /method was added/],
      ['an import', (t) => t.replace('import (', 'import (\n\t. "strings"'), /dot imports changed/],
      ['a type made an alias', (t) => t.replace(/type Kubelet struct \{/, 'type atlasAlias = int\n\ntype Kubelet struct {'), /a type came: atlasAlias is generic or an alias/],
    ];
    for (const [what, change, why] of refusals) {
      const out = s.edit(KUBELET, change);
      assert.match(out.refused ?? '', why, what);
    }
    assert.equal(s.edit(KUBELET, (t) => t.replace('func (kl *Kubelet) BirthCry() {\n', 'func (kl *Kubelet) BirthCry() {\n\tkl.StartGarbageCollection()\n')).refused, undefined);
  });

  it('lays the lists into the arrays made ahead, leaving the graphs made before as they were, and makes its own when a list outgrew them', () => {
    const s = session('kubelike', { prepare: true });
    const calls = Array.from({ length: 120 }, () => '\tkl.BirthCry()\n').join('');
    for (const change of [
      (t: string) => `${t}\nfunc atlasGrown(kl *Kubelet) {\n${calls}}\n`,
      (t: string) => t.replace(/\nfunc atlasGrown[\s\S]*$/, '\n'),
      (t: string) => `// a line first\n${t}`,
      (t: string) => t.replace(/^\/\/ a line first\n/, ''),
    ]) {
      const out = s.edit(KUBELET, change);
      assert.equal(out.refused, undefined);
    }
  });

  it('moves the lines of a file\'s syntax errors with an edit above them', () => {
    const broken = (t: string) => `${t}\nfunc atlasBroken() {\n\tx := \n}\n`;
    const s = session('kubelike', { texts: { [KUBELET]: broken } });
    const first = s.edit(KUBELET, (t) => `// a line first\n${t}`);
    assert.equal(first.refused, undefined);
    const syntax = first.graph!.diagnostics.filter((d) => d.file === KUBELET && d.code === 'syntax');
    assert.ok(syntax.length > 0, 'the file has a syntax error');
    const again = s.edit(KUBELET, (t) => `// another line first\n${t}`);
    assert.deepEqual(again.graph!.diagnostics.filter((d) => d.file === KUBELET && d.code === 'syntax').map((d) => d.line), syntax.map((d) => (d.line ?? 0) + 1));
  });

  it("takes a package value's numbers changed: the periods of the goroutines that name it are written out again, and nothing else is resolved", () => {
    const s = session('kubelike');
    const path = 'pkg/kubelet/volumemanager/volume_manager.go';
    const periods = (g: Graph) => g.goroutines.filter((x) => x.period?.startsWith('reconcilerLoopSleepPeriod')).map((x) => x.period);
    assert.deepEqual(periods(s.edit(path, (t) => t).graph!), ['reconcilerLoopSleepPeriod (= 100 * time.Millisecond)']);
    const slower = s.edit(path, (t) => t.replace('reconcilerLoopSleepPeriod      = 100 *', 'reconcilerLoopSleepPeriod      = 250 *'));
    assert.equal(slower.refused, undefined);
    assert.deepEqual(periods(slower.graph!), ['reconcilerLoopSleepPeriod (= 250 * time.Millisecond)']);
    assert.equal(slower.redone, 1, 'the one function whose goroutine has that period');
    // A value no period names (a poll's timeout): taken, and nothing resolved again.
    const other = s.edit(path, (t) => t.replace('+ 3*time.Second', '+ 4*time.Second'));
    assert.equal(other.refused, undefined);
    assert.equal(other.redone, 0);
    // A number that becomes another kind of number (an untyped float, not an integer), or a name: a
    // constant changed otherwise, taken as such (see the next case), what names it resolved again.
    const float = s.edit(path, (t) => t.replace('= 250 *', '= 2.5 *'));
    assert.deepEqual(periods(float.graph!), ['reconcilerLoopSleepPeriod (= 2.5 * time.Millisecond)']);
    const back = s.edit(path, (t) => t.replace('= 2.5 *', '= 100 *'));
    assert.deepEqual(periods(back.graph!), ['reconcilerLoopSleepPeriod (= 100 * time.Millisecond)']);
  });

  it('takes constants (and variables of a basic type made of literals) that come, go or change, resolving again what names them; refuses a variable that takes a name, and a constant another value names', () => {
    const s = session('kubelike');
    const path = 'pkg/kubelet/volumemanager/volume_manager.go';
    const kubelet = 'pkg/kubelet/kubelet.go';
    const periods = (g: Graph, name: string) => g.goroutines.filter((x) => x.period?.startsWith(name)).map((x) => x.period);
    s.edit(path, (t) => t);
    // Another expression (not only its numbers): what names it is resolved again.
    const shape = s.edit(path, (t) => t.replace('reconcilerLoopSleepPeriod      = 100 * time.Millisecond', 'reconcilerLoopSleepPeriod      = time.Second'));
    assert.equal(shape.refused, undefined);
    assert.deepEqual(periods(shape.graph!, 'reconcilerLoopSleepPeriod'), ['reconcilerLoopSleepPeriod (= time.Second)']);
    // A constant that came, named by nothing yet; then named by a function of another file; then gone
    // while that function still names it (as between two saves); then back.
    const added = s.edit(path, (t) => `${t}\nconst atlasPeriod = 3 * time.Second\n`);
    assert.equal(added.refused, undefined);
    assert.equal(added.redone, 0);
    const named = s.edit(kubelet, (t) => t.replace('}, ContainerGCPeriod, wait.NeverStop)', '}, volumemanager.AtlasPeriod, wait.NeverStop)'));
    assert.equal(named.refused, undefined);
    const exported = s.edit(path, (t) => t.replace('const atlasPeriod = 3', 'const AtlasPeriod = 3'));
    assert.equal(exported.refused, undefined);
    assert.deepEqual(periods(exported.graph!, 'volumemanager.AtlasPeriod'), ['volumemanager.AtlasPeriod (= 3 * time.Second)']);
    const gone = s.edit(path, (t) => t.replace('\nconst AtlasPeriod = 3 * time.Second\n', ''));
    assert.equal(gone.refused, undefined);
    assert.deepEqual(periods(gone.graph!, 'volumemanager.AtlasPeriod'), ['volumemanager.AtlasPeriod']);
    assert.equal(s.edit(path, (t) => `${t}\nconst AtlasPeriod = 4 * time.Second\n`).refused, undefined);
    assert.equal(s.edit(kubelet, (t) => t.replace('volumemanager.AtlasPeriod', 'ContainerGCPeriod')).refused, undefined);
    // A constant another value names, changed otherwise than in its numbers; a variable: refused.
    assert.equal(s.edit(path, (t) => t.replace('const (\n', 'const (\n\tatlasTwice = reconcilerLoopSleepPeriod * 2\n')).refused, undefined);
    assert.match(s.edit(path, (t) => t.replace('reconcilerLoopSleepPeriod      = time.Second', 'reconcilerLoopSleepPeriod      = time.Minute')).refused ?? '', /a package value names a constant that changed/);
    // A variable of a basic type made of literals comes, changes and goes; one that takes a name (it
    // could hold a function) is refused.
    const flag = s.edit(kubelet, (t) => `${t}\nvar atlasDebug = true\n\nfunc atlasDebugging() bool { return atlasDebug }\n`);
    assert.equal(flag.refused, undefined);
    assert.equal(s.edit(kubelet, (t) => t.replace('var atlasDebug = true', 'var atlasDebug = 1 > 2')).refused, undefined);
    assert.equal(s.edit(kubelet, (t) => t.replace('var atlasDebug = 1 > 2', 'var atlasDebug bool')).refused, undefined);
    assert.equal(s.edit(kubelet, (t) => t.replace('\nvar atlasDebug bool\n', '\n')).refused, undefined);
    assert.match(s.edit(path, (t) => `${t}\nvar atlasVar = reconcilerLoopSleepPeriod\n`).refused ?? '', /neither a constant/);
    // A constant that takes a type with methods: the call of one resolves.
    const callee = 'k8s.io/kubernetes/pkg/kubelet/types.SyncPodType.String';
    const untyped = s.edit(kubelet, (t) => `${t}\nconst atlasKind = 5\n\nfunc atlasKindName() string { return atlasKind.String() }\n`);
    assert.equal(untyped.refused, undefined);
    assert.ok(!untyped.graph!.edges.some((e) => e.callee === callee && e.caller.endsWith('atlasKindName')));
    const typed = s.edit(kubelet, (t) => t.replace('const atlasKind = 5', 'const atlasKind kubetypes.SyncPodType = 5'));
    assert.equal(typed.refused, undefined);
    assert.ok(typed.graph!.edges.some((e) => e.callee === callee && e.caller.endsWith('atlasKindName')), 'the method of the constant\'s new type');
  });

  it('gives the graph a resolution from nothing gives after 60 random line edits of the kubelet package', () => {
    const s = session('kubelike', { prepare: true });
    const files = [...s.texts.keys()].filter((p) => p.startsWith('pkg/kubelet/') && s.active.has(p));
    let seed = 42;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let taken = 0;
    for (let i = 0; i < 60; i++) {
      const path = files[next(files.length)];
      const kind = next(3);
      const out = s.edit(path, (text) => {
        const lines = text.split('\n');
        const at = next(lines.length);
        if (kind === 0) lines.splice(at, 1);
        else if (kind === 1) lines.splice(at, 0, lines[at]);
        else lines.splice(at, 0, '// a comment');
        return lines.join('\n');
      });
      if (!out.refused) taken++;
    }
    assert.ok(taken >= 15, `${taken} of 60 edits taken`);
  });
});
