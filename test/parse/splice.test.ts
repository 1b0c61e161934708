/**
 * A file parsed in part (splice.ts) gives the very bytes a parse of the whole file gives: the facts and
 * the segments stored with them. Edits that it cannot take give undefined, never other facts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractFile, factsIdentity, factsShift, keptFacts, packFacts, segmentsIn, splicePacked, unpackFacts, SEGMENTS_MIN_CHARS } from '../../src/parse/index.js';
import { goEdits } from '../helpers/go-edits.js';

const KUBELET = readFileSync(join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'go', 'kubelike', 'pkg', 'kubelet', 'kubelet.go'), 'latin1');

/** A file with everything that is numbered across it: init functions, package-level closures, var initializers. */
function numbered(): string {
  const parts = ['// Package gen is made for this test.\npackage gen\n\nimport (\n\t"fmt"\n\t"sync"\n)\n', 'func init() { fmt.Println("first") }\n', 'var first = func() int { return 1 }\n\nvar mu sync.Mutex\n'];
  for (let i = 0; i < 60; i++) {
    parts.push(`// Worker${i} runs a loop.
type Worker${i} struct {
	ch   chan int
	done func()
}

// Run${i} starts it.
func (w *Worker${i}) Run${i}(n int) error {
	go func() {
		for v := range w.ch {
			fmt.Println("got", v, ${i}, nil, true)
			func() { w.done() }()
		}
	}()
	if n > ${i} {
		return fmt.Errorf("too many: %d", n)
	}
	return nil
}
`);
    if (i === 20) parts.push('func init() { first = func() int { return 2 } }\n');
    if (i === 40) parts.push('var later = func() int { return first() }\n\nvar third = fmt.Sprint(first())\n\nconst limit = 5\n');
  }
  parts.push('func init() { fmt.Println(later()) }\n\n/* The end. */\n');
  return parts.join('\n');
}

const packed = (path: string, text: string) => Buffer.from(packFacts(extractFile(path, Buffer.from(text, 'latin1'))));

/**
 * The splice's bytes for `next` after `text`, checked against a whole parse's, and the shift it tells
 * against factsShift's; undefined when it gave up.
 */
function check(path: string, text: string, next: string): Buffer | undefined {
  const old = packed(path, text);
  const spliced = splicePacked(path, Buffer.from(next, 'latin1'), old);
  if (!spliced) return undefined;
  const got = Buffer.from(spliced.packed);
  assert.ok(got.equals(packed(path, next)), `the splice differs from a whole parse`);
  // What it wrote decodes, and encodes again, to the same facts.
  const again = factsIdentity(packFacts(unpackFacts(got)));
  factsIdentity(got).forEach((part, i) => assert.ok(Buffer.from(part).equals(again[i]), 'the splice\'s facts do not decode and encode to themselves'));
  const facts = unpackFacts(got);
  assert.deepStrictEqual(spliced.shift, factsShift(unpackFacts(old), facts), 'the splice tells another shift than factsShift');
  assert.deepStrictEqual(spliced.declared(), {
    funcs: facts.funcs.map((f) => ({ local: f.local, doc: f.doc, fingerprint: f.fingerprint })),
    types: facts.types.map((t) => ({ name: t.name, doc: t.doc, fingerprint: t.fingerprint })),
    values: facts.values.map((v) => ({ name: v.name, doc: v.doc })),
  }, 'the splice tells other declarations than its facts hold');
  return got;
}

