/**
 * Reused answers in the resolver: the Queries engine that answers recursive queries as fixpoints of
 * their cycles, and a small Go tree (test/fixtures/go/memo) whose `// want:` edges depend on answers
 * being reused correctly.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildIndex } from '../../src/index/build.js';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import type { Edge, Graph, UnresolvedSite } from '../../src/model/index.js';
import { extractFile } from '../../src/parse/index.js';
import { buildProgram, type Program } from '../../src/resolve/index.js';
import type { FuncInfo } from '../../src/resolve/program.js';
import { CallResolver } from '../../src/resolve/calls.js';
import { MAX_OPEN, Queries } from '../../src/resolve/queries.js';
import { readWants } from '../helpers/wants.js';
import { tempDir } from '../helpers/temp.js';

/** A system of queries over sets of letters: each query's answer is its own letters and its dependencies' answers. */
function system(deps: Record<string, string[]>, letters: Record<string, string>) {
  const q = new Queries();
  const computed: string[] = [];
  const same = (a: string, b: string) => a === b;
  const ask = (key: string): string =>
    q.ask(key, '', () => {
      computed.push(key);
      const all = new Set(letters[key] ?? '');
      for (const d of deps[key] ?? []) for (const c of ask(d)) all.add(c);
      return [...all].sort().join('');
    }, same);
  return { q, ask, computed };
}

describe('Queries', () => {
  it('computes a query outside any cycle once and keeps its answer', () => {
    const s = system({ a: ['b', 'c'], b: ['c'] }, { a: 'a', b: 'b', c: 'c' });
    assert.equal(s.ask('a'), 'abc');
    assert.equal(s.ask('b'), 'bc');
    assert.deepEqual(s.computed, ['a', 'b', 'c']);
  });

  it('answers every query of a cycle with its least fixpoint, whichever query is asked first', () => {
    // a → b → c → a, and c also reads d; every query of the cycle sees every letter of it.
    const deps = { a: ['b'], b: ['c'], c: ['a', 'd'] };
    const letters = { a: 'a', b: 'b', c: 'c', d: 'd' };
    for (const first of ['a', 'b', 'c']) {
      const s = system(deps, letters);
      assert.equal(s.ask(first), 'abcd', `asked ${first} first`);
      assert.deepEqual(['a', 'b', 'c'].map(s.ask), ['abcd', 'abcd', 'abcd'], `asked ${first} first`);
      assert.equal(s.q.unsettled, 0);
    }
  });

  it('gives the same answers to nested cycles in any order, and keeps them once their head is done', () => {
    // Two cycles {a, b} and {c, d}, the first reading the second; e outside reads both.
    const deps = { a: ['b', 'c'], b: ['a'], c: ['d'], d: ['c'], e: ['a', 'd'] };
    const letters = { a: 'a', b: 'b', c: 'c', d: 'd', e: 'e' };
    const want = { a: 'abcd', b: 'abcd', c: 'cd', d: 'cd', e: 'abcde' };
    for (const order of [['a', 'b', 'c', 'd', 'e'], ['e', 'd', 'c', 'b', 'a'], ['d', 'b', 'e', 'a', 'c']]) {
      const s = system(deps, letters);
      const got = Object.fromEntries(order.map((k) => [k, s.ask(k)]));
      assert.deepEqual(got, Object.fromEntries(order.map((k) => [k, want[k as keyof typeof want]])), order.join(''));
      const count = s.computed.length;
      for (const k of order) s.ask(k);
      assert.equal(s.computed.length, count, 'kept answers are not computed again');
    }
  });

  it('gives a query past MAX_OPEN open ones its answer so far, and counts it', () => {
    // A chain q0 → q1 → … → q299: past MAX_OPEN the rest of the chain is not computed.
    const deps = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`q${i}`, [`q${i + 1}`]]));
    const s = system(deps, {});
    s.ask('q0');
    assert.equal(s.computed.length, MAX_OPEN);
    assert.equal(s.q.cut, 1);
    assert.equal(s.q.deepest, MAX_OPEN);
  });

  it('counts a cycle whose answers never settle, and stops it', () => {
    const q = new Queries();
    const ask = (): number => q.ask('flip', 0, () => 1 - ask(), (a, b) => a === b);
    ask();
    assert.equal(q.unsettled, 1);
  });
});

