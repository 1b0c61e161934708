/**
 * The prober port on the fake node: probe handlers answer from the scenario's probe-fail events, the
 * status store is refreshed from the runtime the way SyncPod would, and probe verdicts are handed to
 * kuberuntime (which shares the result caches with the prober in the kubelet).
 */
import type { Container, Pod, Probe } from '../../reference-impl/api/index.js';
import type { KubeGenericRuntimeManager } from '../../reference-impl/kuberuntime/index.js';
import {
  ProbeManager,
  StatusStore,
  withProbeDefaults,
  type ProbeAttempt,
  type ProbeHandlers,
  type Result,
  type ResultsManager,
} from '../../reference-impl/prober/index.js';
import { GO } from './go-ids.js';
import type { NodeContext } from './node.js';
import type { ContainerInstance } from './runtime.js';
import type { ProbeKind } from './schema.js';

const FIELD = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' } as const;
const KINDS: ProbeKind[] = ['liveness', 'readiness', 'startup'];

export class ProbeLoop {
  readonly statusStore = new StatusStore();
  readonly manager: ProbeManager;
  private readonly shown = new Map<string, string>();

  constructor(
    private readonly ctx: NodeContext,
    private readonly runtimeManager: KubeGenericRuntimeManager,
  ) {
    this.manager = new ProbeManager({ statusManager: this.statusStore, clock: ctx.clock, handlers: this.handlers() });
  }

  /**
   * What SyncPod does after each sync: generate the API status from the runtime, let the prober fill
   * in started/ready (which also nudges readiness workers still waiting), and store it. Pods not
   * synced keep their last status, as in the kubelet.
   */
  updateStatuses(synced: Iterable<string>): void {
    for (const uid of synced) {
      const st = this.ctx.pods.get(uid);
      if (!st || st.done) continue;
      const status = this.ctx.runtime.apiStatus(st.pod.metadata.uid ?? '', st.phase);
      this.manager.updatePodStatus(st.pod, status);
      this.statusStore.setPodStatus(st.pod, status);
    }
  }

  /** Gives each worker its turn; returns the pods whose probe results call for a sync. */
  step(): Set<string> {
    const prober = this.manager.prober;
    for (const w of [...this.manager.workers.values()]) {
      const seen = prober.events.length;
      w.step();
      for (const e of prober.events.slice(seen)) {
        const threshold = withProbeDefaults(w.spec).failureThreshold ?? 3;
        // The failure that reaches the threshold puts the worker on hold, which resets its run count.
        const run = w.onHold && w.resultRun === 0 ? threshold : w.resultRun;
        const count = e.reason !== 'Unhealthy' ? '' : run <= threshold ? ` (${run} of ${threshold})` : ` (${run} in a row)`;
        this.ctx.say(`${w.pod.metadata.name}: ${e.reason} "${w.container.name}": ${e.message}${count}`, GO.probe);
      }
    }
    const toSync = new Set<string>();
    this.forward('liveness', this.manager.livenessManager, toSync);
    this.forward('startup', this.manager.startupManager, toSync);
    this.forward('readiness', this.manager.readinessManager, toSync);
    return toSync;
  }

  /** Hands verdicts to kuberuntime and decides which ones wake the sync loop (syncLoopIteration's probe cases). */
  private forward(kind: ProbeKind, results: ResultsManager, toSync: Set<string>): void {
    for (const u of results.drainUpdates()) {
      if (kind === 'liveness') this.runtimeManager.livenessManager.set(u.containerID.id, u.result);
      if (kind === 'startup') this.runtimeManager.startupManager.set(u.containerID.id, u.result);
      const found = this.ctx.runtime.instanceByID(u.containerID.id);
      if (!found) continue;
      this.report(kind, u.podUID, found.instance, u.result);
      // Liveness successes are not sent to the loop; everything else triggers a sync of the pod.
      if (kind !== 'liveness' || u.result === 'Failure') toSync.add(u.podUID);
    }
  }

  private report(kind: ProbeKind, uid: string, c: ContainerInstance, result: Result): void {
    const w = this.manager.getWorker(uid, c.name, kind);
    const name = this.ctx.nameOf(uid);
    const key = `${uid}/${c.name}/${kind}`;
    const last = this.shown.get(key);
    this.shown.set(key, result);
    if (kind === 'liveness' || kind === 'startup') {
      if (result !== 'Failure') return;
      const run = w?.spec.failureThreshold ?? 3;
      this.ctx.say(`${name}: ${kind} of "${c.name}" is now Failure (${run} ${run === 1 ? 'failure' : 'failures'} in a row); the worker pauses until a new container appears`, GO.doProbe);
      return;
    }
    if (last === result || (last === undefined && result === 'Failure')) return;
    this.ctx.say(`${name}: "${c.name}" is ${result === 'Success' ? 'ready' : 'not ready'}`, GO.doProbe);
  }

  private handlers(): ProbeHandlers {
    const answer = (pod: Pod | undefined, matches: (p: Probe) => boolean, instance?: ContainerInstance): ProbeAttempt => {
      if (!pod || !instance) return { result: 'failure', output: 'connection refused' };
      const container = pod.spec.containers.find((c) => c.name === instance.name);
      for (const kind of KINDS) {
        const spec = container?.[FIELD[kind]];
        if (spec && matches(spec) && instance.failing.has(kind)) return { result: 'failure', output: instance.failing.get(kind) ?? '' };
      }
      return { result: 'success', output: '' };
    };
    const byAddress = (host: string, matches: (p: Probe, c: Container) => boolean): ProbeAttempt => {
      const pod = this.ctx.runtime.podByIP(host);
      const container = pod?.spec.containers.find((c) => KINDS.some((k) => c[FIELD[k]] && matches(c[FIELD[k]]!, c)));
      const instance = pod && container ? this.ctx.runtime.running(pod.metadata.uid ?? '', container.name) : undefined;
      return answer(pod, (p) => container !== undefined && matches(p, container), instance);
    };
    const portOf = (p: number | string, c: Container) => (typeof p === 'number' ? p : (c.ports?.find((x) => x.name === p)?.containerPort ?? Number(p)));
    return {
      exec: (cmd) => {
        const found = this.ctx.runtime.instanceByID(cmd.containerID.id);
        const pod = found ? this.ctx.pods.get(found.uid)?.pod : undefined;
        const same = (p: Probe) => JSON.stringify(p.exec?.command ?? null) === JSON.stringify(cmd.command);
        return answer(pod, same, found?.instance);
      },
      http: (target) => byAddress(target.host, (p, c) => p.httpGet !== undefined && portOf(p.httpGet.port, c) === target.port && (p.httpGet.path ?? '') === target.path),
      tcp: (host, port) => byAddress(host, (p, c) => p.tcpSocket !== undefined && portOf(p.tcpSocket.port, c) === port),
    };
  }
}
