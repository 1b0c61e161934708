/**
 * Plays a scenario: every simulated second it applies the scenario's events, lets the runtime's
 * containers exit, relists (PLEG), probes, admits new pods, syncs the pods that are due, and on their
 * periods runs eviction (10s) and image GC (5m). Each step is a port; this file only wires them.
 */
import { FakeClock, type Pod } from '../../reference-impl/api/index.js';
import { getPodQOS } from '../../reference-impl/eviction/index.js';
import { ImageManager, newBackOff } from '../../reference-impl/image-manager/index.js';
import { KubeGenericRuntimeManager, newContainerBackoff } from '../../reference-impl/kuberuntime/index.js';
import { DEFAULT_RELIST_DURATION, EventChannel, GenericPLEG, PLEG_CHANNEL_CAPACITY } from '../../reference-impl/pleg/index.js';
import { BasicWorkQueue } from '../../reference-impl/syncloop/index.js';
import { EVICTION_PERIOD, EvictionLoop } from './eviction-loop.js';
import { GO } from './go-ids.js';
import { IMAGE_GC_PERIOD, ImageGCLoop } from './image-gc-loop.js';
import { NodeContext } from './node.js';
import { syncPod, type SyncDeps } from './pod-sync.js';
import { ProbeLoop } from './probing.js';
import { FakeRuntime } from './runtime.js';
import type { Scenario, ScenarioEvent, TimelineEntry } from './schema.js';
import { formatBytes } from './timeline.js';

/** The node steps in whole seconds: the sync ticker and the PLEG relist period are both 1s. */
export const TICK = 1000;
/** Image pull back-off: kubelet.go backOffPeriod to MaxContainerBackOff. */
const IMAGE_BACKOFF = { initial: 10_000, max: 300_000 };

export class ScenarioDriver {
  readonly ctx: NodeContext;
  private readonly pleg: GenericPLEG;
  private readonly plegEvents = new EventChannel(PLEG_CHANNEL_CAPACITY);
  private readonly sync: SyncDeps;
  private readonly probes: ProbeLoop;
  private readonly eviction: EvictionLoop;
  private readonly imageGC: ImageGCLoop | undefined;
  private readonly toAdd: Pod[];
  private next = 0;

  constructor(private readonly scenario: Scenario) {
    const clock = new FakeClock();
    const runtime = new FakeRuntime(clock);
    for (const i of scenario.images) runtime.addCatalogImage(i.name, i.size, i.present, i.pinned);
    for (const p of scenario.pods) runtime.register(p);
    this.ctx = new NodeContext(scenario, clock, runtime);

    this.pleg = new GenericPLEG(runtime.asPlegRuntime(), this.plegEvents, DEFAULT_RELIST_DURATION, undefined, clock);
    const runtimeManager = new KubeGenericRuntimeManager();
    this.sync = {
      runtimeManager,
      backOff: newContainerBackoff(clock),
      workQueue: new BasicWorkQueue(clock),
      imageManager: new ImageManager({
        recorder: {
          event: (ref, _type, reason, message) => {
            // "already present" is every start's normal case; only pulls and failures are news.
            if (reason === 'Pulled' && !message.startsWith('Successfully')) return;
            this.ctx.say(`${ref.name}: ${message}`, GO.ensureImageExists);
          },
        },
        imageService: runtime.asImageService(),
        backOff: newBackOff(IMAGE_BACKOFF.initial, IMAGE_BACKOFF.max, clock),
        serialized: true,
        qps: 5,
        burst: 10,
        podPullingTimeRecorder: { recordImageStartedPulling: () => {}, recordImageFinishedPulling: () => {} },
        clock,
      }),
    };
    this.probes = new ProbeLoop(this.ctx, runtimeManager);
    const disk = scenario.node.disk;
    this.imageGC = disk === undefined ? undefined : new ImageGCLoop(this.ctx, disk);
    this.eviction = new EvictionLoop(this.ctx, {
      deleteUnusedImages: () => {
        this.imageGC?.manager.deleteUnusedImages();
        this.imageGC?.reportRemoved();
      },
      forget: (uid) => {
        const st = this.ctx.pods.get(uid);
        if (st) this.probes.manager.removePod(st.pod);
        this.sync.workQueue.queue.delete(uid);
      },
    });
    const addedLater = new Set(scenario.events.flatMap((e) => (e.event === 'pod-add' ? [e.pod] : [])));
    this.toAdd = scenario.pods.filter((p) => !addedLater.has(p.metadata.name ?? ''));
  }

  run(): TimelineEntry[] {
    for (let t = 0; t <= this.scenario.duration; t += TICK) {
      this.ctx.clock.setTime(this.ctx.start + t);
      this.tick(t);
    }
    this.summarize();
    return this.ctx.timeline;
  }

  private tick(t: number): void {
    const wake = new Set<string>();
    this.applyEvents(t);
    for (const { uid, instance } of this.ctx.runtime.exitDue()) {
      this.ctx.input(`${this.ctx.nameOf(uid)}: "${instance.name}" exits with code ${instance.exitCode} after running ${(instance.finishedAt! - instance.startedAt) / 1000}s`);
    }
    this.relist(wake);
    for (const uid of this.probes.step()) wake.add(uid);
    this.admit(wake);
    for (const uid of this.sync.workQueue.getWork()) wake.add(uid);
    const synced = [...this.ctx.pods.keys()].filter((u) => wake.has(u));
    for (const uid of synced) syncPod(this.ctx, this.sync, uid);
    this.probes.updateStatuses(synced);
    if (t % EVICTION_PERIOD === 0) this.eviction.run();
    if (this.imageGC && t % IMAGE_GC_PERIOD === 0) this.imageGC.run();
  }

