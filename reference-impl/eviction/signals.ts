/**
 * What each signal means for the node: which condition it raises when met and which resource evicting
 * a pod would give back.
 */
import type { Signal } from './api.js';

/** @go k8s.io/api/core/v1.NodeConditionType */
export type NodeConditionType = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure' | 'Ready' | (string & {});

/** Resource names eviction reclaims; inodes and pids are internal to eviction. */
export type ReclaimResource = 'memory' | 'ephemeral-storage' | 'inodes' | 'pids';

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.signalToNodeCondition */
export const signalToNodeCondition: Readonly<Record<Signal, NodeConditionType>> = {
  'memory.available': 'MemoryPressure',
  'allocatableMemory.available': 'MemoryPressure',
  'imagefs.available': 'DiskPressure',
  'nodefs.available': 'DiskPressure',
  'imagefs.inodesFree': 'DiskPressure',
  'nodefs.inodesFree': 'DiskPressure',
  'pid.available': 'PIDPressure',
};

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.signalToResource */
export const signalToResource: Readonly<Record<Signal, ReclaimResource>> = {
  'memory.available': 'memory',
  'allocatableMemory.available': 'memory',
  'imagefs.available': 'ephemeral-storage',
  'imagefs.inodesFree': 'inodes',
  'nodefs.available': 'ephemeral-storage',
  'nodefs.inodesFree': 'inodes',
  'pid.available': 'pids',
};

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.validSignal */
export function validSignal(signal: string): signal is Signal {
  return Object.prototype.hasOwnProperty.call(signalToResource, signal);
}
