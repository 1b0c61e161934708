/**
 * The pod status cache the PLEG fills and pod workers read: the latest inspected status (and
 * inspection error) per pod UID, plus a global "everything is at least this fresh" timestamp.
 */
import type { RuntimePodStatus } from './runtime-types.js';

interface Entry {
  status: RuntimePodStatus;
  error?: Error;
  modified: number;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container.NewCache
 * Simplified: no GetNewerThan subscriptions (pod workers' blocking reads), and the EventedPLEG
 * gate is off, so Set always overwrites.
 */
export class PodStatusCache {
  private readonly pods = new Map<string, Entry>();
  private timestamp: number | undefined;

  /**
   * The cached status and error; an unknown pod reads as an empty status with no error.
   * @go k8s.io/kubernetes/pkg/kubelet/container.(*cache).Get
   */
  get(id: string): { status: RuntimePodStatus; error?: Error } {
    const entry = this.pods.get(id);
    if (!entry) return { status: { id } };
    return entry.error ? { status: entry.status, error: entry.error } : { status: entry.status };
  }

  /**
   * Stores the status and error observed at `timestamp`; returns whether the cache changed.
   * @go k8s.io/kubernetes/pkg/kubelet/container.(*cache).Set
   */
  set(id: string, status: RuntimePodStatus, error: Error | undefined, timestamp: number): boolean {
    this.pods.set(id, { status, error, modified: timestamp });
    return true;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/container.(*cache).Delete */
  delete(id: string): void {
    this.pods.delete(id);
  }

  /**
   * Declares every entry valid as of `timestamp`, even those not re-inspected.
   * @go k8s.io/kubernetes/pkg/kubelet/container.(*cache).UpdateTime
   */
  updateTime(timestamp: number): void {
    this.timestamp = timestamp;
  }

  /** When updateTime was last called (undefined before the first relist). */
  lastUpdateTime(): number | undefined {
    return this.timestamp;
  }
}
