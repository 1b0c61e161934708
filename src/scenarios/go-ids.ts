/**
 * The Go symbols (pprof IDs, Kubernetes v1.28.0) that timeline lines name. Most are tagged on a port;
 * the few that only the scenario driver plays (SyncPod's steps, HandlePodAdditions) are listed in
 * DRIVER_ONLY, and a test checks both kinds.
 */
const K = 'k8s.io/kubernetes/pkg/kubelet';

export const GO = {
  handlePodAdditions: `${K}.(*Kubelet).HandlePodAdditions`,
  admit: `${K}/eviction.(*managerImpl).Admit`,
  relist: `${K}/pleg.(*GenericPLEG).Relist`,
  computePodActions: `${K}/kuberuntime.(*kubeGenericRuntimeManager).computePodActions`,
  shouldContainerBeRestarted: `${K}/container.ShouldContainerBeRestarted`,
  doBackOff: `${K}/kuberuntime.(*kubeGenericRuntimeManager).doBackOff`,
  createPodSandbox: `${K}/kuberuntime.(*kubeGenericRuntimeManager).createPodSandbox`,
  startContainer: `${K}/kuberuntime.(*kubeGenericRuntimeManager).startContainer`,
  killContainer: `${K}/kuberuntime.(*kubeGenericRuntimeManager).killContainer`,
  completeWork: `${K}.(*podWorkers).completeWork`,
  ensureImageExists: `${K}/images.(*imageManager).EnsureImageExists`,
  probe: `${K}/prober.(*prober).probe`,
  doProbe: `${K}/prober.(*worker).doProbe`,
  synchronize: `${K}/eviction.(*managerImpl).synchronize`,
  rankMemoryPressure: `${K}/eviction.rankMemoryPressure`,
  rankDiskPressure: `${K}/eviction.rankDiskPressureFunc`,
  rankPIDPressure: `${K}/eviction.rankPIDPressure`,
  evictPod: `${K}/eviction.(*managerImpl).evictPod`,
  killPodNow: `${K}.killPodNow`,
  garbageCollect: `${K}/images.(*realImageGCManager).GarbageCollect`,
  freeSpace: `${K}/images.(*realImageGCManager).freeSpace`,
} as const;

/** Played by the driver rather than a port: name → file and function header to find in the Go tree. */
export const DRIVER_ONLY: Record<string, { file: string; header: string }> = {
  [GO.handlePodAdditions]: { file: 'pkg/kubelet/kubelet.go', header: 'func (kl *Kubelet) HandlePodAdditions(' },
  [GO.createPodSandbox]: { file: 'pkg/kubelet/kuberuntime/kuberuntime_sandbox.go', header: 'func (m *kubeGenericRuntimeManager) createPodSandbox(' },
  [GO.startContainer]: { file: 'pkg/kubelet/kuberuntime/kuberuntime_container.go', header: 'func (m *kubeGenericRuntimeManager) startContainer(' },
  [GO.killContainer]: { file: 'pkg/kubelet/kuberuntime/kuberuntime_container.go', header: 'func (m *kubeGenericRuntimeManager) killContainer(' },
};

/** Drops the kubelet package prefix the way the kubelet map writes symbols. */
export function shortGoId(id: string): string {
  if (id.startsWith(`${K}/`)) return id.slice(K.length + 1);
  if (id.startsWith(`${K}.`)) return `kubelet.${id.slice(K.length + 1)}`;
  return id;
}
