export { newWatcher, RealWatcher, FakeRecorder, SYSTEM_OOM_EVENT, type Watcher, type OomInstance, type OomStreamer, type EventRecorder } from './watcher.js';
export { getContainerOOMScoreAdjust, MemoryCapacityError, KUBELET_OOM_SCORE_ADJ, KUBE_PROXY_OOM_SCORE_ADJ } from './policy.js';
export { getPodQOS } from './qos-class.js';
export {
  isNodeCriticalPod,
  isCriticalPod,
  isStaticPod,
  isMirrorPod,
  SYSTEM_CRITICAL_PRIORITY,
  SYSTEM_NODE_CRITICAL,
  SYSTEM_CLUSTER_CRITICAL,
} from './critical-pod.js';
