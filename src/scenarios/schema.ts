/**
 * The shape of a scenario file once loaded: durations in milliseconds, quantities in bytes, pods
 * validated and defaulted as the API server would, events sorted by time.
 */
import type { Pod } from '../../reference-impl/api/index.js';
import type { ImageGCPolicy } from '../../reference-impl/image-gc/index.js';

export type ProbeKind = 'liveness' | 'readiness' | 'startup';

export interface EvictionFlags {
  /** --eviction-hard, signal → "100Mi" or "10%". */
  hard: Record<string, string>;
  soft: Record<string, string>;
  softGracePeriod: Record<string, string>;
  minimumReclaim: Record<string, string>;
  /** --eviction-pressure-transition-period, ms. */
  pressureTransitionPeriod: number;
  /** --eviction-max-pod-grace-period, seconds. */
  maxPodGracePeriod: number;
}

export interface NodeFacts {
  name: string;
  /** Memory capacity in bytes. */
  memory: number;
  /** Working set of everything that is not a pod (system daemons, kernel). */
  systemMemory: number;
  /** One filesystem holds both nodefs and images; absent: no disk stats, no image GC. */
  disk?: number;
  /** Bytes on that filesystem used by anything but images. */
  diskUsed: number;
  eviction: EvictionFlags;
  imageGC: ImageGCPolicy;
  sandboxImage: string;
}

export interface ImageFact {
  /** As a pod spec would name it; stored with the default tag applied. */
  name: string;
  size: number;
  /** On the node at the start (otherwise pulled when first needed). */
  present: boolean;
  pinned: boolean;
  /** History the kubelet would have gathered before the scenario starts. */
  lastUsedAgo?: number;
}

interface EventBase {
  /** Milliseconds after the start. */
  at: number;
  /** Line of the event in the scenario file, for messages. */
  line: number;
}

export interface PodAddEvent extends EventBase {
  event: 'pod-add';
  pod: string;
}

export interface ContainerExitEvent extends EventBase {
  event: 'container-exit';
  pod: string;
  container: string;
  exitCode: number;
  /** From now on every new instance of the container also exits this long after it starts. */
  repeatAfterStart?: number;
}

export interface MemoryUsageEvent extends EventBase {
  event: 'memory-usage';
  pod: string;
  container: string;
  bytes: number;
}

export interface ProbeFailEvent extends EventBase {
  event: 'probe-fail';
  pod: string;
  container: string;
  probe: ProbeKind;
  /** What the failing probe reports (an exec probe's output, an HTTP status line). */
  output: string;
}

export interface ProbePassEvent extends EventBase {
  event: 'probe-pass';
  pod: string;
  container: string;
  probe: ProbeKind;
}

export interface ImagePullEvent extends EventBase {
  event: 'image-pull';
  image: string;
}

export type ScenarioEvent = PodAddEvent | ContainerExitEvent | MemoryUsageEvent | ProbeFailEvent | ProbePassEvent | ImagePullEvent;

export const EVENT_KINDS = ['pod-add', 'container-exit', 'memory-usage', 'probe-fail', 'probe-pass', 'image-pull'] as const;

export interface Scenario {
  name: string;
  description: string;
  /** The file it came from (or a label for inline text). */
  source: string;
  /** How long to run, ms. */
  duration: number;
  node: NodeFacts;
  images: ImageFact[];
  pods: Pod[];
  /** Sorted by `at`; events at the same time keep file order. */
  events: ScenarioEvent[];
}

/** One line of the timeline; `go` is empty for things the scenario does to the node. */
export interface TimelineEntry {
  at: number;
  text: string;
  go: string;
}
