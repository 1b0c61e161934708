/**
 * What every part of the driver shares: the clock, the fake runtime, the admitted pods and the
 * timeline being written.
 */
import type { FakeClock, Pod, PodPhase } from '../../reference-impl/api/index.js';
import type { FakeRuntime } from './runtime.js';
import type { Scenario, TimelineEntry } from './schema.js';

export interface PodState {
  pod: Pod;
  phase: PodPhase;
  /** Killed for good (evicted, rejected, or finished): no more syncs. */
  done: boolean;
  reason?: string;
  /** Exited instances whose back-off has already been reported (one line per crash, not per retry). */
  reportedBackOff: Set<string>;
}

export class NodeContext {
  readonly timeline: TimelineEntry[] = [];
  /** Admitted pods, in admission order. */
  readonly pods = new Map<string, PodState>();
  readonly start: number;

  constructor(
    readonly scenario: Scenario,
    readonly clock: FakeClock,
    readonly runtime: FakeRuntime,
  ) {
    this.start = clock.now();
  }

  /** Milliseconds since the scenario started. */
  elapsed(): number {
    return this.clock.now() - this.start;
  }

  say(text: string, go: string): void {
    this.timeline.push({ at: this.elapsed(), text, go });
  }

  /** Something the scenario does to the node (no kubelet code behind it). */
  input(text: string): void {
    this.say(`▸ ${text}`, '');
  }

  active(): PodState[] {
    return [...this.pods.values()].filter((p) => !p.done);
  }

  uidOf(name: string): string {
    const pod = this.scenario.pods.find((p) => p.metadata.name === name);
    if (!pod) throw new Error(`no pod named ${name}`);
    return pod.metadata.uid ?? '';
  }

  nameOf(uid: string): string {
    return this.pods.get(uid)?.pod.metadata.name ?? this.scenario.pods.find((p) => p.metadata.uid === uid)?.metadata.name ?? uid;
  }
}
