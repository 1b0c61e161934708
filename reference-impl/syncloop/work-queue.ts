/**
 * Pods waiting for their next sync, each with the time it becomes due.
 */
import type { Clock } from '../api/index.js';

/** @go k8s.io/kubernetes/pkg/kubelet/util/queue.WorkQueue */
export interface WorkQueue {
  getWork(): string[];
  enqueue(uid: string, delayMs: number): void;
}

/** @go k8s.io/kubernetes/pkg/kubelet/util/queue.basicWorkQueue */
export class BasicWorkQueue implements WorkQueue {
  readonly queue = new Map<string, number>();

  /** @go k8s.io/kubernetes/pkg/kubelet/util/queue.NewBasicWorkQueue */
  constructor(readonly clock: Clock) {}

  /**
   * Removes and returns every UID whose due time is strictly before now.
   * @go k8s.io/kubernetes/pkg/kubelet/util/queue.(*basicWorkQueue).GetWork
   */
  getWork(): string[] {
    const now = this.clock.now();
    const items: string[] = [];
    for (const [uid, due] of this.queue) {
      if (due < now) {
        items.push(uid);
        this.queue.delete(uid);
      }
    }
    return items;
  }

  /**
   * Schedules (or reschedules) a UID `delayMs` from now.
   * @go k8s.io/kubernetes/pkg/kubelet/util/queue.(*basicWorkQueue).Enqueue
   */
  enqueue(uid: string, delayMs: number): void {
    this.queue.set(uid, this.clock.now() + delayMs);
  }
}
