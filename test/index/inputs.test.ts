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
import { buildIndex } from '../../src/index/build.js';
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
