import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractPortCode, packageRoot, readPortMappings, type PortMapping } from '../../src/ports/index.js';
import { tempDir } from '../helpers/temp.js';

const FREE_SPACE = 'k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).freeSpace';

describe('readPortMappings on the real ports', () => {
  const root = packageRoot();
  let mappings: PortMapping[];
  before(() => {
    mappings = readPortMappings(root);
  });

  it('finds the image GC freeSpace method and folds it into its class', () => {
    const method = mappings.find((m) => m.exportName === 'RealImageGCManager.freeSpace');
    assert.ok(method, 'RealImageGCManager.freeSpace is mapped');
    assert.equal(method.manager, 'image-gc');
    assert.equal(method.kind, 'method');
    assert.equal(method.file, 'reference-impl/image-gc/image-gc-manager.ts');
    assert.deepEqual(method.goIds, [FREE_SPACE]);
    const cls = mappings.find((m) => m.exportName === 'RealImageGCManager' && m.kind === 'class');
    assert.ok(cls);
    assert.ok(cls.goIds.includes('k8s.io/kubernetes/pkg/kubelet/images.realImageGCManager'));
    assert.ok(cls.goIds.includes(FREE_SPACE));
    assert.ok(cls.goIds.includes('k8s.io/kubernetes/pkg/kubelet/images.(*realImageGCManager).GarbageCollect'));
    assert.ok(cls.line < method.line && method.endLine <= cls.endLine);
  });

  it('maps the kuberuntime decisions and the eviction manager', () => {
    const want: [string, string, string][] = [
      ['kuberuntime', 'computePodActions', 'k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).computePodActions'],
      ['kuberuntime', 'doBackOff', 'k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*kubeGenericRuntimeManager).doBackOff'],
      ['kuberuntime', 'shouldContainerBeRestarted', 'k8s.io/kubernetes/pkg/kubelet/container.ShouldContainerBeRestarted'],
      ['eviction', 'EvictionManager.admit', 'k8s.io/kubernetes/pkg/kubelet/eviction.(*managerImpl).Admit'],
      ['prober', 'Worker.doProbe', 'k8s.io/kubernetes/pkg/kubelet/prober.(*worker).doProbe'],
    ];
    for (const [manager, name, id] of want) {
      const m = mappings.find((x) => x.manager === manager && x.exportName === name);
      assert.ok(m, `${manager} ${name}`);
      assert.ok(m.goIds.includes(id), `${name} carries ${id}: ${m.goIds.join(', ')}`);
    }
  });

  it('has mappings for every port folder', () => {
    const folders = readdirSync(join(root, 'reference-impl'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'scenarios')
      .map((e) => e.name);
    assert.ok(folders.length >= 16);
    for (const f of folders) {
      const n = mappings.filter((m) => m.manager === f).length;
      assert.ok(n > 0, `${f} has ${n} mappings`);
    }
  });

  it('never reads test files and only yields well-formed IDs', () => {
    for (const m of mappings) {
      assert.doesNotMatch(m.file, /\.test\.ts$/);
      assert.ok(m.line >= 1 && m.endLine >= m.line, `${m.file}:${m.line}-${m.endLine}`);
      for (const id of m.goIds) assert.match(id, /^[\w./-]+\.[\w(*).]+$/, `${m.exportName}: ${id}`);
    }
  });

  it('is sorted by manager, file, line and name', () => {
    const key = (m: PortMapping) => [m.manager, m.file, String(m.line).padStart(6, '0'), m.exportName].join('\u0000');
    const keys = mappings.map(key);
    assert.deepEqual(keys, [...keys].sort());
  });

  it('extracts the declaration text, optionally with its comment', () => {
    const method = mappings.find((m) => m.exportName === 'RealImageGCManager.freeSpace')!;
    const code = extractPortCode(method, { root });
    assert.match(code, /^\s*freeSpace\(bytesToFree: number/);
    assert.match(code, /\}$/);
    const withDoc = extractPortCode(method, { root, withDoc: true });
    assert.ok(withDoc.includes(`@go ${FREE_SPACE}`));
    assert.ok(withDoc.endsWith(code));
  });
});

describe('readPortMappings on a small tree', () => {
  let root: string;
  before(() => {
    root = tempDir('ka-ports-');
    mkdirSync(join(root, 'reference-impl', 'demo'), { recursive: true });
    writeFileSync(
      join(root, 'reference-impl', 'demo', 'a.ts'),
      [
        '/**',
        ' * What this file is about.',
        ' * @go example.com/pkg.WholeFile',
        ' */',
        '',
        '/** Inline tag. @go example.com/pkg.one */',
        'export function one(): number {',
        '  /** @go example.com/pkg.inner */',
        '  const inner = () => 1;',
        '  return inner();',
        '}',
        '',
        '/**',
        ' * @go example.com/pkg.Thing',
        ' * Simplified: no locks;',
        ' *   callers step it.',
        ' */',
        'export class Thing {',
        '  /** @go example.com/pkg.NewThing */',
        '  constructor() {}',
        '  /** @go example.com/pkg.(*Thing).Run */',
        '  run(): void {}',
        '  /** @go example.com/pkg.(*Thing).hidden */',
        '  private hidden(): void {}',
        '  untagged(): void {}',
        '}',
        '',
        '/** @go example.com/pkg.limit */',
        'export const LIMIT = 3;',
        '',
        '/** @go example.com/pkg.helper */',
        'function helper(): void {}',
        '',
        'export function untagged(): void { helper(); }',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, 'reference-impl', 'demo', 'a.test.ts'), '/** @go example.com/pkg.TestX */\nexport function t() {}\n');
  });

  it('reads module docs, inline tags, nested tags, methods, constants and local helpers', () => {
    const got = readPortMappings(root).map((m) => [m.exportName, m.kind, m.exported, m.line, m.endLine, m.goIds.join(' '), m.simplified ?? '']);
    assert.deepEqual(got, [
      ['a', 'module', true, 1, 34, 'example.com/pkg.WholeFile', ''],
      ['one', 'function', true, 7, 11, 'example.com/pkg.one example.com/pkg.inner', ''],
      [
        'Thing',
        'class',
        true,
        18,
        26,
        'example.com/pkg.Thing example.com/pkg.NewThing example.com/pkg.(*Thing).Run example.com/pkg.(*Thing).hidden',
        'no locks; callers step it.',
      ],
      ['Thing.constructor', 'method', true, 20, 20, 'example.com/pkg.NewThing', ''],
      ['Thing.run', 'method', true, 22, 22, 'example.com/pkg.(*Thing).Run', ''],
      ['Thing.hidden', 'method', false, 24, 24, 'example.com/pkg.(*Thing).hidden', ''],
      ['LIMIT', 'const', true, 29, 29, 'example.com/pkg.limit', ''],
      ['helper', 'function', false, 32, 32, 'example.com/pkg.helper', ''],
    ]);
  });

  it('gives the same answer twice', () => {
    assert.deepEqual(readPortMappings(root), readPortMappings(root));
  });

  it('rejects a mapping whose lines are gone', () => {
    const [m] = readPortMappings(root);
    assert.throws(() => extractPortCode({ ...m, endLine: 999 }, { root }), /outside the file/);
  });
});
