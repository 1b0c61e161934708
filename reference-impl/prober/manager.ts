/**
 * The probe manager: it keeps one worker per (pod, container, probe type), starts and stops them as
 * pods come and go, and folds the cached probe results into the pod status the kubelet reports
 * (containerStatuses[].started and .ready).
 */
import type { Clock, Container, ContainerStatus, Pod, PodStatus } from '../api/index.js';
import { parseContainerID } from './container-id.js';
import { ResultsManager } from './results.js';
import { Prober, type ProbeHandlers } from './prober.js';
import { PROBE_FIELD, validateProbe, withProbeDefaults, type ProbeType } from './probe-spec.js';
import type { PodStatusProvider } from './status-store.js';
import { Worker } from './worker.js';

/** @go k8s.io/kubernetes/pkg/kubelet/prober.probeKey */
export function probeKey(podUID: string, containerName: string, probeType: ProbeType): string {
  return `${podUID}/${containerName}/${probeType}`;
}

export interface ProbeManagerOptions {
  statusManager: PodStatusProvider;
  clock: Clock;
  livenessManager?: ResultsManager;
  readinessManager?: ResultsManager;
  startupManager?: ResultsManager;
  handlers?: Partial<ProbeHandlers>;
}

/** Sidecars: init containers with restartPolicy Always. @go k8s.io/kubernetes/pkg/kubelet/types.IsRestartableInitContainer */
function isRestartableInitContainer(c: Container): boolean {
  return c.restartPolicy === 'Always';
}

