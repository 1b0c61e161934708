/** Version diffs: what changed in the kubelet between two Kubernetes trees, per package and per topic. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { BuildContext } from '../model/index.js';
import { loadIndex } from '../index/build.js';
import type { Scope } from '../source/index.js';
import { readNotes } from '../notes/index.js';
import { annotationConsumers, noteConsumers, portConsumers } from './consumers.js';
import { diffGraphs } from './report.js';
import { loadTopics, readLockAnchors } from './topics.js';
import type { DiffReport } from './types.js';

export * from './types.js';
export { diffGraphs, UnknownTopicError, type DiffInput } from './report.js';
export { diffMarkdown, type MarkdownOptions } from './markdown.js';
export { loadTopics, readLockAnchors, topicScopes, type TopicDef, type LockAnchors } from './topics.js';
export { annotationConsumers, noteConsumers, portConsumers, type Consumer } from './consumers.js';
export { compareSymbols, symbolsById } from './symbols.js';
export { lineChange } from './lines.js';
export { isFake, folder } from './edges.js';

export interface DiffTreesOptions {
  fromDir: string;
  toDir: string;
  ctx: BuildContext;
  cacheDir: string;
  scope?: Scope;
  fromLabel?: string;
  toLabel?: string;
  /** annotations/ (topics from its front matter, IDs from annotations.lock.json); skipped when absent. */
  annotationsDir?: string;
  notesDir?: string;
  /** reference-impl/ (its `@go` tags). */
  portsDir?: string;
  topic?: string;
  allPackages?: boolean;
  onStage?: (what: string) => void;
}

/** Why a folder is not a Kubernetes checkout, checked cheaply before anything is indexed. */
export function notKubernetes(dir: string): string | undefined {
  if (!existsSync(dir)) return `${dir} does not exist`;
  if (!statSync(dir).isDirectory()) return `${dir} is not a directory`;
  const gomod = join(dir, 'go.mod');
  const hasKubelet = existsSync(join(dir, 'pkg', 'kubelet'));
  if (!existsSync(gomod)) return `${dir} is not a Kubernetes checkout (no go.mod)`;
  const mod = /^module\s+(\S+)/m.exec(readFileSync(gomod, 'utf8'))?.[1];
  if (mod !== 'k8s.io/kubernetes' && !hasKubelet) return `${dir} is not a Kubernetes checkout (go.mod declares ${mod ?? 'no module'} and there is no pkg/kubelet)`;
  if (!hasKubelet) return `${dir} has no pkg/kubelet`;
  return undefined;
}

export function diffTrees(o: DiffTreesOptions): DiffReport {
  const load = (dir: string) => {
    o.onStage?.(`indexing ${dir}`);
    return loadIndex({ root: resolve(dir), ctx: o.ctx, scope: o.scope ?? 'default', cacheDir: o.cacheDir }).graph;
  };
  const from = load(o.fromDir);
  const to = load(o.toDir);
  o.onStage?.('comparing');
  const notes: string[] = [];
  const topicsRead = o.annotationsDir ? loadTopics(o.annotationsDir, basename(o.annotationsDir)) : { topics: [], problems: [] };
  notes.push(...topicsRead.problems);
  const lockFile = o.annotationsDir ? join(o.annotationsDir, 'annotations.lock.json') : undefined;
  const lock = lockFile ? readLockAnchors(lockFile) : undefined;
  if (lockFile && !lock && existsSync(lockFile)) notes.push(`${lockFile} could not be read; annotation anchors are not checked.`);
  const noteSet = o.notesDir ? readNotes(o.notesDir) : { notes: [], problems: [] };
  if (noteSet.problems.length) notes.push(`${noteSet.problems.length} note files are not valid notes and were skipped (see \`kubelet-atlas notes list\`).`);
  const consumers = [
    ...annotationConsumers(lock),
    ...noteConsumers(noteSet.notes, o.notesDir ? basename(resolve(o.notesDir)) : 'notes'),
    ...(o.portsDir ? portConsumers(o.portsDir, resolve(o.portsDir, '..')) : []),
  ];
  return diffGraphs({
    from, to,
    fromLabel: o.fromLabel ?? basename(resolve(o.fromDir)),
    toLabel: o.toLabel ?? basename(resolve(o.toDir)),
    topics: topicsRead.topics, lock, consumers, topic: o.topic, allPackages: o.allPackages, notes,
  });
}
