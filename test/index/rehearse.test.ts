/**
 * The rehearsal of a kept resolution's updates at a watch's warm-up (src/index/rehearse.ts): it edits
 * a file in memory and gives it back, and must leave the session resolving the program it had, so
 * that the first real edit gives what a resolution from nothing gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import type { Graph, GraphChanges } from '../../src/model/index.js';
import { extractFile } from '../../src/parse/index.js';
import { buildProgram, factsDiagnostics, resolveProgram, ResolveSession, type PackageInput } from '../../src/resolve/index.js';
import { rehearsalEdits, rehearse, siblingText, type Rehearsal, type RehearsalHooks } from '../../src/index/rehearse.js';
import { buildIndex, warmIndex } from '../../src/index/build.js';
import { packGraph, unpackGraph } from '../../src/graph/pack.js';
import { forgetDeltaBases, keptTree } from '../helpers/kept-tree.js';

const ctx = defaultBuildContext();
const META = { root: '/fixture', modulePath: 'k8s.io/kubernetes', context: ctx, diagnostics: [] };
const KUBELET = 'pkg/kubelet/kubelet.go';

/** The kubelike fixture's inputs, with `text` in place of kubelet.go's when given. */
function inputsOf(text?: string): { inputs: PackageInput[]; original: string } {
  const root = resolve('test/fixtures/go/kubelike');
  const { packages } = computeScope(openTree(root, ctx), 'default', ctx);
  const original = readFileSync(join(root, KUBELET), 'utf8');
  const inputs = packages.map((p) => ({
    importPath: p.importPath,
    files: p.files.map((f) => {
      const t = f.path === KUBELET && text !== undefined ? text : readFileSync(join(root, f.path), 'utf8');
      return { facts: extractFile(f.path, Buffer.from(t), undefined, !f.active), active: f.active, constraint: f.constraint };
    }),
  }));
  return { inputs, original };
}

function fromNothing(inputs: PackageInput[]): Graph {
  return resolveProgram(buildProgram(inputs), { ...META, diagnostics: factsDiagnostics(inputs) });
}

/** Hooks that make facts as a build does and note what each update gave. */
function noting(fail?: (call: number) => boolean): RehearsalHooks & { texts: string[]; paths: string[]; graphs: Graph[]; changes: (GraphChanges | undefined)[] } {
  const texts: string[] = [];
  const paths: string[] = [];
  const graphs: Graph[] = [];
  const changes: (GraphChanges | undefined)[] = [];
  return {
    texts,
    paths,
    graphs,
    changes,
    extract(text, path) {
      texts.push(text);
      paths.push(path);
      if (fail?.(texts.length)) throw new Error('no facts this time');
      return extractFile(path, Buffer.from(text));
    },
    written(graph, c) {
      graphs.push(graph);
      changes.push(c);
    },
  };
}

describe('rehearsalEdits', () => {
  it('appends a function, then puts a call first in the first function with a body of several lines', () => {
    const text = 'package p\n\nfunc a() {}\n\nfunc b() {\n\tx()\n}\n';
    const [appended, called] = rehearsalEdits(text);
    assert.equal(appended, `${text}\nfunc kubeletAtlasRehearsal() {}\n`);
    assert.equal(called, 'package p\n\nfunc a() {}\n\nfunc b() {\n\tkubeletAtlasRehearsal()\n\tx()\n}\n');
  });

  it('only appends when no function has a body of several lines', () => {
    assert.deepEqual(rehearsalEdits('package p\n\nfunc a() {}\n'), ['package p\n\nfunc a() {}\n\nfunc kubeletAtlasRehearsal() {}\n']);
  });
});

