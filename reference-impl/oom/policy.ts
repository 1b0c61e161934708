/**
 * The oom_score_adj the kubelet writes for a container's processes. The kernel adds it to a process's
 * memory share (0–1000), so a higher value means the process is killed sooner when the node runs out
 * of memory.
 */
import type { Container, Pod } from '../api/index.js';
import { intValue } from '../api/index.js';
import { getPodQOS } from './qos-class.js';
import { isNodeCriticalPod } from './critical-pod.js';

/** @go k8s.io/kubernetes/pkg/kubelet/qos.KubeletOOMScoreAdj */
export const KUBELET_OOM_SCORE_ADJ = -999;
/** @go k8s.io/kubernetes/pkg/kubelet/qos.KubeProxyOOMScoreAdj */
export const KUBE_PROXY_OOM_SCORE_ADJ = -999;
const GUARANTEED_OOM_SCORE_ADJ = -997;
const BESTEFFORT_OOM_SCORE_ADJ = 1000;

export class MemoryCapacityError extends Error {
  constructor(readonly value: number) {
    super(`memoryCapacity: Invalid value: ${value}: must be a positive integer number of bytes`);
    this.name = 'MemoryCapacityError';
  }
}

/**
 * Node-critical and Guaranteed pods get -997, BestEffort pods 1000. Burstable containers get
 * 1000 − 1000×memoryRequest/memoryCapacity (integer division), raised to at least 3 so they stay
 * above any Guaranteed process, and lowered from 1000 to 999 so they stay below BestEffort.
 * @go k8s.io/kubernetes/pkg/kubelet/qos.GetContainerOOMScoreAdjust
 * Simplified: the InPlacePodVerticalScaling gate (alpha, off by default in 1.28) is treated as off,
 * so the request always comes from the spec, not from allocated resources in the status.
 */
export function getContainerOOMScoreAdjust(pod: Pod, container: Container, memoryCapacity: number): number {
  if (isNodeCriticalPod(pod)) return GUARANTEED_OOM_SCORE_ADJ;

  switch (getPodQOS(pod)) {
    case 'Guaranteed':
      return GUARANTEED_OOM_SCORE_ADJ;
    case 'BestEffort':
      return BESTEFFORT_OOM_SCORE_ADJ;
  }

  // Go would divide by zero here; reject it the way a bad kubelet flag would be rejected.
  if (!Number.isSafeInteger(memoryCapacity) || memoryCapacity <= 0) throw new MemoryCapacityError(memoryCapacity);
  const request = container.resources?.requests?.memory;
  const memoryRequest = request === undefined ? 0 : intValue(request, `${containerField(pod, container)}.resources.requests[memory]`);
  // BigInt keeps 1000×request exact for requests of many terabytes.
  const oomScoreAdjust = Number(1000n - (1000n * BigInt(memoryRequest)) / BigInt(memoryCapacity));
  if (oomScoreAdjust < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ;
  if (oomScoreAdjust === BESTEFFORT_OOM_SCORE_ADJ) return oomScoreAdjust - 1;
  return oomScoreAdjust;
}

/** `spec.containers[i]` for error messages, matching how the API server names the field. */
function containerField(pod: Pod, container: Container): string {
  const i = pod.spec.containers.indexOf(container);
  if (i >= 0) return `spec.containers[${i}]`;
  const j = (pod.spec.initContainers ?? []).indexOf(container);
  return j >= 0 ? `spec.initContainers[${j}]` : `container "${container.name}"`;
}
