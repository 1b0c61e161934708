import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultBuildContext, openTree, SourceError, type GoFile, type SourceTree } from '../../src/source/index.js';
import { GO_MOD, goFile, link, makeTree, removeTree } from './helpers.js';

const ctx = defaultBuildContext();

/** A miniature checkout laid out like Kubernetes v1.20 (vendor/k8s.io/* are symlinks to staging). */
function miniCheckout(): string {
  const root = makeTree({
    'go.mod': GO_MOD,
    'cmd/kubelet/kubelet.go': goFile('main', ['"k8s.io/kubernetes/cmd/kubelet/app"']),
    'pkg/kubelet/kubelet.go': goFile('kubelet', ['v1 "k8s.io/api/core/v1"', '"github.com/spf13/cobra"']),
    'pkg/kubelet/kubelet_test.go': goFile('kubelet'),
    'pkg/kubelet/cm/cm_linux.go': goFile('cm', [], '//go:build linux'),
    'pkg/kubelet/cm/cm_windows.go': goFile('cm'),
    'pkg/kubelet/cm/cm_linux_amd64.go': goFile('cm'),
    'pkg/kubelet/cm/helpers.go': goFile('cm', [], '// +build !windows'),
    'pkg/kubelet/cm/gen.go': goFile('main', [], '//go:build ignore'),
    'pkg/kubelet/cm/.#editor.go': 'junk',
    'pkg/kubelet/cm/_scratch.go': goFile('cm'),
    'pkg/kubelet/cm/README.md': '# not go',
    'pkg/kubelet/testdata/fixture.go': goFile('fixture'),
    'pkg/kubelet/_output/gen.go': goFile('gen'),
    'pkg/kubelet/.cache/x.go': goFile('x'),
    'pkg/kubelet/nested/vendor/x/x.go': goFile('x'),
    'pkg/kubelet/nested/n.go': goFile('nested'),
    'staging/src/k8s.io/api/core/v1/types.go': goFile('v1', ['"k8s.io/apimachinery/pkg/types"']),
    'staging/src/k8s.io/apimachinery/pkg/types/uid.go': goFile('types'),
    'vendor/github.com/spf13/cobra/command.go': goFile('cobra'),
    'vendor/modules.txt': '# k8s.io/api => ./staging/src/k8s.io/api\n',
    'main.go': goFile('kubernetes'),
  });
  link(root, 'vendor/k8s.io/api', '../../staging/src/k8s.io/api');
  link(root, 'vendor/k8s.io/apimachinery', '../../staging/src/k8s.io/apimachinery');
  return root;
}

const byName = (tree: SourceTree, importPath: string): Map<string, GoFile> =>
  new Map((tree.packages.get(importPath)?.files ?? []).map((f) => [f.path.split('/').pop() as string, f]));

describe('openTree on a miniature checkout', () => {
  let root = '';
  let tree: SourceTree;
  before(() => {
    root = miniCheckout();
    tree = openTree(root, ctx);
  });
  after(() => removeTree(root));

  it('reads go.mod', () => {
    assert.equal(tree.modulePath, 'k8s.io/kubernetes');
    assert.equal(tree.goVersion, '1.20');
    assert.equal(tree.root, root);
  });

  it('maps dirs to import paths for module, staging and vendor', () => {
    assert.deepEqual([...tree.packages.keys()].sort(), [
      'github.com/spf13/cobra',
      'k8s.io/api/core/v1',
      'k8s.io/apimachinery/pkg/types',
      'k8s.io/kubernetes',
      'k8s.io/kubernetes/cmd/kubelet',
      'k8s.io/kubernetes/pkg/kubelet',
      'k8s.io/kubernetes/pkg/kubelet/cm',
      'k8s.io/kubernetes/pkg/kubelet/nested',
    ]);
    const pick = (p: string): [string, string | undefined] => {
      const pkg = tree.packages.get(p);
      assert.ok(pkg, p);
      return [pkg.dir, pkg.origin];
    };
    assert.deepEqual(pick('k8s.io/api/core/v1'), ['staging/src/k8s.io/api/core/v1', 'staging']);
    assert.deepEqual(pick('github.com/spf13/cobra'), ['vendor/github.com/spf13/cobra', 'vendor']);
    assert.deepEqual(pick('k8s.io/kubernetes'), ['', 'module']);
    assert.deepEqual(pick('k8s.io/kubernetes/pkg/kubelet/cm'), ['pkg/kubelet/cm', 'module']);
  });

  it('indexes symlinked vendor/k8s.io packages once, under staging, without noise', () => {
    assert.deepEqual(tree.diagnostics, []);
  });

  it('fills in file records', () => {
    const f = byName(tree, 'k8s.io/kubernetes/pkg/kubelet').get('kubelet.go');
    assert.ok(f);
    assert.equal(f.path, 'pkg/kubelet/kubelet.go');
    assert.equal(f.abs, path.join(root, 'pkg/kubelet/kubelet.go'));
    assert.equal(f.packageDir, 'pkg/kubelet');
    assert.equal(f.importPath, 'k8s.io/kubernetes/pkg/kubelet');
    assert.equal(f.packageName, 'kubelet');
    assert.equal(f.size, fs.statSync(f.abs).size);
    assert.deepEqual(f.imports, ['k8s.io/api/core/v1', 'github.com/spf13/cobra']);
  });

  it('keeps inactive variants and marks them', () => {
    const cm = byName(tree, 'k8s.io/kubernetes/pkg/kubelet/cm');
    const flags = Object.fromEntries([...cm].map(([n, f]) => [n, [f.active, f.constraint ?? null]]));
    assert.deepEqual(flags, {
      'cm_linux.go': [true, 'linux'],
      'cm_linux_amd64.go': [true, null],
      'cm_windows.go': [false, null],
      'gen.go': [false, 'ignore'],
      'helpers.go': [true, '!windows'],
    });
    assert.equal(byName(tree, 'k8s.io/kubernetes/pkg/kubelet').get('kubelet_test.go')?.active, false);
  });

  it('lists files sorted by name', () => {
    const names = tree.packages.get('k8s.io/kubernetes/pkg/kubelet/cm')?.files.map((f) => f.path) ?? [];
    assert.deepEqual(names, [...names].sort());
  });

  it('evaluates activity with the given context', () => {
    const win = openTree(root, defaultBuildContext({ goos: 'windows', includeTests: true }));
    const cm = byName(win, 'k8s.io/kubernetes/pkg/kubelet/cm');
    assert.equal(cm.get('cm_windows.go')?.active, true);
    assert.equal(cm.get('cm_linux.go')?.active, false);
    assert.equal(cm.get('helpers.go')?.active, false);
    assert.equal(byName(win, 'k8s.io/kubernetes/pkg/kubelet').get('kubelet_test.go')?.active, true);
    assert.deepEqual(win.context, defaultBuildContext({ goos: 'windows', includeTests: true }));
  });
});

