import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scanHeader } from '../../src/source/index.js';

describe('scanHeader imports', () => {
  it('reads single, grouped, aliased, blank and dot imports', () => {
    const h = scanHeader([
      '// Package x does things.',
      'package x // trailing comment',
      '',
      'import "fmt"',
      'import alias "k8s.io/a"',
      'import (',
      '\t"k8s.io/b" // why b',
      '\t_ "k8s.io/c"',
      '\t. "k8s.io/d"',
      '\t/* block */ v1 `k8s.io/e`',
      '\t"k8s.io/f"; "k8s.io/g"',
      ')',
      'import ()',
      '',
      'import "k8s.io/h"',
      '',
      'var notAnImport = "k8s.io/zzz"',
      'import "after"',
    ].join('\n'));
    assert.equal(h.packageName, 'x');
    assert.equal(h.error, undefined);
    assert.deepEqual(h.imports, [
      { path: 'fmt', line: 4 },
      { path: 'k8s.io/a', name: 'alias', line: 5 },
      { path: 'k8s.io/b', line: 7 },
      { path: 'k8s.io/c', name: '_', line: 8 },
      { path: 'k8s.io/d', name: '.', line: 9 },
      { path: 'k8s.io/e', name: 'v1', line: 10 },
      { path: 'k8s.io/f', line: 11 },
      { path: 'k8s.io/g', line: 11 },
      { path: 'k8s.io/h', line: 15 },
    ]);
  });

  it('skips comments that look like imports and handles escapes', () => {
    const h = scanHeader('package x\n/* import "no1" */\n// import "no2"\nimport "k8s\\x2eio/esc"\nimport `raw/with"quote`\nfunc f() {}\n');
    assert.deepEqual(h.imports.map((i) => i.path), ['k8s.io/esc', 'raw/with"quote']);
  });

  it('counts lines through multi-line comments and raw strings', () => {
    const h = scanHeader('package x\n/*\n\n*/\nimport (\n\t"a"\n\t/*\n*/ "b"\n)\n');
    assert.deepEqual(h.imports.map((i) => i.line), [6, 8]);
  });

  it('strips a byte-order mark', () => {
    assert.equal(scanHeader('\uFEFFpackage bom\n').packageName, 'bom');
  });

  it('asks for more text when a prefix ends inside the header or imports', () => {
    assert.equal(scanHeader('/* long licence\n', true).needMore, true);
    assert.equal(scanHeader('package x\nimport (\n\t"a"\n', true).needMore, true);
    assert.equal(scanHeader('package x\nimport "a"\n', true).needMore, true);
    assert.equal(scanHeader('package x\nimport "a"\nfunc f() {\n', true).needMore, false);
  });

  it('reports broken import blocks in complete text', () => {
    assert.match(scanHeader('package x\nimport (\n\t"a"\n').error ?? '', /unterminated/);
    assert.match(scanHeader('package x\nimport ( 42 )\n').error ?? '', /malformed/);
    assert.match(scanHeader('func f() {}\n').error ?? '', /package/);
  });

  it('collects +build lines only before the last blank line of the header', () => {
    const h = scanHeader('// +build a\n\n// +build b\n// Package doc\npackage x\n');
    assert.deepEqual(h.plusBuild, ['// +build a']);
  });
});
