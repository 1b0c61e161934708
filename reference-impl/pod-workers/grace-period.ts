/**
 * The grace period a terminating pod gets: it may only ever shrink.
 */
import type { Pod } from '../api/index.js';
import type { KillPodOptions, PodSyncStatus } from './types.js';

/**
 * Starts from the grace period already granted (0 = none yet), lets the API server's
 * deletionGracePeriodSeconds and then a kill override lower it, falls back to the pod's
 * terminationGracePeriodSeconds when nothing set it, and never goes below 1 second. Also reports
 * whether an already granted period was shortened.
 * @go k8s.io/kubernetes/pkg/kubelet.calculateEffectiveGracePeriod
 */
export function calculateEffectiveGracePeriod(status: PodSyncStatus, pod: Pod, options: KillPodOptions | undefined): [gracePeriod: number, shortened: boolean] {
  let gracePeriod = status.gracePeriod;
  const fromAPI = pod.metadata.deletionGracePeriodSeconds;
  if (fromAPI !== undefined && (gracePeriod === 0 || fromAPI < gracePeriod)) gracePeriod = fromAPI;
  const override = options?.podTerminationGracePeriodSecondsOverride;
  if (override !== undefined && (gracePeriod === 0 || override < gracePeriod)) gracePeriod = override;
  if (gracePeriod === 0 && pod.spec?.terminationGracePeriodSeconds !== undefined) gracePeriod = pod.spec.terminationGracePeriodSeconds;
  if (gracePeriod < 1) gracePeriod = 1;
  return [gracePeriod, status.gracePeriod !== 0 && status.gracePeriod !== gracePeriod];
}
