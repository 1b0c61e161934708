import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { evalConstraint, formatConstraint, parseGoBuild, parsePlusBuildLines, type ConstraintExpr } from '../../src/source/index.js';

describe('constraint expressions', () => {
  it('round-trips through the printer with minimal parentheses', () => {
    for (const src of ['a', '!a', 'a && b', 'a || b && c', '(a || b) && c', '!(a && b)', 'a && !(b || c) && d', 'go1.20 && linux_x.y']) {
      assert.equal(formatConstraint(parseGoBuild(src)), src);
    }
  });

  it('drops redundant parentheses and spacing', () => {
    assert.equal(formatConstraint(parseGoBuild('((a))&&(b&&c)')), 'a && b && c');
  });

  it('rejects malformed expressions', () => {
    for (const src of ['', 'a &&', '(a', 'a)', 'a b', 'a & b', '!', 'a || || b']) {
      assert.throws(() => parseGoBuild(src), { name: 'ConstraintSyntaxError' }, src);
    }
  });

  it('evaluates with a tag predicate', () => {
    const on = new Set(['linux', 'amd64']);
    const ok = (t: string): boolean => on.has(t);
    assert.equal(evalConstraint(parseGoBuild('linux && !windows'), ok), true);
    assert.equal(evalConstraint(parseGoBuild('!(linux && amd64) || windows'), ok), false);
  });

  it('converts +build lines', () => {
    const conv = (...lines: string[]): string | undefined => {
      const e = parsePlusBuildLines(lines);
      return e === undefined ? undefined : formatConstraint(e);
    };
    assert.equal(conv(), undefined);
    assert.equal(conv('// +build linux darwin'), 'linux || darwin');
    assert.equal(conv('// +build linux,!cgo darwin'), 'linux && !cgo || darwin');
    assert.equal(conv('// +build a', '// +build b c'), 'a && (b || c)');
    assert.equal(conv('// +build'), 'ignore');
    assert.equal(conv('// +build a,b=c'), 'a && ignore');
  });
});

describe('constraint printer and parser agree (property)', () => {
  const tags = ['a', 'b', 'c', 'd'];
  const { expr } = fc.letrec<{ expr: ConstraintExpr }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...tags).map((name): ConstraintExpr => ({ kind: 'tag', name })),
      tie('expr').map((x): ConstraintExpr => ({ kind: 'not', x })),
      fc.tuple(fc.constantFrom('and' as const, 'or' as const), tie('expr'), tie('expr'))
        .map(([kind, x, y]): ConstraintExpr => ({ kind, x, y })),
    ),
  }));

  it('printing then parsing keeps the meaning for every tag assignment', () => {
    fc.assert(fc.property(expr, (e) => {
      const printed = formatConstraint(e);
      const back = parseGoBuild(printed);
      assert.equal(formatConstraint(back), printed);
      for (let bits = 0; bits < 1 << tags.length; bits++) {
        const ok = (t: string): boolean => (bits & (1 << tags.indexOf(t))) !== 0;
        assert.equal(evalConstraint(back, ok), evalConstraint(e, ok), printed);
      }
    }), { numRuns: 300 });
  });
});
