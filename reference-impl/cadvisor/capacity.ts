/**
 * Turns what cAdvisor knows about the machine into the node's resource capacity, the list that
 * `kubectl get node -o json` shows under status.capacity.
 */
import type { ResourceList } from '../api/index.js';
import { formatQuantity } from './quantity-format.js';

/** One hugepage pool: page size in KiB and how many pages are reserved. cAdvisor info/v1 HugePagesInfo. */
export interface HugePagesInfo {
  pageSize: number;
  numPages: number;
}

/** The fields of cAdvisor's info/v1 MachineInfo that capacity is built from. */
export interface MachineInfo {
  numCores: number;
  memoryCapacity: number;
  hugePages?: HugePagesInfo[];
}

/** The part of cAdvisor's info/v2 FsInfo used for ephemeral storage. */
export interface FsInfo {
  capacity: number;
}

/** A machine-info field that is not a non-negative whole number. */
export class MachineInfoError extends Error {
  constructor(readonly field: string, readonly value: unknown) {
    super(`${field}: Invalid value: ${JSON.stringify(value)}: must be a non-negative integer`);
    this.name = 'MachineInfoError';
  }
}

/** Go reads these as int/uint64; negative or fractional values cannot come from cAdvisor. */
function wholeNumber(value: unknown, field: string): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new MachineInfoError(field, value);
  return BigInt(value);
}

/**
 * cpu = cores in thousandths, memory = bytes, and one `hugepages-<page size>` entry per pool holding
 * pageSize×1024×numPages bytes.
 * @go k8s.io/kubernetes/pkg/kubelet/cadvisor.CapacityFromMachineInfo
 * Simplified: numbers must be below 2^53 (JavaScript safe integers).
 */
export function capacityFromMachineInfo(info: MachineInfo): ResourceList {
  const capacity: ResourceList = {
    cpu: formatQuantity(wholeNumber(info.numCores, 'machineInfo.numCores') * 1000n, -3, 'DecimalSI'),
    memory: formatQuantity(wholeNumber(info.memoryCapacity, 'machineInfo.memoryCapacity'), 0, 'BinarySI'),
  };
  (info.hugePages ?? []).forEach((pool, i) => {
    const pageSizeBytes = wholeNumber(pool.pageSize, `machineInfo.hugePages[${i}].pageSize`) * 1024n;
    const poolBytes = pageSizeBytes * wholeNumber(pool.numPages, `machineInfo.hugePages[${i}].numPages`);
    capacity[hugePageResourceName(pageSizeBytes)] = formatQuantity(poolBytes, 0, 'BinarySI');
  });
  return capacity;
}

/**
 * "hugepages-" followed by the page size as a BinarySI quantity ("hugepages-2Mi").
 * @go k8s.io/kubernetes/pkg/apis/core/v1/helper.HugePageResourceName
 */
export function hugePageResourceName(pageSizeBytes: bigint): string {
  return `hugepages-${formatQuantity(pageSizeBytes, 0, 'BinarySI')}`;
}

/**
 * The node's ephemeral-storage capacity is the size of the root filesystem.
 * @go k8s.io/kubernetes/pkg/kubelet/cadvisor.EphemeralStorageCapacityFromFsInfo
 */
export function ephemeralStorageCapacityFromFsInfo(info: FsInfo): ResourceList {
  return { 'ephemeral-storage': formatQuantity(wholeNumber(info.capacity, 'fsInfo.capacity'), 0, 'BinarySI') };
}
