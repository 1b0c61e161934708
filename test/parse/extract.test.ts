import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractFile, fingerprint } from '../../src/parse/index.js';

const SAMPLE = `package kubelet

import (
	kubetypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Kubelet is a small stand-in.
type Kubelet struct {
	podManager PodManager
	updates    chan string
}

type PodManager interface {
	GetPods() []string
}

func (kl *Kubelet) Run() {
	go wait.Until(kl.sync, 0, nil)
	defer func() {
		kl.sync()
	}()
	select {
	case u := <-kl.updates:
		_ = kubetypes.UID(u)
	}
}

func (kl *Kubelet) sync() { kl.podManager.GetPods() }

var handler = func() {}

func init() {}
func init() {}
`;

describe('extractFile', () => {
  it('records declarations with pprof-style local names', () => {
    const f = extractFile('pkg/kubelet/k.go', Buffer.from(SAMPLE));
    assert.equal(f.pkg, 'kubelet');
    assert.deepEqual(f.imports.map((i) => [i.alias, i.path]), [['kubetypes', 'k8s.io/apimachinery/pkg/types'], [undefined, 'k8s.io/apimachinery/pkg/util/wait']]);
    const locals = f.funcs.map((x) => x.local).sort();
    assert.deepEqual(locals, ['(*Kubelet).Run', '(*Kubelet).Run.func1', '(*Kubelet).sync', 'glob..func1', 'init', 'init.0', 'init.1']);
    assert.deepEqual(f.types.map((t) => t.name), ['Kubelet', 'PodManager']);
    assert.equal(f.types[0].doc, 'Kubelet is a small stand-in.');
    assert.deepEqual(f.diagnostics, []);
  });

  it('marks go and defer calls and select receives', () => {
    const f = extractFile('k.go', Buffer.from(SAMPLE));
    const run = f.funcs.find((x) => x.local === '(*Kubelet).Run')!;
    assert.deepEqual(run.calls.map((c) => c.mode), ['go', 'defer', 'call']);
    assert.equal(run.chans.length, 1);
    assert.equal(run.chans[0].op, 'recv');
    assert.equal(run.chans[0].select, 0);
    assert.deepEqual(run.refs.filter((r) => r.x.k === 'sel').map((r) => (r.x as { n: string }).n), ['sync']);
  });

  it('reports syntax errors and invalid UTF-8 with lines, and still extracts the rest', () => {
    const broken = Buffer.concat([Buffer.from('package p\n\nfunc ok() {}\n\nfunc bad( {\n'), Buffer.from([0xff, 0xfe]), Buffer.from('\nfunc later() {}\n')]);
    const f = extractFile('p.go', broken);
    assert.ok(f.diagnostics.some((d) => d.code === 'encoding' && d.line === 6));
    assert.ok(f.diagnostics.some((d) => d.code === 'syntax'));
    assert.ok(f.funcs.some((x) => x.local === 'ok'));
  });

  it('fingerprints ignore comments and whitespace but not code', () => {
    assert.equal(fingerprint('func a() {\n\t// note\n\tb()\n}'), fingerprint('func a() { b() /* other */ }'));
    assert.notEqual(fingerprint('func a() { b() }'), fingerprint('func a() { c() }'));
  });

  it('never throws on mutated files and reports problems as diagnostics', () => {
    const mutate = fc.oneof(
      fc.nat(SAMPLE.length).map((n) => Buffer.from(SAMPLE.slice(0, n))),
      fc.tuple(fc.nat(SAMPLE.length - 1), fc.integer({ min: 0, max: 255 })).map(([i, b]) => {
        const buf = Buffer.from(SAMPLE);
        buf[i] = b;
        return buf;
      }),
      fc.nat(20).map((n) => Buffer.from(SAMPLE.replace(/[{}]/g, (m) => (Math.random() < n / 20 ? '' : m)))),
      fc.integer({ min: 1000, max: 200000 }).map((n) => Buffer.from(`${SAMPLE}\nvar x = "${'a'.repeat(n)}"\n`)),
    );
    fc.assert(
      fc.property(mutate, (bytes) => {
        const f = extractFile('m.go', bytes);
        for (const d of f.diagnostics) assert.ok(d.line >= 1 && d.message.length > 0);
        return true;
      }),
      { numRuns: 1500 },
    );
  });

  it('turns a failure inside the extractor into an extract diagnostic on that file instead of throwing', () => {
    const broken = { get length(): number { throw new Error('boom'); } } as unknown as Uint8Array;
    const f = extractFile('pkg/x/broken.go', broken);
    assert.equal(f.path, 'pkg/x/broken.go');
    assert.deepEqual(f.funcs, []);
    assert.deepEqual(f.diagnostics, [{ code: 'extract', message: 'could not extract facts: boom', line: 1 }]);
  });
});
