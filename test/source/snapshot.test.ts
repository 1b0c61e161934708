/**
 * The source snapshot: a scan that reuses the last one gives what a scan from nothing gives, after every
 * kind of change, and reads no more than it must.
 */
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { defaultBuildContext, scanSource, type SourceScan, type SourceSnapshot } from '../../src/source/index.js';
import { GO_MOD, goFile, link, makeTree, removeTree, writeFile } from './helpers.js';
import { countingStat, fsCalls } from '../helpers/fs-calls.js';

const ctx = defaultBuildContext({});

/** A small kubelet-shaped module: the kubelet imports a util package; another package is out of scope. */
function tree(): string {
  return makeTree({
    'go.mod': GO_MOD,
    'pkg/kubelet/kubelet.go': goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/flock"']),
    'pkg/kubelet/pods.go': goFile('kubelet'),
    'pkg/kubelet/linux_only.go': goFile('kubelet', [], '//go:build linux'),
    'pkg/util/flock/flock.go': goFile('flock'),
    'pkg/util/other/other.go': goFile('other'),
    'pkg/proxy/proxy.go': goFile('proxy'),
  });
}

/** What a scan decides, as plain data: the scope's packages and files with their records, and the diagnostics. */
function decided(scan: SourceScan): unknown {
  return {
    root: scan.root,
    modulePath: scan.modulePath,
    packages: scan.packages.map((p) => ({ ...p, files: p.files.map((f) => ({ ...f })) })),
    diagnostics: scan.diagnostics,
  };
}

/**
 * No racy window at all: these tests write and scan within the same millisecond, where every stat is
 * racy (the last test has the window).
 */
const NO_WINDOW = -Infinity;

/** Scans with the snapshot and checks it against a scan from nothing. */
function rescan(root: string, previous: SourceSnapshot | undefined): SourceScan {
  const scan = scanSource(root, ctx, 'default', { previous, racyMs: NO_WINDOW });
  assert.deepEqual(decided(scan), decided(scanSource(root, ctx, 'default')), 'the reused scan differs from a scan from nothing');
  return scan;
}

