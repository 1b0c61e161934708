import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeScope, defaultBuildContext, openTree, type SourceTree } from '../../src/source/index.js';
import { GO_MOD, goFile, link, makeTree, removeTree } from './helpers.js';

const K = 'k8s.io/kubernetes';

/** Import graph: the kubelet reaches some module and staging packages; others are only reachable
 *  through inactive files (windows, ignore, tests) or not at all. */
function scopeTree(): string {
  const root = makeTree({
    'go.mod': GO_MOD,
    'cmd/kubelet/kubelet.go': goFile('main', ['kubeletapp "k8s.io/kubernetes/cmd/kubelet/app"']),
    'cmd/kubelet/app/server.go': goFile('app', [
      '"fmt"',
      '"k8s.io/kubernetes/pkg/kubelet"',
      'cli "k8s.io/component-base/cli"',
      '"github.com/spf13/cobra"',
    ]),
    'cmd/kubeadm/kubeadm.go': goFile('main', ['"k8s.io/kubernetes/pkg/notkubelet"']),
    'pkg/kubelet/kubelet.go': goFile('kubelet', [
      'v1 "k8s.io/api/core/v1"',
      '. "k8s.io/kubernetes/pkg/util/dotted"',
      '_ "k8s.io/kubernetes/pkg/util/blank"',
      '"k8s.io/kubernetes/pkg/util/gone"',
      '"k8s.io/kubernetes/pkg/util/winonly"',
    ]),
    // Imports kubelet.go's missing and inactive packages again: each is reported once, at kubelet.go.
    'pkg/kubelet/volumes.go': goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/gone"', '"k8s.io/kubernetes/pkg/util/winonly"']),
    'pkg/kubelet/kubelet_test.go': goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/testonly"']),
    'pkg/kubelet/cm/cm_windows.go': goFile('cm', ['"k8s.io/kubernetes/pkg/util/fromwindows"']),
    'pkg/kubelet/cm/cm_linux.go': goFile('cm', ['"k8s.io/kubernetes/pkg/util/fromlinux"']),
    'pkg/kubelet/cm/gen.go': goFile('main', ['"k8s.io/kubernetes/pkg/util/ignored"'], '//go:build ignore'),
    'pkg/kubelet/onlytests/x_test.go': goFile('onlytests'),
    'pkg/util/dotted/d.go': goFile('dotted'),
    'pkg/util/blank/b.go': goFile('blank'),
    'pkg/util/winonly/w_windows.go': goFile('winonly'),
    'pkg/util/testonly/t.go': goFile('testonly'),
    'pkg/util/fromwindows/f.go': goFile('fromwindows'),
    'pkg/util/fromlinux/f.go': goFile('fromlinux'),
    'pkg/util/ignored/i.go': goFile('ignored'),
    'pkg/util/unused/u.go': goFile('unused'),
    'pkg/notkubelet/n.go': goFile('notkubelet'),
    'staging/src/k8s.io/api/core/v1/types.go': goFile('v1', ['"k8s.io/apimachinery/pkg/types"', '"k8s.io/api/missing"']),
    'staging/src/k8s.io/apimachinery/pkg/types/uid.go': goFile('types', ['"github.com/google/uuid"']),
    'staging/src/k8s.io/component-base/cli/run.go': goFile('cli'),
    'staging/src/k8s.io/kubectl/k.go': goFile('kubectl'),
    'vendor/github.com/spf13/cobra/command.go': goFile('cobra'),
    'vendor/github.com/google/uuid/uuid.go': goFile('uuid'),
  });
  link(root, 'vendor/k8s.io/api', '../../staging/src/k8s.io/api');
  return root;
}

