/**
 * The freshness test behind one-shot queries: the C version (one stat() per path, on threads) and the
 * statSync loop agree on every kind of change, and both see each of them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { manifestFresh, manifestOf, nativeFreshCheckInUse } from '../../src/index/stored.js';

const fixture = resolve('test/fixtures/go/kubelike');

function goFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? goFiles(root, join(dir, e.name)) : e.name.endsWith('.go') ? [relative(root, join(dir, e.name))] : []);
}

/** Both implementations' answers; they must agree. */
function fresh(m: ReturnType<typeof manifestOf>): boolean {
  const js = manifestFresh(m, false);
  assert.equal(manifestFresh(m, true), js, 'the C check and the statSync loop disagree');
  return js;
}

describe('manifest freshness', () => {
  it(nativeFreshCheckInUse() ? 'C check and statSync loop agree' : 'statSync loop (the C check is not built here, so only the loop is tested)', () => {
    const root = mkdtempSync(join(tmpdir(), 'ka-fresh-'));
    cpSync(fixture, root, { recursive: true });
    const files = goFiles(root);
    assert.ok(files.length > 5);
    const snap = () => manifestOf(root, files);
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

  it('checks thousands of paths (the threaded case) and finds one change among them', () => {
    const root = mkdtempSync(join(tmpdir(), 'ka-fresh-many-'));
    const files: string[] = [];
    for (let d = 0; d < 40; d++) {
      for (let f = 0; f < 40; f++) files.push(`p${d}/f${f}.go`);
    }
    for (const f of files) {
      const abs = join(root, f);
      cpSync(join(fixture, goFiles(fixture)[0]), abs);
    }
    const m = manifestOf(root, files);
    assert.equal(m.paths.length, 1640);
    assert.equal(fresh(m), true);
    const last = join(root, files[files.length - 1]);
    utimesSync(last, new Date(), new Date(Date.now() + 7000));
    assert.equal(fresh(m), false, 'the last path of the last range');
  });
});
