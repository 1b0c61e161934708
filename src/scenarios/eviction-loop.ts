/**
 * The eviction manager port on the fake node: a Summary built from the runtime's memory and disk
 * figures, one synchronize() every monitoring period, and the kill it asks for carried out at once.
 */
import type { PodStatus } from '../../reference-impl/api/index.js';
import {
  EvictionManager,
  getPodQOS,
  getResourceRequestQuantity,
  parseThresholdConfig,
  podPriority,
  type EvictionPod,
  type Summary,
} from '../../reference-impl/eviction/index.js';
import { formatDuration } from '../../reference-impl/kuberuntime/index.js';
import { GO } from './go-ids.js';
import type { NodeContext } from './node.js';
import { formatBytes } from './timeline.js';

/** kubelet.go evictionMonitoringPeriod. */
export const EVICTION_PERIOD = 10_000;
/** A hard eviction kills at once; the container sees SIGKILL. */
const EVICTED_EXIT_CODE = 137;

type Pending = { kind: 'event'; reason: string; message: string; pod?: string } | { kind: 'kill'; pod: string; grace: number; status: PodStatus };

export interface EvictionHooks {
  /** Frees images when disk pressure asks for it (the image GC's DeleteUnusedImages). */
  deleteUnusedImages(): void;
  /** Called once a pod is killed, so other loops forget it. */
  forget(uid: string): void;
}

export class EvictionLoop {
  readonly manager: EvictionManager;
  private pending: Pending[] = [];
  private conditions: string[] = [];

  constructor(
    private readonly ctx: NodeContext,
    hooks: EvictionHooks,
  ) {
    const ev = ctx.scenario.node.eviction;
    this.manager = new EvictionManager({
      summaryProvider: { get: () => this.summary() },
      config: {
        pressureTransitionPeriod: ev.pressureTransitionPeriod,
        maxPodGracePeriodSeconds: ev.maxPodGracePeriod,
        thresholds: parseThresholdConfig([], ev.hard, ev.soft, ev.softGracePeriod, ev.minimumReclaim),
      },
      killPodFunc: (pod, _isEvicted, grace, statusFn) => {
        const uid = pod.metadata.uid ?? '';
        const st = ctx.pods.get(uid);
        if (!st) throw new Error(`pod ${uid} is not running here`);
        ctx.runtime.killPod(uid, EVICTED_EXIT_CODE);
        const status: PodStatus = { phase: st.phase };
        statusFn(status);
        st.phase = status.phase ?? 'Failed';
        st.reason = status.reason;
        st.done = true;
        hooks.forget(uid);
        this.pending.push({ kind: 'kill', pod: pod.metadata.name ?? uid, grace, status });
      },
      imageGC: { deleteUnusedImages: () => hooks.deleteUnusedImages() },
      containerGC: { deleteAllUnusedContainers: () => {} },
      recorder: {
        event: (object, _type, reason, message) => {
          const pod = object && 'spec' in object ? object.metadata.name : undefined;
          this.pending.push({ kind: 'event', reason, message, pod });
        },
      },
      clock: ctx.clock,
    });
  }

  /** One monitoring pass. */
  run(): void {
    const pods = this.ctx.active().map((s) => s.pod as EvictionPod);
    // What the pass saw, before its eviction frees anything.
    const seen = this.summary();
    const evicted = this.manager.synchronize({ hasDedicatedImageFs: () => false }, () => pods);
    this.reportConditions(seen);
    for (const p of this.pending.splice(0)) {
      if (p.kind === 'kill') {
        this.ctx.say(`${p.pod}: killed with grace period ${p.grace}s; phase ${p.status.phase}, reason ${p.status.reason}`, GO.killPodNow);
      } else if (p.reason === 'EvictionThresholdMet') {
        this.ctx.say(`node: ${p.message}`, GO.synchronize);
        if (evicted) this.reportRanking(p.message, pods, seen);
      } else {
        this.ctx.say(`${p.pod ?? 'node'}: ${p.reason}: ${p.message}`, GO.evictPod);
      }
    }
  }

  /** The stats the kubelet's summary API would serve: node memory and filesystems, per-pod memory. */
  summary(): Summary {
    const { runtime, scenario } = this.ctx;
    const node = scenario.node;
    const time = this.ctx.clock.now();
    const pods = this.ctx.active().map((st) => {
      const uid = st.pod.metadata.uid ?? '';
      const containers = st.pod.spec.containers.map((c) => ({ name: c.name, memory: { workingSetBytes: runtime.memoryOf(uid, c.name), time } }));
      return {
        podRef: { name: st.pod.metadata.name ?? '', namespace: st.pod.metadata.namespace ?? '', uid },
        containers,
        memory: { workingSetBytes: containers.reduce((s, c) => s + c.memory.workingSetBytes, 0), time },
      };
    });
    const workingSet = node.systemMemory + pods.reduce((s, p) => s + p.memory.workingSetBytes, 0);
    const fs = node.disk === undefined ? undefined : { capacityBytes: node.disk, availableBytes: this.diskAvailable(), usedBytes: node.disk - this.diskAvailable(), time };
    return {
      node: {
        memory: { availableBytes: Math.max(0, node.memory - workingSet), workingSetBytes: workingSet, time },
        ...(fs ? { fs, runtime: { imageFs: fs } } : {}),
      },
      pods,
    };
  }

  diskAvailable(): number {
    const node = this.ctx.scenario.node;
    return Math.max(0, (node.disk ?? 0) - node.diskUsed - this.ctx.runtime.imageBytes());
  }

  private reportConditions(seen: Summary): void {
    const now = [...this.manager.nodeConditions];
    for (const c of now.filter((x) => !this.conditions.includes(x))) {
      this.ctx.say(`node: condition ${c} is now True (${observed(c, seen)})`, GO.synchronize);
    }
    for (const c of this.conditions.filter((x) => !now.includes(x))) {
      const period = formatDuration(this.ctx.scenario.node.eviction.pressureTransitionPeriod);
      this.ctx.say(`node: condition ${c} is now False (no threshold met for ${period})`, GO.synchronize);
    }
    this.conditions = now;
  }

  /** The order the rank function left the active pods in (it sorts them in place). */
  private reportRanking(message: string, ranked: EvictionPod[], seen: Summary): void {
    const resource = message.replace(/^Attempting to reclaim /, '');
    const go = resource === 'memory' ? GO.rankMemoryPressure : resource === 'pids' ? GO.rankPIDPressure : GO.rankDiskPressure;
    this.ctx.say(`node: rank for ${resource}: over request first, then lower priority, then most usage above request`, go);
    ranked.forEach((pod, i) => {
      const uid = pod.metadata.uid ?? '';
      const usage = seen.pods.find((p) => p.podRef.uid === uid)?.memory?.workingSetBytes ?? 0;
      const request = getResourceRequestQuantity(pod, 'memory');
      const detail = resource === 'memory' ? `, uses ${formatBytes(usage)}, requests ${formatBytes(request)}` : '';
      this.ctx.say(`  ${i + 1}. ${pod.metadata.name} (${getPodQOS(pod)}, priority ${podPriority(pod)}${detail})`, go);
    });
  }
}

function observed(condition: string, seen: Summary): string {
  const s = seen.node;
  if (condition === 'MemoryPressure') return `memory.available ${formatBytes(s.memory?.availableBytes ?? 0)}`;
  if (condition === 'DiskPressure' && s.fs) return `nodefs.available ${formatBytes(s.fs.availableBytes ?? 0)} of ${formatBytes(s.fs.capacityBytes ?? 0)}`;
  return 'a threshold is met';
}
