/**
 * Node allocatable: what is left of capacity for pods once system and kube daemons and the hard
 * eviction thresholds have taken their reservation.
 */
import type { ResourceList } from '../api/index.js';
import { parseResourceList, toResourceList, type NumericResources } from './quantities.js';
import { parseQuantity, intValue } from '../api/index.js';

export type ThresholdOperator = 'LessThan';

/** A hard eviction threshold: either an absolute quantity or a fraction of capacity. */
export interface EvictionThreshold {
  signal: string;
  operator: ThresholdOperator | string;
  value: { quantity?: string; percentage?: number };
}

/** @go k8s.io/kubernetes/pkg/kubelet/cm.NodeAllocatableConfig */
export interface NodeAllocatableConfig {
  kubeReserved?: ResourceList;
  systemReserved?: ResourceList;
  hardEvictionThresholds?: EvictionThreshold[];
}

/**
 * The absolute value of a threshold against a capacity. Percentages are float32 in Go, so the
 * fraction is rounded to single precision before multiplying (5% of 10Gi is 536870920, not ...912).
 * @go k8s.io/kubernetes/pkg/kubelet/eviction/api.GetThresholdQuantity
 */
export function getThresholdQuantity(value: EvictionThreshold['value'], capacity: number, field = 'threshold'): number {
  if (value.quantity !== undefined) return parseQuantity(value.quantity, `${field}.quantity`);
  const pct = value.percentage ?? 0;
  if (!(pct >= 0 && pct <= 1)) throw new RangeError(`${field}.percentage: Invalid value: ${pct}: must be between 0 and 1`);
  return Math.trunc(intValue(capacity) * Math.fround(pct));
}

/**
 * Only LessThan thresholds on memory.available and nodefs.available reserve anything, against memory
 * and ephemeral-storage capacity respectively. No thresholds means no reservation at all.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.hardEvictionReservation
 */
export function hardEvictionReservation(thresholds: EvictionThreshold[] | undefined, capacity: NumericResources): NumericResources | undefined {
  if (!thresholds || thresholds.length === 0) return undefined;
  const out: NumericResources = new Map();
  thresholds.forEach((t, i) => {
    if (t.operator !== 'LessThan') return;
    const resource = t.signal === 'memory.available' ? 'memory' : t.signal === 'nodefs.available' ? 'ephemeral-storage' : undefined;
    if (resource) out.set(resource, getThresholdQuantity(t.value, capacity.get(resource) ?? 0, `hardEvictionThresholds[${i}].value`));
  });
  return out;
}

/**
 * The node-allocatable part of the container manager, fed with node capacity.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.containerManagerImpl
 */
export class NodeAllocatable {
  private readonly capacity: NumericResources;
  private readonly kubeReserved: NumericResources;
  private readonly systemReserved: NumericResources;

  constructor(capacity: ResourceList, private readonly config: NodeAllocatableConfig) {
    this.capacity = parseResourceList(capacity, 'capacity');
    this.kubeReserved = parseResourceList(config.kubeReserved, 'kubeReserved');
    this.systemReserved = parseResourceList(config.systemReserved, 'systemReserved');
    for (const [field, list] of [['kubeReserved', this.kubeReserved], ['systemReserved', this.systemReserved]] as const) {
      for (const [name, v] of list) if (v < 0) throw new RangeError(`${field}[${name}]: Invalid value: must be non-negative`);
    }
  }

  /**
   * system-reserved + kube-reserved + hard eviction, per resource present in capacity; zero
   * entries are left out.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).GetNodeAllocatableReservation
   */
  getNodeAllocatableReservation(): ResourceList {
    return toResourceList(this.reservation());
  }

  private reservation(): NumericResources {
    const eviction = hardEvictionReservation(this.config.hardEvictionThresholds, this.capacity);
    const out: NumericResources = new Map();
    for (const name of this.capacity.keys()) {
      const v = (this.systemReserved.get(name) ?? 0) + (this.kubeReserved.get(name) ?? 0) + (eviction?.get(name) ?? 0);
      if (v !== 0) out.set(name, v);
    }
    return out;
  }

  /**
   * capacity − system-reserved − kube-reserved, floored at zero. Eviction thresholds are not
   * subtracted: this is the value enforced on the kubepods cgroup.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).GetNodeAllocatableAbsolute
   */
  getNodeAllocatableAbsolute(): ResourceList {
    const out: NumericResources = new Map();
    for (const [name, cap] of this.capacity) {
      const v = cap - (this.systemReserved.get(name) ?? 0) - (this.kubeReserved.get(name) ?? 0);
      out.set(name, Math.max(0, v));
    }
    return toResourceList(out);
  }

  /**
   * Rejects a configuration whose reservation exceeds capacity for any resource.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).validateNodeAllocatable
   */
  validateNodeAllocatable(): void {
    const problems: string[] = [];
    for (const [name, reserved] of this.reservation()) {
      const cap = this.capacity.get(name) ?? 0;
      if (cap - reserved < 0) problems.push(`${name}: reserved ${reserved} exceeds capacity ${cap}`);
    }
    if (problems.length > 0) throw new Error(`node allocatable config reserves more than the node has: ${problems.join('; ')}`);
  }
}
