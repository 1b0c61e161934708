/**
 * Where probe workers publish their verdicts: one cache per probe type (liveness, readiness,
 * startup), keyed by container ID, plus a queue of changes that the sync loop consumes.
 */
import type { Pod } from '../api/index.js';
import { containerIDString, type ContainerID } from './container-id.js';

/** @go k8s.io/kubernetes/pkg/kubelet/prober/results.Result */
export type Result = 'Success' | 'Failure' | 'Unknown';

/** @go k8s.io/kubernetes/pkg/kubelet/prober/results.Update */
export interface ResultUpdate {
  containerID: ContainerID;
  result: Result;
  podUID: string;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/prober/results.NewManager
 * Simplified: updates go to an unbounded queue read with drainUpdates(), not a 20-slot channel
 * whose sender blocks when it is full.
 */
export class ResultsManager {
  private readonly cache = new Map<string, Result>();
  private readonly updates: ResultUpdate[] = [];

  /**
   * The cached result, or undefined when none is set (Go returns found=false).
   * @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Get
   */
  get(id: ContainerID): Result | undefined {
    return this.cache.get(containerIDString(id));
  }

  /**
   * Caches the result; queues an update only when it is new or different.
   * @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Set
   */
  set(id: ContainerID, result: Result, pod: Pick<Pod, 'metadata'>): void {
    const key = containerIDString(id);
    if (this.cache.get(key) === result) return;
    this.cache.set(key, result);
    this.updates.push({ containerID: { ...id }, result, podUID: pod.metadata.uid ?? '' });
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Remove */
  remove(id: ContainerID): void {
    this.cache.delete(containerIDString(id));
  }

  /**
   * Takes the queued updates, oldest first (what a reader of Updates() would receive).
   * @go k8s.io/kubernetes/pkg/kubelet/prober/results.(*manager).Updates
   */
  drainUpdates(): ResultUpdate[] {
    return this.updates.splice(0);
  }
}
