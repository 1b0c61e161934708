import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultBuildContext, matchFile } from '../../src/source/index.js';
import type { BuildContext } from '../../src/model/index.js';

const linux = defaultBuildContext();
const file = (header: string, body = 'package x\n'): string => `${header}\n\n${body}`;

interface Row { name?: string; text: string; ctx?: Partial<BuildContext>; active: boolean; constraint?: string; error?: boolean }

const rows: Record<string, Row> = {
  'no constraint': { text: 'package x\n', active: true },
  'go:build linux': { text: file('//go:build linux'), active: true, constraint: 'linux' },
  'go:build windows': { text: file('//go:build windows'), active: false, constraint: 'windows' },
  'go:build !windows': { text: file('//go:build !windows'), active: true },
  'and, both true': { text: file('//go:build linux && amd64'), active: true },
  'and, arch false': { text: file('//go:build linux && arm64'), active: false },
  'or': { text: file('//go:build darwin || linux'), active: true },
  'negated group': { text: file('//go:build !(darwin || windows)'), active: true },
  'precedence: && binds tighter': { text: file('//go:build windows && arm64 || linux'), active: true },
  'group with !cgo': { text: file('//go:build (linux || darwin) && !cgo'), active: false },
  'cgo without cgo': { text: file('//go:build cgo'), ctx: { cgo: false }, active: false },
  'unix on linux': { text: file('//go:build unix'), active: true },
  'unix on windows': { text: file('//go:build unix'), ctx: { goos: 'windows' }, active: false },
  'release tag go1.20': { text: file('//go:build go1.20'), active: true },
  'release tag go1.21 is the last one': { text: file('//go:build go1.21 && !go1.22'), active: true },
  'gc compiler': { text: file('//go:build gc'), active: true },
  'ignore': { text: file('//go:build ignore'), active: false, constraint: 'ignore' },
  'custom tag off': { text: file('//go:build providerless'), active: false },
  'custom tag on': { text: file('//go:build providerless'), ctx: { tags: ['providerless'] }, active: true },
  'android implies linux': { text: file('//go:build linux'), ctx: { goos: 'android', goarch: 'arm64' }, active: true },
  '+build !windows': { text: file('// +build !windows'), active: true, constraint: '!windows' },
  '+build space is OR, comma is AND': { text: file('// +build linux,386 darwin'), active: false, constraint: 'linux && 386 || darwin' },
  '+build lines are ANDed': { text: file('// +build linux darwin\n// +build cgo'), active: true, constraint: '(linux || darwin) && cgo' },
  '+build !! term means ignore': { text: file('// +build !!linux'), active: false, constraint: 'ignore' },
  'go:build wins over +build': { text: file('//go:build windows\n// +build linux'), active: false, constraint: 'windows' },
  '+build glued to package clause is a doc comment': { text: '// +build windows\npackage x\n', active: true },
  'go:build glued to package still counts': { text: '//go:build windows\npackage x\n', active: false },
  'go:build after the package clause is ignored': { text: 'package x\n\n//go:build windows\n', active: true },
  'go:build inside a block comment is ignored': { text: '/*\n//go:build windows\n*/\n\npackage x\n', active: true },
  'go:build after license comment': { text: '/*\nLicence notice\n*/\n\n//go:build windows\n\npackage x\n', active: false },
  'go:buildx is not a constraint': { text: file('//go:buildwindows'), active: true },
  'broken expression': { text: file('//go:build linux &&'), active: false, constraint: 'linux &&', error: true },
  'two go:build lines': { text: file('//go:build linux\n//go:build amd64'), active: false, error: true },
  'no package clause': { text: '// just a comment\n', active: false, error: true },
  'cgo import with cgo on': { text: 'package x\n\n// #include <stdio.h>\nimport "C"\n', active: true },
  'cgo import with cgo off': { text: 'package x\n\n// #include <stdio.h>\nimport "C"\n', ctx: { cgo: false }, active: false },
  'name _windows': { name: 'foo_windows.go', text: 'package x\n', active: false },
  'name _linux_amd64': { name: 'foo_linux_amd64.go', text: 'package x\n', active: true },
  'name _linux_arm64': { name: 'foo_linux_arm64.go', text: 'package x\n', active: false },
  'name _amd64': { name: 'foo_amd64.go', text: 'package x\n', active: true },
  'name _s390x': { name: 'foo_s390x.go', text: 'package x\n', active: false },
  'name without underscore is never constrained': { name: 'windows.go', text: 'package x\n', active: true },
  'name _unix is not a GOOS': { name: 'foo_unix.go', text: 'package x\n', active: true },
  'name _test excluded by default': { name: 'foo_test.go', text: 'package x\n', active: false },
  'name _test with includeTests': { name: 'foo_test.go', text: 'package x\n', ctx: { includeTests: true }, active: true },
  'name _windows_test with includeTests': { name: 'foo_windows_test.go', text: 'package x\n', ctx: { includeTests: true }, active: false },
  'name _linux plus constraint': { name: 'foo_linux.go', text: file('//go:build !cgo'), active: false },
  'name _linux on android': { name: 'foo_linux.go', text: 'package x\n', ctx: { goos: 'android' }, active: true },
  'name in a path': { name: 'pkg/kubelet/cm/foo_windows.go', text: 'package x\n', active: false },
};

describe('matchFile', () => {
  for (const [title, row] of Object.entries(rows)) {
    it(title, () => {
      const ctx = row.ctx === undefined ? linux : defaultBuildContext(row.ctx);
      const got = matchFile(row.name ?? 'file.go', row.text, ctx);
      assert.equal(got.active, row.active);
      if (row.constraint !== undefined) assert.equal(got.constraint, row.constraint);
      assert.equal(got.error !== undefined, row.error ?? false, got.error);
    });
  }

  it('leaves the constraint undefined when there is none', () => {
    assert.equal(matchFile('a.go', 'package x\n', linux).constraint, undefined);
  });
});

describe('defaultBuildContext', () => {
  it('is linux/amd64 with cgo, no tags, no tests', () => {
    assert.deepEqual(defaultBuildContext(), { goos: 'linux', goarch: 'amd64', tags: [], cgo: true, includeTests: false });
  });
  it('takes overrides without sharing the tags array', () => {
    const tags = ['a'];
    const ctx = defaultBuildContext({ goos: 'windows', tags });
    tags.push('b');
    assert.deepEqual(ctx, { goos: 'windows', goarch: 'amd64', tags: ['a'], cgo: true, includeTests: false });
  });
});
