/**
 * ResolveSession with files that come and go (FilesChange): a file that comes is taken as a file whose
 * facts were empty, one that goes as a file whose facts became empty, and the graph must be the one a
 * resolution from nothing gives (the same records in the same order).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import type { Graph } from '../../src/model/index.js';
import { extractFile } from '../../src/parse/index.js';
import { buildProgram, factsDiagnostics, resolveProgram, ResolveSession, type FilesChange, type PackageInput } from '../../src/resolve/index.js';
import { assertChangesHold } from '../helpers/graph-changes.js';

const ctx = defaultBuildContext();
const META = { root: '/fixture', modulePath: 'k8s.io/kubernetes', context: ctx, diagnostics: [] };

interface File {
  path: string;
  active: boolean;
  constraint?: string;
}

/** A session on a fixture whose files can come and go; each update is checked against a resolution from nothing. */
function filesSession(name: string) {
  const root = resolve('test/fixtures/go', name);
  const { packages } = computeScope(openTree(root, ctx), 'default', ctx);
  const pkgs = packages.map((p) => ({ importPath: p.importPath, files: p.files.map((f): File => ({ path: f.path, active: f.active, constraint: f.constraint })) }));
  const texts = new Map<string, string>();
  for (const p of pkgs) for (const f of p.files) texts.set(f.path, readFileSync(join(root, f.path), 'utf8'));
  const factsOf = (f: File) => extractFile(f.path, Buffer.from(texts.get(f.path)!), undefined, !f.active);
  const inputs = (): PackageInput[] => pkgs.map((p) => ({ importPath: p.importPath, files: p.files.map((f) => ({ facts: factsOf(f), active: f.active, constraint: f.constraint })) }));
  const fromNothing = (): Graph => {
    const i = inputs();
    return resolveProgram(buildProgram(i), { ...META, diagnostics: factsDiagnostics(i) });
  };
  const start = inputs();
  const started = ResolveSession.start(buildProgram(start), start, META);
  const s = started.session;
  let last = started.graph;
  const fileOf = (path: string) => pkgs.flatMap((p) => p.files).find((f) => f.path === path)!;

  /** One update: texts set (a text of undefined: the file goes), files that come with their package; the outcome, checked. */
  const update = (set: [path: string, text: string | undefined][], cameTo: Record<string, string> = {}, active = true): { refused?: string; graph?: Graph; redone?: number } => {
    const saved = { texts: new Map(texts), pkgs: pkgs.map((p) => ({ ...p, files: [...p.files] })) };
    const files: FilesChange = { came: [], went: [] };
    for (const [path, text] of set) {
      if (text === undefined) {
        const p = pkgs.find((q) => q.files.some((f) => f.path === path))!;
        p.files = p.files.filter((f) => f.path !== path);
        texts.delete(path);
        files.went.push(path);
        continue;
      }
      texts.set(path, text);
      const importPath = cameTo[path];
      if (importPath === undefined) continue;
      // In the scope's order: the files of a package by name.
      let p = pkgs.find((q) => q.importPath === importPath);
      if (!p) pkgs.push((p = { importPath, files: [] }));
      assert.deepEqual(p.files.map((f) => f.path), [...p.files.map((f) => f.path)].sort(), 'a package lists its files by name');
      const at = p.files.findIndex((f) => f.path > path);
      p.files.splice(at < 0 ? p.files.length : at, 0, { path, active });
      files.came.push({ path, importPath, active, before: at < 0 ? undefined : p.files[at + 1].path });
    }
    const out = s.update(set.filter(([, text]) => text !== undefined).map(([path]) => factsOf(fileOf(path))), META, files);
    if ('refused' in out) {
      texts.clear();
      for (const [k, v] of saved.texts) texts.set(k, v);
      pkgs.splice(0, pkgs.length, ...saved.pkgs);
      return { refused: out.refused };
    }
    const what = set.map(([p]) => p).join(', ');
    const fresh = fromNothing();
    assert.deepEqual(out.graph, fresh, `${what}: the graph after the update`);
    assert.equal(JSON.stringify(out.graph.stats), JSON.stringify(fresh.stats), 'the counts, in order');
    // What the session says may have changed holds all that did (the query store's delta is made of it).
    assertChangesHold(out.graph, out.changes, last, what);
    last = out.graph;
    return { graph: out.graph, redone: out.redone };
  };
  return { texts, update, edit: (path: string, change: (t: string) => string) => update([[path, change(texts.get(path)!)]]) };
}

