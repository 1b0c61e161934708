/** `kubelet-atlas site`: writes the static call-graph website (see src/outputs/site). */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from './commander.js';
import { buildSite, formatSiteSummary, loadExtras } from '../outputs/site/index.js';
import { packageRoot } from '../ports/index.js';
import { notesDir } from '../notes/index.js';
import { loadIndex, type CommonOptions, type Io } from './context.js';

interface SiteOptions extends CommonOptions {
  out?: string;
  annotations?: string;
  notesDir?: string;
  ports?: boolean;
  portsRoot?: string;
  tag?: string;
}

export function registerSiteCommand(program: Command, common: (c: Command) => Command, io: Io, done: (code: number) => void): void {
  common(program.command('site').description('write a static website to read the kubelet by its call graph, with the topics, notes and ports beside the code'))
    .option('--out <dir>', 'output folder', 'site')
    .option('--annotations <dir>', 'folder of topic files (default: the annotations shipped with kubelet-atlas)')
    .option('--notes-dir <dir>', 'notes folder (default: $KUBELET_ATLAS_NOTES, else notes/)')
    .option('--ports-root <dir>', 'the folder holding reference-impl/ (default: kubelet-atlas itself)')
    .option('--no-ports', 'leave the reference ports out')
    .option('--tag <tag>', 'the Kubernetes tag GitHub permalinks point at (default: --ref)')
    .action(async (_o, c: Command) => { done(await siteCommand(c.opts() as SiteOptions, io)); });
}

export async function siteCommand(o: SiteOptions, io: Io): Promise<number> {
  const t0 = performance.now();
  const loaded = await loadIndex(o, io);
  const t1 = performance.now();
  const repo = packageRoot();
  const extras = loadExtras({
    annotationsDir: resolve(o.annotations ?? join(repo, 'annotations')),
    notesDir: resolve(notesDir(o.notesDir, io.env)),
    portsRoot: o.ports === false ? undefined : resolve(o.portsRoot ?? repo),
  });
  for (const w of extras.warnings) io.err(`warning: ${w}\n`);
  const result = buildSite({
    graph: loaded.result.graph,
    table: loaded.table,
    outDir: resolve(o.out ?? 'site'),
    readSource: (file) => {
      try {
        return readFileSync(join(loaded.root, file), 'utf8');
      } catch {
        return undefined;
      }
    },
    version: o.tag ?? o.ref ?? 'v1.28.0',
    topics: extras.topics,
    ports: extras.ports,
    readPort: extras.readPort,
    notes: extras.notes,
  });
  io.out(`index loaded in ${((t1 - t0) / 1000).toFixed(1)}s${loaded.result.fromCache ? ' (from cache)' : ''}\n`);
  io.out(formatSiteSummary(result));
  io.out(`total ${((performance.now() - t0) / 1000).toFixed(1)}s; open ${join(result.outDir, 'index.html')}\n`);
  return 0;
}