/** @go k8s.io/kubernetes/pkg/kubelet/prober.getRestartableInitContainers */
function getRestartableInitContainers(pod: Pod): Container[] {
  return (pod.spec.initContainers ?? []).filter(isRestartableInitContainer);
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/prober.NewManager
 * Simplified: workers are stepped by step() instead of running as goroutines.
 */
export class ProbeManager {
  /** Keyed by probeKey(); exposed because the Go tests reach into the map too. */
  readonly workers = new Map<string, Worker>();
  statusManager: PodStatusProvider;
  readonly livenessManager: ResultsManager;
  readonly readinessManager: ResultsManager;
  readonly startupManager: ResultsManager;
  readonly prober: Prober;
  readonly clock: Clock;

  constructor(opts: ProbeManagerOptions) {
    this.statusManager = opts.statusManager;
    this.clock = opts.clock;
    this.livenessManager = opts.livenessManager ?? new ResultsManager();
    this.readinessManager = opts.readinessManager ?? new ResultsManager();
    this.startupManager = opts.startupManager ?? new ResultsManager();
    this.prober = new Prober(opts.handlers);
  }

  /**
   * Starts a worker for every probe of every regular container and sidecar. If any of those workers
   * already exists the rest of the pod is skipped, as in Go.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).AddPod
   * Simplified: probes are defaulted and validated here (the API server does that in a cluster), so
   * a bad spec throws ProbeSpecError naming the field.
   */
  addPod(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    const targets = [
      ...pod.spec.containers.map((c, i) => [c, `spec.containers[${i}]`] as const),
      ...(pod.spec.initContainers ?? []).map((c, i) => [c, `spec.initContainers[${i}]`] as const).filter(([c]) => isRestartableInitContainer(c)),
    ];
    const prepared = targets.map(([c, at]) => withDefaultedProbes(c, at));
    for (const c of prepared) {
      for (const probeType of ['startup', 'readiness', 'liveness'] as const) {
        if (!c[PROBE_FIELD[probeType]]) continue;
        const key = probeKey(uid, c.name, probeType);
        if (this.workers.has(key)) return;
        this.workers.set(key, new Worker(this, probeType, pod, c));
      }
    }
  }

  /**
   * Stops the liveness and startup workers of the pod's regular containers (used while the pod is
   * terminating, so no probe restarts a container that is shutting down).
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).StopLivenessAndStartup
   */
  stopLivenessAndStartup(pod: Pod): void {
    for (const c of pod.spec.containers) {
      for (const probeType of ['liveness', 'startup'] as const) this.workers.get(probeKey(pod.metadata.uid ?? '', c.name, probeType))?.stop();
    }
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).RemovePod */
  removePod(pod: Pod): void {
    for (const c of [...pod.spec.containers, ...getRestartableInitContainers(pod)]) {
      for (const probeType of ['readiness', 'liveness', 'startup'] as const) this.workers.get(probeKey(pod.metadata.uid ?? '', c.name, probeType))?.stop();
    }
  }

  /**
   * Stops every worker whose pod is not in `desiredPods`.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).CleanupPods
   */
  cleanupPods(desiredPods: ReadonlySet<string>): void {
    for (const w of this.workers.values()) {
      if (!desiredPods.has(w.pod.metadata.uid ?? '')) w.stop();
    }
  }

  /**
   * Started: running, and either the startup probe succeeded or there is no startup probe.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).isContainerStarted
   */
  isContainerStarted(pod: Pod, cs: ContainerStatus): boolean {
    if (!cs.state?.running) return false;
    const result = this.startupManager.get(parseContainerID(cs.containerID ?? ''));
    if (result !== undefined) return result === 'Success';
    if (this.getWorker(pod.metadata.uid ?? '', cs.name, 'startup')) return false;
    return true;
  }

  /**
   * Writes started and ready into the status the kubelet is about to report. Ready needs a started,
   * running container whose readiness result is Success, or no readiness probe at all; a container
   * still waiting for its first readiness result gets its worker triggered. Finished regular init
   * containers are ready when they exited 0.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).UpdatePodStatus
   */
  updatePodStatus(pod: Pod, podStatus: PodStatus): void {
    const uid = pod.metadata.uid ?? '';
    const readiness = (c: ContainerStatus): boolean => {
      if (!c.state?.running) return false;
      if (this.readinessManager.get(parseContainerID(c.containerID ?? '')) === 'Success') return true;
      const w = this.getWorker(uid, c.name, 'readiness');
      // Nudge the worker so readiness is known sooner than the next period.
      w?.trigger();
      return w === undefined;
    };

    for (const c of podStatus.containerStatuses ?? []) {
      const started = this.isContainerStarted(pod, c);
      c.started = started;
      if (!started) continue;
      c.ready = readiness(c);
    }

    (podStatus.initContainerStatuses ?? []).forEach((c, i) => {
      const started = this.isContainerStarted(pod, c);
      c.started = started;
      const initContainer = getContainerByIndex(pod.spec.initContainers ?? [], podStatus.initContainerStatuses ?? [], i);
      if (!initContainer) return;
      if (!isRestartableInitContainer(initContainer)) {
        if (c.state?.terminated && c.state.terminated.exitCode === 0) c.ready = true;
        return;
      }
      if (!started) return;
      c.ready = readiness(c);
    });
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).getWorker */
  getWorker(podUID: string, containerName: string, probeType: ProbeType): Worker | undefined {
    return this.workers.get(probeKey(podUID, containerName, probeType));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).removeWorker */
  removeWorker(podUID: string, containerName: string, probeType: ProbeType): void {
    this.workers.delete(probeKey(podUID, containerName, probeType));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/prober.(*manager).workerCount */
  workerCount(): number {
    return this.workers.size;
  }

  /** Gives every worker its turn at the current clock time (stands in for their goroutines). */
  step(): void {
    for (const w of [...this.workers.values()]) w.step();
  }
}

/** A copy of the container with its probes defaulted, after checking them. */
function withDefaultedProbes(c: Container, at: string): Container {
  const copy: Container = { ...c };
  for (const probeType of ['liveness', 'readiness', 'startup'] as const) {
    const field = PROBE_FIELD[probeType];
    const spec = c[field];
    if (!spec) continue;
    const defaulted = withProbeDefaults(spec);
    validateProbe(defaulted, probeType, `${at}.${field}`);
    copy[field] = defaulted;
  }
  return copy;
}

/** The spec entry at index i, when the status at i has the same name. @go k8s.io/kubernetes/pkg/kubelet/util.GetContainerByIndex */
function getContainerByIndex(containers: Container[], statuses: { name: string }[], i: number): Container | undefined {
  if (i < 0 || i >= containers.length || i >= statuses.length) return undefined;
  return statuses[i].name === containers[i].name ? containers[i] : undefined;
}
