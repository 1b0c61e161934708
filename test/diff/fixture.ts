/**
 * The Go fixture tree and a modified copy of it, made in a temp dir, for the diff and notes-drift
 * tests. Each edit is one thing a reader would want a diff to report.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const FIXTURE = resolve('test/fixtures/go/kubelike');

export function copyFixture(dest: string): string {
  mkdirSync(dest, { recursive: true });
  cpSync(FIXTURE, dest, { recursive: true });
  return dest;
}

function edit(root: string, file: string, fn: (text: string) => string): void {
  const p = join(root, file);
  const before = readFileSync(p, 'utf8');
  const after = fn(before);
  if (after === before) throw new Error(`fixture edit did nothing in ${file}`);
  writeFileSync(p, after);
}

function cut(text: string, start: string, end: string): { rest: string; piece: string } {
  const i = text.indexOf(start);
  const j = text.indexOf(end, i);
  if (i < 0 || j < 0) throw new Error(`cannot find ${JSON.stringify(start)} … ${JSON.stringify(end)}`);
  return { rest: text.slice(0, i) + text.slice(j + end.length), piece: text.slice(i, j + end.length) };
}

/**
 * In pkg/kubelet/pleg: Relist changes one line; getContainersFromPods is renamed containersOfPods;
 * convertState moves to a new file; updateRelistTime is removed (Relist stores the time itself); a new watchdog method starts a goroutine that
 * ranges over stopCh and Start calls it. In pkg/kubelet: removeTerminatedWorker gains a line.
 */
export function modifyFixture(root: string): void {
  const generic = 'pkg/kubelet/pleg/generic.go';
  let moved = '';
  edit(root, generic, (t) => {
    t = t.replace('timestamp := time.Now()\n', 'timestamp := time.Now().UTC()\n');
    t = t.replaceAll('getContainersFromPods', 'containersOfPods');
    const c = cut(t, 'func convertState(', '\n}\n');
    moved = c.piece;
    t = c.rest;
    t = cut(t, 'func (g *GenericPLEG) updateRelistTime(', '\n}\n').rest;
    t = t.replace(/\tg\.updateRelistTime\(timestamp\)[^\n]*\n/, '\tg.relistTime.Store(timestamp)\n');
    t = t.replace('\tg.stopCh = make(chan struct{})\n', '\tg.stopCh = make(chan struct{})\n\tg.watchdog()\n');
    return `${t}\n// watchdog drains the stop channel on its own goroutine.\nfunc (g *GenericPLEG) watchdog() {\n\tgo func() {\n\t\tfor range g.stopCh {\n\t\t}\n\t}()\n}\n`;
  });
  writeFileSync(join(root, 'pkg/kubelet/pleg/state.go'), `package pleg\n\nimport kubecontainer "k8s.io/kubernetes/pkg/kubelet/container"\n\n${moved}`);
  edit(root, 'pkg/kubelet/pod_workers.go', (t) => t.replace('\tdelete(p.podSyncStatuses, uid)\n}', '\tdelete(p.podSyncStatuses, uid)\n\tdelete(p.startedStaticPodsByFullname, "")\n}'));
}

/** A small annotations folder (three topics, two sharing pkg/kubelet) and its lock, for the fixture. */
export function writeFixtureAnnotations(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const topic = (id: string, component: string, entries: string[], body: string) =>
    `---\nid: ${id}\ntitle: "${id} topic"\ncomponent: ${component}\nversion: fixture\nsummary: test topic\nentry:\n${entries.map((e) => `  - ${e}`).join('\n')}\nlang: en\norder: 1\n---\n\n# ${id}\n\n${body}\n`;
  writeFileSync(join(dir, 'pleg.md'), topic('pleg', 'pleg', ['pleg.NewGenericPLEG', 'pleg.(*GenericPLEG).Start'], '`@pleg.(*GenericPLEG).Relist` lists and compares.'));
  writeFileSync(join(dir, 'pod-workers.md'), topic('pod-workers', 'kubelet', ['kubelet.newPodWorkers', 'kubelet.(*podWorkers).UpdatePod'], '`@kubelet.(*podWorkers).removeTerminatedWorker` forgets a pod.'));
  writeFileSync(join(dir, 'syncloop.md'), topic('syncloop', 'kubelet', ['kubelet.(*Kubelet).syncLoop'], 'The loop.'));
  const K = 'k8s.io/kubernetes/pkg/kubelet';
  const rec = (at: string[]) => ({ file: 'x.go', line: 1, endLine: 2, kind: 'func', fingerprint: '0', shape: '0', lines: [], anchors: at.map((a) => ({ at: a, as: 'x' })) });
  const lock = {
    format: 1, version: 'fixture', goos: 'linux', goarch: 'amd64', tags: [], symbols: [],
    queries: {},
    anchored: {
      [`${K}/pleg.(*GenericPLEG).Relist`]: rec(['annotations/pleg.md:14']),
      [`${K}/pleg.(*GenericPLEG).updateRelistTime`]: rec(['annotations/pleg.md:15']),
      [`${K}/pleg.NewGenericPLEG`]: rec(['annotations/pleg.md:8']),
      [`${K}.(*podWorkers).removeTerminatedWorker`]: rec(['annotations/pod-workers.md:14']),
      [`${K}.(*Kubelet).syncLoop`]: rec(['annotations/syncloop.md:8']),
    },
  };
  writeFileSync(join(dir, 'annotations.lock.json'), JSON.stringify(lock, null, 2) + '\n');
}

/** A reference-port file with `@go` tags on a renamed, a removed, a moved and an unchanged symbol. */
export function writeFixturePorts(dir: string): void {
  mkdirSync(join(dir, 'pleg'), { recursive: true });
  const K = 'k8s.io/kubernetes/pkg/kubelet/pleg';
  writeFileSync(join(dir, 'pleg', 'relist.ts'), [
    `/** @go ${K}.getContainersFromPods */`,
    'export function containers(): void {}',
    `/** @go ${K}.(*GenericPLEG).updateRelistTime */`,
    'export function stamp(): void {}',
    `/** @go ${K}.convertState */`,
    'export function state(): void {}',
    `/** @go ${K}.generateEvents */`,
    'export function events(): void {}',
    '',
  ].join('\n'));
}
