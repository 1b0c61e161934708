/**
 * Turns kernel OOM kills reported by cAdvisor into node events. Only kills where the victim was
 * chosen at the root cgroup ("/", the whole machine ran out of memory) become a "SystemOOM" warning;
 * kills inside a container's own memory limit are reported elsewhere (container status OOMKilled).
 */
import type { ObjectReference } from '../api/index.js';

/** One OOM kill parsed from the kernel log. cAdvisor utils/oomparser.OomInstance. */
export interface OomInstance {
  pid: number;
  processName: string;
  /** RFC 3339 time of the kill. */
  timeOfDeath: string;
  /** The cgroup the killed process lived in. */
  containerName: string;
  /** The cgroup whose memory limit was hit; "/" for a system-wide OOM. */
  victimContainerName: string;
  constraint?: string;
}

/**
 * Source of OOM instances; each is handed to `out` as it is parsed.
 * @go k8s.io/kubernetes/pkg/kubelet/oom.streamer
 * Simplified: a callback instead of a Go channel; the real source reads /dev/kmsg.
 */
export interface OomStreamer {
  streamOoms(out: (instance: OomInstance) => void): void;
}

/** Receives events. client-go tools/record.EventRecorder, reduced to the one call used here. */
export interface EventRecorder {
  eventf(ref: ObjectReference, eventType: 'Normal' | 'Warning', reason: string, message: string): void;
}

/**
 * Keeps events as "<type> <reason> <message>" strings, like client-go's record.FakeRecorder.
 * @go k8s.io/client-go/tools/record.(*FakeRecorder).Eventf
 */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];
  eventf(_ref: ObjectReference, eventType: string, reason: string, message: string): void {
    this.events.push(`${eventType} ${reason} ${message}`);
  }
}

/** @go k8s.io/kubernetes/pkg/kubelet/oom.Watcher */
export interface Watcher {
  start(ref: ObjectReference): void;
}

/** @go k8s.io/kubernetes/pkg/kubelet/oom.systemOOMEvent */
export const SYSTEM_OOM_EVENT = 'SystemOOM';
const RECORD_EVENT_CONTAINER_NAME = '/';

/**
 * @go k8s.io/kubernetes/pkg/kubelet/oom.realWatcher
 */
export class RealWatcher implements Watcher {
  constructor(
    private readonly recorder: EventRecorder,
    private readonly oomStreamer: OomStreamer,
  ) {}

  /**
   * Records one Warning "SystemOOM" event on `ref` (the node) per system-wide OOM, naming the victim
   * process and pid when both are known. Container-level OOMs are skipped.
   * @go k8s.io/kubernetes/pkg/kubelet/oom.(*realWatcher).Start
   * Simplified: instances are handled synchronously as the streamer delivers them (no goroutines).
   */
  start(ref: ObjectReference): void {
    this.oomStreamer.streamOoms((event) => {
      if (event.victimContainerName !== RECORD_EVENT_CONTAINER_NAME) return;
      let message = 'System OOM encountered';
      if (event.processName !== '' && event.pid !== 0) {
        message = `${message}, victim process: ${event.processName}, pid: ${event.pid}`;
      }
      this.recorder.eventf(ref, 'Warning', SYSTEM_OOM_EVENT, message);
    });
  }
}

/**
 * A watcher that records through `recorder` and reads OOMs from `streamer`.
 * @go k8s.io/kubernetes/pkg/kubelet/oom.NewWatcher
 * Simplified: the streamer is passed in (Go builds a kmsg parser itself), and a fake recorder does
 * not make it return nil.
 */
export function newWatcher(recorder: EventRecorder, streamer: OomStreamer): Watcher {
  return new RealWatcher(recorder, streamer);
}