describe('call resolution on test/fixtures/go/memo', () => {
  const root = resolve('test/fixtures/go/memo');
  let graph: Graph;
  before(() => {
    const cacheDir = tempDir('ka-memo-');
    graph = buildIndex({ root, ctx: defaultBuildContext(), cacheDir, fresh: true }).graph;
  });

  it('finds exactly the expected edges on every line with expectations', () => {
    const wants = readWants(root);
    assert.ok(wants.length >= 4, `only ${wants.length} want lines`);
    const problems: string[] = [];
    for (const w of wants) {
      const got = graph.edges.filter((e) => e.file === w.file && e.line === w.line).map((e) => `${e.callee} ${e.kind}`).sort();
      const want = w.wants.map((x) => `${x.callee} ${x.kind}`).sort();
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${w.file}:${w.line} want [${want.join(', ')}] got [${got.join(', ')}]`);
    }
    assert.deepEqual(problems, []);
  });
});

describe('resolution order', () => {
  it('narrows a call through a field that a cycle of field and parameter feeds, whichever is asked first', () => {
    const cacheDir = tempDir('ka-memo-');
    const graph = buildIndex({ root: resolve('test/fixtures/go/memo'), ctx: defaultBuildContext(), cacheDir, fresh: true }).graph;
    const at = (caller: string) =>
      graph.edges
        .filter((e) => e.file.endsWith('runtime.go') && e.caller === `k8s.io/kubernetes/pkg/kubelet.${caller}` && e.kind === 'interface')
        .map((e) => `${e.callee.slice('k8s.io/kubernetes/pkg/kubelet.'.length)} ${e.how} ${e.confidence}`)
        .sort();
    // newPodManager asks about its parameter first; sync then asks about the field. Both see criRuntime.
    const want = ['cachedRuntime.SyncPod iface-ruled-out-by-flow 0.02', 'criRuntime.SyncPod iface-flow 1'];
    assert.deepEqual(at('newPodManager'), want);
    assert.deepEqual(at('(*podManager).sync'), want);
  });

  for (const fixture of ['kubelike', 'memo']) {
    it(`gives test/fixtures/go/${fixture} the same edges and unresolved sites in any order of its functions`, () => {
      const program = () => programOf(resolve('test/fixtures/go', fixture));
      const run = (order: (fns: FuncInfo[]) => FuncInfo[]) => {
        const p = program();
        const r = new CallResolver(p);
        const edges: Edge[] = [];
        const unresolved: UnresolvedSite[] = [];
        const fns = [...p.funcs.values(), ...p.inits].filter((f) => f.file.active);
        for (const fn of order(fns)) r.resolveFunction(fn, edges, unresolved);
        const lines = (xs: object[]) => xs.map((x) => JSON.stringify(x)).sort();
        return { edges: lines(edges), unresolved: lines(unresolved), unsettled: r.queries.unsettled };
      };
      const base = run((fns) => fns);
      assert.ok(base.edges.length > 20, `${base.edges.length} edges`);
      assert.equal(base.unsettled, 0);
      for (const [name, order] of [['reversed', (fns: FuncInfo[]) => fns.slice().reverse()], ['shuffled', shuffled(7)], ['shuffled again', shuffled(2026)]] as const) {
        const other = run(order);
        assert.deepEqual(other.edges, base.edges, name);
        assert.deepEqual(other.unresolved, base.unresolved, name);
      }
    });
  }
});

/** The program of a Go tree, its files extracted here (no cache). */
function programOf(root: string): Program {
  const ctx = defaultBuildContext();
  const { packages } = computeScope(openTree(root, ctx), 'default', ctx);
  return buildProgram(
    packages.map((p) => ({
      importPath: p.importPath,
      files: p.files.map((f) => ({ facts: extractFile(f.path, readFileSync(join(root, f.path)), undefined, !f.active), active: f.active, constraint: f.constraint })),
    })),
  );
}

function shuffled(seed: number) {
  return <T>(xs: T[]): T[] => {
    const out = xs.slice();
    for (let i = out.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const j = seed % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
}
