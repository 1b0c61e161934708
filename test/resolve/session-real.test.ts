/**
 * ResolveSession on a real tree: seeded random line edits of `pkg/kubelet` files, each taken by the
 * session (or refused) and compared with a resolution of the edited program from nothing: the same
 * graph, record for record and in order. Needs a Kubernetes checkout in KUBELET_ATLAS_SOURCE (skipped
 * without one); takes a minute or two (the files extracted once, then one full resolution per edit
 * taken). KUBELET_ATLAS_SEED picks other edits.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { computeScope, defaultBuildContext, openTree } from '../../src/source/index.js';
import { extractAll, type FileFacts } from '../../src/parse/index.js';
import { buildProgram, factsDiagnostics, resolveProgram, ResolveSession, type PackageInput } from '../../src/resolve/index.js';

/** Line edits: each may change facts (a call duplicated, a statement gone), move positions, or break the file. */
const EDITS: Record<string, (lines: string[], at: number) => void> = {
  'line duplicated': (lines, at) => lines.splice(at, 0, lines[at]),
  'line deleted': (lines, at) => lines.splice(at, 1),
  'comment line': (lines, at) => lines.splice(at, 0, '\t// a note'),
  'function appended': (lines) => lines.push('', 'func kubeletAtlasSessionProbe() {}'),
};

describe('ResolveSession on a Kubernetes tree', () => {
  const source = process.env['KUBELET_ATLAS_SOURCE'];
  const seed = Number(process.env['KUBELET_ATLAS_SEED'] ?? 1);
  it(`gives what a resolution from nothing gives after random edits of pkg/kubelet files (seed ${seed})`, (t) => {
    if (!source) {
      t.skip('KUBELET_ATLAS_SOURCE is not set to a Kubernetes checkout');
      return;
    }
    const ctx = defaultBuildContext();
    const { packages } = computeScope(openTree(source, ctx), 'default', ctx);
    const files = packages.flatMap((p) => p.files);
    const facts = new Map<string, FileFacts>();
    extractAll(files.map((f) => ({ path: f.path, bytes: readFileSync(join(source, f.path)), declarationsOnly: !f.active }))).forEach((x, i) => facts.set(files[i].path, x));
    const inputs = (): PackageInput[] => packages.map((p) => ({ importPath: p.importPath, files: p.files.map((f) => ({ facts: facts.get(f.path)!, active: f.active, constraint: f.constraint })) }));
    const meta = { root: source, modulePath: 'k8s.io/kubernetes', context: ctx, diagnostics: [] };
    const fromNothing = () => {
      const i = inputs();
      return resolveProgram(buildProgram(i), { ...meta, diagnostics: factsDiagnostics(i) });
    };
    const first = inputs();
    const { session } = ResolveSession.start(buildProgram(first), first, meta);
    const candidates = files.filter((f) => f.active && f.path.startsWith('pkg/kubelet/') && !f.path.slice('pkg/kubelet/'.length).includes('/')).map((f) => f.path);
    let s = seed;
    const pick = (n: number) => {
      s = (s * 1103515245 + 12345) & 0x7fffffff;
      // The high bits: the low ones of this generator repeat with a short period.
      return Math.floor((s / 0x80000000) * n);
    };
    const texts = new Map<string, string>();
    let taken = 0;
    for (let trial = 0; trial < 10 && taken < 6; trial++) {
      const path = candidates[pick(candidates.length)];
      const lines = (texts.get(path) ?? readFileSync(join(source, path), 'utf8')).split('\n');
      const kinds = Object.keys(EDITS);
      const kind = kinds[pick(kinds.length)];
      EDITS[kind](lines, pick(lines.length));
      const text = lines.join('\n');
      const next = extractAll([{ path, bytes: Buffer.from(text), declarationsOnly: false }], { workers: 0 })[0];
      const out = session.update([next], meta);
      if ('refused' in out) {
        t.diagnostic(`${path}, ${kind}: refused (${out.refused})`);
        continue;
      }
      texts.set(path, text);
      facts.set(path, next);
      taken++;
      const want = fromNothing();
      assert.ok(isDeepStrictEqual(out.graph, want), `${path}, ${kind}: the graph differs from a resolution from nothing`);
      t.diagnostic(`${path}, ${kind}: ${out.redone} of ${out.functions} functions resolved again, the same graph`);
    }
    assert.ok(taken >= 3, `${taken} edits taken`);
  });
});
