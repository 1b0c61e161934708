/**
 * The freshness test behind one-shot queries: the C version (one stat() per path, on threads) and the
 * statSync loop agree on every kind of change, and both see each of them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { encodeFreshness, freshNow, manifestOf, manifestPaths, nativeFreshCheckInUse, nativeStatAll, readFreshness, rereadFreshness, sameManifestFile, type Freshness } from '../../src/index/stored.js';
import { readPack, writePack } from '../../src/index/cache.js';
import { buildIndex, indexDir, loadIndex, type IndexOptions } from '../../src/index/build.js';
import { defaultBuildContext } from '../../src/source/index.js';
import { writeParts } from '../../src/index/atomic.js';
import { statEach, statNow } from '../../src/source/index.js';
import { spawnSync } from 'node:child_process';
import { tempDir } from '../helpers/temp.js';
import { forgetDeltaBases, keptTree } from '../helpers/kept-tree.js';

const fixture = resolve('test/fixtures/go/kubelike');

function goFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? goFiles(root, join(dir, e.name)) : e.name.endsWith('.go') ? [relative(root, join(dir, e.name))] : []);
}

/** Both implementations' answers on the manifest as a build writes it and a query reads it; they must agree. */
function fresh(m: ReturnType<typeof manifestOf>): boolean {
  const dir = tempDir('ka-fresh-manifest-');
  writeParts(join(dir, 'query.fresh'), encodeFreshness('stamp', 'graph', m));
  const f = readFreshness(dir);
  assert.ok(f, 'the manifest file reads back');
  const js = freshNow(f, false);
  assert.equal(freshNow(f, true), js, 'the C check and the statSync loop disagree');
  return js;
}

