/**
 * One pod sync as SyncPod runs it: ask computePodActions what to do, carry the plan out on the fake
 * runtime (checking CrashLoopBackOff and the image before each start), then requeue the pod the way
 * the pod worker's completeWork does.
 */
import type { Container } from '../../reference-impl/api/index.js';
import {
  findContainerStatusByName,
  formatDuration,
  getStableKey,
  type Backoff,
  type KubeGenericRuntimeManager,
  type PodActions,
  type RuntimePodStatus,
} from '../../reference-impl/kuberuntime/index.js';
import type { ImageManager } from '../../reference-impl/image-manager/index.js';
import type { BasicWorkQueue } from '../../reference-impl/syncloop/index.js';
import { GO } from './go-ids.js';
import type { NodeContext, PodState } from './node.js';
import { clockTime } from './timeline.js';

/** kubelet defaults: SyncFrequency 1m, backOffPeriod 10s (the pod worker's retry after an error). */
export const RESYNC_INTERVAL = 60_000;
export const BACKOFF_PERIOD = 10_000;
/** Exit code of a container stopped by the kubelet (SIGTERM, 128+15). */
export const KILLED_EXIT_CODE = 143;

export interface SyncDeps {
  runtimeManager: KubeGenericRuntimeManager;
  backOff: Backoff;
  imageManager: ImageManager;
  workQueue: BasicWorkQueue;
}

export function syncPod(ctx: NodeContext, deps: SyncDeps, uid: string): void {
  const st = ctx.pods.get(uid);
  if (!st || st.done) return;
  const { pod } = st;
  const name = pod.metadata.name ?? uid;
  const phaseBefore = st.phase;
  const podStatus = ctx.runtime.podStatus(uid);
  const actions = deps.runtimeManager.computePodActions(pod, podStatus);
  // A retry that only finds the container still backing off was already reported: stay quiet.
  const onlyRetries =
    !actions.killPod && !actions.createSandbox && actions.containersToKill.size === 0 &&
    actions.containersToStart.every((i) => isKnownBackOff(deps, st, podStatus, pod.spec.containers[i]));
  const plan = describe(pod.spec.containers, actions, podStatus.sandboxStatuses.length === 0);
  if (plan && !onlyRetries) ctx.say(`${name}: ${plan}`, GO.computePodActions);

  if (actions.killPod) {
    for (const c of ctx.runtime.killPod(uid, KILLED_EXIT_CODE)) ctx.say(`${name}: killed "${c.name}"`, GO.killContainer);
    if (!actions.createSandbox) {
      finish(ctx, st, podStatus);
      return;
    }
  }
  if (actions.createSandbox) {
    const sandbox = ctx.runtime.createSandbox(uid, actions.attempt);
    ctx.say(`${name}: sandbox ${sandbox.id} ready, pod IP ${sandbox.ip}`, GO.createPodSandbox);
    st.phase = 'Running';
  }
  for (const [id, info] of actions.containersToKill) {
    const found = ctx.runtime.instanceByID(id);
    if (!found) continue;
    ctx.runtime.stopContainer(found.instance, KILLED_EXIT_CODE, 'Error');
    ctx.say(`${name}: killed "${info.name}" (exit code ${KILLED_EXIT_CODE}): ${info.message}`, GO.killContainer);
  }

  let syncErr: Error | undefined;
  let reported = false;
  for (const index of actions.containersToStart) {
    const r = startOne(ctx, deps, st, podStatus, pod.spec.containers[index]);
    syncErr ??= r.error;
    reported ||= r.reported;
  }

  // completeWork: a phase change comes back at once, an error after backOffPeriod, else at resync.
  if (syncErr) {
    deps.workQueue.enqueue(uid, BACKOFF_PERIOD);
    const what = syncErr.name !== 'Error' ? syncErr.name : syncErr.message;
    if (reported) ctx.say(`${name}: sync failed with ${what}; the pod worker retries in ${formatDuration(BACKOFF_PERIOD)}`, GO.completeWork);
  } else {
    deps.workQueue.enqueue(uid, st.phase !== phaseBefore ? 0 : RESYNC_INTERVAL);
  }
}