describe('computeScope', () => {
  let root = '';
  let tree: SourceTree;
  const linux = defaultBuildContext();
  before(() => {
    root = scopeTree();
    tree = openTree(root, linux);
  });
  after(() => removeTree(root));

  it('default: kubelet roots plus what their active files import, never vendor', () => {
    const { packages, diagnostics } = computeScope(tree, 'default', linux);
    assert.deepEqual(packages.map((p) => p.importPath), [
      'k8s.io/api/core/v1',
      'k8s.io/apimachinery/pkg/types',
      'k8s.io/component-base/cli',
      `${K}/cmd/kubelet`,
      `${K}/cmd/kubelet/app`,
      `${K}/pkg/kubelet`,
      `${K}/pkg/kubelet/cm`,
      `${K}/pkg/util/blank`,
      `${K}/pkg/util/dotted`,
      `${K}/pkg/util/fromlinux`,
    ]);
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.code, d.file]), [
      ['info', 'source.import-not-found', 'pkg/kubelet/kubelet.go'],
      ['info', 'source.no-active-files', 'pkg/kubelet/kubelet.go'],
      ['info', 'source.import-not-found', 'staging/src/k8s.io/api/core/v1/types.go'],
    ]);
    assert.match(diagnostics[0]?.message ?? '', /k8s\.io\/kubernetes\/pkg\/util\/gone/);
    assert.match(diagnostics[1]?.message ?? '', /winonly/);
    assert.match(diagnostics[2]?.message ?? '', /k8s\.io\/api\/missing/);
  });

  it('returns the tree\'s own package records, inactive variants included', () => {
    const cm = computeScope(tree, 'default', linux).packages.find((p) => p.dir === 'pkg/kubelet/cm');
    assert.equal(cm, tree.packages.get(`${K}/pkg/kubelet/cm`));
    assert.equal(cm?.files.length, 3);
  });

  it('all: every module and staging package with an active file', () => {
    const { packages } = computeScope(tree, 'all', linux);
    const paths = packages.map((p) => p.importPath);
    assert.ok(paths.includes(`${K}/pkg/util/unused`));
    assert.ok(paths.includes('k8s.io/kubectl'));
    assert.ok(paths.includes(`${K}/cmd/kubeadm`));
    assert.ok(!paths.includes('github.com/spf13/cobra'));
    assert.ok(!paths.includes(`${K}/pkg/util/winonly`));
    assert.ok(!paths.includes(`${K}/pkg/kubelet/onlytests`));
    assert.deepEqual(paths, [...paths].sort());
  });

  it('re-evaluates files when given another context', () => {
    const win = defaultBuildContext({ goos: 'windows' });
    const { packages } = computeScope(tree, 'default', win);
    const paths = packages.map((p) => p.importPath);
    assert.ok(paths.includes(`${K}/pkg/util/winonly`));
    assert.ok(paths.includes(`${K}/pkg/util/fromwindows`));
    assert.ok(!paths.includes(`${K}/pkg/util/fromlinux`));
    const cm = packages.find((p) => p.dir === 'pkg/kubelet/cm');
    assert.equal(cm?.files.find((f) => f.path.endsWith('cm_windows.go'))?.active, true);
    // The tree itself is left as it was.
    assert.equal(tree.packages.get(`${K}/pkg/kubelet/cm`)?.files.find((f) => f.path.endsWith('cm_windows.go'))?.active, false);
  });

  it('follows test imports only with includeTests', () => {
    const withTests = defaultBuildContext({ includeTests: true });
    const paths = computeScope(tree, 'default', withTests).packages.map((p) => p.importPath);
    assert.ok(paths.includes(`${K}/pkg/util/testonly`));
    assert.ok(paths.includes(`${K}/pkg/kubelet/onlytests`));
    assert.ok(!paths.includes(`${K}/pkg/util/ignored`));
  });

  it('accepts hand-built trees without origin, imports or context', () => {
    const file = (dir: string, name: string, active = true) =>
      ({ path: `${dir}/${name}`, abs: `/nowhere/${dir}/${name}`, importPath: `${K}/${dir}`, packageDir: dir, active, size: 1 });
    const pkg = (dir: string, active = true) => ({ importPath: `${K}/${dir}`, dir, files: [file(dir, 'a.go', active)] });
    const hand: SourceTree = {
      root: '/nowhere', modulePath: K, diagnostics: [],
      packages: new Map([pkg('pkg/kubelet'), pkg('pkg/kubelet/off', false), pkg('pkg/util')].map((p) => [p.importPath, p])),
    };
    const { packages } = computeScope(hand, 'default', linux);
    assert.deepEqual(packages.map((p) => p.dir), ['pkg/kubelet']);
    assert.deepEqual(computeScope(hand, 'all', linux).packages.map((p) => p.dir), ['pkg/kubelet', 'pkg/util']);
  });

  it('warns when there is no kubelet to start from', () => {
    const bare = makeTree({ 'go.mod': GO_MOD, 'pkg/util/u.go': goFile('util') });
    try {
      const t = openTree(bare, linux);
      const { packages, diagnostics } = computeScope(t, 'default', linux);
      assert.deepEqual(packages, []);
      assert.deepEqual(diagnostics.map((d) => d.code), ['source.no-roots']);
    } finally {
      removeTree(bare);
    }
  });
});
