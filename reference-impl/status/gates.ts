/**
 * The feature gates the status code reads, with their v1.28 defaults (pkg/features/kube_features.go).
 * Passed in explicitly where Go reads the process-wide gate.
 */
export interface StatusFeatureGates {
  /** Beta in 1.28: the kubelet may add the DisruptionTarget condition and shares it with the control plane. */
  PodDisruptionConditions: boolean;
  /** Alpha in 1.28: the kubelet owns a PodReadyToStartContainers condition. */
  PodReadyToStartContainersCondition: boolean;
  /** Alpha in 1.28: status.hostIPs lists both node IPs on dual-stack nodes. */
  PodHostIPs: boolean;
}

export const DEFAULT_GATES: Readonly<StatusFeatureGates> = {
  PodDisruptionConditions: true,
  PodReadyToStartContainersCondition: false,
  PodHostIPs: false,
};
