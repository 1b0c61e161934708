/**
 * The kubelet's main loop: wait for the next thing to happen (config change, PLEG event, due pods,
 * probe result, housekeeping tick) and hand it to the sync handler.
 */
import type { Clock, Pod } from '../api/index.js';
import { Channel, Ticker } from './channels.js';
import type { SourcesReady } from './sources.js';
import type {
  ContainerStatusSetter,
  PodLifecycleEvent,
  PodManager,
  PodSyncLoopHandler,
  PodUpdate,
  ProbeUpdate,
  SyncHandler,
} from './types.js';
import type { WorkQueue } from './work-queue.js';

/** The sync ticker period (1s) and housekeeping period (2s). */
export const SYNC_PERIOD = 1000;
export const HOUSEKEEPING_PERIOD = 2000;
/** Runtime-error backoff of the loop: 100ms doubling up to 5s. */
export const RUNTIME_BACKOFF_BASE = 100;
export const RUNTIME_BACKOFF_MAX = 5000;

/** Which select case fired in the last iteration. */
export type LoopCase = 'config' | 'pleg' | 'sync' | 'liveness' | 'readiness' | 'startup' | 'housekeeping';
export const SELECT_CASES: readonly LoopCase[] = ['config', 'pleg', 'sync', 'liveness', 'readiness', 'startup', 'housekeeping'];

/**
 * Picks one of the ready cases. Go picks uniformly at random; the default here takes the first in
 * source order so runs are reproducible. Pass randomChooser(rng) for Go's behaviour.
 */
export type CaseChooser = (ready: LoopCase[]) => LoopCase;
export const firstReady: CaseChooser = (ready) => ready[0];
export const randomChooser = (rng: () => number): CaseChooser => (ready) => ready[Math.floor(rng() * ready.length)];

export interface SyncLoopDeps {
  clock: Clock;
  podManager: PodManager;
  workQueue: WorkQueue;
  podSyncLoopHandlers?: PodSyncLoopHandler[];
  statusManager: ContainerStatusSetter;
  sourcesReady: SourcesReady;
  livenessUpdates?: Channel<ProbeUpdate>;
  readinessUpdates?: Channel<ProbeUpdate>;
  startupUpdates?: Channel<ProbeUpdate>;
  /** Asked before every iteration; an error makes the loop back off. @go k8s.io/kubernetes/pkg/kubelet.(*runtimeState).runtimeErrors */
  runtimeErrors?: () => Error | undefined;
  /** Called for ContainerDied events. @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).cleanUpContainersInPod */
  cleanUpContainersInPod?: (podUID: string, containerID: string) => void;
  /** How the loop waits during runtime backoff; defaults to doing nothing (a FakeClock can be stepped here). */
  sleep?: (ms: number) => void;
  chooser?: CaseChooser;
  /** Receives the errors Go would only log. */
  log?: (message: string) => void;
}

/**
 * The sync-loop part of the Kubelet.
 * When nothing is ready an iteration returns true with lastCase undefined, and syncLoop stops.
 * Simplified: channels are queues and a select with nothing ready returns instead of blocking.
 * @go k8s.io/kubernetes/pkg/kubelet.Kubelet
 */
export class SyncLoop {
  readonly livenessUpdates: Channel<ProbeUpdate>;
  readonly readinessUpdates: Channel<ProbeUpdate>;
  readonly startupUpdates: Channel<ProbeUpdate>;
  /** Time of the last iteration start/end (the kubelet's syncLoopMonitor, read by its health check). */
  syncLoopMonitor?: number;
  lastCase?: LoopCase;
  private readonly chooser: CaseChooser;
  private readonly log: (message: string) => void;

  constructor(private readonly deps: SyncLoopDeps) {
    this.livenessUpdates = deps.livenessUpdates ?? new Channel();
    this.readinessUpdates = deps.readinessUpdates ?? new Channel();
    this.startupUpdates = deps.startupUpdates ?? new Channel();
    this.chooser = deps.chooser ?? firstReady;
    this.log = deps.log ?? (() => {});
  }

  /**
   * Pods whose work-queue entry is due, plus any pod a PodSyncLoopHandler (e.g. active deadline)
   * wants synced. Orphans known only to the pod workers are not returned.
   * @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).getPodsToSync
   */
  getPodsToSync(): Pod[] {
    const allPods = this.deps.podManager.getPods();
    const due = new Set(this.deps.workQueue.getWork());
    const handlers = this.deps.podSyncLoopHandlers ?? [];
    return allPods.filter((pod) => due.has(pod.metadata.uid ?? '') || handlers.some((h) => h.shouldSync(pod)));
  }

  /**
   * Runs iterations until the config channel closes (Go's only exit) or, in this port, until nothing
   * is ready. While the runtime reports errors it sleeps 100ms, 200ms, ... up to 5s and retries.
   * @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoop
   */
  syncLoop(updates: Channel<PodUpdate>, handler: SyncHandler, opts: { maxIterations?: number; syncTicker?: Ticker; housekeepingTicker?: Ticker; plegCh?: Channel<PodLifecycleEvent> } = {}): void {
    const syncTicker = opts.syncTicker ?? new Ticker(this.deps.clock, SYNC_PERIOD);
    const housekeepingTicker = opts.housekeepingTicker ?? new Ticker(this.deps.clock, HOUSEKEEPING_PERIOD);
    const plegCh = opts.plegCh ?? new Channel<PodLifecycleEvent>();
    const max = opts.maxIterations ?? 10_000;
    let duration = RUNTIME_BACKOFF_BASE;
    for (let i = 0; i < max; i++) {
      const err = this.deps.runtimeErrors?.();
      if (err) {
        this.log(`skipping pod synchronization: ${err.message}`);
        this.deps.sleep?.(duration);
        duration = Math.min(RUNTIME_BACKOFF_MAX, duration * 2);
        continue;
      }
      duration = RUNTIME_BACKOFF_BASE;
      this.syncLoopMonitor = this.deps.clock.now();
      if (!this.syncLoopIteration(updates, handler, syncTicker, housekeepingTicker, plegCh)) break;
      this.syncLoopMonitor = this.deps.clock.now();
      if (this.lastCase === undefined) break;
    }
  }

