/** The lock without a tree: the committed fixture lock, stale and corrupted locks, the file format, the line diff. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  checkAnnotations, formatLock, lineDiff, parseAnnotations, parseLock, readAnnotationFiles, readLock, writeLock,
  type AnnotationFile, type AnnotationLock,
} from '../../src/annotations/index.js';
import { lcsPairs, runs } from '../../src/annotations/diff.js';
import { lineHashes } from '../../src/parse/fingerprint.js';
import { tempDir } from '../helpers/temp.js';

const dir = resolve('test/fixtures/annotations');
const files = readAnnotationFiles(dir);
const lockPath = join(dir, 'annotations.lock.json');
const lockText = readFileSync(lockPath, 'utf8');
const LOCK = 'annotations/annotations.lock.json';

function load(fs: AnnotationFile[] = files) {
  return parseAnnotations(fs).topics;
}

describe('checking anchors against the lock, without a tree', () => {
  it('passes for the fixture topics and their committed lock', () => {
    const r = checkAnnotations({ topics: load(), lock: lockText, lockFile: LOCK });
    assert.equal(r.mode, 'lock');
    assert.deepEqual(r.diagnostics, []);
    assert.ok(r.ok);
    assert.equal(r.summary.anchors, 35);
    assert.equal(r.summary.stale, 0);
  });

  it('a new anchor that is not in the lock is a stale lock, at the anchor', () => {
    const pleg = files.find((f) => f.path === 'annotations/pleg.md')!;
    const text = pleg.text.replace('## When it goes wrong\n', '## When it goes wrong\n\n`@pleg.getContainerState` maps runtime states.\n');
    const topics = load(files.map((f) => (f === pleg ? { path: f.path, text } : f)));
    const r = checkAnnotations({ topics, lock: lockText, lockFile: LOCK });
    assert.equal(r.ok, false);
    assert.equal(r.summary.stale, 1);
    const d = r.diagnostics.find((x) => x.code === 'lock-stale')!;
    assert.equal(d.file, 'annotations/pleg.md');
    assert.equal(d.line, text.split('\n').indexOf('`@pleg.getContainerState` maps runtime states.') + 1);
    assert.match(d.message, /stale lock: .*kubelet-atlas annotations lock --source DIR/);
  });

  it('lock entries no anchor uses are warnings, at their line in the lock', () => {
    const topics = load(files.filter((f) => f.path === 'annotations/startup.md'));
    const r = checkAnnotations({ topics, lock: lockText, lockFile: LOCK });
    assert.ok(r.ok);
    const unused = r.diagnostics.filter((d) => d.code === 'lock-unused');
    assert.ok(unused.length > 0);
    assert.ok(unused.every((d) => d.severity === 'warning' && d.file === LOCK && d.line! > 1));
    const q = unused.find((d) => d.message.includes('`@pleg.computeEvents`'))!;
    assert.equal(q.line, lockText.split('\n').findIndex((l) => l.includes('"pleg.computeEvents":')) + 1);
  });

  it('a lock that is not JSON is corrupted, with the line of the error and the fix', () => {
    const lines = lockText.split('\n');
    lines[5] = lines[5].replace(',', '');
    const r = checkAnnotations({ topics: load(), lock: lines.join('\n'), lockFile: LOCK });
    assert.equal(r.ok, false);
    const d = r.diagnostics.find((x) => x.code === 'lock-corrupted')!;
    assert.equal(d.file, LOCK);
    assert.ok(d.line === 6 || d.line === 7, `line ${d.line}`);
    assert.match(d.message, /corrupted lock: it is not valid JSON.*annotations lock --source DIR/);
  });

  it('a lock that lacks a field is corrupted, pointing at the entry', () => {
    const lock = JSON.parse(lockText) as AnnotationLock;
    const id = Object.keys(lock.anchored)[2];
    delete (lock.anchored[id] as Partial<AnnotationLock['anchored'][string]>).fingerprint;
    const text = formatLock(lock);
    const r = parseLock(text, LOCK);
    assert.equal(r.lock, undefined);
    assert.equal(r.diagnostics[0].line, text.split('\n').findIndex((l) => l.includes(`"${id}": {`)) + 1);
    assert.match(r.diagnostics[0].message, /lacks the string field 'fingerprint'/);
    for (const broken of ['[]', '{"format": 1}', '{"format": 2}']) {
      assert.equal(parseLock(broken, LOCK).diagnostics[0].code, 'lock-corrupted', broken);
    }
  });

  it('a query pointing at no entry is corrupted', () => {
    const lock = JSON.parse(lockText) as AnnotationLock;
    lock.queries['pleg.Nope'] = 'k8s.io/kubernetes/pkg/kubelet/pleg.Nope';
    const r = parseLock(JSON.stringify(lock), LOCK);
    assert.match(r.diagnostics[0].message, /maps to 'k8s.io\/kubernetes\/pkg\/kubelet\/pleg.Nope', which has no entry/);
  });

  it('a missing lock file is a stale lock', () => {
    const r = readLock(join(tmpdir(), 'no-such-lock.json'), LOCK);
    assert.equal(r.diagnostics[0].code, 'lock-missing');
    const report = checkAnnotations({ topics: load(), lockFile: LOCK, diagnostics: r.diagnostics });
    assert.equal(report.ok, false);
  });
});

describe('the lock file format', () => {
  it('is written atomically and reads back identically; the committed lock is in canonical form', async () => {
    const lock = JSON.parse(lockText) as AnnotationLock;
    assert.equal(formatLock(lock), lockText);
    const out = join(tempDir('ka-lock-'), 'annotations.lock.json');
    await writeLock(out, lock);
    assert.equal(readFileSync(out, 'utf8'), lockText);
    assert.deepEqual(readLock(out).lock, lock);
  });

  it('keeps lists of hashes on one line and sorts queries and entries', () => {
    const lock = JSON.parse(lockText) as AnnotationLock;
    assert.deepEqual(Object.keys(lock.queries), Object.keys(lock.queries).sort());
    assert.deepEqual(Object.keys(lock.anchored), Object.keys(lock.anchored).sort());
    assert.match(lockText, /"lines": \["[0-9a-f]{6}"(, "[0-9a-f]{6}")*\]/);
    assert.equal(lock.version, 'v1.28.0');
    assert.deepEqual([lock.goos, lock.goarch, lock.tags, lock.symbols], ['linux', 'amd64', [], []]);
  });
});

describe('line diffs', () => {
  it('finds a longest common subsequence', () => {
    assert.deepEqual(lcsPairs([...'abcde'], [...'axcye']), [[0, 0], [2, 2], [4, 4]]);
    assert.deepEqual(runs([1, 2, 3, 7, 9, 10]), [[1, 3], [7, 7], [9, 10]]);
  });

  it('says how many lines differ and where, skipping blank and comment lines', () => {
    const before = 'func f() {\n\ta := 1\n\tb := 2\n\tc := 3\n\treturn\n}';
    const after = 'func f() {\n\ta := 1\n\n\t// note\n\tb := 20\n\tc := 30\n\treturn\n}';
    const d = lineDiff(lineHashes(before), after, 100);
    assert.equal(d.of, 6);
    assert.equal(d.differ, 2);
    assert.deepEqual(d.ranges, [[5, 6]]);
    assert.deepEqual(d.fileRanges, [[104, 105]]);
  });
});