describe('openTree edge cases', () => {
  const roots: string[] = [];
  after(() => roots.forEach(removeTree));
  const tmp = (files: Record<string, string>): string => {
    const r = makeTree(files);
    roots.push(r);
    return r;
  };
  const base = { 'go.mod': GO_MOD, 'pkg/kubelet/kubelet.go': goFile('kubelet') };

  it('reports a symlink loop once and keeps walking', () => {
    const root = tmp({ ...base, 'pkg/loop/l.go': goFile('loop') });
    link(root, 'pkg/loop/up', '..');
    link(root, 'pkg/loop/self', '.');
    const tree = openTree(root, ctx);
    const loops = tree.diagnostics.filter((d) => d.code === 'source.symlink-loop');
    assert.deepEqual(loops.map((d) => d.file).sort(), ['pkg/loop/self', 'pkg/loop/up']);
    assert.equal(loops[0]?.severity, 'warning');
    assert.ok(tree.packages.has('k8s.io/kubernetes/pkg/loop'));
    assert.ok(tree.packages.has('k8s.io/kubernetes/pkg/kubelet'));
  });

  it('follows a symlinked dir that points outside the tree', () => {
    const outside = tmp({ 'ext.go': goFile('ext') });
    const root = tmp(base);
    link(root, 'pkg/ext', outside);
    const tree = openTree(root, ctx);
    assert.equal(tree.packages.get('k8s.io/kubernetes/pkg/ext')?.files[0]?.path, 'pkg/ext/ext.go');
    assert.deepEqual(tree.diagnostics, []);
  });

  it('prefers the real dir over a symlink to it, wherever the link sorts', () => {
    const root = tmp({ ...base, 'pkg/real/r.go': goFile('real') });
    link(root, 'pkg/a-link', 'real');
    const tree = openTree(root, ctx);
    assert.ok(tree.packages.has('k8s.io/kubernetes/pkg/real'));
    assert.ok(!tree.packages.has('k8s.io/kubernetes/pkg/a-link'));
    assert.deepEqual(tree.diagnostics.map((d) => d.code), ['source.duplicate-dir']);
  });

  it('reports a broken symlink', () => {
    const root = tmp(base);
    link(root, 'pkg/kubelet/gone.go', 'nowhere.go');
    const tree = openTree(root, ctx);
    assert.deepEqual(tree.diagnostics.map((d) => [d.code, d.file]), [['source.broken-symlink', 'pkg/kubelet/gone.go']]);
  });

  it('lets staging win over a real vendor copy of the same package', () => {
    const root = tmp({
      ...base,
      'staging/src/k8s.io/api/a.go': goFile('api'),
      'vendor/k8s.io/api/a.go': goFile('api'),
    });
    const tree = openTree(root, ctx);
    assert.equal(tree.packages.get('k8s.io/api')?.dir, 'staging/src/k8s.io/api');
    assert.deepEqual(tree.diagnostics.map((d) => [d.code, d.file]), [['source.duplicate-package', 'vendor/k8s.io/api']]);
  });

  it('reads past the first block of a file with a long header', () => {
    const licence = `/*\n${'Licence text line.\n'.repeat(700)}*/\n\n`;
    const many = Array.from({ length: 400 }, (_, i) => `\tp${i} "k8s.io/kubernetes/pkg/p${i}"`).join('\n');
    const root = tmp({
      ...base,
      'pkg/big/late.go': `${licence}//go:build windows\n\npackage big\n\nimport "k8s.io/kubernetes/pkg/late"\n`,
      'pkg/big/wide.go': `package big\n\nimport (\n${many}\n)\n\nfunc f() {}\n`,
    });
    const big = byName(openTree(root, ctx), 'k8s.io/kubernetes/pkg/big');
    assert.equal(big.get('late.go')?.active, false);
    assert.equal(big.get('late.go')?.constraint, 'windows');
    assert.deepEqual(big.get('late.go')?.imports, ['k8s.io/kubernetes/pkg/late']);
    assert.equal(big.get('wide.go')?.imports?.length, 400);
    assert.equal(big.get('wide.go')?.imports?.[399], 'k8s.io/kubernetes/pkg/p399');
  });

  it('marks files with a broken header inactive and says why', () => {
    const root = tmp({ ...base, 'pkg/kubelet/bad.go': goFile('kubelet', [], '//go:build linux &&') });
    const tree = openTree(root, ctx);
    assert.equal(byName(tree, 'k8s.io/kubernetes/pkg/kubelet').get('bad.go')?.active, false);
    assert.deepEqual(tree.diagnostics.map((d) => [d.code, d.file]), [['source.bad-header', 'pkg/kubelet/bad.go']]);
  });

  it('reports an unreadable file and dir and keeps walking', (t) => {
    const root = tmp({ ...base, 'pkg/kubelet/secret.go': goFile('kubelet'), 'pkg/locked/l.go': goFile('locked') });
    const file = path.join(root, 'pkg/kubelet/secret.go');
    const dir = path.join(root, 'pkg/locked');
    fs.chmodSync(file, 0o000);
    fs.chmodSync(dir, 0o000);
    try {
      let readable = true;
      try {
        fs.readFileSync(file);
      } catch {
        readable = false;
      }
      if (readable) {
        t.skip('running as root: chmod 000 does not stop root from reading, so this case cannot be produced');
        return;
      }
      const tree = openTree(root, ctx);
      const unreadable = tree.diagnostics.filter((d) => d.code === 'source.unreadable').map((d) => d.file).sort();
      assert.deepEqual(unreadable, ['pkg/kubelet/secret.go', 'pkg/locked']);
      assert.ok(byName(tree, 'k8s.io/kubernetes/pkg/kubelet').has('kubelet.go'));
      assert.ok(!byName(tree, 'k8s.io/kubernetes/pkg/kubelet').has('secret.go'));
    } finally {
      fs.chmodSync(dir, 0o755);
      fs.chmodSync(file, 0o644);
    }
  });

  it('warns but carries on when pkg/kubelet is missing', () => {
    const root = tmp({ 'go.mod': GO_MOD, 'pkg/util/u.go': goFile('util') });
    const tree = openTree(root, ctx);
    assert.deepEqual(tree.diagnostics.map((d) => [d.severity, d.code]), [['warning', 'source.no-kubelet']]);
    assert.ok(tree.packages.has('k8s.io/kubernetes/pkg/util'));
  });

  it('accepts another module name when pkg/kubelet exists (a fork)', () => {
    const root = tmp({ 'go.mod': 'module example.com/fork\n', 'pkg/kubelet/k.go': goFile('kubelet') });
    assert.ok(openTree(root, ctx).packages.has('example.com/fork/pkg/kubelet'));
  });

  const refuses = (what: string, make: () => string, code: RegExp, message: RegExp): void => {
    it(`refuses ${what}`, () => {
      assert.throws(() => openTree(make(), ctx), (err: unknown) => {
        assert.ok(err instanceof SourceError);
        assert.match(err.code, code);
        assert.match(err.message, message);
        assert.ok(err.hint !== undefined && err.hint.length > 0);
        return true;
      });
    });
  };
  refuses('a missing folder', () => path.join(os.tmpdir(), 'katlas-does-not-exist-' + String(process.pid)), /source\.missing/, /does not exist/);
  refuses('an empty folder', () => tmp({}), /source\.empty/, /is empty/);
  refuses('a file', () => path.join(tmp({ 'x.txt': '' }), 'x.txt'), /source\.not-directory/, /not a directory/);
  refuses('a folder without go.mod', () => tmp({ 'pkg/kubelet/k.go': goFile('kubelet') }), /source\.not-kubernetes/, /not a Kubernetes checkout: no go\.mod/);
  refuses('another module without pkg/kubelet', () => tmp({ 'go.mod': 'module example.com/other\n\ngo 1.21\n' }), /source\.not-kubernetes/, /example\.com\/other/);
  refuses('a go.mod without a module line', () => tmp({ 'go.mod': 'go 1.21\n' }), /source\.bad-gomod/, /no module line/);
});
