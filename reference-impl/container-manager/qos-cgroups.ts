/**
 * The QoS-level cgroups kubepods/burstable and kubepods/besteffort, recomputed from the active pods.
 */
import type { Pod, PodQOSClass, ResourceList } from '../api/index.js';
import { parseQuantity } from '../api/index.js';
import { milliCPUToShares, MIN_SHARES } from './cpu.js';
import { podRequests } from './pod-resources.js';
import { getPodQOS } from './qos.js';
import { toInt, toMilli } from './quantities.js';
import { CGROUP2_MEMORY_MIN, type ResourceConfig } from './resource-config.js';

export type QOSConfigs = Record<PodQOSClass, ResourceConfig>;

export interface QOSContainerManagerOptions {
  /** Percent of requests to reserve per resource (--qos-reserved, needs the QOSReserved gate). */
  qosReserved?: { memory?: number };
  /** Node allocatable, read when memory is reserved. */
  getNodeAllocatable?: () => ResourceList;
  /** MemoryQoS gate on a cgroup v2 host. */
  memoryQoS?: boolean;
}

/**
 * Computes what the kubelet writes to the QoS cgroups every minute.
 * Simplified: no cgroup writes (updateCgroups returns the settings) and no retry from real memory usage.
 * @go k8s.io/kubernetes/pkg/kubelet/cm.qosContainerManagerImpl
 */
export class QOSContainerManager {
  constructor(private readonly activePods: () => Pod[], private readonly opts: QOSContainerManagerOptions = {}) {
    const pct = opts.qosReserved?.memory;
    if (pct !== undefined && !(pct >= 0 && pct <= 100)) {
      throw new RangeError(`qosReserved[memory]: Invalid value: ${pct}: must be a percentage between 0 and 100`);
    }
  }

  /**
   * Recomputes cpu.shares (and optionally memory settings) for each QoS class.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*qosContainerManagerImpl).UpdateCgroups
   */
  updateCgroups(): QOSConfigs {
    const configs: QOSConfigs = { Guaranteed: {}, Burstable: {}, BestEffort: {} };
    this.setCPUCgroupConfig(configs);
    if (this.opts.memoryQoS) this.setMemoryQoS(configs);
    if (this.opts.qosReserved?.memory !== undefined) this.setMemoryReserve(configs, this.opts.qosReserved.memory);
    return configs;
  }

  /**
   * BestEffort always gets 2 shares; Burstable gets the shares of the summed cpu requests of all
   * burstable pods. Guaranteed pods live directly under kubepods and are not touched here.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*qosContainerManagerImpl).setCPUCgroupConfig
   */
  setCPUCgroupConfig(configs: QOSConfigs): void {
    let burstableMilliCPU = 0;
    for (const pod of this.activePods()) {
      if (getPodQOS(pod) !== 'Burstable') continue;
      const cpu = podRequests(pod).get('cpu');
      if (cpu !== undefined) burstableMilliCPU += toMilli(cpu);
    }
    configs.BestEffort.cpuShares = MIN_SHARES;
    configs.Burstable.cpuShares = milliCPUToShares(burstableMilliCPU);
  }

  /**
   * Summed memory requests of the Guaranteed and Burstable pods.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*qosContainerManagerImpl).getQoSMemoryRequests
   */
  getQoSMemoryRequests(): { Guaranteed: number; Burstable: number } {
    const sums = { Guaranteed: 0, Burstable: 0 };
    for (const pod of this.activePods()) {
      const qos = getPodQOS(pod);
      if (qos === 'BestEffort') continue;
      const mem = podRequests(pod).get('memory');
      if (mem !== undefined) sums[qos] += toInt(mem);
    }
    return sums;
  }

  /**
   * cgroup v2 memory.min: burstable protects the burstable requests; the parent kubepods cgroup
   * (the "Guaranteed" entry) protects guaranteed plus burstable requests.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*qosContainerManagerImpl).setMemoryQoS
   */
  setMemoryQoS(configs: QOSConfigs): void {
    const sums = this.getQoSMemoryRequests();
    const burstableMin = sums.Burstable;
    const guaranteedMin = sums.Guaranteed + burstableMin;
    if (burstableMin > 0) configs.Burstable.unified = { ...configs.Burstable.unified, [CGROUP2_MEMORY_MIN]: String(burstableMin) };
    if (guaranteedMin > 0) configs.Guaranteed.unified = { ...configs.Guaranteed.unified, [CGROUP2_MEMORY_MIN]: String(guaranteedMin) };
  }

  /**
   * Caps the lower QoS classes so that `percentReserve` of the requests of higher classes stays free:
   * burstable ≤ allocatable − reserve×guaranteed, besteffort ≤ that − reserve×burstable.
   * @go k8s.io/kubernetes/pkg/kubelet/cm.(*qosContainerManagerImpl).setMemoryReserve
   */
  setMemoryReserve(configs: QOSConfigs, percentReserve: number): void {
    const allocatableText = this.opts.getNodeAllocatable?.().memory;
    if (allocatableText === undefined) return;
    const allocatable = toInt(parseQuantity(allocatableText, 'allocatable[memory]'));
    if (allocatable === 0) return;
    const sums = this.getQoSMemoryRequests();
    const burstableLimit = allocatable - Math.trunc((sums.Guaranteed * percentReserve) / 100);
    const bestEffortLimit = burstableLimit - Math.trunc((sums.Burstable * percentReserve) / 100);
    configs.Burstable.memory = burstableLimit;
    configs.BestEffort.memory = bestEffortLimit;
  }
}