  private applyEvents(t: number): void {
    const events = this.scenario.events;
    while (this.next < events.length && events[this.next].at <= t) this.apply(events[this.next++]);
  }

  private apply(e: ScenarioEvent): void {
    const { ctx } = this;
    switch (e.event) {
      case 'pod-add':
        this.toAdd.push(this.scenario.pods.find((p) => p.metadata.name === e.pod)!);
        return;
      case 'image-pull': {
        const image = ctx.runtime.pull(e.image);
        ctx.input(`someone pulls ${image.id} (${formatBytes(image.size)}) on the node`);
        return;
      }
      case 'memory-usage':
        ctx.runtime.setMemory(ctx.uidOf(e.pod), e.container, e.bytes);
        ctx.input(`${e.pod}: "${e.container}" now uses ${formatBytes(e.bytes)} of memory`);
        return;
      case 'container-exit': {
        const uid = ctx.uidOf(e.pod);
        const running = ctx.runtime.running(uid, e.container);
        if (e.repeatAfterStart !== undefined) ctx.runtime.setCrashAfterStart(uid, e.container, e.repeatAfterStart, e.exitCode);
        const repeat = e.repeatAfterStart !== undefined ? `; every later run exits ${e.repeatAfterStart / 1000}s after it starts` : '';
        if (!running) {
          ctx.input(`${e.pod}: "${e.container}" is not running, nothing exits${repeat}`);
          return;
        }
        ctx.runtime.stopContainer(running, e.exitCode, e.exitCode === 0 ? 'Completed' : 'Error');
        ctx.input(`${e.pod}: "${e.container}" exits with code ${e.exitCode}${repeat}`);
        return;
      }
      case 'probe-fail':
      case 'probe-pass': {
        const running = ctx.runtime.running(ctx.uidOf(e.pod), e.container);
        const what = e.event === 'probe-fail' ? `starts failing its ${e.probe} probe` : `passes its ${e.probe} probe again`;
        if (!running) {
          ctx.input(`${e.pod}: "${e.container}" is not running (${e.event} ignored)`);
          return;
        }
        if (e.event === 'probe-fail') running.failing.set(e.probe, e.output);
        else running.failing.delete(e.probe);
        ctx.input(`${e.pod}: "${e.container}" ${what}`);
        return;
      }
    }
  }

  private relist(wake: Set<string>): void {
    this.pleg.relist();
    for (const ev of this.plegEvents.drain()) {
      if (ev.type === 'ContainerRemoved') continue;
      wake.add(ev.id);
      const found = this.ctx.runtime.instanceByID(ev.data);
      if (!found) continue; // a sandbox: it wakes the pod but is not worth a line
      const what = ev.type === 'ContainerDied' ? 'died' : 'started';
      this.ctx.say(`${this.ctx.nameOf(ev.id)}: PLEG sees "${found.instance.name}" ${what} (${ev.type})`, GO.relist);
    }
  }

  /** HandlePodAdditions: admission (the eviction manager's Admit is the admit handler modelled here). */
  private admit(wake: Set<string>): void {
    for (const pod of this.toAdd.splice(0)) {
      const uid = pod.metadata.uid ?? '';
      const name = pod.metadata.name ?? uid;
      const conditions = this.eviction.manager.nodeConditions;
      const result = this.eviction.manager.admit(pod);
      if (!result.admit) {
        this.ctx.pods.set(uid, { pod, phase: 'Failed', done: true, reason: result.reason, reportedBackOff: new Set() });
        this.ctx.say(`${name} (${getPodQOS(pod)}): rejected: ${result.reason}: ${(result.message ?? "").trim()}`, GO.admit);
        continue;
      }
      this.ctx.pods.set(uid, { pod, phase: 'Pending', done: false, reportedBackOff: new Set() });
      this.probes.manager.addPod(pod);
      if (conditions.length > 0) this.ctx.say(`${name} (${getPodQOS(pod)}): admitted although the node reports ${conditions.join(', ')}`, GO.admit);
      else this.ctx.say(`${name}: added and admitted`, GO.handlePodAdditions);
      wake.add(uid);
    }
  }

  private summarize(): void {
    for (const st of this.ctx.pods.values()) {
      const uid = st.pod.metadata.uid ?? '';
      const restarts = st.pod.spec.containers.map((c) => `"${c.name}" restarts ${this.ctx.runtime.restarts(uid, c.name)}`);
      const reason = st.reason ? ` (${st.reason})` : '';
      this.ctx.input(`end: ${st.pod.metadata.name} is ${st.phase}${reason}; ${restarts.join(', ')}`);
    }
  }
}

/** Runs a loaded scenario to its end; the result depends only on the scenario. */
export function runScenario(scenario: Scenario): TimelineEntry[] {
  return new ScenarioDriver(scenario).run();
}
