/**
 * `npm run bench -- --source DIR [--runs N] [--tags a,b]`: cold and warm index time of the default
 * scope against tree-sitter alone parsing the same files in the same run (the ratio is the figure),
 * per-stage times, and peak memory. Medians over N runs; nothing is asserted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Parser from 'tree-sitter';
import Go from 'tree-sitter-go';
import { buildIndex } from '../index/build.js';
import { computeScope, defaultBuildContext, openTree, resolveSourceDir } from '../source/index.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function main(): number {
  const root = resolveSourceDir({ source: arg('--source') });
  if (!root) {
    process.stderr.write('bench: pass --source DIR (a Kubernetes checkout) or set KUBELET_ATLAS_SOURCE\n');
    return 2;
  }
  const runs = Number(arg('--runs') ?? 3);
  const ctx = defaultBuildContext({ tags: (arg('--tags') ?? '').split(',').filter(Boolean) });
  const tree = openTree(root, ctx);
  const files = computeScope(tree, 'default', ctx).packages.flatMap((p) => p.files);
  const texts = files.map((f) => readFileSync(f.abs, 'utf8'));
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  process.stdout.write(`bench: ${root}\n  default scope: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB\n`);

  const parser = new Parser();
  parser.setLanguage(Go as unknown as Parser.Language);
  const raw: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  const stages: Record<string, number[]> = {};
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    for (const text of texts) parser.parse(text, undefined, { bufferSize: Math.max(32 * 1024, text.length * 2 + 16) });
    raw.push(performance.now() - t);

    const cacheDir = mkdtempSync(join(tmpdir(), 'ka-bench-'));
    t = performance.now();
    const c = buildIndex({ root, ctx, cacheDir });
    cold.push(performance.now() - t);
    for (const [k, v] of Object.entries(c.timings)) (stages[k] ??= []).push(v);
    t = performance.now();
    buildIndex({ root, ctx, cacheDir });
    warm.push(performance.now() - t);
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const rawM = median(raw);
  const line = (name: string, xs: number[]) => `  ${name.padEnd(34)} median ${(median(xs) / 1000).toFixed(2)} s  (runs: ${xs.map((x) => (x / 1000).toFixed(2)).join(', ')})  ratio to raw parse ${(median(xs) / rawM).toFixed(2)}\n`;
  process.stdout.write(line('tree-sitter parse only, 1 thread', raw));
  process.stdout.write(line('cold index (empty cache)', cold));
  process.stdout.write(line('warm index (nothing changed)', warm));
  process.stdout.write('  cold index stages (median):\n');
  for (const [k, v] of Object.entries(stages)) process.stdout.write(`    ${k.padEnd(10)} ${(median(v) / 1000).toFixed(2)} s\n`);
  process.stdout.write(`  peak memory (max RSS): ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`);
  return 0;
}

process.exitCode = main();
