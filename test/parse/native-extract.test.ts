/**
 * The addon's extraction in C (extract_facts.c, through extractPackedNative) writes, for every file it
 * takes, the very bytes packFacts(extractFile(...)) writes: on every fixture, on a file made to hold
 * the corners of the TypeScript extractor, with bodies and with declarations only, and (with
 * KUBELET_ATLAS_SOURCE set to a Kubernetes checkout) on every Go file of pkg/kubelet and cmd/kubelet.
 * It leaves the files it does not take (not ASCII, a syntax error, no package clause) to extractFile,
 * and extraction gives the same facts with it and without it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { goFiles } from '../helpers/wants.js';
import { extractAll, extractFile, extractPackedNative, nativeParserInUse, newClock, packFacts, segmentsIn } from '../../src/parse/index.js';

const fixtures = resolve('test/fixtures/go');

/** Go written to reach the extractor's corners (ours: the shapes of kubelet code, none of its text). */
const CORNERS = `// Package corners is shaped to reach every path of the extractor.
/* with a block comment too */
package corners

import (
	"context"
	stdtime "time"
	. "strings"
	_ "embed"
)

type (
	// Store keeps things.
	Store[K comparable, V any] struct {
		*Embedded
		pkgEmbedded
		stdtime.Duration
		a, b int \`json:"a"\`
		ch   <-chan string
		out  chan<- int
		both chan int
		m    map[string][]*V
		fn   func(int, ...string) (bool, error)
		arr  [4]byte
	}
	Alias = Store[string, int]
	// Iface has methods and embeds.
	Iface interface {
		~int | ~string
		fmt.Stringer
		Run(ctx context.Context) error
		Get(key string) (value []byte, ok bool)
	}
)

/*
Block doc for a const group.
*/
const (
	One = iota
	Two
	Three, Four = 3, 4
	Period = 10 * stdtime.Second
	Ratio = 1.5
	Imag = 2i
	Rune = 'x'
)

var a, b = pair()
var c, d int
var handler = func(x int) int { return x + 1 }
var (
	table = map[string]func(){
		"one": func() {},
		"two": func() { go run() },
	}
	_ = Iface(nil)
)

// A doc with "quotes", a back\\slash, a\ttab and a bell\x07.
//*/
func pair() (int, int) { return 1, 2 }

// New makes a Store.
func New[K comparable, V any](size int) *Store[K, V] {
	return &Store[K, V]{m: make(map[string][]*V, size)}
}

func init() { go run() }
func init() { defer func() { recover() }() }

func (_ *Store[K, V]) Len() int { return 0 }
func (s Store[K, V]) Value() (n int) { return len(s.m) }
func ((Embedded)) paren() {}

func (s *Store[K, V]) Loop(ctx context.Context, events <-chan string, done chan struct{}) (err error) {
label:
	for i, ev := range events {
		_, _ = i, ev
		select {
		case e, ok := <-events:
			if !ok {
				break label
			}
			s.ch = nil
			_ = e
		case done <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		case <-stdtime.After(Period):
		default:
		}
	}
	for range events {
	}
	for k := range s.m {
		delete(s.m, k)
	}
	switch v := any(s).(type) {
	case *Store[K, V]:
		_ = v.Len()
	case int, string:
		_ = v
	default:
	}
	switch x := 1; x {
	case 1:
		x++
	}
	var fn func() = s.paren
	fn()
	go s.Loop(ctx, events, done)
	go (func() { close(done) })()
	defer (s.paren)()
	f := func(xs ...int) func() {
		return func() {
			g := func() {}
			g()
		}
	}
	f(1, 2)()
	f([]int{1}...)
	items := []Item{{Name: "a", Sub: Sub{1}}, {/* key */ "b": 2}, {}}
	_ = items[0].Name[1:2]
	s.m["k"] = append(s.m["k"], nil)
	n, err := strconv.Atoi("1")
	n += 2
	n, err = 3, nil
	var p, q = ctx, &s
	_, _ = p, q
	ch := make(chan int, 1)
	ch <- n
	v := <-ch
	_ = -v + ^v
	_ = New[string, int](1)
	_ = Map[int]
	_ = (*Store[K, V]).Len
	_ = stdtime.Duration(n)
	_ = x.(interface{ Run() })
	if err != nil {
		return // a bare return
	}
	return nil
}
`;

/** Both extractions of one file: the addon's bytes (undefined when it left the file) and packFacts'. */
function both(path: string, bytes: Uint8Array, declarations = false): { native: Uint8Array | undefined; ts: Uint8Array } {
  return { native: extractPackedNative(path, bytes, undefined, declarations), ts: packFacts(extractFile(path, bytes, undefined, declarations)) };
}

function assertSame(path: string, bytes: Uint8Array, declarations = false): boolean {
  const { native, ts } = both(path, bytes, declarations);
  if (!native) return false;
  assert.ok(Buffer.from(native).equals(Buffer.from(ts)), `${path}${declarations ? ' (declarations only)' : ''}: the addon's bytes differ from packFacts'`);
  return true;
}

