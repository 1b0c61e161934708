/**
 * Pod workers: one worker per pod UID drives the pod through sync → terminating → terminated,
 * always acting on the newest update and never losing a kill.
 */
import type { Clock, Pod, PodStatus } from '../api/index.js';
import type { RuntimePodStatus } from '../kuberuntime/index.js';
import { calculateEffectiveGracePeriod } from './grace-period.js';
import { buildPodFullName, isStaticPod } from './static-pods.js';
import {
  ContextCanceledError,
  PodSyncStatus,
  type PodCache,
  type PodSyncer,
  type PodWorkerState,
  type SyncContext,
  type UpdatePodOptions,
  type WorkQueue,
} from './types.js';

/** Jitter factors and the transient-error backoff used when requeueing. */
export const WORKER_RESYNC_INTERVAL_JITTER_FACTOR = 0.5;
export const WORKER_BACKOFF_PERIOD_JITTER_FACTOR = 0.5;
export const BACKOFF_ON_TRANSIENT_ERROR_PERIOD = 1000;
/** Substring that marks a "network not ready" sync error. */
export const NETWORK_NOT_READY_ERROR_MSG = 'network is not ready';

/** duration + up to maxFactor×duration. @go k8s.io/apimachinery/pkg/util/wait.Jitter */
export type JitterFn = (durationMs: number, maxFactor: number) => number;
export const randomJitter: JitterFn = (d, f) => d + Math.random() * (f > 0 ? f : 1) * d;

/** Summary of one worker for SyncKnownPods. @go k8s.io/kubernetes/pkg/kubelet.PodWorkerSync */
export interface PodWorkerSync {
  state: PodWorkerState;
  orphan: boolean;
  hasConfig: boolean;
  static: boolean;
}

/** One consumed update, as the worker loop sees it. @go k8s.io/kubernetes/pkg/kubelet.podWork */
interface PodWork {
  workType: PodWorkerState;
  options: UpdatePodOptions;
}

/** The buffered (capacity 1) channel that wakes a worker, plus the worker's loop-local state. */
interface WorkerChannel {
  signalled: boolean;
  lastSyncTime: number;
}

export interface PodWorkersConfig {
  podSyncer: PodSyncer;
  workQueue: WorkQueue;
  podCache: PodCache;
  clock: Clock;
  /** Default 1 minute. */
  resyncInterval?: number;
  /** Default 10 seconds. */
  backOffPeriod?: number;
  jitter?: JitterFn;
}

/**
 * Each worker is a capacity-1 signal plus the loop body in step(uid); runPending() runs every
 * signalled worker until all are idle. Cancelling a context only marks it.
 * @go k8s.io/kubernetes/pkg/kubelet.podWorkers
 * Simplified: no goroutines or locks; workers run only when step() or runPending() is called.
 */
export class PodWorkers {
  podsSynced = false;
  readonly podUpdates = new Map<string, WorkerChannel>();
  readonly podSyncStatuses = new Map<string, PodSyncStatus>();
  startedStaticPodsByFullname = new Map<string, string>();
  waitingToStartStaticPodsByFullname = new Map<string, string[]>();

  private readonly podSyncer: PodSyncer;
  private readonly workQueue: WorkQueue;
  private readonly podCache: PodCache;
  readonly clock: Clock;
  private readonly resyncInterval: number;
  private readonly backOffPeriod: number;
  private readonly jitter: JitterFn;

  /** @go k8s.io/kubernetes/pkg/kubelet.newPodWorkers */
  constructor(cfg: PodWorkersConfig) {
    this.podSyncer = cfg.podSyncer;
    this.workQueue = cfg.workQueue;
    this.podCache = cfg.podCache;
    this.clock = cfg.clock;
    this.resyncInterval = cfg.resyncInterval ?? 60_000;
    this.backOffPeriod = cfg.backOffPeriod ?? 10_000;
    this.jitter = cfg.jitter ?? randomJitter;
    if (this.resyncInterval < 0 || this.backOffPeriod < 0) throw new RangeError('podWorkers: resyncInterval and backOffPeriod must be non-negative');
  }

