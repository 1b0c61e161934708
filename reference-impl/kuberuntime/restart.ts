/**
 * The rule for whether a regular container that is not running should be started again.
 */
import type { Container, Pod } from '../api/index.js';
import { findContainerStatusByName, restartPolicyOf, type RuntimePodStatus } from './runtime-types.js';

/**
 * Never for a pod marked for deletion. Otherwise: no status yet → start; running → no; unknown or
 * created → always (the state cannot be trusted); exited → by restart policy: Never no, OnFailure only
 * after a non-zero exit code, Always (or unset) yes.
 * @go k8s.io/kubernetes/pkg/kubelet/container.ShouldContainerBeRestarted
 */
export function shouldContainerBeRestarted(container: Container, pod: Pod, podStatus: RuntimePodStatus): boolean {
  if (pod.metadata.deletionTimestamp !== undefined) return false;
  const status = findContainerStatusByName(podStatus, container.name);
  if (status === undefined) return true;
  if (status.state === 'running') return false;
  if (status.state === 'unknown' || status.state === 'created') return true;
  const policy = restartPolicyOf(pod);
  if (policy === 'Never') return false;
  if (policy === 'OnFailure' && (status.exitCode ?? 0) === 0) return false;
  return true;
}
