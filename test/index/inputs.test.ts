/**
 * The key of what resolution reads (resolveInputs in build.ts): a process that builds again and again
 * makes its text from the last one, putting in the facts that changed. Its key must be the one a
 * process that describes everything anew makes, or a one-shot build would not take the graph the
 * watch stored (and would take a wrong one if two descriptions of different inputs were alike).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { buildIndex, indexDir, type IndexOptions } from '../../src/index/build.js';
import { tempDir } from '../helpers/temp.js';
import type { Graph } from '../../src/model/index.js';
import { packGraph, unpackGraph } from '../../src/graph/pack.js';
import { forgetDeltaBases, keptTree } from '../helpers/kept-tree.js';

const normal = (g: Graph): Graph => unpackGraph(packGraph(g));

describe('the description of what resolution reads, in a process that builds again and again', () => {
  it('gives the key a one-shot build gives, after edits of facts, a file added and removed, and a build constraint changed', () => {
    const { root, loc, fresh } = keptTree('ka-inputs');
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const original = readFileSync(kubelet, 'utf8');
    const added = join(root, 'pkg/kubelet/inputs_added.go');
    const steps: [string, () => void][] = [
      ['facts of kubelet.go', () => writeFileSync(kubelet, `${original}\nfunc inputsOne() {}\n`)],
      ['the same facts again', () => writeFileSync(kubelet, original)],
      ['a file added', () => writeFileSync(added, 'package kubelet\n\nfunc inputsAdded() {}\n')],
      ['its build constraint changed', () => writeFileSync(added, '//go:build ignore\n\npackage kubelet\n\nfunc inputsAdded() {}\n')],
      ['its constraint taken off, facts of two files changed', () => {
        writeFileSync(added, 'package kubelet\n\nfunc inputsAdded() { inputsTwo() }\n');
        writeFileSync(kubelet, `${original}\nfunc inputsTwo() {}\n`);
      }],
      ['the file removed', () => rmSync(added)],
    ];
    buildIndex(loc);
    for (const [what, step] of steps) {
      step();
      const built = buildIndex(loc);
      const read = buildIndex({ ...loc, memo: undefined });
      assert.equal(read.fromCache, true, `${what}: a one-shot build takes the graph the process stored`);
      const now = normal(fresh());
      assert.deepEqual(normal(built.graph), now, `${what}: the graph`);
      assert.deepEqual(normal(read.graph), now, `${what}: the stored graph`);
    }
    forgetDeltaBases();
  });
});

describe('the description of what resolution reads, in one-shot builds', () => {
  /** The stored key and package hashes of the index of `loc`. */
  const stored = (loc: IndexOptions) => {
    const state = deserialize(readFileSync(join(indexDir(loc), 'state.v8'))) as { inputs: { key: string; parts?: { structure: string; list: string[] } } };
    return { key: state.inputs.key, parts: state.inputs.parts?.list, structure: state.inputs.parts?.structure };
  };

  it('made from the stored one where the scope has the same structure, gives the key a description from nothing gives', () => {
    const { root, loc: kept } = keptTree('ka-inputs-once');
    const loc: IndexOptions = { ...kept, memo: undefined, racyMs: -Infinity };
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const original = readFileSync(kubelet, 'utf8');
    const added = join(root, 'pkg/kubelet/inputs_added.go');
    const steps: [string, () => void][] = [
      ['facts of kubelet.go', () => writeFileSync(kubelet, `${original}\nfunc inputsOne() {}\n`)],
      ['other facts of kubelet.go', () => writeFileSync(kubelet, `${original}\nfunc inputsOther() { inputsOther() }\n`)],
      ['the same facts again', () => writeFileSync(kubelet, original)],
      ['a file added', () => writeFileSync(added, 'package kubelet\n\nfunc inputsAdded() {}\n')],
      ['facts of the file added', () => writeFileSync(added, '// a comment\n\npackage kubelet\n\nfunc inputsAdded() { inputsAdded() }\n')],
      // The structure of the scope changes (a constraint), the file staying in the build.
      ['a build constraint that keeps it in the build', () => writeFileSync(added, '//go:build linux || darwin\n\npackage kubelet\n\nfunc inputsAdded() { inputsAdded() }\n')],
      ['its build constraint changed', () => writeFileSync(added, '//go:build ignore\n\npackage kubelet\n\nfunc inputsAdded() {}\n')],
      ['facts of two files', () => {
        writeFileSync(added, '//go:build ignore\n\npackage kubelet\n\nfunc inputsAdded() { inputsTwo() }\n');
        writeFileSync(kubelet, `${original}\nfunc inputsTwo() {}\n`);
      }],
      ['the file removed', () => rmSync(added)],
    ];
    buildIndex(loc);
    let structure = stored(loc).structure;
    assert.ok(structure, 'the state keeps the structure of the scope its inputs were described over');
    for (const [what, step] of steps) {
      step();
      buildIndex(loc);
      const now = stored(loc);
      const reference = { ...loc, cacheDir: tempDir('ka-inputs-once-ref-') };
      buildIndex(reference);
      const scratch = stored(reference);
      assert.equal(now.key, scratch.key, `${what}: the key`);
      assert.deepEqual(now.parts, scratch.parts, `${what}: each package's hash`);
      assert.equal(now.structure, scratch.structure, `${what}: the structure`);
      if (what === 'a file added' || what === 'the file removed' || what.includes('constraint')) assert.notEqual(now.structure, structure, `${what}: another structure`);
      else assert.equal(now.structure, structure, `${what}: the same structure`);
      structure = now.structure;
    }
  });
});
