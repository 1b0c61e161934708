/**
 * The parse stage's two paths give the same facts: the native flat-tree addon and the tree-sitter
 * bindings; and extraction across worker threads gives what extraction on one thread gives.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { goFiles } from '../helpers/wants.js';
import { extractAll, extractFile, nativeParserInUse, newClock, unpackFacts } from '../../src/parse/index.js';
import { editBetween } from '../../src/parse/flat.js';
import { tempDir } from '../helpers/temp.js';

const fixtures = resolve('test/fixtures/go');
const files = goFiles(fixtures).map((abs) => ({ path: relative(fixtures, abs), bytes: readFileSync(abs) }));

/** Runs extraction of the Go files under `root` (the fixtures) in a child process and returns one JSON line per file. */
function extractIn(env: NodeJS.ProcessEnv, root = fixtures): { native: boolean; facts: string[] } {
  const script = `
    import { readFileSync } from 'node:fs';
    import { extractFile, nativeParserInUse } from ${JSON.stringify(resolve('dist/src/parse/index.js'))};
    const files = JSON.parse(process.argv[1]);
    const facts = files.map(([path, abs]) => JSON.stringify(extractFile(path, readFileSync(abs))));
    process.stdout.write(JSON.stringify({ native: nativeParserInUse(), facts }));`;
  const args = JSON.stringify(goFiles(root).map((abs) => [relative(root, abs), abs]));
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, args], { env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(out.toString()) as { native: boolean; facts: string[] };
}

describe('parse paths', () => {
  it('the native addon and the bindings extract identical facts', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here (npm install builds it with node-gyp); only the bindings are in use');
      return;
    }
    const native = extractIn({ KUBELET_ATLAS_NATIVE: '1' });
    const bindings = extractIn({ KUBELET_ATLAS_NATIVE: '0' });
    assert.equal(native.native, true);
    assert.equal(bindings.native, false);
    assert.ok(native.facts.length >= 40);
    native.facts.forEach((f, i) => assert.equal(f, bindings.facts[i], `facts differ for file ${i}`));
  });

  it('the native addon and the bindings extract identical facts from broken files (errors, missing nodes, hidden nodes cut short)', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here (npm install builds it with node-gyp); only the bindings are in use');
      return;
    }
    // Each fixture cut at a few points, with a tail that opens what it does not close.
    const dir = tempDir('ka-broken-');
    let n = 0;
    for (const f of files) {
      const text = f.bytes.toString('utf8');
      for (const cut of [0.3, 0.55, 0.8]) {
        writeFileSync(join(dir, `${n++}.go`), text.slice(0, Math.floor(text.length * cut)) + '\n}) x := [\n\tfunc(');
      }
    }
    const native = extractIn({ KUBELET_ATLAS_NATIVE: '1' }, dir);
    const bindings = extractIn({ KUBELET_ATLAS_NATIVE: '0' }, dir);
    assert.equal(native.facts.length, n);
    assert.ok(native.facts.filter((f) => f.includes('"syntax"')).length > n / 2, 'most files have syntax errors');
    native.facts.forEach((f, i) => assert.equal(f, bindings.facts[i], `facts differ for broken file ${i}`));
  });

  it('a file parsed again from its kept tree gives the facts a parse from nothing gives, edit after edit', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here; the bindings keep no trees');
      return;
    }
    // Edits of each kind: lines put first and last, a line inside, text removed, a syntax error (made
    // again from nothing) and its repair, a non-ASCII character (UTF-16 columns), CRLF line ends.
    const edits: ((s: string) => string)[] = [
      (s) => '// a note\n\n' + s,
      (s) => s + '\n// the end\n',
      (s) => s.replace('\n}\n', '\n\t_ = 0\n}\n'),
      (s) => s.slice(0, Math.floor(s.length / 3)) + s.slice(Math.floor(s.length / 3) + 7),
      (s) => s.replace('func ', 'func {'),
      (s) => s.replace('func {', 'func '),
      (s) => s.replace('package ', '// é ü\npackage '),
      (s) => s.replace(/\n/g, '\r\n'),
    ];
    let compared = 0;
    for (const f of files.filter((f) => f.bytes.length > 400).slice(0, 12)) {
      let text = f.bytes.toString('utf8');
      extractFile(f.path, Buffer.from(text), undefined, false, true);
      for (const edit of edits) {
        text = edit(text);
        const again = extractFile(f.path, Buffer.from(text), undefined, false, true);
        assert.deepEqual(again, extractFile(f.path, Buffer.from(text)), `${f.path}: ${edit.toString()}`);
        compared++;
      }
    }
    assert.ok(compared >= 80, `compared ${compared}`);
  });

  it('describes an edit as tree-sitter takes it: bytes of UTF-16, rows and byte columns', () => {
    assert.deepEqual([...editBetween('ab\ncd\nef', 'ab\ncXYd\nef')], [8, 8, 12, 1, 2, 1, 2, 1, 6]);
    assert.deepEqual([...editBetween('abc', 'abc')], [6, 6, 6, 0, 6, 0, 6, 0, 6]);
    assert.deepEqual([...editBetween('x\ny', 'y')], [0, 4, 0, 0, 0, 1, 0, 0, 0]);
    // Edits across rows: the ends' rows count on from the start's.
    assert.deepEqual([...editBetween('a\nb\nc\nd', 'a\nXY\nZ\n\nd')], [4, 10, 14, 1, 0, 2, 2, 3, 0]);
    assert.deepEqual([...editBetween('p\nq\nr\ns', 'p\ns')], [4, 12, 4, 1, 0, 3, 0, 1, 0]);
    // Against points counted from the start of each text, on random edits of a many-line text.
    const point = (t: string, at: number) => {
      const before = t.slice(0, at).split('\n');
      return [before.length - 1, before[before.length - 1].length * 2];
    };
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const text = Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(i % 7)}`).join('\n');
    for (let k = 0; k < 200; k++) {
      const at = next(text.length);
      const cut = next(30);
      const changed = text.slice(0, at) + ['', 'y', '\n', 'z\nw\n'][next(4)] + text.slice(at + cut);
      const e = [...editBetween(text, changed)];
      assert.deepEqual(e.slice(3), [...point(text, e[0] / 2), ...point(text, e[1] / 2), ...point(changed, e[2] / 2)]);
    }
  });

  it('reports syntax errors the same way on both paths', () => {
    const broken = Buffer.from('package p\n\nfunc f() {\n\tx := \n}\n\nfunc g( {\n}\n');
    const facts = extractFile('broken.go', broken);
    assert.ok(facts.diagnostics.some((d) => d.code === 'syntax' && d.line >= 3), JSON.stringify(facts.diagnostics));
  });

  it('worker threads give the same facts as one thread, in input order, and each file encoded once', () => {
    const one = extractAll(files, { workers: 0 });
    const packed = new Map<number, Uint8Array>();
    const clock = newClock();
    const two = extractAll(files, {
      workers: 2,
      minFilesForWorkers: 1,
      clock,
      onPacked: (i, bytes) => {
        assert.ok(!packed.has(i), `file ${i} encoded twice`);
        packed.set(i, bytes);
      },
    });
    assert.equal(two.length, files.length);
    assert.equal(packed.size, files.length);
    two.forEach((r, i) => {
      assert.deepEqual(r, one[i], files[i].path);
      assert.deepEqual(unpackFacts(packed.get(i)!), r, files[i].path);
    });
    // Each part of the work was timed, the workers' included.
    for (const [part, ms] of Object.entries(clock)) assert.ok(ms > 0, `${part}: ${ms}`);
  });
});
