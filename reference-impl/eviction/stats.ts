/**
 * The slice of the kubelet Summary API (/stats/summary) that eviction reads. Times are epoch
 * milliseconds; an absent time means "unknown" (Go's zero time).
 * @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.Summary
 */

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.MemoryStats */
export interface MemoryStats {
  time?: number;
  availableBytes?: number;
  workingSetBytes?: number;
}

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.FsStats */
export interface FsStats {
  time?: number;
  availableBytes?: number;
  capacityBytes?: number;
  usedBytes?: number;
  inodesFree?: number;
  inodes?: number;
  inodesUsed?: number;
}

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.ContainerStats */
export interface ContainerStats {
  name: string;
  memory?: MemoryStats;
  rootfs?: FsStats;
  logs?: FsStats;
}

/** A volume's usage; Go embeds FsStats, here it is a field. @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.VolumeStats */
export interface VolumeStats {
  name: string;
  fsStats: FsStats;
}

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.PodStats */
export interface PodStats {
  podRef: { name: string; namespace: string; uid: string };
  containers?: ContainerStats[];
  volumeStats?: VolumeStats[];
  memory?: MemoryStats;
  processStats?: { processCount?: number };
}

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.NodeStats */
export interface NodeStats {
  memory?: MemoryStats;
  /** "pods" here is the cgroup holding all pods, used for allocatableMemory.available. */
  systemContainers?: ContainerStats[];
  fs?: FsStats;
  runtime?: { imageFs?: FsStats };
  rlimit?: { time?: number; maxPID?: number; numOfRunningProcesses?: number };
}

export interface Summary {
  node: NodeStats;
  pods: PodStats[];
}

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.SystemContainerPods */
export const SystemContainerPods = 'pods';

/** @go k8s.io/kubernetes/pkg/kubelet/server/stats.SummaryProvider */
export interface SummaryProvider {
  get(updateStats: boolean): Summary;
}