describe('rehearse', () => {
  it('takes each edit and gives the file back, ending with the graph it started from; the next real edit is right', () => {
    const { inputs, original } = inputsOf();
    const { session, graph } = ResolveSession.start(buildProgram(inputs), inputs, META);
    const hooks = noting();
    const out = rehearse(session, { path: KUBELET, text: original }, META, graph, hooks, 2);
    assert.ok('graph' in out, JSON.stringify(out));
    assert.equal(out.updates, 8, 'two edits and their undoing, twice');
    assert.deepEqual(hooks.texts, [...rehearsalEdits(original).flatMap((t) => [t, original]), ...rehearsalEdits(original).flatMap((t) => [t, original])]);
    assert.deepEqual(out.graph, graph, 'the graph it started from');
    assert.equal(out.graph, hooks.graphs.at(-1), 'the last update gave it');
    // Each edit's graph differs from the one before it, and the update says since which graph.
    assert.ok(hooks.graphs[0].symbols.some((s) => s.name === 'kubeletAtlasRehearsal'), 'the appended function');
    assert.ok(hooks.graphs[2].unresolved.length > graph.unresolved.length || hooks.graphs[2].edges.length !== graph.edges.length, 'the call put first');
    assert.equal(hooks.changes[1]?.since, hooks.graphs[0]);
    // The next update starts from the rehearsal's last graph, and gives what a resolution from nothing does.
    const edited = original.replace('func (kl *Kubelet) BirthCry() {\n', 'func (kl *Kubelet) BirthCry() {\n\tkl.StartGarbageCollection()\n');
    assert.notEqual(edited, original);
    const next = session.update([extractFile(KUBELET, Buffer.from(edited))], META);
    assert.ok('graph' in next, JSON.stringify(next));
    assert.equal(next.changes?.since, out.graph);
    assert.deepEqual(next.graph, fromNothing(inputsOf(edited).inputs));
  });

  /** The file the rehearsal brings to kubelet.go's package: where a build from nothing has it, before kubelet_node_status.go. */
  const SIBLING = { path: 'pkg/kubelet/kubelet_atlas_rehearsal.go', importPath: 'k8s.io/kubernetes/pkg/kubelet', active: true, before: 'pkg/kubelet/kubelet_node_status.go' };

  it('then brings a file to the package and takes it away: the graph with it is a resolution from nothing\'s, and the session ends as it was', () => {
    const { inputs, original } = inputsOf();
    const { session, graph } = ResolveSession.start(buildProgram(inputs), inputs, META);
    const hooks = noting();
    const out = rehearse(session, { path: KUBELET, text: original, sibling: SIBLING }, META, graph, hooks, 2);
    assert.ok('graph' in out && out.skipped === undefined, JSON.stringify(out));
    assert.equal(out.updates, 12, 'two edits and their undoing, twice; then the file coming and going, twice');
    assert.deepEqual(hooks.paths.slice(8), [SIBLING.path, SIBLING.path], 'its facts made each time it comes');
    assert.deepEqual(hooks.texts.slice(8), [siblingText('kubelet'), siblingText('kubelet')]);
    // With the file: the program of a tree that has it, resolved from nothing.
    const withSibling = inputsOf().inputs;
    const files = withSibling.find((p) => p.importPath === SIBLING.importPath)!.files;
    files.splice(files.findIndex((f) => f.facts.path === SIBLING.before), 0, { facts: extractFile(SIBLING.path, Buffer.from(siblingText('kubelet'))), active: true, constraint: undefined });
    assert.deepEqual(hooks.graphs[8], fromNothing(withSibling), 'the graph with the file');
    assert.ok(hooks.graphs[8].symbols.some((x) => x.name === 'kubeletAtlasRehearsalType'), 'its type');
    assert.deepEqual(hooks.graphs[9], graph, 'the graph without it');
    assert.deepEqual(out.graph, graph);
    // The next update (a file that comes, as a watch's) gives what a resolution from nothing does.
    const added = 'pkg/kubelet/atlas_added.go';
    const text = 'package kubelet\n\nfunc atlasAdded(kl *Kubelet) { kl.BirthCry() }\n';
    const next = session.update([extractFile(added, Buffer.from(text))], META, { came: [{ path: added, importPath: SIBLING.importPath, active: true, before: 'pkg/kubelet/kubelet.go' }], went: [] });
    assert.ok('graph' in next, JSON.stringify(next));
    const withAdded = inputsOf().inputs;
    withAdded.find((p) => p.importPath === SIBLING.importPath)!.files.unshift({ facts: extractFile(added, Buffer.from(text)), active: true, constraint: undefined });
    assert.deepEqual(next.graph, fromNothing(withAdded));
  });

  it('skips the file when the session does not take it', () => {
    const { inputs, original } = inputsOf();
    const { session, graph } = ResolveSession.start(buildProgram(inputs), inputs, META);
    const out = rehearse(session, { path: KUBELET, text: original, sibling: { ...SIBLING, importPath: 'k8s.io/kubernetes/pkg/nowhere' } }, META, graph, noting(), 1);
    assert.ok('graph' in out, JSON.stringify(out));
    assert.equal(out.updates, 4, 'the edits only');
    assert.match(out.skipped ?? '', /a package the program does not have/);
    assert.deepEqual(out.graph, graph);
  });

  it('says whether a failed step leaves the session with an edited file', () => {
    const { inputs, original } = inputsOf();
    const { session, graph } = ResolveSession.start(buildProgram(inputs), inputs, META);
    // The first edit's facts cannot be made: the session is as it was.
    assert.deepEqual(rehearse(session, { path: KUBELET, text: original }, META, graph, noting((n) => n === 1), 1), { failed: 'no facts this time', spoiled: false });
    // The file's own facts cannot be made after the first edit: the session holds the edited file.
    const spoiled = rehearse(session, { path: KUBELET, text: original }, META, graph, noting((n) => n === 2), 1);
    assert.deepEqual(spoiled, { failed: 'no facts this time', spoiled: true });
  });

  it('takes a graph that differs after the file is given back for a spoiled session', () => {
    const { inputs, original } = inputsOf();
    const { session, graph } = ResolveSession.start(buildProgram(inputs), inputs, META);
    // Facts that are not the file's own when it is given back (as if resolving had gone wrong).
    const hooks = noting();
    const extract = hooks.extract;
    hooks.extract = (text, path) => extract(text === original ? `${original}\nfunc notTheFile() {}\n` : text, path);
    const out = rehearse(session, { path: KUBELET, text: original }, META, graph, hooks, 1);
    assert.ok('failed' in out && out.spoiled, JSON.stringify(out));
  });
});

