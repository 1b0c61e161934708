/**
 * Parsing in part (splice.ts) on a real tree: seeded edits (see goEdits) of every non-test Go file of
 * 16 KB or more under pkg/kubelet and cmd/kubelet, each parsed in part from the file's old facts and
 * as a whole; where the part parse takes the edit, the bytes must be the same. Needs a Kubernetes
 * checkout in KUBELET_ATLAS_SOURCE (skipped without one). KUBELET_ATLAS_SEED picks other edits;
 * KUBELET_ATLAS_SPLICE_DIRS (folders of the checkout, comma-separated) other files.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { extractFile, factsShift, packFacts, splicePacked, unpackFacts, SEGMENTS_MIN_CHARS } from '../../src/parse/index.js';
import { goEdits } from '../helpers/go-edits.js';

function largeGoFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) largeGoFiles(p, out);
    else if (e.name.endsWith('.go') && !e.name.endsWith('_test.go') && statSync(p).size >= SEGMENTS_MIN_CHARS) out.push(p);
  }
  return out;
}

describe('splicePacked on a real tree', () => {
  it('gives a whole parse\'s bytes for every edit it takes', (t) => {
    const source = process.env['KUBELET_ATLAS_SOURCE'];
    if (!source || !existsSync(join(source, 'pkg', 'kubelet'))) {
      t.skip('KUBELET_ATLAS_SOURCE is not set to a Kubernetes checkout');
      return;
    }
    const seed = Number(process.env['KUBELET_ATLAS_SEED'] ?? 1);
    const dirs = (process.env['KUBELET_ATLAS_SPLICE_DIRS'] ?? 'pkg/kubelet,cmd/kubelet').split(',').filter(Boolean);
    const files = dirs.flatMap((d) => largeGoFiles(join(source, d)));
    let taken = 0;
    let edits = 0;
    for (const file of files) {
      const path = relative(source, file).split('\\').join('/');
      const text = readFileSync(file, 'latin1');
      const old = packFacts(extractFile(path, Buffer.from(text, 'latin1')));
      for (const [name, next] of goEdits(text, seed, 2)) {
        edits++;
        const bytes = Buffer.from(next, 'latin1');
        const spliced = splicePacked(path, bytes, old);
        if (!spliced) continue;
        taken++;
        assert.ok(Buffer.from(spliced.packed).equals(Buffer.from(packFacts(extractFile(path, bytes)))), `${path}, ${name}: the part parse differs from a whole parse`);
        const facts = unpackFacts(spliced.packed);
        assert.deepStrictEqual(spliced.shift, factsShift(unpackFacts(old), facts), `${path}, ${name}: the part parse tells another shift than factsShift`);
        const { funcs, types, values } = spliced.declared();
        assert.ok(funcs.every((f, i) => f.local === facts.funcs[i].local && f.doc === facts.funcs[i].doc && f.fingerprint === facts.funcs[i].fingerprint) && funcs.length === facts.funcs.length, `${path}, ${name}: the part parse tells other functions than its facts hold`);
        assert.ok(types.every((t, i) => t.name === facts.types[i].name && t.doc === facts.types[i].doc && t.fingerprint === facts.types[i].fingerprint) && types.length === facts.types.length, `${path}, ${name}: the part parse tells other types than its facts hold`);
        assert.ok(values.every((v, i) => v.name === facts.values[i].name && v.doc === facts.values[i].doc) && values.length === facts.values.length, `${path}, ${name}: the part parse tells other values than its facts hold`);
      }
    }
    t.diagnostic(`${files.length} files, ${edits} edits, ${taken} parsed in part`);
    assert.ok(taken > edits / 2, `only ${taken} of ${edits} edits were parsed in part`);
  });
});