  // ---- questions other kubelet loops ask ----

  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).IsPodKnownTerminated */
  isPodKnownTerminated(uid: string): boolean {
    return this.podSyncStatuses.get(uid)?.isTerminated() ?? false;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).CouldHaveRunningContainers */
  couldHaveRunningContainers(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s ? !s.isTerminated() : !this.podsSynced;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).ShouldPodBeFinished */
  shouldPodBeFinished(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s ? s.isFinished() : this.podsSynced;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).IsPodTerminationRequested */
  isPodTerminationRequested(uid: string): boolean {
    return this.podSyncStatuses.get(uid)?.isTerminationRequested() ?? false;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).ShouldPodContainersBeTerminating */
  shouldPodContainersBeTerminating(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s ? s.isTerminationStarted() : this.podsSynced;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).ShouldPodRuntimeBeRemoved */
  shouldPodRuntimeBeRemoved(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s ? s.isTerminated() : this.podsSynced;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).ShouldPodContentBeRemoved */
  shouldPodContentBeRemoved(uid: string): boolean {
    const s = this.podSyncStatuses.get(uid);
    return s ? s.isEvicted() || (s.isDeleted() && s.isTerminated()) : this.podsSynced;
  }
  /** @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).IsPodForMirrorPodTerminatingByFullName */
  isPodForMirrorPodTerminatingByFullName(fullname: string): boolean {
    const uid = this.startedStaticPodsByFullname.get(fullname);
    const s = uid === undefined ? undefined : this.podSyncStatuses.get(uid);
    return s !== undefined && s.isTerminationRequested() && !s.isTerminated();
  }

  // ---- UpdatePod ----

  /**
   * Records a config change or kill for a pod and wakes its worker (creating it on first sight).
   * A pod becomes terminating when it is a runtime-only pod, has a deletionTimestamp, is in a
   * terminal phase, or receives a kill. After that, each update counts as a kill whose grace period may
   * only get shorter. A finished UID accepts nothing until housekeeping forgets it.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).UpdatePod
   */
  updatePod(input: UpdatePodOptions): void {
    const options: UpdatePodOptions = { ...input, killPodOptions: input.killPodOptions && { ...input.killPodOptions } };
    let isRuntimePod = false;
    let uid: string, ns: string, name: string;
    if (options.runningPod !== undefined && options.pod === undefined) {
      if (options.updateType !== 'SyncPodKill') return; // a runtime pod can only be killed
      ({ id: uid, namespace: ns, name } = options.runningPod);
      isRuntimePod = true;
    } else {
      if (options.pod === undefined) throw new Error('UpdatePodOptions: pod or runningPod is required');
      options.runningPod = undefined; // only meaningful without a pod
      uid = options.pod.metadata.uid ?? '';
      ns = options.pod.metadata.namespace ?? '';
      name = options.pod.metadata.name ?? '';
      const tgps = options.pod.spec?.terminationGracePeriodSeconds;
      if (tgps !== undefined && tgps < 0) throw new RangeError(`spec.terminationGracePeriodSeconds: Invalid value: ${tgps}: must be greater than or equal to 0`);
    }

    let firstTime = false;
    const now = this.clock.now();
    let status = this.podSyncStatuses.get(uid);
    if (status === undefined) {
      firstTime = true;
      status = new PodSyncStatus({ syncedAt: now, fullname: buildPodFullName(name, ns) });
      // After a kubelet restart a terminal pod whose containers are all gone still has to run
      // SyncTerminatedPod, but must not count as active meanwhile: mark it terminated, not finished.
      const phase = options.pod?.status?.phase;
      if (phase === 'Failed' || phase === 'Succeeded') {
        let cached: RuntimePodStatus | undefined;
        try {
          cached = this.podCache.get(uid);
        } catch {
          cached = undefined;
        }
        if (cached !== undefined && isPodStatusCacheTerminal(cached)) {
          status = new PodSyncStatus({
            terminatedAt: now,
            terminatingAt: now,
            syncedAt: now,
            startedTerminating: true,
            finished: false,
            fullname: buildPodFullName(name, ns),
          });
        }
      }
      this.podSyncStatuses.set(uid, status);
    }

    // A runtime-only update borrows the newest real pod spec if one is known; the worker must drive
    // an observed runtime pod to completion either way.
    let pod: Pod;
    if (isRuntimePod) {
      status.observedRuntime = true;
      const known = status.pendingUpdate?.pod ?? status.activeUpdate?.pod;
      if (known !== undefined) {
        pod = known;
        options.pod = known;
        options.runningPod = undefined;
      } else {
        pod = toAPIPod(options.runningPod!);
      }
    } else {
      pod = options.pod!;
    }

    // A create for a UID that is terminating: the same UID was reused (typically a static pod).
    // Remember it so housekeeping can reset the worker once termination completes.
    if (!firstTime && status.isTerminationRequested() && options.updateType === 'SyncPodCreate') {
      status.restartRequested = true;
      return;
    }
    if (status.isFinished()) return;

    let becameTerminating = false;
    if (!status.isTerminationRequested()) {
      if (isRuntimePod) {
        status.deleted = true;
        status.terminatingAt = now;
        becameTerminating = true;
      } else if (pod.metadata.deletionTimestamp !== undefined) {
        status.deleted = true;
        status.terminatingAt = now;
        becameTerminating = true;
      } else if (pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded') {
        status.terminatingAt = now;
        becameTerminating = true;
      } else if (options.updateType === 'SyncPodKill') {
        if (options.killPodOptions?.evict) status.evicted = true;
        status.terminatingAt = now;
        becameTerminating = true;
      }
    }

    let wasGracePeriodShortened = false;
    if (status.isTerminated()) {
      // Ignore stale runtime-only kills until the worker has fully finished.
      if (isRuntimePod) return;
      options.killPodOptions?.completed?.();
      options.killPodOptions = undefined;
    } else if (status.isTerminationRequested()) {
      options.killPodOptions ??= {};
      if (options.killPodOptions.completed) status.notifyPostTerminating.push(options.killPodOptions.completed);
      if (options.killPodOptions.podStatusFunc) status.statusPostTerminating.push(options.killPodOptions.podStatusFunc);
      const [gracePeriod, shortened] = calculateEffectiveGracePeriod(status, pod, options.killPodOptions);
      wasGracePeriodShortened = shortened;
      status.gracePeriod = gracePeriod;
      // Always hand the computed value down so syncTerminatingPod never recalculates it.
      options.killPodOptions.podTerminationGracePeriodSecondsOverride = gracePeriod;
    } else if (options.killPodOptions !== undefined) {
      // Kill options mean nothing outside termination.
      options.killPodOptions.completed?.();
      options.killPodOptions = undefined;
    }

    if (!this.podUpdates.has(uid)) {
      this.podUpdates.set(uid, { signalled: false, lastSyncTime: 0 });
      // Static pods sharing a full name start in the order UpdatePod first saw them.
      if (isStaticPod(pod)) {
        const waiting = this.waitingToStartStaticPodsByFullname.get(status.fullname) ?? [];
        this.waitingToStartStaticPodsByFullname.set(status.fullname, [...waiting, uid]);
      }
    }

    // Keep the oldest start time so latency covers the whole wait.
    const prev = status.pendingUpdate?.startTime;
    if (prev !== undefined && (options.startTime === undefined || prev < options.startTime)) options.startTime = prev;

    status.pendingUpdate = options;
    status.working = true;
    this.signal(uid);

    if ((becameTerminating || wasGracePeriodShortened) && status.cancelFn) status.cancelFn();
  }

  // ---- starting ----

  /**
   * Non-static pods may always start. A static pod may start only if it is not already terminating
   * and is first in line for its full name; otherwise it is retried after a jittered backoff.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).allowPodStart
   */
  allowPodStart(pod: Pod): [canStart: boolean, canEverStart: boolean] {
    if (!isStaticPod(pod)) return [true, true];
    const uid = pod.metadata.uid ?? '';
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return [false, false];
    if (status.isTerminationRequested()) return [false, false];
    if (!this.allowStaticPodStart(status.fullname, uid)) {
      this.workQueue.enqueue(uid, this.jitter(this.backOffPeriod, WORKER_BACKOFF_PERIOD_JITTER_FACTOR));
      return [false, true];
    }
    return [true, true];
  }

  /**
   * True when no other static pod with this full name has started and `uid` is the first waiting
   * UID that is still alive; entries for vanished or terminating pods are dropped on the way.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).allowStaticPodStart
   */
  allowStaticPodStart(fullname: string, uid: string): boolean {
    const startedUID = this.startedStaticPodsByFullname.get(fullname);
    if (startedUID !== undefined) return startedUID === uid;

    let waiting = this.waitingToStartStaticPodsByFullname.get(fullname) ?? [];
    for (let i = 0; i < waiting.length; i++) {
      const waitingUID = waiting[i];
      const s = this.podSyncStatuses.get(waitingUID);
      if (s === undefined || s.isTerminationRequested() || s.isTerminated()) continue;
      if (waitingUID !== uid) {
        this.waitingToStartStaticPodsByFullname.set(fullname, waiting.slice(i));
        return false;
      }
      waiting = waiting.slice(i + 1);
      break;
    }
    if (waiting.length !== 0) this.waitingToStartStaticPodsByFullname.set(fullname, waiting);
    else this.waitingToStartStaticPodsByFullname.delete(fullname);
    this.startedStaticPodsByFullname.set(fullname, uid);
    return true;
  }

  /**
   * A pod terminated before it ever started: finish it without running any sync.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).cleanupUnstartedPod
   */
  private cleanupUnstartedPod(pod: Pod, status: PodSyncStatus): void {
    const uid = pod.metadata.uid ?? '';
    this.cleanupPodUpdates(uid);
    status.finished = true;
    status.working = false;
    status.terminatedAt = this.clock.now();
    if (this.startedStaticPodsByFullname.get(status.fullname) === uid) this.startedStaticPodsByFullname.delete(status.fullname);
  }

  /**
   * Consumes the pending update for a worker and decides whether it may run. A started pod (or a
   * runtime-only pod being terminated) proceeds; otherwise allowPodStart decides, and a pod that may
   * start later keeps its pending update.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).startPodSync
   */
  private startPodSync(uid: string): { ok: boolean; ctx?: SyncContext; update?: PodWork; canStart: boolean; canEverStart: boolean } {
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return { ok: false, canStart: false, canEverStart: false };
    if (status.pendingUpdate === undefined) {
      status.working = false;
      return { ok: false, canStart: false, canEverStart: false };
    }
    const update: PodWork = { workType: status.workType(), options: status.pendingUpdate };
    status.pendingUpdate = undefined;
    const ch = this.podUpdates.get(uid);
    if (ch) ch.signalled = false;

    if (status.ctx === undefined || status.ctx.cancelled) {
      const ctx: SyncContext = { cancelled: false };
      status.ctx = ctx;
      status.cancelFn = () => { ctx.cancelled = true; };
    }
    const ctx = status.ctx;

    if (status.isStarted()) {
      status.mergeLastUpdate(update.options);
      return { ok: true, ctx, update, canStart: true, canEverStart: true };
    }
    if (update.options.runningPod !== undefined && update.workType === 'terminating') {
      status.mergeLastUpdate(update.options);
      return { ok: true, ctx, update, canStart: true, canEverStart: true };
    }
    if (update.options.pod === undefined) {
      status.mergeLastUpdate(update.options);
      return { ok: true, ctx, update, canStart: false, canEverStart: false };
    }

    const [canStart, canEverStart] = this.allowPodStart(update.options.pod);
    if (!canEverStart) {
      this.cleanupUnstartedPod(update.options.pod, status);
      status.working = false;
      return { ok: true, ctx, update, canStart, canEverStart };
    }
    if (!canStart) {
      status.pendingUpdate = update.options; // the only path that puts the update back
      status.working = false;
      return { ok: true, ctx, update, canStart, canEverStart };
    }
    status.startedAt = this.clock.now();
    status.mergeLastUpdate(update.options);
    return { ok: true, ctx, update, canStart: true, canEverStart: true };
  }

  // ---- the worker loop ----

  /** Whether `uid`'s worker exists and has been woken. */
  hasSignal(uid: string): boolean {
    return this.podUpdates.get(uid)?.signalled ?? false;
  }

  /**
   * One turn of the pod's worker: pick up the pending update, call the matching sync method, then
   * record the outcome (phase transition, requeue). Returns false when the worker had no signal.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).podWorkerLoop
   */
  step(uid: string): boolean {
    const ch = this.podUpdates.get(uid);
    if (ch === undefined || !ch.signalled) return false;
    ch.signalled = false;

    const { ok, ctx, update, canStart, canEverStart } = this.startPodSync(uid);
    if (!ok || !canEverStart || !canStart) return true;
    const work = update!;
    const opts = work.options;
    const podUID = opts.runningPod?.id ?? opts.pod?.metadata.uid ?? uid;

    let isTerminal = false;
    let err: Error | undefined;
    try {
      let status: RuntimePodStatus | undefined;
      if (opts.runningPod === undefined) status = this.podCache.getNewerThan(opts.pod!.metadata.uid ?? '', ch.lastSyncTime);
      try {
        if (work.workType === 'terminated') {
          this.podSyncer.syncTerminatedPod(ctx!, opts.pod!, status);
        } else if (work.workType === 'terminating') {
          const gracePeriod = opts.killPodOptions?.podTerminationGracePeriodSecondsOverride;
          const podStatusFn = this.acknowledgeTerminating(podUID);
          if (opts.runningPod !== undefined) this.podSyncer.syncTerminatingRuntimePod(ctx!, opts.runningPod);
          else this.podSyncer.syncTerminatingPod(ctx!, opts.pod!, status, gracePeriod, podStatusFn);
        } else {
          isTerminal = this.podSyncer.syncPod(ctx!, opts.updateType, opts.pod!, opts.mirrorPod, status);
        }
      } finally {
        ch.lastSyncTime = this.clock.now();
      }
    } catch (e) {
      err = e instanceof Error ? e : new Error(String(e));
    }

    let phaseTransition = false;
    if (err instanceof ContextCanceledError) {
      // a newer update is already queued
    } else if (err !== undefined) {
      // retried after backoff below
    } else if (work.workType === 'terminated') {
      this.completeTerminated(podUID);
      return true;
    } else if (work.workType === 'terminating') {
      if (opts.runningPod !== undefined) {
        this.completeTerminatingRuntimePod(podUID);
        return true;
      }
      this.completeTerminating(podUID);
      phaseTransition = true;
    } else if (isTerminal) {
      this.completeSync(podUID);
      phaseTransition = true;
    }
    this.completeWork(podUID, phaseTransition, err);
    return true;
  }

  /**
   * Runs worker turns until no worker (outside `skip`) has a signal. `beforeEach` runs before every
   * turn, e.g. to advance a fake clock. Returns the number of turns.
   */
  runPending(opts: { skip?: ReadonlySet<string>; beforeEach?: (uid: string) => void; maxSteps?: number } = {}): number {
    const max = opts.maxSteps ?? 10_000;
    let steps = 0;
    for (;;) {
      const uid = [...this.podUpdates.keys()].find((u) => this.hasSignal(u) && !opts.skip?.has(u));
      if (uid === undefined) return steps;
      if (++steps > max) throw new Error(`pod workers did not settle after ${max} steps`);
      opts.beforeEach?.(uid);
      this.step(uid);
    }
  }

  /**
   * Marks that the worker has seen the termination (no new containers will start) and returns the
   * newest status override registered by a kill.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).acknowledgeTerminating
   */
  private acknowledgeTerminating(uid: string): ((s: PodStatus) => void) | undefined {
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return undefined;
    if (status.terminatingAt !== undefined && !status.startedTerminating) status.startedTerminating = true;
    return status.statusPostTerminating.at(-1);
  }

  /**
   * syncPod reported a terminal phase: start terminating right away.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).completeSync
   */
  private completeSync(uid: string): void {
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return;
    status.terminatingAt ??= this.clock.now();
    status.startedTerminating = true;
    this.requeueLastPodUpdate(uid, status);
  }

  /**
   * All containers are stopped: the pod is terminated; wake kill waiters and go on to cleanup.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).completeTerminating
   */
  private completeTerminating(uid: string): void {
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return;
    status.terminatedAt = this.clock.now();
    for (const done of status.notifyPostTerminating) done();
    status.notifyPostTerminating = [];
    status.statusPostTerminating = [];
    this.requeueLastPodUpdate(uid, status);
  }

  /**
   * An orphaned runtime pod is gone: stop the worker and forget the UID entirely.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).completeTerminatingRuntimePod
   */
  private completeTerminatingRuntimePod(uid: string): void {
    this.cleanupPodUpdates(uid);
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return;
    status.terminatedAt = this.clock.now();
    status.finished = true;
    status.working = false;
    if (this.startedStaticPodsByFullname.get(status.fullname) === uid) this.startedStaticPodsByFullname.delete(status.fullname);
    this.podSyncStatuses.delete(uid);
  }

  /**
   * Cleanup done: the worker stops; the status stays (finished) until housekeeping removes it.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).completeTerminated
   */
  private completeTerminated(uid: string): void {
    this.cleanupPodUpdates(uid);
    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return;
    status.finished = true;
    status.working = false;
    if (this.startedStaticPodsByFullname.get(status.fullname) === uid) this.startedStaticPodsByFullname.delete(status.fullname);
  }

  /**
   * Requeues the pod: immediately after a phase change, after resync+jitter on success, after 1s+jitter
   * when the network is not ready, after backOff+jitter on other errors. Then wakes the worker again
   * if another update is pending, or marks it idle.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).completeWork
   */
  completeWork(uid: string, phaseTransition: boolean, syncErr: Error | undefined): void {
    if (phaseTransition) this.workQueue.enqueue(uid, 0);
    else if (syncErr === undefined) this.workQueue.enqueue(uid, this.jitter(this.resyncInterval, WORKER_RESYNC_INTERVAL_JITTER_FACTOR));
    else if (syncErr.message.includes(NETWORK_NOT_READY_ERROR_MSG)) this.workQueue.enqueue(uid, this.jitter(BACKOFF_ON_TRANSIENT_ERROR_PERIOD, WORKER_BACKOFF_PERIOD_JITTER_FACTOR));
    else this.workQueue.enqueue(uid, this.jitter(this.backOffPeriod, WORKER_BACKOFF_PERIOD_JITTER_FACTOR));

    const status = this.podSyncStatuses.get(uid);
    if (status === undefined) return;
    if (status.pendingUpdate !== undefined) this.signal(uid);
    else status.working = false;
  }

  // ---- housekeeping ----

  /**
   * Housekeeping: forgets finished workers whose pods are no longer desired (or whose UID was reused),
   * starts termination of orphans, and reports every remaining worker's state.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).SyncKnownPods
   */
  syncKnownPods(desiredPods: Pod[]): Map<string, PodWorkerSync> {
    const known = new Set(desiredPods.map((p) => p.metadata.uid ?? ''));
    const workers = new Map<string, PodWorkerSync>();
    this.podsSynced = true;
    for (const [uid, status] of [...this.podSyncStatuses]) {
      const orphan = !known.has(uid);
      if ((status.restartRequested || orphan) && this.removeTerminatedWorker(uid, status, orphan)) continue;
      const source = status.activeUpdate ?? status.pendingUpdate;
      workers.set(uid, {
        state: status.workType(),
        orphan,
        hasConfig: source?.pod !== undefined,
        static: source?.pod !== undefined && isStaticPod(source.pod),
      });
    }
    return workers;
  }

  /**
   * Removes a finished worker so its UID can be used again. An orphan that is not finished is marked
   * deleted and pushed towards termination instead (or dropped if it never started).
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).removeTerminatedWorker
   */
  removeTerminatedWorker(uid: string, status: PodSyncStatus, orphaned: boolean): boolean {
    if (!status.finished) {
      if (!orphaned) return false;
      status.deleted = true;
      if (!status.isStarted() && !status.observedRuntime) {
        // never started: safe to drop without any sync
      } else if (!status.isTerminationRequested()) {
        status.terminatingAt = this.clock.now();
        const pod = status.activeUpdate?.pod;
        status.gracePeriod = pod !== undefined ? calculateEffectiveGracePeriod(status, pod, undefined)[0] : 1;
        this.requeueLastPodUpdate(uid, status);
        return false;
      } else {
        this.requeueLastPodUpdate(uid, status);
        return false;
      }
    }
    this.podSyncStatuses.delete(uid);
    this.cleanupPodUpdates(uid);
    if (this.startedStaticPodsByFullname.get(status.fullname) === uid) this.startedStaticPodsByFullname.delete(status.fullname);
    return true;
  }

  /** Closes the worker's channel: the worker stops and undelivered signals are dropped. @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).cleanupPodUpdates */
  cleanupPodUpdates(uid: string): void {
    this.podUpdates.delete(uid);
  }

  /**
   * Replays the last executed update as the pending one (unless something is already pending) and
   * wakes the worker.
   * @go k8s.io/kubernetes/pkg/kubelet.(*podWorkers).requeueLastPodUpdate
   */
  requeueLastPodUpdate(uid: string, status: PodSyncStatus): void {
    if (status.pendingUpdate !== undefined || status.activeUpdate === undefined) return;
    status.pendingUpdate = { ...status.activeUpdate };
    status.working = true;
    this.signal(uid);
  }

  /** Non-blocking send on the capacity-1 channel: a second signal before the first is read is dropped. */
  private signal(uid: string): void {
    const ch = this.podUpdates.get(uid);
    if (ch) ch.signalled = true;
  }
}

