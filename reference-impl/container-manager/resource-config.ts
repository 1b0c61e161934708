/**
 * The pod-level cgroup settings the kubelet writes under kubepods/<qos>/pod<uid>.
 */
import type { Pod } from '../api/index.js';
import { milliCPUToQuota, milliCPUToShares, hugePageLimits, MIN_SHARES, type FeatureGates } from './cpu.js';
import { podLimits, podRequests } from './pod-resources.js';
import { getPodQOS } from './qos.js';
import { toInt, toMilli } from './quantities.js';

/** cgroup v2 key for guaranteed memory. */
export const CGROUP2_MEMORY_MIN = 'memory.min';

/**
 * Cgroup values; an absent field means "leave as is".
 * @go k8s.io/kubernetes/pkg/kubelet/cm.ResourceConfig
 */
export interface ResourceConfig {
  /** Memory limit in bytes. */
  memory?: number;
  cpuShares?: number;
  /** CFS quota in microseconds; -1 means unlimited. */
  cpuQuota?: number;
  /** CFS period in microseconds. */
  cpuPeriod?: number;
  /** Page size in bytes → limit in bytes. */
  hugePageLimit?: Map<number, number>;
  pidsLimit?: number;
  /** Raw cgroup v2 files. */
  unified?: Record<string, string>;
}

/**
 * Guaranteed pods get shares, quota, period and memory limit. Burstable pods always get shares, and
 * quota/period or memory limit only when every container declared that limit. BestEffort pods get the
 * minimum 2 shares. With enforceMemoryQoS, memory.min is set to the summed memory request.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.ResourceConfigForPod
 * Simplified: InPlacePodVerticalScaling (alpha, off in v1.28) is not modelled.
 */
export function resourceConfigForPod(
  pod: Pod,
  enforceCPULimits: boolean,
  cpuPeriod: number,
  enforceMemoryQoS: boolean,
  gates: FeatureGates = {},
): ResourceConfig {
  const reqs = podRequests(pod);
  let cpuLimitsDeclared = true;
  let memoryLimitsDeclared = true;
  const limits = podLimits(pod, {
    containerFn: (res) => {
      if (!res.get('cpu')) cpuLimitsDeclared = false;
      if (!res.get('memory')) memoryLimitsDeclared = false;
    },
  });

  const cpuRequests = reqs.has('cpu') ? toMilli(reqs.get('cpu')!) : 0;
  const cpuLimits = limits.has('cpu') ? toMilli(limits.get('cpu')!) : 0;
  const memoryLimits = limits.has('memory') ? toInt(limits.get('memory')!) : 0;

  const cpuShares = milliCPUToShares(cpuRequests);
  const cpuQuota = enforceCPULimits ? milliCPUToQuota(cpuLimits, cpuPeriod, gates) : -1;

  const result: ResourceConfig = {};
  const qos = getPodQOS(pod);
  if (qos === 'Guaranteed') {
    Object.assign(result, { cpuShares, cpuQuota, cpuPeriod, memory: memoryLimits });
  } else if (qos === 'Burstable') {
    result.cpuShares = cpuShares;
    if (cpuLimitsDeclared) Object.assign(result, { cpuQuota, cpuPeriod });
    if (memoryLimitsDeclared) result.memory = memoryLimits;
  } else {
    result.cpuShares = MIN_SHARES;
  }
  result.hugePageLimit = hugePageLimits(reqs);

  if (enforceMemoryQoS) {
    const memoryMin = reqs.has('memory') ? toInt(reqs.get('memory')!) : 0;
    if (memoryMin > 0) result.unified = { [CGROUP2_MEMORY_MIN]: String(memoryMin) };
  }
  return result;
}