describe('splicePacked', () => {
  it('gives a whole parse\'s bytes for every edit of the fixture kubelet.go it takes', () => {
    assert.ok(KUBELET.length >= SEGMENTS_MIN_CHARS);
    let taken = 0;
    const all = goEdits(KUBELET, 3);
    for (const [name, next] of all) {
      try {
        if (check('pkg/kubelet/kubelet.go', KUBELET, next)) taken++;
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message}`);
      }
    }
    // Most of them: every edit of a function or of comments and blank lines between declarations.
    assert.ok(taken >= all.length * 0.7, `only ${taken} of ${all.length} edits were taken`);
  });

  it('takes an edit of a function body, of the header and of the tail', () => {
    const body = KUBELET.replace('fmt.Errorf("the container runtime has no name")', 'fmt.Errorf("the runtime has no name")');
    assert.notEqual(body, KUBELET);
    assert.ok(check('k.go', KUBELET, body));
    assert.ok(check('k.go', KUBELET, `// first\n${KUBELET}`));
    assert.ok(check('k.go', KUBELET, `${KUBELET}\n// last\n`));
  });

  it('renumbers closures, init functions and the package initializer as a whole parse does', () => {
    const text = numbered();
    assert.ok(text.length >= SEGMENTS_MIN_CHARS);
    let taken = 0;
    for (const [name, next] of goEdits(text, 5)) {
      try {
        if (check('gen.go', text, next)) taken++;
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message}`);
      }
    }
    assert.ok(taken > 20, `only ${taken} edits were taken`);
    // A closure added to a method before `later`, whose closure's index then moves.
    assert.ok(check('gen.go', text, text.replace('func (w *Worker3) Run3(n int) error {\n', 'func (w *Worker3) Run3(n int) error {\n\tdefer func() {}()\n')));
  });

  it('parses whole where the old facts cannot be read, and does not throw', () => {
    const old = packed('k.go', KUBELET);
    // A comment put first: every old record is written from the old tokens.
    const next = Buffer.from(`// first\n${KUBELET}`, 'latin1');
    assert.ok(splicePacked('k.go', next, old), 'the record as written is spliced');
    const tokensAt = 24 + old.readUInt32LE(8) * 8;
    const count = old.readUInt32LE(4);
    // A list that claims more values than the record holds.
    const long = Buffer.from(old);
    long.writeInt32LE(((1 << 24) << 4) | 3, tokensAt + 4 * 10);
    assert.equal(splicePacked('k.go', next, long), undefined);
    // A reference to a token after it.
    const forward = Buffer.from(old);
    let at = -1;
    for (let i = 0; i < count && at < 0; i++) if ((forward.readInt32LE(tokensAt + 4 * i) & 7) === 6) at = i;
    assert.ok(at >= 0, 'the fixture\'s facts hold a reference');
    forward.writeInt32LE(((count - 1) << 4) | 6, tokensAt + 4 * at);
    assert.equal(splicePacked('k.go', next, forward), undefined);
  });

  it('gives up where a whole parse is needed', () => {
    const text = numbered();
    const none = (next: string) => assert.equal(splicePacked('gen.go', Buffer.from(next, 'latin1'), packed('gen.go', text)), undefined);
    // A var (the package initializer gathers every var's calls) and an init function.
    none(text.replace('// Worker7 runs', 'var more = fmt.Sprint(1)\n\n// Worker7 runs'));
    none(text.replace('// Worker7 runs', 'func init() {}\n\n// Worker7 runs'));
    none(text.replace('var later = func() int { return first() }\n', ''));
    // A comment opened and never closed, and a syntax error.
    none(text.replace('// Worker7 runs', '/* Worker7 runs'));
    // The same, where blanking the rest would read it as a division and a dereference (v / *w).
    none(text.replace('fmt.Println("got", v, 7,', 'fmt.Println("got", v /*w, 7,'));
    none(text.replace('func (w *Worker7) Run7(n int) error {', 'func (w *Worker7) Run7(n int) error {{'));
    // A function made a comment: the region would end with a comment, which could join the doc
    // comment of the declaration after it.
    none(text.replace(/func \(w \*Worker7\) Run7[^]*?\n}\n/, '// gone\n'));
    // Not ASCII: a byte that is no UTF-8, and a name with a character of two bytes.
    none(text.replace('"got"', '"g\u00e9t"'));
    assert.equal(splicePacked('gen.go', Buffer.from(text.replace('"got", v,', '"got", v\u00e9,'), 'utf8'), packed('gen.go', text)), undefined);
    // Old facts without segments (a small file).
    const small = 'package a\n\nfunc f() {}\n';
    assert.equal(segmentsIn(packed('a.go', small)), undefined);
    assert.equal(splicePacked('a.go', Buffer.from(`${small}// x\n`), packed('a.go', small)), undefined);
  });
});

describe('facts kept for an edit of comments after the last declaration', () => {
  it('are the old facts with the segments a whole parse stores', () => {
    const gen = numbered();
    const edits: [string, string][] = [
      [KUBELET, `${KUBELET}\n// last\n`],
      [KUBELET, `${KUBELET}/* a\n b */  \n\t// c`],
      [gen, gen.replace('/* The end. */\n', '')],
      [gen, gen.replace('/* The end. */', '// The end, // twice /* and a half')],
      [gen, `${gen}\n\n\r\n`],
      // On the last declaration's line.
      [KUBELET, KUBELET.replace(/}\s*$/, '} // last')],
    ];
    for (const [text, next] of edits) {
      const old = packed('k.go', text);
      const kept = keptFacts(Buffer.from(next, 'latin1'), old);
      assert.ok(kept, JSON.stringify(next.slice(-40)));
      assert.ok(Buffer.from(kept).equals(packed('k.go', next)), 'the kept facts differ from a whole parse');
      const [was, now] = [factsIdentity(old), factsIdentity(kept)];
      assert.ok(Buffer.from(was[0]).equals(Buffer.from(now[0])) && Buffer.from(was[1]).equals(Buffer.from(now[1])));
    }
  });

  it('are not kept for any other edit', () => {
    const none = (text: string, next: string) => assert.equal(keptFacts(Buffer.from(next, 'latin1'), packed('k.go', text)), undefined);
    // A declaration appended, a token, a comment left open.
    none(KUBELET, `${KUBELET}\nfunc later() {}\n`);
    none(KUBELET, `${KUBELET}\n}\n`);
    none(KUBELET, `${KUBELET}\n/* never closed\n`);
    // The header, and a declaration.
    none(KUBELET, `// first\n${KUBELET}`);
    none(KUBELET, KUBELET.replace('fmt.Errorf("the container runtime has no name")', 'fmt.Errorf("the runtime has no name")'));
    // Not ASCII, and a file too small for segments.
    none(KUBELET, `${KUBELET}\n// caf\u00e9\n`);
    none('package a\n\nfunc f() {}\n', 'package a\n\nfunc f() {}\n// x\n');
  });
});