/** The snapshot a build would keep, every file of the scope hashed (the hash is the file's path and size here). */
function keep(scan: SourceScan): SourceSnapshot {
  const snap = scan.snapshot(scan.packages.flatMap((p) => p.files.map((f) => `${f.path}:${fs.statSync(f.abs).size}`)));
  assert.ok(snap, 'the snapshot can be kept');
  return snap;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The paths fs.openSync opened while `f` ran (the walk reads headers through it). */
function openedDuring(f: () => void): string[] {
  return fsCalls('openSync', f).paths;
}

let root = '';
afterEach(() => removeTree(root));

describe('source snapshot', () => {
  it('reuses everything when nothing changed, and lists no folder', () => {
    root = tree();
    const first = rescan(root, undefined);
    assert.equal(first.reused, 'none');
    const snap = keep(first);
    const again = rescan(root, snap);
    assert.equal(again.reused, 'tree');
    assert.equal(again.changed, false);
    assert.deepEqual(again.knownHashes(), again.packages.flatMap((p) => p.files.map((f) => `${f.path}:${f.size}`)));
    // A snapshot that went through node:v8, as the index stores it.
    assert.equal(rescan(root, deserialize(serialize(snap)) as SourceSnapshot).reused, 'tree');
  });

  it('an edited body: only that file is read again, and its new stat is kept', () => {
    root = tree();
    const snap = keep(rescan(root, undefined));
    writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet') + '\nfunc more() {}\n');
    const scan = rescan(root, snap);
    assert.equal(scan.reused, 'tree');
    assert.equal(scan.changed, true);
    const known = scan.knownHashes();
    const files = scan.packages.flatMap((p) => p.files.map((f) => f.path));
    assert.deepEqual(files.filter((_, i) => known[i] === undefined), ['pkg/kubelet/pods.go']);
    assert.equal(scan.packages.flatMap((p) => p.files).find((f) => f.path === 'pkg/kubelet/pods.go')!.size, fs.statSync(path.join(root, 'pkg/kubelet/pods.go')).size);
    const next = rescan(root, keep(scan));
    assert.equal(next.changed, false, 'the moved stat was kept');
    const k = next.packages.flatMap((p) => p.files).findIndex((f) => f.path === 'pkg/kubelet/pods.go');
    const p = next.packages.findIndex((x) => x.dir === 'pkg/kubelet');
    for (const scan of [next, rescan(root, undefined)]) {
      assert.equal(scan.scopeStats().file(k)![0], fs.statSync(path.join(root, 'pkg/kubelet/pods.go')).size);
      assert.equal(scan.scopeStats().dir(p)![1], fs.statSync(path.join(root, 'pkg/kubelet')).mtimeMs);
    }
  });

  it('a new import, a new file, a removed file, a changed constraint: walked again, same answer', () => {
    root = tree();
    let snap = keep(rescan(root, undefined));
    const step = (change: () => void, expect: SourceScan['reused']) => {
      change();
      const scan = rescan(root, snap);
      assert.equal(scan.reused, expect);
      snap = keep(scan);
      return scan;
    };
    let scan = step(() => writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/other"'])), 'headers');
    assert.ok(scan.packages.some((p) => p.importPath === 'k8s.io/kubernetes/pkg/util/other'), 'the new import is in scope');
    scan = step(() => writeFile(root, 'pkg/kubelet/added.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/proxy"'])), 'headers');
    assert.ok(scan.packages.some((p) => p.importPath === 'k8s.io/kubernetes/pkg/proxy'));
    scan = step(() => fs.rmSync(path.join(root, 'pkg/kubelet/added.go')), 'headers');
    assert.ok(!scan.packages.some((p) => p.importPath === 'k8s.io/kubernetes/pkg/proxy'));
    step(() => writeFile(root, 'pkg/kubelet/linux_only.go', goFile('kubelet', [], '//go:build windows')), 'headers');
    step(() => writeFile(root, 'pkg/kubelet/pods.go', '//go:build ignore\n\n' + goFile('kubelet')), 'headers');
    step(() => writeFile(root, 'pkg/kubelet/pods.go', goFile('other')), 'headers');
  });

  it('a walk reads again only the headers whose stat moved', () => {
    root = tree();
    const snap = keep(rescan(root, undefined));
    // A new folder: the tree is walked, and of the Go files only the new one is opened.
    writeFile(root, 'pkg/kubelet/sub/new.go', goFile('sub'));
    const opened = openedDuring(() => {
      const scan = scanSource(root, ctx, 'default', { previous: snap, racyMs: NO_WINDOW });
      assert.equal(scan.reused, 'headers');
    });
    assert.deepEqual(opened.filter((p) => p.endsWith('.go')).map((p) => path.relative(root, p)), ['pkg/kubelet/sub/new.go']);
    rescan(root, snap);
  });

  it('go.mod changed: every header is read again (import paths depend on it)', () => {
    root = tree();
    const snap = keep(rescan(root, undefined));
    writeFile(root, 'go.mod', GO_MOD.replace('go 1.20', 'go 1.21'));
    const scan = rescan(root, snap);
    assert.equal(scan.reused, 'headers');
    assert.ok(scan.knownHashes().every((h) => h !== undefined), 'no file changed, so every hash is still known');
  });

  it('a link to nothing is followed again once its target appears', () => {
    root = tree();
    link(root, 'pkg/kubelet/extra.go', '../../gen/extra.go');
    const first = rescan(root, undefined);
    assert.ok(first.diagnostics.some((d) => d.code === 'source.broken-symlink'));
    const snap = keep(first);
    assert.equal(rescan(root, snap).reused, 'tree', 'nothing moved');
    writeFile(root, 'gen/extra.go', goFile('kubelet'));
    const scan = rescan(root, snap);
    assert.notEqual(scan.reused, 'tree');
    assert.ok(scan.packages.flatMap((p) => p.files).some((f) => f.path === 'pkg/kubelet/extra.go'));
  });

  it('a folder that could not be listed is listed again once it can be', { skip: process.getuid?.() === 0 ? 'root reads any folder' : false }, () => {
    root = tree();
    const dir = path.join(root, 'pkg/util/flock');
    fs.chmodSync(dir, 0o000);
    try {
      const snap = keep(rescan(root, undefined));
      fs.chmodSync(dir, 0o755);
      assert.notEqual(rescan(root, snap).reused, 'tree');
    } finally {
      fs.chmodSync(dir, 0o755);
    }
  });

  it('does not trust a stat taken within the racy window of its scan', () => {
    const window = 200;
    root = tree();
    sleep(window + 100);
    const snap = keep(scanSource(root, ctx, 'default'));
    // Unchanged, and written long enough before the scan: trusted.
    const scan = scanSource(root, ctx, 'default', { previous: snap, racyMs: window });
    assert.equal(scan.reused, 'tree');
    assert.ok(scan.knownHashes().every((h) => h !== undefined));
    // Written just before the scan that recorded it: read again, though nothing moved since.
    writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet') + '\n// new\n');
    const fresh = keep(scanSource(root, ctx, 'default', { previous: snap, racyMs: window }));
    const after = scanSource(root, ctx, 'default', { previous: fresh, racyMs: window });
    const files = after.packages.flatMap((p) => p.files.map((f) => f.path));
    assert.deepEqual(files.filter((_, i) => after.knownHashes()[i] === undefined), ['pkg/kubelet/pods.go']);
  });

  it('told of no path, stats only the watched ones: what lies outside them cannot change the scan', () => {
    root = makeTree({
      'go.mod': GO_MOD,
      'pkg/kubelet/kubelet.go': goFile('kubelet', ['"fmt"', '"github.com/spf13/cobra"', '"k8s.io/kubernetes/pkg/util/flock"', '"k8s.io/kubernetes/pkg/util/missing"', '"k8s.io/kubernetes/pkg/util/winonly"']),
      'pkg/util/flock/flock.go': goFile('flock'),
      'pkg/util/winonly/winonly.go': goFile('winonly', [], '//go:build windows'),
      'pkg/util/other/other.go': goFile('other'),
      'pkg/proxy/proxy.go': goFile('proxy'),
    });
    let snap = keep(rescan(root, undefined));
    const paths = snap.scanPaths.length;
    const { counts, statMany: spy } = countingStat();
    const step = (change: () => void, expect: SourceScan['reused']) => {
      change();
      counts.length = 0;
      const scan = scanSource(root, ctx, 'default', { previous: snap, racyMs: NO_WINDOW, statMany: spy });
      assert.deepEqual(decided(scan), decided(scanSource(root, ctx, 'default')), 'the scan differs from a scan from nothing');
      assert.equal(scan.reused, expect);
      if (expect === 'tree') assert.deepEqual(counts, [snap.watched!.length], 'only the watched paths are stat\'d');
      else assert.deepEqual(counts, [snap.watched!.length, snap.scanPaths.length], 'the watched paths, then every path');
      snap = keep(scan);
      return scan;
    };
    assert.ok(snap.watched!.length < paths, `${snap.watched!.length} of ${paths} paths watched`);
    // Outside the scope and what it imports: not stat'd, and no scan would see them.
    step(() => writeFile(root, 'pkg/proxy/proxy.go', goFile('proxy', ['"k8s.io/kubernetes/pkg/util/other"'])), 'tree');
    step(() => writeFile(root, 'pkg/util/other/more.go', goFile('other')), 'tree');
    let scan = step(() => link(root, 'pkg/proxy/gone.go', 'nothing.go'), 'tree');
    assert.ok(!scan.diagnostics.some((d) => d.code === 'source.broken-symlink'), 'a link outside the scope says nothing of it');
    // A file of the scope's: read again, on the same tree.
    step(() => writeFile(root, 'pkg/kubelet/kubelet.go', goFile('kubelet', ['"fmt"', '"github.com/spf13/cobra"', '"k8s.io/kubernetes/pkg/util/flock"', '"k8s.io/kubernetes/pkg/util/missing"', '"k8s.io/kubernetes/pkg/util/winonly"']) + '\n// more\n'), 'tree');
    // Where what the scope imports and does not have could come to be, and a package of no active files.
    scan = step(() => writeFile(root, 'pkg/util/missing/missing.go', goFile('missing')), 'headers');
    assert.ok(scan.packages.some((p) => p.dir === 'pkg/util/missing'), 'the imported package made since joins the scope');
    scan = step(() => writeFile(root, 'pkg/util/winonly/winonly.go', goFile('winonly')), 'headers');
    assert.ok(scan.packages.some((p) => p.dir === 'pkg/util/winonly'), 'the imported package that became active joins the scope');
    step(() => writeFile(root, 'vendor/github.com/spf13/cobra/cobra.go', goFile('cobra')), 'headers');
    scan = step(() => link(root, 'pkg/kubelet/gone.go', 'nothing.go'), 'headers');
    assert.ok(scan.diagnostics.some((d) => d.code === 'source.broken-symlink' && d.file === 'pkg/kubelet/gone.go'), 'a link in the scope is said');
  });

  it('a path it did not stat, recorded in a racy tick, is not trusted by the scans after it', () => {
    const window = 200;
    root = tree();
    sleep(window + 100);
    // Outside the scope, written just before the scan that records it.
    writeFile(root, 'pkg/proxy/proxy.go', goFile('proxy') + '\n// new\n');
    const snap = keep(scanSource(root, ctx, 'default', { previous: undefined, racyMs: window }));
    sleep(5);
    writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet') + '\nfunc more() {}\n');
    const scan = scanSource(root, ctx, 'default', { previous: snap, racyMs: window });
    assert.equal(scan.reused, 'tree');
    const next = keep(scan);
    assert.ok(next.scanStart > snap.scanStart, 'the next snapshot has a later start');
    const at = (rel: string) => next.strings.split('\0').indexOf(rel.split('/').join(path.sep));
    assert.equal(next.stats[4 * at('pkg/kubelet/pods.go')], fs.statSync(path.join(root, 'pkg/kubelet/pods.go')).size, 'the moved file has its stat');
    assert.ok(next.stats[4 * at('pkg/proxy/proxy.go')] < -3, 'the racy path left out is marked as never seen');
    assert.equal(next.stats[4 * at('pkg/util/other/other.go')], fs.statSync(path.join(root, 'pkg/util/other/other.go')).size, 'a path recorded in time keeps its stat');
  });

  it('told which paths alone can have changed, stats only those and takes the others as the snapshot has them', () => {
    root = tree();
    const snap = keep(rescan(root, undefined));
    const { counts, statMany: spy } = countingStat();
    const named = (only: string[], racyMs = NO_WINDOW) => {
      counts.length = 0;
      return scanSource(root, ctx, 'default', { previous: snap, racyMs, statMany: spy, only: only.map((p) => p.split('/').join(path.sep)) });
    };
    const unknown = (scan: SourceScan) => {
      const files = scan.packages.flatMap((p) => p.files.map((f) => f.path));
      return files.filter((_, i) => scan.knownHashes()[i] === undefined);
    };
    // The watched paths stat'd when none is named (the racy window is off here: every path is trusted).
    assert.equal(named([]).reused, 'tree');
    assert.deepEqual(counts, []);
    scanSource(root, ctx, 'default', { previous: snap, racyMs: NO_WINDOW, statMany: spy });
    assert.deepEqual(counts, [snap.watched!.length], 'the watched paths are stat\'d without names');

    writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet') + '\nfunc more() {}\n');
    let scan = named(['pkg/kubelet/pods.go']);
    assert.deepEqual(counts, [1], 'only the named path is stat\'d');
    assert.equal(scan.reused, 'tree');
    assert.deepEqual(unknown(scan), ['pkg/kubelet/pods.go']);
    assert.deepEqual(decided(scan), decided(scanSource(root, ctx, 'default')));
    // Paths the snapshot recorded within the racy window are taken on its word too, unless named.
    assert.deepEqual(unknown(named(['pkg/kubelet/pods.go'], 60_000)), ['pkg/kubelet/pods.go']);
    assert.equal(unknown(scanSource(root, ctx, 'default', { previous: snap, racyMs: 60_000 })).length, 4, 'without names, each is read again');

    // A change the caller did not name is not seen: the caller answers for it (a watch checks every path later).
    writeFile(root, 'pkg/kubelet/kubelet.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/flock"']) + '\n// unnamed\n');
    assert.deepEqual(unknown(named(['pkg/kubelet/pods.go'])), ['pkg/kubelet/pods.go']);
    assert.deepEqual(unknown(rescan(root, snap)), ['pkg/kubelet/kubelet.go', 'pkg/kubelet/pods.go'], 'a scan without names sees it');

    // A named file that changed the scope: put into the snapshot's tree, no folder listed.
    writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/other"']));
    scan = named(['pkg/kubelet/pods.go']);
    assert.equal(scan.reused, 'files');
    assert.ok(scan.packages.some((p) => p.importPath === 'k8s.io/kubernetes/pkg/util/other'));
  });

  it('told of files that came or went, takes them into the snapshot\'s tree without listing a folder', () => {
    root = tree();
    let snap = keep(rescan(root, undefined));
    const { counts, statMany: spy } = countingStat();
    // Each step: the scan told of `only`, against a scan from nothing; its snapshot, used by a scan told of nothing, against it too.
    const step = (change: () => void, only: string[], expect: SourceScan['reused']) => {
      change();
      counts.length = 0;
      const { paths: listed, value: scan } = fsCalls('readdirSync', () => scanSource(root, ctx, 'default', { previous: snap, racyMs: NO_WINDOW, statMany: spy, only: only.map((p) => p.split('/').join(path.sep)) }));
      assert.equal(scan.reused, expect, only.join(' '));
      if (expect === 'files') {
        assert.deepEqual(listed, [], 'no folder listed');
        // The named paths, their folders, and the folders and files of packages that join the scope.
        assert.ok(counts.reduce((a, b) => a + b, 0) <= 2 * only.length + 4, `stat'd ${counts.join('+')} paths for ${only.length} named`);
      }
      const fresh = scanSource(root, ctx, 'default');
      assert.deepEqual(decided(scan), decided(fresh), only.join(' '));
      assert.deepEqual(scan.scopeStats().dir(0), fresh.scopeStats().dir(0));
      snap = keep(scan);
      // (A walk told of some paths records the others as the snapshot had them: a scan told of none may walk again.)
      if (expect === 'files') assert.equal(rescan(root, snap).reused, 'tree', 'the kept snapshot holds every path a walk would record, as it is now');
      return scan;
    };
    let scan = step(() => writeFile(root, 'pkg/kubelet/added.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/proxy"'])), ['pkg/kubelet/added.go'], 'files');
    assert.ok(scan.packages.some((p) => p.importPath === 'k8s.io/kubernetes/pkg/proxy'), 'the new file\'s import is in scope');
    // Hashes are known for the files the snapshot hashed, not for the new one nor those of the package it brought in.
    const unknown = scan.packages.flatMap((p) => p.files.map((f) => f.path)).filter((_, i) => scan.knownHashes()[i] === undefined);
    assert.deepEqual(unknown, ['pkg/kubelet/added.go', 'pkg/proxy/proxy.go']);
    // Its name sorts between the others: in place, as a walk lists it.
    step(() => writeFile(root, 'pkg/kubelet/b.go', goFile('kubelet')), ['pkg/kubelet/b.go'], 'files');
    // A rename names both paths: one goes, the other comes, in one scan.
    step(() => fs.renameSync(path.join(root, 'pkg/kubelet/b.go'), path.join(root, 'pkg/kubelet/z.go')), ['pkg/kubelet/b.go', 'pkg/kubelet/z.go'], 'files');
    scan = step(() => fs.rmSync(path.join(root, 'pkg/kubelet/added.go')), ['pkg/kubelet/added.go'], 'files');
    assert.ok(!scan.packages.some((p) => p.importPath === 'k8s.io/kubernetes/pkg/proxy'), 'out of scope with the file that imported it');
    // The last file of a package goes, and a file comes to a folder that had none.
    step(() => {
      writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/util/other"']));
      fs.rmSync(path.join(root, 'pkg/util/flock/flock.go'));
    }, ['pkg/util/flock/flock.go', 'pkg/kubelet/pods.go'], 'files');
    step(() => writeFile(root, 'pkg/util/flock/again.go', goFile('flock')), ['pkg/util/flock/again.go'], 'files');
    // An import of a folder made since the snapshot (a watch is told of no folder): walked to find it.
    step(() => {
      writeFile(root, 'pkg/made/made.go', goFile('made'));
      writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/made"']));
    }, ['pkg/kubelet/pods.go'], 'headers');
    // A package that joins the scope with a file changed since the snapshot (no one watched it): walked.
    step(() => {
      writeFile(root, 'pkg/proxy/proxy.go', goFile('proxy', ['"k8s.io/kubernetes/pkg/util/other"']));
      writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/proxy"']));
    }, ['pkg/kubelet/pods.go'], 'headers');
    // Joined as the snapshot has it: taken.
    step(() => writeFile(root, 'pkg/kubelet/pods.go', goFile('kubelet', ['"k8s.io/kubernetes/pkg/made"'])), ['pkg/kubelet/pods.go'], 'files');
    // Named, gone before the scan saw it: nothing came.
    step(() => undefined, ['pkg/kubelet/never.go'], 'tree');
    // A new folder, a broken header, a file that is not Go: walked.
    step(() => writeFile(root, 'pkg/kubelet/sub/sub.go', goFile('sub')), ['pkg/kubelet/sub/sub.go'], 'headers');
    step(() => writeFile(root, 'pkg/kubelet/broken.go', '//go:build (linux\n\npackage kubelet\n'), ['pkg/kubelet/broken.go'], 'headers');
    step(() => writeFile(root, 'pkg/kubelet/notes.txt', 'x'), ['pkg/kubelet/notes.txt'], 'headers');
  });

  it('a snapshot of another root, context or scope is not used', () => {
    root = tree();
    const snap = keep(rescan(root, undefined));
    assert.equal(scanSource(root, defaultBuildContext({ tags: ['providerless'] }), 'default', { previous: snap, racyMs: NO_WINDOW }).reused, 'none');
    assert.equal(scanSource(root, ctx, 'all', { previous: snap, racyMs: NO_WINDOW }).reused, 'none');
    assert.equal(scanSource(root, ctx, 'default', { previous: { ...snap, root: '/elsewhere' }, racyMs: NO_WINDOW }).reused, 'none');
  });
});
