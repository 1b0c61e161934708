/**
 * spec.activeDeadlineSeconds: a pod running longer than its deadline is synced and evicted.
 */
import type { Clock, Pod, PodStatus } from '../api/index.js';
import type { PodSyncLoopHandler } from './types.js';

export const DEADLINE_REASON = 'DeadlineExceeded';
export const DEADLINE_MESSAGE = 'the pod ran longer than its activeDeadlineSeconds';

/** @go k8s.io/kubernetes/pkg/kubelet/status.PodStatusProvider */
export interface PodStatusProvider {
  getPodStatus(uid: string): PodStatus | undefined;
}

/** @go k8s.io/client-go/tools/record.EventRecorder */
export interface EventRecorder {
  event(pod: Pod, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

/** @go k8s.io/kubernetes/pkg/kubelet/lifecycle.ShouldEvictResponse */
export interface ShouldEvictResponse {
  evict: boolean;
  reason?: string;
  message?: string;
}

/** @go k8s.io/kubernetes/pkg/kubelet.activeDeadlineHandler */
export class ActiveDeadlineHandler implements PodSyncLoopHandler {
  private constructor(
    private readonly podStatusProvider: PodStatusProvider,
    private readonly recorder: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /**
   * All three dependencies are required.
   * @go k8s.io/kubernetes/pkg/kubelet.newActiveDeadlineHandler
   */
  static create(podStatusProvider?: PodStatusProvider, recorder?: EventRecorder, clock?: Clock): ActiveDeadlineHandler {
    if (!clock || !podStatusProvider || !recorder) throw new Error('activeDeadlineHandler: podStatusProvider, recorder and clock are all required');
    return new ActiveDeadlineHandler(podStatusProvider, recorder, clock);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet.(*activeDeadlineHandler).ShouldSync */
  shouldSync(pod: Pod): boolean {
    return this.pastActiveDeadline(pod);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet.(*activeDeadlineHandler).ShouldEvict */
  shouldEvict(pod: Pod): ShouldEvictResponse {
    if (!this.pastActiveDeadline(pod)) return { evict: false };
    this.recorder.event(pod, 'Normal', DEADLINE_REASON, DEADLINE_MESSAGE);
    return { evict: true, reason: DEADLINE_REASON, message: DEADLINE_MESSAGE };
  }

  /**
   * Deadline set, start time known (status manager first, else the pod's own status), and
   * now − start ≥ deadline.
   * @go k8s.io/kubernetes/pkg/kubelet.(*activeDeadlineHandler).pastActiveDeadline
   */
  private pastActiveDeadline(pod: Pod): boolean {
    const deadline = pod.spec.activeDeadlineSeconds;
    if (deadline === undefined) return false;
    if (deadline < 0) throw new RangeError(`spec.activeDeadlineSeconds: Invalid value: ${deadline}: must be greater than or equal to 0`);
    const status = this.podStatusProvider.getPodStatus(pod.metadata.uid ?? '') ?? pod.status;
    if (!status?.startTime) return false;
    const start = Date.parse(status.startTime);
    if (Number.isNaN(start)) throw new Error(`status.startTime: Invalid value: "${status.startTime}"`);
    return this.clock.now() - start >= deadline * 1000;
  }
}
