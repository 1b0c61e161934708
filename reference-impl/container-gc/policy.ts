/**
 * The container GC policy and the thin wrapper the kubelet holds (pkg/kubelet/container/container_gc.go):
 * it validates the policy once and forwards each GC round to the runtime manager, telling it whether
 * all pod sources have been seen (before that, "pod not known" may just mean "not loaded yet").
 */

export interface GCPolicy {
  /** Dead containers younger than this are kept; 0 means no age limit. Milliseconds. */
  minAgeMs: number;
  /** Dead containers kept per (pod UID, container name); negative means no limit. */
  maxPerPodContainer: number;
  /** Dead containers kept on the node; negative means no limit. */
  maxContainers: number;
}

/** The kubelet flag defaults: --minimum-container-ttl-duration=0, --maximum-dead-containers-per-container=1, --maximum-dead-containers=-1. */
export const DEFAULT_GC_POLICY: Readonly<GCPolicy> = { minAgeMs: 0, maxPerPodContainer: 1, maxContainers: -1 };

/** Thrown for a policy the kubelet would refuse to start with; `field` names the setting. */
export class GCPolicyError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'GCPolicyError';
  }
}

/**
 * Go only rejects a negative MinAge; the integer checks stand in for Go's static types.
 * @go k8s.io/kubernetes/pkg/kubelet/container.NewContainerGC
 */
export function validateGCPolicy(policy: GCPolicy): GCPolicy {
  if (typeof policy.minAgeMs !== 'number' || !Number.isFinite(policy.minAgeMs) || policy.minAgeMs < 0) {
    throw new GCPolicyError('minAgeMs', `Invalid value: ${policy.minAgeMs}: invalid minimum garbage collection age`);
  }
  for (const field of ['maxPerPodContainer', 'maxContainers'] as const) {
    if (!Number.isInteger(policy[field])) throw new GCPolicyError(field, `Invalid value: ${policy[field]}: must be an integer`);
  }
  return { ...policy };
}

/** The runtime-side entry point the wrapper calls (kubeGenericRuntimeManager.GarbageCollect). */
export interface GarbageCollector {
  garbageCollect(policy: GCPolicy, allSourcesReady: boolean, evictNonDeletedPods: boolean): void;
}

/**
 * Runs every minute from Kubelet.StartGarbageCollection.
 * @go k8s.io/kubernetes/pkg/kubelet/container.realContainerGC
 */
export class RealContainerGC {
  private readonly policy: GCPolicy;

  /** @go k8s.io/kubernetes/pkg/kubelet/container.NewContainerGC */
  constructor(private readonly runtime: GarbageCollector, policy: GCPolicy, private readonly allSourcesReady: () => boolean) {
    this.policy = validateGCPolicy(policy);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/container.(*realContainerGC).GarbageCollect */
  garbageCollect(): void {
    this.runtime.garbageCollect(this.policy, this.allSourcesReady(), false);
  }

  /**
   * Used by the eviction manager under disk pressure: also removes containers of pods that are
   * terminated but not yet deleted.
   * @go k8s.io/kubernetes/pkg/kubelet/container.(*realContainerGC).DeleteAllUnusedContainers
   */
  deleteAllUnusedContainers(): void {
    this.runtime.garbageCollect(this.policy, this.allSourcesReady(), true);
  }
}
