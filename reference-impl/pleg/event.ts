/**
 * Pod lifecycle events and the bounded queue that carries them to the sync loop.
 */

/** @go k8s.io/kubernetes/pkg/kubelet/pleg.PodLifeCycleEventType */
export type PodLifeCycleEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'PodSync' | 'ContainerChanged';

/**
 * One observed change. `data` is the container (or sandbox) ID without its runtime type.
 * @go k8s.io/kubernetes/pkg/kubelet/pleg.PodLifecycleEvent
 */
export interface PodLifecycleEvent {
  id: string;
  type: PodLifeCycleEventType;
  data: string;
}

/**
 * A buffered channel of events. Sending never blocks: a full channel refuses the event.
 * Simplified: a FIFO array with a capacity instead of a Go channel; readers drain it.
 */
export class EventChannel {
  private readonly queue: PodLifecycleEvent[] = [];
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`eventChannelCapacity: Invalid value: ${capacity}: must be a non-negative integer`);
  }
  get length(): number {
    return this.queue.length;
  }
  /** Non-blocking send, the `select { case ch <- e: default: }` form. */
  trySend(event: PodLifecycleEvent): boolean {
    if (this.queue.length >= this.capacity) return false;
    this.queue.push(event);
    return true;
  }
  receive(): PodLifecycleEvent | undefined {
    return this.queue.shift();
  }
  /** Takes everything queued, oldest first. */
  drain(): PodLifecycleEvent[] {
    return this.queue.splice(0);
  }
}