  /**
   * Takes one ready event and dispatches it:
   *  - config: ADD → additions, UPDATE and DELETE → updates (deletion is graceful), REMOVE → removes,
   *    RECONCILE → reconcile, SET unsupported; then the source counts as seen. A closed channel ends
   *    the loop (returns false).
   *  - PLEG: any event but ContainerRemoved syncs the pod if still known; ContainerDied also prunes
   *    the pod's dead containers.
   *  - sync tick: syncs getPodsToSync(), if any.
   *  - liveness: only failures sync the pod. readiness/startup: recorded in the status manager, then
   *    the pod is synced.
   *  - housekeeping tick: HandlePodCleanups, once all config sources are ready.
   * @go k8s.io/kubernetes/pkg/kubelet.(*Kubelet).syncLoopIteration
   */
  syncLoopIteration(
    configCh: Channel<PodUpdate>,
    handler: SyncHandler,
    syncCh: Ticker | Channel<number>,
    housekeepingCh: Ticker | Channel<number>,
    plegCh: Channel<PodLifecycleEvent>,
  ): boolean {
    const readiness: Record<LoopCase, boolean> = {
      config: configCh.ready(),
      pleg: plegCh.ready(),
      sync: syncCh.ready(),
      liveness: this.livenessUpdates.ready(),
      readiness: this.readinessUpdates.ready(),
      startup: this.startupUpdates.ready(),
      housekeeping: housekeepingCh.ready(),
    };
    const ready = SELECT_CASES.filter((c) => readiness[c]);
    this.lastCase = ready.length === 0 ? undefined : this.chooser(ready);

    switch (this.lastCase) {
      case 'config': {
        const { value: u, open } = configCh.receive();
        if (!open) {
          this.log('update channel is closed; leaving the sync loop');
          return false;
        }
        switch (u!.op) {
          case 'ADD':
            handler.handlePodAdditions(u!.pods);
            break;
          case 'UPDATE':
          case 'DELETE':
            handler.handlePodUpdates(u!.pods);
            break;
          case 'REMOVE':
            handler.handlePodRemoves(u!.pods);
            break;
          case 'RECONCILE':
            handler.handlePodReconcile(u!.pods);
            break;
          case 'SET':
            this.log('snapshot (SET) updates are not supported');
            break;
          default:
            this.log(`invalid pod operation ${String(u!.op)}`);
        }
        this.deps.sourcesReady.addSource(u!.source);
        break;
      }
      case 'pleg': {
        const e = plegCh.receive().value!;
        if (isSyncPodWorthy(e)) {
          const pod = this.deps.podManager.getPodByUID(e.id);
          if (pod) handler.handlePodSyncs([pod]);
        }
        if (e.type === 'ContainerDied' && typeof e.data === 'string') this.deps.cleanUpContainersInPod?.(e.id, e.data);
        break;
      }
      case 'sync': {
        syncCh.receive();
        const podsToSync = this.getPodsToSync();
        if (podsToSync.length > 0) handler.handlePodSyncs(podsToSync);
        break;
      }
      case 'liveness': {
        const update = this.livenessUpdates.receive().value!;
        if (update.result === 'Failure') this.handleProbeSync(update, handler);
        break;
      }
      case 'readiness': {
        const update = this.readinessUpdates.receive().value!;
        this.deps.statusManager.setContainerReadiness(update.podUID, update.containerID, update.result === 'Success');
        this.handleProbeSync(update, handler);
        break;
      }
      case 'startup': {
        const update = this.startupUpdates.receive().value!;
        this.deps.statusManager.setContainerStartup(update.podUID, update.containerID, update.result === 'Success');
        this.handleProbeSync(update, handler);
        break;
      }
      case 'housekeeping': {
        housekeepingCh.receive();
        if (!this.deps.sourcesReady.allReady()) {
          this.log('housekeeping skipped: config sources are not ready yet');
        } else {
          try {
            handler.handlePodCleanups();
          } catch (e) {
            this.log(`pod cleanup failed: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        break;
      }
      case undefined:
        break;
    }
    return true;
  }

  /**
   * Syncs the pod a probe result belongs to, if the pod manager still knows it.
   * @go k8s.io/kubernetes/pkg/kubelet.handleProbeSync
   */
  private handleProbeSync(update: ProbeUpdate, handler: SyncHandler): void {
    const pod = this.deps.podManager.getPodByUID(update.podUID);
    if (pod) handler.handlePodSyncs([pod]);
  }
}

/** ContainerRemoved changes nothing about the pod's state. @go k8s.io/kubernetes/pkg/kubelet.isSyncPodWorthy */
export function isSyncPodWorthy(e: PodLifecycleEvent): boolean {
  return e.type !== 'ContainerRemoved';
}