const KUBELET = 'k8s.io/kubernetes/pkg/kubelet';
const ADDED = 'pkg/kubelet/atlas_added.go';
const ADDED_TEXT = `package kubelet

import (
	"time"

	kubetypes "k8s.io/kubernetes/pkg/kubelet/types"
)

const atlasAddedPeriod = 3

type atlasAdded struct{ kl *Kubelet }

func (a *atlasAdded) run(d time.Duration) { a.kl.BirthCry() }

func newAtlasAdded(kl *Kubelet, _ kubetypes.SyncPodType) *atlasAdded {
	a := &atlasAdded{kl: kl}
	a.run(atlasAddedPeriod * time.Second)
	return a
}

func AtlasHelper() {}
`;

function edges(g: Graph, caller: string): string[] {
  return g.edges.filter((e) => e.caller === caller).map((e) => `${e.callee} ${e.how}`).sort();
}

describe('ResolveSession: files that come and go', () => {
  it('takes a file that comes (first of its package) and goes, with what names its functions in other files and packages', () => {
    const s = filesSession('kubelike');
    // A call to a function no file declares yet, in another package: unresolved until the file comes.
    const server = 'cmd/kubelet/app/server.go';
    const calls = s.edit(server, (t) => t.replace(/\nfunc [^\n]*\{\n/, (m) => `${m}\tkubelet.AtlasHelper()\n`));
    assert.equal(calls.refused, undefined);

    const came = s.update([[ADDED, ADDED_TEXT]], { [ADDED]: KUBELET });
    assert.equal(came.refused, undefined, came.refused);
    assert.deepEqual(edges(came.graph!, `${KUBELET}.newAtlasAdded`), [`${KUBELET}.(*atlasAdded).run receiver-method`]);
    assert.ok(came.graph!.edges.some((e) => e.callee === `${KUBELET}.AtlasHelper` && e.caller.startsWith('k8s.io/kubernetes/cmd/kubelet/app.')), 'the call in the other package now resolves');
    assert.equal(came.graph!.symbols.find((r) => r.id === KUBELET)?.file, ADDED, 'the package record names its new first file');
    assert.ok(came.redone! < came.graph!.stats.functions / 2, `${came.redone} functions resolved again`);

    // Named from kubelet.go, then gone: the caller is resolved again.
    const named = s.edit('pkg/kubelet/kubelet.go', (t) => `${t}\nfunc atlasUses(kl *Kubelet) { newAtlasAdded(kl, 0) }\n`);
    assert.equal(named.refused, undefined);
    assert.deepEqual(edges(named.graph!, `${KUBELET}.atlasUses`), [`${KUBELET}.newAtlasAdded same-package-func`]);
    const went = s.update([[ADDED, undefined]]);
    assert.equal(went.refused, undefined, went.refused);
    assert.deepEqual(edges(went.graph!, `${KUBELET}.atlasUses`), []);
    assert.ok(!went.graph!.symbols.some((r) => r.file === ADDED), 'its records are gone');
  });

  it('takes a file that comes last in its package with an edit of another file, and goes with its type and methods (not one whose type another file names)', () => {
    const s = filesSession('kubelike');
    const path = 'pkg/kubelet/zz_atlas.go';
    const out = s.update([
      [path, 'package kubelet\n\ntype zzAtlas struct{}\n\nfunc (zzAtlas) Start() {}\n\nfunc zzAtlasRun() { zzAtlas{}.Start() }\n'],
      ['pkg/kubelet/kubelet.go', `${s.texts.get('pkg/kubelet/kubelet.go')}\nfunc atlasCallsZz() { zzAtlasRun() }\n`],
    ], { [path]: KUBELET });
    assert.equal(out.refused, undefined, out.refused);
    assert.deepEqual(edges(out.graph!, `${KUBELET}.atlasCallsZz`), [`${KUBELET}.zzAtlasRun same-package-func`]);
    // A file whose type another file names cannot go in place (what named it read its declaration).
    const pods = s.update([['pkg/kubelet/kubelet_pods.go', undefined]]);
    assert.match(pods.refused ?? '', /kubelet_pods\.go went: .*pkg\/kubelet\/kubelet\.go names podsByCreationTime/);
    // The new file goes with its type and method, and the call to it with it.
    const back = s.update([[path, undefined], ['pkg/kubelet/kubelet.go', s.texts.get('pkg/kubelet/kubelet.go')!.replace(/\nfunc atlasCallsZz[^\n]*\n/, '')]]);
    assert.equal(back.refused, undefined, back.refused);
    assert.ok(!back.graph!.symbols.some((r) => r.id.includes('zzAtlas')), 'its records are gone');
  });

  it('takes interface assertions (`var _ I = &T{}`) that come, go or change in a file with package initializers, not one whose initializer comes or goes', () => {
    const s = filesSession('kubelike');
    const path = 'pkg/kubelet/pleg/zz_atlas.go';
    const PLEG = 'k8s.io/kubernetes/pkg/kubelet/pleg';
    // A file whose values need initializing brings the package's initializer a part of its own.
    const plain = 'package pleg\n\ntype atlasPLEG struct{}\n\nfunc (*atlasPLEG) Relist() {}\n\nvar _ PodLifecycleEventGenerator = &atlasPLEG{}\n';
    assert.match(s.update([[path, plain]], { [path]: PLEG }).refused ?? '', /init was added/);
    // In a file that has one: an assertion added, changed to a conversion, and taken out.
    const generic = 'pkg/kubelet/pleg/generic.go';
    for (const change of [
      (t: string) => t.replace('var _ PodLifecycleEventGenerator = &GenericPLEG{}', 'var _ PodLifecycleEventGenerator = &GenericPLEG{}\n\nvar _ PodLifecycleEventGenerator = &EventedPLEG{}'),
      (t: string) => t.replace('var _ PodLifecycleEventGenerator = &EventedPLEG{}', 'var _ PodLifecycleEventGenerator = (*EventedPLEG)(nil)'),
      (t: string) => t.replace('\n\nvar _ PodLifecycleEventGenerator = (*EventedPLEG)(nil)', ''),
    ]) {
      const out = s.edit(generic, change);
      assert.equal(out.refused, undefined, out.refused);
    }
    // A blank value that is more than an assertion is still refused.
    assert.match(s.edit(generic, (t) => `${t}\nvar _ = NewGenericPLEG\n`).refused ?? '', /a blank one/);
  });

  it('refuses a file of a new package, of another package clause, outside the build, declaring a name its package has, or the last file of its package, and is right after', () => {
    const s = filesSession('kubelike');
    const refused = (r: { refused?: string }, want: RegExp) => {
      assert.ok(r.refused, 'refused');
      assert.match(r.refused, want);
    };
    refused(s.update([['pkg/kubelet/atlasnew/x.go', 'package atlasnew\n\nfunc X() {}\n']], { 'pkg/kubelet/atlasnew/x.go': 'k8s.io/kubernetes/pkg/kubelet/atlasnew' }), /a package the program does not have/);
    refused(s.update([['pkg/kubelet/atlas_other.go', 'package other\n\nfunc X() {}\n']], { 'pkg/kubelet/atlas_other.go': KUBELET }), /a file of package other came to package kubelet/);
    refused(s.update([['pkg/kubelet/atlas_windows.go', 'package kubelet\n\nfunc atlasWin() {}\n']], { 'pkg/kubelet/atlas_windows.go': KUBELET }, false), /a file outside the build came/);
    refused(s.update([['pkg/kubelet/atlas_twice.go', 'package kubelet\n\nfunc NewMainKubelet() {}\n']], { 'pkg/kubelet/atlas_twice.go': KUBELET }), /NewMainKubelet is declared in another file too/);
    const single = 'pkg/kubelet/types/pod_update.go';
    refused(s.update([[single, undefined]]), /its package would have no file in the build/);
    const after = s.update([[ADDED, ADDED_TEXT]], { [ADDED]: KUBELET });
    assert.equal(after.refused, undefined, after.refused);
  });
});
