/**
 * Eviction signals and thresholds: what the kubelet measures (memory.available, nodefs.available…)
 * and the "signal < value" rules, hard or with a grace period, configured by --eviction-hard/-soft.
 */

/** @go k8s.io/kubernetes/pkg/kubelet/eviction/api.Signal */
export type Signal =
  | 'memory.available'
  | 'nodefs.available'
  | 'nodefs.inodesFree'
  | 'imagefs.available'
  | 'imagefs.inodesFree'
  | 'allocatableMemory.available'
  | 'pid.available';

/** @go k8s.io/kubernetes/pkg/kubelet/eviction/api.SignalMemoryAvailable */
export const SignalMemoryAvailable: Signal = 'memory.available';
export const SignalNodeFsAvailable: Signal = 'nodefs.available';
export const SignalNodeFsInodesFree: Signal = 'nodefs.inodesFree';
export const SignalImageFsAvailable: Signal = 'imagefs.available';
export const SignalImageFsInodesFree: Signal = 'imagefs.inodesFree';
export const SignalAllocatableMemoryAvailable: Signal = 'allocatableMemory.available';
export const SignalPIDAvailable: Signal = 'pid.available';

/** The only operator: the signal's available amount is below the threshold. @go k8s.io/kubernetes/pkg/kubelet/eviction/api.ThresholdOperator */
export type ThresholdOperator = 'LessThan';
export const OpLessThan: ThresholdOperator = 'LessThan';

/** Every signal is compared with LessThan. @go k8s.io/kubernetes/pkg/kubelet/eviction/api.OpForSignal */
export const OpForSignal: Readonly<Record<Signal, ThresholdOperator>> = {
  'memory.available': OpLessThan,
  'nodefs.available': OpLessThan,
  'nodefs.inodesFree': OpLessThan,
  'imagefs.available': OpLessThan,
  'imagefs.inodesFree': OpLessThan,
  'allocatableMemory.available': OpLessThan,
  'pid.available': OpLessThan,
};

/**
 * An absolute amount or a fraction of capacity; when `quantity` is set it wins.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction/api.ThresholdValue
 * Simplified: the quantity is a number in base units (bytes, inodes, PIDs), not a resource.Quantity.
 */
export interface ThresholdValue {
  quantity?: number;
  /** A float32 fraction (0.1 for "10%"), 0 when unused. */
  percentage: number;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction/api.Threshold */
export interface Threshold {
  signal: Signal;
  operator: ThresholdOperator;
  value: ThresholdValue;
  /** Milliseconds the threshold must stay met before it drives eviction; 0 for a hard threshold. */
  gracePeriod: number;
  /** Once met, the threshold stays met until available exceeds value + minReclaim. */
  minReclaim?: ThresholdValue;
}

/**
 * The threshold in base units: the quantity, or the percentage of `capacity` rounded toward zero.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction/api.GetThresholdQuantity
 */
export function getThresholdQuantity(value: ThresholdValue, capacity: number | undefined): number {
  if (value.quantity !== undefined) return value.quantity;
  // Go multiplies in float64 the float32 percentage by the integer capacity, then truncates.
  return Math.trunc((capacity ?? 0) * value.percentage);
}

/** Linux defaults for --eviction-hard. @go k8s.io/kubernetes/pkg/kubelet/eviction.DefaultEvictionHard */
export const DefaultEvictionHard: Readonly<Record<string, string>> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
};