describe('the warm start of a watch', () => {
  /** A graph as the graph file holds it (the order of keys aside). */
  const normal = (g: Graph): Graph => unpackGraph(packGraph(g));

  for (const first of ['resolved', 'found stored'] as const) {
    it(`rehearses after a first build that ${first} the graph, and the edits after it give what a build from nothing gives`, () => {
      const { root, loc, fresh } = keptTree('ka-rehearse');
      if (first === 'found stored') {
        buildIndex({ ...loc, memo: undefined });
        forgetDeltaBases();
      }
      assert.equal(buildIndex(loc).fromCache, first === 'found stored');
      const told: [string, Rehearsal][] = [];
      assert.equal(warmIndex(loc, (path, r) => told.push([path, r])), first === 'resolved' ? 'rehearsed' : 'made');
      // The fixture's file with the most call sites.
      assert.deepEqual(told.map(([path, r]) => [path, 'updates' in r && r.updates, 'updates' in r && r.skipped]), [[KUBELET, 18, undefined]], 'three rounds of two edits and their undoing, then of the file coming and going');
      const kubelet = join(root, KUBELET);
      const original = readFileSync(kubelet, 'utf8');
      const called = original.replace('func (kl *Kubelet) BirthCry() {\n', 'func (kl *Kubelet) BirthCry() {\n\tkl.StartGarbageCollection()\n');
      assert.notEqual(called, original);
      for (const [k, text] of [called, original, `${original}\nfunc warmAdded() { warmOther() }\n\nfunc warmOther() {}\n`, original].entries()) {
        writeFileSync(kubelet, text);
        const built = buildIndex(loc);
        assert.ok(built.incremental, `edit ${k}: resolved again in part`);
        const now = normal(fresh());
        assert.deepEqual(normal(built.graph), now, `edit ${k}: the graph`);
        // A one-shot build reads what the watch stored (the graph file and its delta).
        const read = buildIndex({ ...loc, memo: undefined });
        assert.equal(read.fromCache, true, `edit ${k}: the stored graph taken`);
        assert.deepEqual(normal(read.graph), now, `edit ${k}: the stored graph`);
      }
      // A file that comes to the package and goes, on disk this time: after the rehearsal's in memory.
      const added = join(root, 'pkg/kubelet/warm_added.go');
      for (const [k, text] of ['package kubelet\n\ntype warmAdded struct{}\n\nfunc (warmAdded) run() {}\n', undefined].entries()) {
        if (text === undefined) rmSync(added);
        else writeFileSync(added, text);
        const built = buildIndex(loc);
        assert.ok(built.incremental, `file ${k}: resolved again in part`);
        assert.deepEqual(normal(built.graph), normal(fresh()), `file ${k}: the graph`);
        assert.deepEqual(normal(buildIndex({ ...loc, memo: undefined }).graph), normal(fresh()), `file ${k}: the stored graph`);
      }
      assert.equal(warmIndex(loc, (path, r) => told.push([path, r])), 'had');
      assert.equal(told.length, 1, 'rehearsed once');
      forgetDeltaBases();
    });
  }
});
