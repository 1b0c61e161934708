/** A new index takes the facts of files it shares with other indexes that the same version built. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildIndex, indexDir } from '../../src/index/build.js';
import { OWNER_FILE } from '../../src/index/prune.js';
import { packGraph } from '../../src/graph/pack.js';
import { defaultBuildContext } from '../../src/source/index.js';

/** The kubelike fixture with enough files of its own that a new index looks for donors (DONORS_MIN_FILES). */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'ka-donor-tree-'));
  cpSync(resolve('test/fixtures/go/kubelike'), root, { recursive: true });
  mkdirSync(join(root, 'pkg/kubelet/hooks'), { recursive: true });
  for (let i = 0; i < 70; i++) {
    writeFileSync(join(root, `pkg/kubelet/hooks/hook${i}.go`), `package hooks\n\n// Hook${i} runs hook ${i}.\nfunc Hook${i}() int { return helper(${i}) }\n`);
  }
  writeFileSync(join(root, 'pkg/kubelet/hooks/helper.go'), 'package hooks\n\nfunc helper(n int) int { return n + 1 }\n');
  return root;
}

function copyOf(root: string): string {
  const other = mkdtempSync(join(tmpdir(), 'ka-donor-copy-'));
  cpSync(root, other, { recursive: true });
  return other;
}

describe('facts from other indexes', () => {
  const ctx = defaultBuildContext();

  it('parses only the files another tree indexed in the same cache does not share, and makes the graph a fresh cache makes', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ka-donor-cache-'));
    const a = tree();
    const first = buildIndex({ root: a, ctx, cacheDir, workers: 0 });
    assert.equal(first.files.parsed, first.files.total);
    const b = copyOf(a);
    appendFileSync(join(b, 'pkg/kubelet/hooks/hook3.go'), '\nfunc Hook3b() int { return Hook3() }\n');
    const second = buildIndex({ root: b, ctx, cacheDir, workers: 0 });
    assert.equal(second.files.parsed, 1);
    assert.equal(second.files.cached, second.files.total - 1);
    const alone = buildIndex({ root: b, ctx, cacheDir: mkdtempSync(join(tmpdir(), 'ka-donor-alone-')), workers: 0 });
    assert.deepEqual(packGraph(second.graph), packGraph(alone.graph));
    // The facts taken went into the new index's own pack: without the donor, nothing is parsed again.
    rmSync(indexDir({ root: a, ctx, cacheDir }), { recursive: true });
    const again = buildIndex({ root: b, ctx, cacheDir, workers: 0, fresh: true });
    assert.equal(again.files.parsed, 0);
  });

  it('takes nothing from an index another version built', () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'ka-donor-cache-'));
    const a = tree();
    buildIndex({ root: a, ctx, cacheDir, workers: 0 });
    const ownerFile = join(indexDir({ root: a, ctx, cacheDir }), OWNER_FILE);
    writeFileSync(ownerFile, JSON.stringify({ ...JSON.parse(readFileSync(ownerFile, 'utf8')), stamp: 'another-version' }));
    const b = copyOf(a);
    const built = buildIndex({ root: b, ctx, cacheDir, workers: 0 });
    assert.equal(built.files.parsed, built.files.total);
  });
});