function startOne(ctx: NodeContext, deps: SyncDeps, st: PodState, podStatus: RuntimePodStatus, container: Container): { error?: Error; reported: boolean } {
  const { pod } = st;
  const name = pod.metadata.name ?? '';
  const uid = pod.metadata.uid ?? '';
  const key = getStableKey(pod, container);
  const latest = findContainerStatusByName(podStatus, container.name);
  const exited = podStatus.containerStatuses.find((c) => c.name === container.name && c.state === 'exited');
  const hadBackOff = deps.backOff.has(key);
  const before = deps.backOff.get(key);

  const decision = deps.runtimeManager.doBackOff(pod, container, podStatus, deps.backOff);
  if (decision.inBackOff && exited) {
    if (st.reportedBackOff.has(exited.id)) return { error: decision.error, reported: false };
    st.reportedBackOff.add(exited.id);
    const since = clockTime((exited.finishedAt ?? ctx.start) - ctx.start);
    ctx.say(`${name}: "${container.name}" exited at ${since}; back-off ${formatDuration(deps.backOff.get(key))} → not restarted yet (CrashLoopBackOff)`, GO.doBackOff);
    return { error: decision.error, reported: true };
  }
  if (latest?.state === 'exited') {
    ctx.say(`${name}: "${container.name}" exited with code ${latest.exitCode ?? 0}; restartPolicy ${pod.spec.restartPolicy} → restart`, GO.shouldContainerBeRestarted);
  }
  if (exited) {
    const next = formatDuration(deps.backOff.get(key));
    const why = hadBackOff ? `the ${formatDuration(before)} back-off is over` : 'no back-off recorded yet';
    ctx.say(`${name}: "${container.name}": ${why} → start now; after another crash it waits ${next}`, GO.doBackOff);
  }

  const image = deps.imageManager.ensureImageExists(pod, container);
  if (image.error) return { error: image.error, reported: true };
  const instance = ctx.runtime.startContainer(uid, container, image.imageRef);
  const restart = instance.restartIndex > 0 ? ` (restart #${instance.restartIndex})` : '';
  ctx.say(`${name}: started "${container.name}"${restart}`, GO.startContainer);
  return { reported: false };
}

function isKnownBackOff(deps: SyncDeps, st: PodState, podStatus: RuntimePodStatus, container: Container): boolean {
  const exited = podStatus.containerStatuses.find((c) => c.name === container.name && c.state === 'exited');
  if (!exited || exited.finishedAt === undefined || !st.reportedBackOff.has(exited.id)) return false;
  return deps.backOff.isInBackOffSince(getStableKey(st.pod, container), exited.finishedAt);
}

/** Nothing will run again (restart policy Never/OnFailure and all done): the pod is finished. */
function finish(ctx: NodeContext, st: PodState, podStatus: RuntimePodStatus): void {
  const failed = st.pod.spec.containers.some((c) => (findContainerStatusByName(podStatus, c.name)?.exitCode ?? 0) !== 0);
  st.phase = failed ? 'Failed' : 'Succeeded';
  st.done = true;
  ctx.say(`${st.pod.metadata.name}: no container will run again → phase ${st.phase}`, GO.computePodActions);
}

/** The plan in words, or '' when there is nothing to do. */
function describe(containers: Container[], a: PodActions, noSandbox: boolean): string {
  const parts: string[] = [];
  // A new pod also gets KillPod (its sandbox "changed" from nothing); killing nothing is not news.
  if (a.killPod && noSandbox) parts.push('no sandbox yet');
  else if (a.killPod) parts.push(a.createSandbox ? 'kill the pod and start over' : 'kill the pod');
  if (a.createSandbox) parts.push(`create a sandbox (attempt ${a.attempt})`);
  for (const info of a.containersToKill.values()) parts.push(`kill "${info.name}" (${info.reason || 'spec changed'})`);
  for (const i of a.containersToStart) parts.push(`start "${containers[i].name}"`);
  return parts.join(', ');
}