describe('manifest freshness', () => {
  it(nativeFreshCheckInUse() ? 'C check and statSync loop agree' : 'statSync loop (the C check is not built here, so only the loop is tested)', () => {
    const root = tempDir('ka-fresh-');
    cpSync(fixture, root, { recursive: true });
    const files = goFiles(root);
    assert.ok(files.length > 5);
    const snap = () => manifestOf(root, files, (abs) => statNow(abs));
    let m = snap();
    assert.equal(fresh(m), true, 'unchanged');

    const file = join(root, files[0]);
    const st = statSync(file);
    utimesSync(file, st.atime, new Date(st.mtimeMs + 3000));
    assert.equal(fresh(m), false, 'mtime moved');

    m = snap();
    assert.equal(fresh(m), true, 'fresh again after a new manifest');
    // Same mtime, different size: an edit whose mtime was put back.
    const before = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8') + '\n// more\n');
    utimesSync(file, before.atime, before.mtime);
    assert.equal(statSync(file).mtimeMs, before.mtimeMs);
    assert.equal(fresh(m), false, 'size changed');

    m = snap();
    writeFileSync(join(root, files[1].replace(/[^/]*$/, 'added.go')), 'package x\n');
    assert.equal(fresh(m), false, 'a file added to a package folder moves the folder');

    m = snap();
    rmSync(join(root, files[2]));
    assert.equal(fresh(m), false, 'a file removed');

    assert.equal(fresh({ paths: [], sizes: [], mtimes: [] }), true, 'an empty manifest');
  });

  it('tells two readings of a manifest file apart by every part (sameManifestFile)', () => {
    const root = tempDir('ka-fresh-same-');
    cpSync(fixture, root, { recursive: true });
    const m = manifestOf(root, goFiles(root), (abs) => statNow(abs));
    const read = (stamp = 'stamp', graph = 'graph', manifest = m): Freshness => {
      const dir = tempDir('ka-fresh-same-file-');
      writeParts(join(dir, 'query.fresh'), encodeFreshness(stamp, graph, manifest));
      return readFreshness(dir)!;
    };
    const base = read();
    assert.equal(sameManifestFile(base, read()), true);
    assert.equal(sameManifestFile(base, read('other')), false, 'the stamp');
    assert.equal(sameManifestFile(base, read('stamp', 'other')), false, 'the graph');
    const mtimes = Array.from(m.mtimes);
    mtimes[3] += 1;
    assert.equal(sameManifestFile(base, read('stamp', 'graph', { ...m, mtimes })), false, 'an mtime');
    const sizes = Array.from(m.sizes);
    sizes[0] += 1;
    assert.equal(sameManifestFile(base, read('stamp', 'graph', { ...m, sizes })), false, 'a size');
    const paths = [...m.paths];
    paths[1] = `${paths[1]}x`;
    assert.equal(sameManifestFile(base, read('stamp', 'graph', { ...m, paths })), false, 'a path');
  });

  it('a stored index is loaded without its check when the caller checked that very manifest file, else checked', () => {
    const root = tempDir('ka-fresh-load-');
    cpSync(fixture, root, { recursive: true });
    const opts: IndexOptions = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-fresh-load-cache-'), racyMs: 0 };
    buildIndex(opts);
    const dir = indexDir(opts);
    const checked = readFreshness(dir)!;
    assert.equal(loadIndex(opts, checked).fromCache, true);
    // The tree changes after the caller's check: the manifest file still reads the same, and is taken
    // on the caller's word; one that reads otherwise is checked, and the change found.
    const file = join(root, goFiles(root)[0]);
    writeFileSync(file, readFileSync(file, 'utf8') + '\nfunc kubeletAtlasFreshLoad() {}\n');
    assert.equal(loadIndex(opts, checked).fromCache, true);
    const other: Freshness = { ...checked, mtimes: checked.mtimes.map((t, i) => (i === 0 ? t + 1 : t)) };
    const rebuilt = loadIndex(opts, other);
    assert.equal(rebuilt.fromCache, false);
    assert.ok(rebuilt.files.parsed >= 1);
  });

  it('reads a manifest file again as the reading it was checked in while its bytes stay the same (rereadFreshness)', () => {
    const root = tempDir('ka-fresh-reread-');
    cpSync(fixture, root, { recursive: true });
    const m = manifestOf(root, goFiles(root), (abs) => statNow(abs));
    const dir = tempDir('ka-fresh-reread-file-');
    const file = join(dir, 'query.fresh');
    writeParts(file, encodeFreshness('stamp', 'graph', m));
    const known = readFreshness(dir, false)!;
    assert.equal(rereadFreshness(dir, known), known, 'the same bytes: the same reading');
    assert.equal(rereadFreshness(dir, { ...known }) === known, false, 'a copy is no reading of the file');
    assert.equal(sameManifestFile(known, rereadFreshness(dir, { ...known })!), true, 'a copy: the file read again');
    assert.equal(sameManifestFile(known, rereadFreshness(dir, undefined)!), true);
    const mtimes = Array.from(m.mtimes);
    mtimes[2] += 1;
    writeParts(file, encodeFreshness('stamp', 'graph', { ...m, mtimes }));
    const again = rereadFreshness(dir, known)!;
    assert.notEqual(again, known, 'other bytes: read again');
    assert.equal(again.mtimes[2], mtimes[2]);
    // Read again counted: paths that are not as many as the arrays are a damaged file.
    writeParts(file, encodeFreshness('stamp', 'graph', { ...m, paths: m.paths.slice(1) }));
    assert.equal(rereadFreshness(dir, known), undefined, 'counted: damaged');
    rmSync(file);
    assert.equal(rereadFreshness(dir, known), undefined, 'gone');
  });

  it('a stored index whose state lists its files wrongly is built again, not loaded', () => {
    const root = tempDir('ka-fresh-state-');
    cpSync(fixture, root, { recursive: true });
    const opts: IndexOptions = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-fresh-state-cache-'), racyMs: 0 };
    const built = buildIndex(opts);
    const loaded = loadIndex(opts);
    assert.equal(loaded.fromCache, true);
    assert.deepEqual(loaded.files, { total: built.files.total, parsed: 0, cached: built.files.total }, 'the files counted where the state lists them');
    const stateFile = join(indexDir(opts), 'state.v8');
    const state = readPack<{ inputs: { files: string } }>(stateFile)!;
    assert.equal(typeof state.inputs.files, 'string', 'the state keeps its files as one string');
    state.inputs.files += '\0extra.go';
    writePack(stateFile, state);
    const rebuilt = loadIndex(opts);
    assert.equal(rebuilt.fromCache, false, 'a list of files that is not three fields each: built again');
    assert.equal(rebuilt.files.total, built.files.total);
  });

  it('checks thousands of paths (the threaded case) and finds one change among them', () => {
    const root = tempDir('ka-fresh-many-');
    const files: string[] = [];
    for (let d = 0; d < 40; d++) {
      for (let f = 0; f < 40; f++) files.push(`p${d}/f${f}.go`);
    }
    for (const f of files) {
      const abs = join(root, f);
      cpSync(join(fixture, goFiles(fixture)[0]), abs);
    }
    const m = manifestOf(root, files, (abs) => statNow(abs));
    assert.equal(m.paths.length, 1640);
    assert.equal(fresh(m), true);
    const last = join(root, files[files.length - 1]);
    utimesSync(last, new Date(), new Date(Date.now() + 7000));
    assert.equal(fresh(m), false, 'the last path of the last range');
  });

  it(nativeFreshCheckInUse() ? 'statAll in C gives what statSync gives, path by path' : 'statSync stats (the C check is not built here)', () => {
    const root = tempDir('ka-stat-');
    // Relative to the root, '' being the root itself.
    const rels: string[] = ['', 'missing.go', 'dangling.go'];
    symlinkSync(join(root, 'nowhere.go'), join(root, 'dangling.go'));
    mkfifoOr(root, 'pipe', rels);
    mkdirSync(join(root, 'sub'));
    rels.push('sub');
    for (let i = 0; i < 700; i++) {
      const rel = i % 2 ? `f${i}.go` : `sub/f${i}.go`;
      writeFileSync(join(root, rel), 'x'.repeat(i));
      rels.push(rel);
    }
    const js = statEach(root, rels.join('\0'), rels.length);
    const native = nativeStatAll();
    if (native) {
      assert.deepEqual(Array.from(native(root, rels.join('\0'), rels.length)), js);
      // A root given with its separator is the same root.
      assert.deepEqual(Array.from(native(root + sep, rels.join('\0'), rels.length)), js);
      assert.throws(() => native(root, rels.join('\0'), rels.length + 1), /count is not the number of paths/);
    }
    const sizes = js.filter((_, k) => k % 4 === 0);
    assert.deepEqual(sizes.slice(0, 3), [-1, -2, -2]);
    assert.equal(sizes[rels.indexOf('sub')], -1);
    assert.equal(js[4 * (rels.length - 1)], 699);
    assert.equal(js[4 * rels.indexOf('sub/f0.go')], 0);
    assert.throws(() => statEach(root, rels.join('\0'), rels.length - 1), /paths, not/);
  });

  it('a build over a scope of the same structure takes its manifest\'s paths from the last one: the manifest a build from nothing writes', () => {
    const root = tempDir('ka-fresh-taken-');
    cpSync(fixture, root, { recursive: true });
    const loc: IndexOptions = { root, ctx: defaultBuildContext(), cacheDir: tempDir('ka-fresh-taken-cache-'), workers: 0, racyMs: -Infinity };
    const manifest = (at: IndexOptions) => {
      const f = readFreshness(indexDir(at));
      assert.ok(f, 'a manifest file');
      return { paths: manifestPaths(f), sizes: [...f.sizes], mtimes: [...f.mtimes], structure: f.structure };
    };
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const pods = join(root, 'pkg/kubelet/kubelet_pods.go');
    const steps: [string, () => void][] = [
      ['a comment appended', () => writeFileSync(kubelet, readFileSync(kubelet, 'utf8') + '\n// fresh\n')],
      ['a function appended', () => writeFileSync(kubelet, readFileSync(kubelet, 'utf8') + '\nfunc freshTaken() {}\n')],
      ['a file added', () => writeFileSync(join(root, 'pkg/kubelet/fresh_added.go'), 'package kubelet\n')],
      // (root reads any file: for root these two steps change nothing)
      ['a file that cannot be read', () => chmodSync(pods, 0o000)],
      ['read again', () => chmodSync(pods, 0o644)],
      ['nothing', () => {}],
    ];
    const root0 = process.getuid?.() === 0;
    buildIndex(loc);
    for (const [what, step] of steps) {
      step();
      buildIndex(loc);
      const now = manifest(loc);
      const reference: IndexOptions = { ...loc, cacheDir: tempDir('ka-fresh-taken-ref-') };
      buildIndex(reference);
      assert.deepEqual(now, manifest(reference), `${what}: the manifest a build from nothing writes`);
      if (what === 'a file that cannot be read' && !root0) assert.equal(now.structure, undefined, `${what}: a manifest without every file is no structure's`);
      else assert.ok(now.structure, `${what}: the manifest is the structure's`);
    }
  });

  it('a process that keeps its resolution makes the manifest of files that came or went from the last one: the manifest a build from nothing writes', () => {
    const { root, loc } = keptTree('ka-fresh-spliced');
    loc.racyMs = -Infinity;
    const manifest = (at: IndexOptions) => {
      const f = readFreshness(indexDir(at));
      assert.ok(f, 'a manifest file');
      return { paths: manifestPaths(f), sizes: [...f.sizes], mtimes: [...f.mtimes], structure: f.structure };
    };
    const at = (rel: string) => join(root, rel);
    const add = (rel: string) => writeFileSync(at(rel), `package ${rel.split('/').at(-2)}\n\nfunc ${rel.split('/').at(-1)!.replace('.go', '').replace(/_/g, '')}() {}\n`);
    const steps: [string, () => void, boolean][] = [
      ['a file added first in its package', () => add('pkg/kubelet/a_spliced.go'), true],
      ['a file added last in its package', () => add('pkg/kubelet/zz_spliced.go'), true],
      ['a file added to each of two packages', () => (add('pkg/kubelet/m_spliced.go'), add('pkg/kubelet/pleg/m_spliced.go')), true],
      ['a file removed between others', () => rmSync(at('pkg/kubelet/m_spliced.go')), true],
      ['a file added and another removed', () => (add('pkg/kubelet/pleg/b_spliced.go'), rmSync(at('pkg/kubelet/a_spliced.go'))), true],
      ['a file added last in the scope', () => add('pkg/kubelet/volumemanager/zz_spliced.go'), true],
      ['the files removed', () => ['pkg/kubelet/zz_spliced.go', 'pkg/kubelet/pleg/m_spliced.go', 'pkg/kubelet/pleg/b_spliced.go', 'pkg/kubelet/volumemanager/zz_spliced.go'].forEach((rel) => rmSync(at(rel))), true],
      ['a file of a package of its own', () => (mkdirSync(at('pkg/kubelet/spliced')), add('pkg/kubelet/spliced/spliced.go')), false],
    ];
    buildIndex(loc);
    for (const [what, step, kept] of steps) {
      step();
      const built = buildIndex(loc);
      if (kept) assert.ok(built.incremental, `${what}: the kept resolution took it (${built.refused})`);
      const reference: IndexOptions = { ...loc, memo: undefined, cacheDir: tempDir('ka-fresh-spliced-ref-') };
      buildIndex(reference);
      assert.deepEqual(manifest(loc), manifest(reference), `${what}: the manifest a build from nothing writes`);
    }
    forgetDeltaBases();
  });
});

/** A FIFO at `rel` under `root`, added to `rels`, where mkfifo exists (a path that is neither a file nor a folder: size -3). */
function mkfifoOr(root: string, rel: string, rels: string[]): void {
  if (spawnSync('mkfifo', [join(root, rel)]).status !== 0) return;
  rels.push(rel);
  assert.equal(statEach(root, rel, 1)[0], -3);
}