describe('extraction in C', () => {
  it('writes packFacts\' bytes for every fixture, with bodies and with declarations only', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here (npm install builds it with node-gyp)');
      return;
    }
    const files = goFiles(fixtures);
    let taken = 0;
    for (const abs of files) {
      const bytes = readFileSync(abs);
      const path = relative(fixtures, abs);
      if (assertSame(path, bytes)) taken++;
      assertSame(path, bytes, true);
    }
    // Every fixture is ASCII with no syntax error but the ones made broken on purpose.
    assert.ok(taken >= files.length - 3, `the addon took ${taken} of ${files.length} fixtures`);
  });

  it('writes packFacts\' bytes for a file made of the extractor\'s corners, and for it grown past the segments\' size', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here');
      return;
    }
    const bytes = Buffer.from(CORNERS);
    assert.equal(assertSame('corners/corners.go', bytes), true, 'the addon left the corners file');
    assertSame('corners/corners.go', bytes, true);
    // Large enough for segments (16 KB): the same functions again under other names.
    let big = CORNERS;
    for (let k = 0; big.length < 40 * 1024; k++) big += CORNERS.slice(CORNERS.indexOf('func pair')).replace(/func (pair|New|init)\b/g, `func $1${k}`).replace(/Loop\(/g, `Loop${k}(`).replace(/\) (Len|Value|paren)\(/g, `) $1${k}(`);
    const bigBytes = Buffer.from(big);
    assert.equal(assertSame('corners/big.go', bigBytes), true);
    assert.ok(segmentsIn(extractPackedNative('corners/big.go', bigBytes)!), 'a file of 40 KB has its segments');
    // Layouts other than the plain one: a comment between declarations, a file ending with one.
    assert.equal(assertSame('corners/tail.go', Buffer.from(big + '\n// the end\n')), true);
  });

  it('leaves a file nested deeper than its walk goes to extractFile, and takes one nested less deeply', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here');
      return;
    }
    // A sum of many terms is a binary expression nested as deep as it has terms; the walk recurses on
    // the thread's own stack, so past its limit (2,000 levels) the file is left to the TypeScript.
    const sum = (n: number) => `package p\n\nvar total = ${Array.from({ length: n }, (_, i) => `f(${i})`).join(' + ')}\n\nfunc f(i int) int { return i }\n`;
    assert.equal(assertSame('p/sum.go', Buffer.from(sum(300))), true, 'a sum of 300 terms is taken');
    assert.equal(extractPackedNative('p/deep.go', Buffer.from(sum(50_000))), undefined, 'a sum of 50,000 terms is left');
    // And the thread goes on: the next file is taken.
    assert.equal(assertSame('corners/c.go', Buffer.from(CORNERS)), true);
  });

  it('leaves to extractFile what it does not take, and extraction gives the same facts either way', (t) => {
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here');
      return;
    }
    const cases: [string, string][] = [
      ['not ASCII', 'package p\n\n// Größe.\nfunc f() {}\n'],
      ['a syntax error', 'package p\n\nfunc f( {\n'],
      ['no package clause', 'func f() {}\n'],
      ['empty', ''],
    ];
    for (const [what, text] of cases) assert.equal(extractPackedNative('p/f.go', Buffer.from(text)), undefined, `${what}: left to extractFile`);
    const inputs = [...cases.map(([, text], i) => ({ path: `p/${i}.go`, bytes: Buffer.from(text) })), { path: 'corners/c.go', bytes: Buffer.from(CORNERS) }];
    const packedWith: Uint8Array[] = [];
    const packedWithout: Uint8Array[] = [];
    const clock = newClock();
    const withC = extractAll(inputs, { workers: 0, clock, onPacked: (i, p) => (packedWith[i] = p) });
    process.env['KUBELET_ATLAS_NATIVE_EXTRACT'] = '0';
    try {
      assert.equal(extractPackedNative('corners/c.go', Buffer.from(CORNERS)), undefined, 'KUBELET_ATLAS_NATIVE_EXTRACT=0 turns it off');
      const withoutC = extractAll(inputs, { workers: 0, onPacked: (i, p) => (packedWithout[i] = p) });
      assert.deepEqual(withC, withoutC);
    } finally {
      delete process.env['KUBELET_ATLAS_NATIVE_EXTRACT'];
    }
    packedWith.forEach((p, i) => assert.ok(Buffer.from(p).equals(Buffer.from(packedWithout[i])), `packed facts of input ${i}`));
    // The clock has the C side's parts: tree-sitter, the flat tree, extraction and encoding.
    assert.ok(clock.treeSitter > 0 && clock.extract > 0 && clock.encode > 0 && clock.decode > 0);
  });

  it('writes packFacts\' bytes for every Go file of pkg/kubelet and cmd/kubelet of a real tree', (t) => {
    const source = process.env['KUBELET_ATLAS_SOURCE'];
    if (!source || !existsSync(join(source, 'pkg', 'kubelet'))) {
      t.skip('KUBELET_ATLAS_SOURCE is not set to a Kubernetes checkout');
      return;
    }
    if (!nativeParserInUse()) {
      t.skip('the native parser was not built here');
      return;
    }
    const files = ['pkg/kubelet', 'cmd/kubelet'].flatMap((d) => (existsSync(join(source, d)) ? goFiles(join(source, d)) : []));
    let taken = 0;
    for (const abs of files) {
      const bytes = readFileSync(abs);
      const path = relative(source, abs).split('\\').join('/');
      if (assertSame(path, bytes)) taken++;
      assertSame(path, bytes, true);
    }
    assert.ok(taken > files.length * 0.95, `the addon took ${taken} of ${files.length} files`);
  });
});
