/**
 * One probe loop for one container and one probe type. It turns raw probe outcomes into the
 * cached verdict, applying the initial delay, the success/failure thresholds and the on-hold rule.
 */
import type { ContainerStatus, Pod, Probe } from '../api/index.js';
import { SECOND } from '../api/index.js';
import { EMPTY_CONTAINER_ID, containerIDString, isEmptyContainerID, parseContainerID, type ContainerID } from './container-id.js';
import type { ResultsManager, Result } from './results.js';
import { PROBE_FIELD, type ProbeType } from './probe-spec.js';
import type { ProbedContainer } from './prober.js';
import type { ProbeManager } from './manager.js';

/**
 * @go k8s.io/kubernetes/pkg/kubelet/prober.worker
 * Simplified: no goroutine or ticker. The manager calls step() and the worker probes when its
 * period has elapsed on the injected clock, when triggered manually, or on its first step; there is
 * no random start-up delay. Prometheus metrics are left out.
 */
export class Worker {
  readonly spec: Probe;
  readonly resultsManager: ResultsManager;
  /** What the result reads until the first probe that counts. */
  readonly initialValue: Result;
  /** The container this worker last saw; a new ID resets the result and lifts the hold. */
  containerID: ContainerID = { ...EMPTY_CONTAINER_ID };
  lastResult: Result | undefined;
  /** How many probes in a row returned lastResult. */
  resultRun = 0;
  /** After a liveness/startup failure, stop probing until the container is replaced. */
  onHold = false;

  private started = false;
  private nextTickAt = 0;
  private stopRequested = false;
  private manualTrigger = false;
  private exited = false;

  /**
   * Readiness starts as Failure (not ready until proven), liveness as Success (alive until proven
   * otherwise), startup as Unknown.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.newWorker
   */
  constructor(
    readonly probeManager: ProbeManager,
    readonly probeType: ProbeType,
    readonly pod: Pod,
    readonly container: ProbedContainer,
  ) {
    const spec = container[PROBE_FIELD[probeType]];
    if (!spec) throw new Error(`container "${container.name}" has no ${PROBE_FIELD[probeType]}`);
    this.spec = spec;
    switch (probeType) {
      case 'readiness':
        this.resultsManager = probeManager.readinessManager;
        this.initialValue = 'Failure';
        break;
      case 'liveness':
        this.resultsManager = probeManager.livenessManager;
        this.initialValue = 'Success';
        break;
      case 'startup':
        this.resultsManager = probeManager.startupManager;
        this.initialValue = 'Unknown';
        break;
    }
  }

  /**
   * One turn of the run loop: probe now if due, then honour a pending stop. Returns false once the
   * worker has exited (its result removed and itself unregistered from the manager).
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*worker).run
   */
  step(): boolean {
    if (this.exited) return false;
    const now = this.probeManager.clock.now();
    const period = (this.spec.periodSeconds ?? 0) * SECOND;
    // Go's time.NewTicker panics on a non-positive period; API defaulting never leaves one.
    if (!(period > 0)) throw new RangeError(`periodSeconds: Invalid value: ${this.spec.periodSeconds}: a running probe needs a positive period`);
    let due = false;
    if (!this.started) {
      // run() probes once before it first waits.
      this.started = true;
      this.nextTickAt = now + period;
      due = true;
    } else if (!this.stopRequested) {
      if (now >= this.nextTickAt) {
        // A ticker drops ticks nobody read; the next one is the first period boundary after now.
        const missed = Math.floor((now - this.nextTickAt) / period) + 1;
        this.nextTickAt += missed * period;
        due = true;
      } else if (this.manualTrigger) {
        due = true;
      }
    }
    if (due) {
      this.manualTrigger = false;
      if (!this.doProbe()) return this.exit();
    }
    if (this.stopRequested) return this.exit();
    return true;
  }

  /**
   * Asks the worker to exit at its next step; calling it again changes nothing.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*worker).stop
   */
  stop(): void {
    this.stopRequested = true;
  }

  /** Probe at the next step even if the period has not elapsed (manualTriggerCh). */
  trigger(): void {
    this.manualTrigger = true;
  }