/**
 * No running container and no ready sandbox.
 * @go k8s.io/kubernetes/pkg/kubelet.isPodStatusCacheTerminal
 */
export function isPodStatusCacheTerminal(status: RuntimePodStatus): boolean {
  return !status.containerStatuses.some((c) => c.state === 'running') && !status.sandboxStatuses.some((s) => s.state === 'SANDBOX_READY');
}

/** The placeholder API pod for a runtime-only pod. @go k8s.io/kubernetes/pkg/kubelet/container.(*Pod).ToAPIPod */
export function toAPIPod(p: { id: string; name: string; namespace: string; containers?: { name: string; image?: string }[] }): Pod {
  return {
    metadata: { uid: p.id, name: p.name, namespace: p.namespace },
    spec: { containers: (p.containers ?? []).map((c) => ({ name: c.name, ...(c.image !== undefined ? { image: c.image } : {}) })) },
  };
}

/** Kills a pod and reports whether it finished in time. @go k8s.io/kubernetes/pkg/kubelet/eviction.KillPodFunc */
export type KillPodFunc = (pod: Pod, isEvicted: boolean, gracePeriodOverride: number | undefined, statusFn: ((s: PodStatus) => void) | undefined) => void;

/**
 * The kill function handed to eviction and preemption: sends a kill through UpdatePod and waits for
 * the worker to finish terminating, giving up after 1.5× the grace period (at least 10s).
 * @go k8s.io/kubernetes/pkg/kubelet.killPodNow
 * Simplified: runs the pod workers until idle instead of blocking with a timer; throws if not killed.
 */
export function killPodNow(podWorkers: PodWorkers): KillPodFunc {
  return (pod, isEvicted, gracePeriodOverride, statusFn) => {
    let completed = false;
    podWorkers.updatePod({
      pod,
      updateType: 'SyncPodKill',
      killPodOptions: {
        completed: () => { completed = true; },
        evict: isEvicted,
        podStatusFunc: statusFn,
        podTerminationGracePeriodSecondsOverride: gracePeriodOverride,
      },
    });
    podWorkers.runPending();
    if (!completed) {
      throw new Error(`pod ${pod.metadata.name} was not killed within ${killTimeoutSeconds(pod, gracePeriodOverride)}s`);
    }
  };
}

/** How long killPodNow waits: 1.5× the grace period, at least 10 seconds. */
export function killTimeoutSeconds(pod: Pod, gracePeriodOverride: number | undefined): number {
  const gracePeriod = gracePeriodOverride ?? pod.spec.terminationGracePeriodSeconds ?? 0;
  return Math.max(10, gracePeriod + Math.trunc(gracePeriod / 2));
}
