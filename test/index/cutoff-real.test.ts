/**
 * The early cut-offs against full builds on a real tree: seeded random edits of its Go files, each built
 * as the user's next command would build it (snapshot, cut-offs, facts pack) and again from nothing
 * but the facts pack (`fresh`); the graphs and the query stores must be the same (byte for byte, or,
 * where moved lines are kept beside the store, in what queries read of the moved files). Needs a Kubernetes
 * checkout in KUBELET_ATLAS_SOURCE (skipped without one), and takes a minute or two: every trial
 * resolves the whole scope once for the reference. KUBELET_ATLAS_SEED picks other edits.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { buildIndex, indexDir, openStore } from '../../src/index/build.js';
import { readFreshness, storeMoves } from '../../src/index/stored.js';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import { packGraph } from '../../src/graph/pack.js';
import { ownCopy, workingCopy } from '../../src/bench/working-copy.js';
import { tempDir } from '../helpers/temp.js';
import { random } from '../helpers/random.js';

/** One edit of a file's text, or undefined when the file has no place for it. */
type Edit = (text: string, pick: (n: number) => number) => string | undefined;

/** A line chosen among those matching `re`, changed by `change` (which returns the lines to put there). */
function atLine(re: RegExp, change: (line: string, i: number, lines: string[]) => string[]): Edit {
  return (text, pick) => {
    const lines = text.split('\n');
    const at = lines.flatMap((l, i) => (re.test(l) ? [i] : []));
    if (at.length === 0) return undefined;
    const i = at[pick(at.length)];
    lines.splice(i, 1, ...change(lines[i], i, lines));
    return lines.join('\n');
  };
}

/** Edits a reader makes: each keeps the facts, moves positions, changes docs or fingerprints, or changes facts. */
const EDITS: Record<string, Edit> = {
  'comment line': atLine(/^\t+[a-z]/, (l) => ['\t// a note', l]),
  'blank line': atLine(/^$/, (l) => ['', l]),
  spacing: atLine(/ := /, (l) => [l.replace(' := ', '  :=  ')]),
  'comment first': (text) => `// a note\n\n${text}`,
  'string literal': atLine(/^\t+\S.*[(,] ?"[A-Za-z][^"\\]*"/, (l) => [l.replace(/"([A-Za-z][^"\\]*)"/, '"$1 (edited)"')]),
  'doc comment': atLine(/^(func|type|var|const) /, (l, i, lines) => {
    if (i === 0 || !lines[i - 1].startsWith('// ')) return ['// A note on this.', l];
    lines[i - 1] += ' (edited)';
    return [l];
  }),
  'function appended': (text) => `${text}\nfunc kubeletAtlasCheckProbe() {}\n`,
  touched: (text) => text,
};

describe('early cut-offs on a real tree', () => {
  const source = process.env['KUBELET_ATLAS_SOURCE'];
  const seed = Number(process.env['KUBELET_ATLAS_SEED'] ?? 2026);
  it(`give what a full build gives, for each kind of edit in a random file (seed ${seed})`, (t) => {
    if (!source || !existsSync(join(source, 'pkg/kubelet'))) {
      t.skip('KUBELET_ATLAS_SOURCE is not set to a Kubernetes checkout');
      return;
    }
    const root = tempDir('ka-cutoff-real-');
    const cacheDir = tempDir('ka-cutoff-real-cache-');
    const refDir = tempDir('ka-cutoff-real-ref-');
    try {
      workingCopy(source, root, '');
      const ctx = defaultBuildContext();
      const files = computeScope(openTree(root, ctx), 'default', ctx).packages.flatMap((p) => p.files).filter((f) => f.active);
      const pick = random(seed);
      const kinds = Object.keys(EDITS);
      buildIndex({ root, ctx, cacheDir });
      const seen: Record<string, number> = {};
      for (let trial = 0; trial < kinds.length; trial++) {
        // Half the edits in the kubelet's own packages, the rest anywhere in scope.
        const pool = pick(2) ? files.filter((f) => f.path.startsWith('pkg/kubelet/')) : files;
        const file = pool[pick(pool.length)];
        const kind = kinds[trial];
        const edited = EDITS[kind](readFileSync(file.abs, 'utf8'), pick);
        if (edited === undefined) {
          trial--;
          continue;
        }
        ownCopy(file.abs);
        if (kind === 'touched') utimesSync(file.abs, new Date(), new Date());
        else writeFileSync(file.abs, edited);
        const built = buildIndex({ root, ctx, cacheDir });
        const ref = buildIndex({ root, ctx, cacheDir: refDir, fresh: true });
        const how = built.cutOff ?? (built.fromCache ? 'warm' : 'resolved');
        seen[how] = (seen[how] ?? 0) + 1;
        const what = `trial ${trial}: ${kind} in ${file.path} (${how})`;
        assert.ok(isDeepStrictEqual(packGraph(built.graph), packGraph(ref.graph)), `${what}: the graph differs from a full build's`);
        const at = (dir: string) => ({ root, ctx, cacheDir: dir });
        const bytes = (dir: string, file: string) => readFileSync(join(indexDir(at(dir)), file));
        const mine = readFreshness(indexDir(at(cacheDir)));
        const theirs = readFreshness(indexDir(at(refDir)));
        assert.ok(mine && theirs, `${what}: a manifest beside each store`);
        const { moved, ...manifest } = mine;
        const { moved: none, ...full } = theirs;
        assert.equal(none, undefined, `${what}: a full build keeps no moves`);
        assert.ok(isDeepStrictEqual(manifest, full), `${what}: query.fresh differs from a full build's`);
        if (!moved) {
          assert.ok(bytes(cacheDir, 'query.bin').equals(bytes(refDir, 'query.bin')), `${what}: query.bin differs from a full build's`);
        } else {
          // Lines kept moved beside the store: what queries read of the moved files is a full build's.
          const files = new Set(storeMoves(mine).map(([f]) => f));
          const view = (dir: string) => {
            const store = openStore(at(dir));
            assert.ok(store, `${what}: the store is fresh`);
            try {
              const records = [...store.allSymbols()].filter((r) => files.has(r.file));
              return { records, edges: records.map((r) => [r.id, store.callers(r.id), store.callees(r.id)]) };
            } finally {
              store.close();
            }
          };
          assert.ok(isDeepStrictEqual(view(cacheDir), view(refDir)), `${what}: the store's records or edges of the moved files differ from a full build's`);
        }
      }
      t.diagnostic(`builds by how they were made: ${JSON.stringify(seen)}`);
    } finally {
      for (const dir of [root, cacheDir, refDir]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