  /** The deferred clean-up at the end of run(). */
  private exit(): false {
    this.exited = true;
    if (!isEmptyContainerID(this.containerID)) this.resultsManager.remove(this.containerID);
    this.probeManager.removeWorker(this.pod.metadata.uid ?? '', this.container.name, this.probeType);
    return false;
  }

  /**
   * Probes once and records the result. Returns whether the worker should keep running: false when
   * the pod reached a terminal phase, when a container that will not restart has terminated, and
   * when a liveness/startup probe sees the pod being deleted.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*worker).doProbe
   */
  doProbe(): boolean {
    try {
      return this.doProbeInner();
    } catch {
      // Go recovers a panic here and keeps the worker alive.
      return true;
    }
  }

  private doProbeInner(): boolean {
    const uid = this.pod.metadata.uid ?? '';
    const status = this.probeManager.statusManager.getPodStatus(uid);
    // No status: the pod is not created yet or already deleted.
    if (!status) return true;

    if (status.phase === 'Failed' || status.phase === 'Succeeded') return false;

    let c = getContainerStatus(status.containerStatuses, this.container.name);
    if (!c || !c.containerID) {
      c = getContainerStatus(status.initContainerStatuses, this.container.name);
      // The container is not created yet, or was deleted: wait.
      if (!c || !c.containerID) return true;
    }

    if (containerIDString(this.containerID) !== c.containerID) {
      if (!isEmptyContainerID(this.containerID)) this.resultsManager.remove(this.containerID);
      this.containerID = parseContainerID(c.containerID);
      this.resultsManager.set(this.containerID, this.initialValue, this.pod);
      // A new container: probe it even if the previous one put us on hold.
      this.onHold = false;
    }

    if (this.onHold) return true;

    const running = c.state?.running;
    if (!running) {
      if (!isEmptyContainerID(this.containerID)) this.resultsManager.set(this.containerID, 'Failure', this.pod);
      // Keep going unless it terminated and will not be restarted.
      return c.state?.terminated === undefined || this.pod.spec.restartPolicy !== 'Never';
    }

    if (this.pod.metadata.deletionTimestamp !== undefined && (this.probeType === 'liveness' || this.probeType === 'startup')) {
      // A pod being deleted must not be restarted by a failing probe on the way down.
      this.resultsManager.set(this.containerID, 'Success', this.pod);
      return false;
    }

    const startedAt = running.startedAt !== undefined ? Date.parse(running.startedAt) : Number.NEGATIVE_INFINITY;
    const sinceStartSeconds = Math.trunc((this.probeManager.clock.now() - startedAt) / SECOND);
    if (sinceStartSeconds < (this.spec.initialDelaySeconds ?? 0)) return true;

    if (c.started === true) {
      // Startup probes stop counting once the container has started (the worker stays for restarts).
      if (this.probeType === 'startup') return true;
    } else if (this.probeType !== 'startup') {
      // Liveness and readiness wait for startup to finish.
      return true;
    }

    const { result, error } = this.probeManager.prober.probe(this.probeType, this.pod, status, this.container, this.containerID);
    // A probe that could not run says nothing about the container.
    if (error) return true;

    if (this.lastResult === result) {
      this.resultRun++;
    } else {
      this.lastResult = result;
      this.resultRun = 1;
    }

    if (
      (result === 'Failure' && this.resultRun < (this.spec.failureThreshold ?? 0)) ||
      (result === 'Success' && this.resultRun < (this.spec.successThreshold ?? 0))
    ) {
      return true;
    }

    this.resultsManager.set(this.containerID, result, this.pod);

    if ((this.probeType === 'liveness' || this.probeType === 'startup') && result === 'Failure') {
      // The container will be restarted; probing it while it is being killed can corrupt runtime
      // state (kubernetes#21751), so wait for the new container ID. The new container gets a fresh run.
      this.onHold = true;
      this.resultRun = 0;
    }
    return true;
  }
}

/** @go k8s.io/kubernetes/pkg/api/v1/pod.GetContainerStatus */
export function getContainerStatus(statuses: ContainerStatus[] | undefined, name: string): ContainerStatus | undefined {
  return (statuses ?? []).find((s) => s.name === name);
}
