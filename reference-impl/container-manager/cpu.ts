/**
 * CPU requests and limits turned into CFS cgroup values, and hugepage limits by page size.
 */
import { parseQuantity, QuantityError } from '../api/index.js';
import type { ResourceList } from '../api/index.js';
import { toInt } from './quantities.js';

/** Kernel bounds for cpu.shares. */
export const MIN_SHARES = 2;
export const MAX_SHARES = 262144;
export const SHARES_PER_CPU = 1024;
export const MILLI_CPU_TO_CPU = 1000;
/** Default CFS period, 100ms in microseconds. */
export const QUOTA_PERIOD = 100000;
/** Smallest quota the kernel accepts, 1ms in microseconds. */
export const MIN_QUOTA_PERIOD = 1000;

/** Feature gates the ports consult; all default to their v1.28 defaults (off). */
export interface FeatureGates {
  /** Alpha in v1.28: honour a custom cpu.cfs_period_us instead of always using 100ms. */
  CPUCFSQuotaPeriod?: boolean;
}

/**
 * cpu.shares for a cpu request: 1024 per core, never below 2 (which is also what zero maps to, so a
 * request-less cgroup gets the kernel minimum rather than the runtime default of 1024) nor above 262144.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.MilliCPUToShares
 */
export function milliCPUToShares(milliCPU: number): number {
  if (milliCPU === 0) return MIN_SHARES;
  const shares = Math.trunc((milliCPU * SHARES_PER_CPU) / MILLI_CPU_TO_CPU);
  return Math.min(MAX_SHARES, Math.max(MIN_SHARES, shares));
}

/**
 * cpu.cfs_quota_us for a cpu limit over `period` microseconds, at least 1ms. Zero means no limit.
 * Unless the CPUCFSQuotaPeriod gate is on, the period is forced to 100ms whatever was passed.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.MilliCPUToQuota
 */
export function milliCPUToQuota(milliCPU: number, period: number, gates: FeatureGates = {}): number {
  if (milliCPU === 0) return 0;
  const effectivePeriod = gates.CPUCFSQuotaPeriod ? period : QUOTA_PERIOD;
  const quota = Math.trunc((milliCPU * effectivePeriod) / MILLI_CPU_TO_CPU);
  return Math.max(quota, MIN_QUOTA_PERIOD);
}

const HUGEPAGES_PREFIX = 'hugepages-';

/**
 * Sums `hugepages-<size>` entries by page size in bytes; other resources are ignored.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.HugePageLimits
 * An unparseable page size throws; Go files it under size 0, but the API server rejects such names.
 * Simplified: invalid hugepage names are an error rather than silently ignored.
 */
export function hugePageLimits(list: ResourceList | Map<string, number>, field = 'resources'): Map<number, number> {
  const out = new Map<number, number>();
  const entries = list instanceof Map ? [...list] : Object.entries(list).map(([k, v]) => [k, parseQuantity(v, `${field}[${k}]`)] as const);
  for (const [name, value] of entries) {
    if (!name.startsWith(HUGEPAGES_PREFIX)) continue;
    const sizeText = name.slice(HUGEPAGES_PREFIX.length);
    let pageSize: number;
    try {
      pageSize = toInt(parseQuantity(sizeText, `${field}[${name}]`));
    } catch (e) {
      throw e instanceof QuantityError ? e : new QuantityError(`${field}[${name}]`, sizeText);
    }
    out.set(pageSize, (out.get(pageSize) ?? 0) + toInt(value));
  }
  return out;
}
