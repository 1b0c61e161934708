/**
 * Shapes the volume manager reads that reference-impl/api does not define: persistent volumes and
 * claims, the two in-tree sources the Go tests use (GCE PD, RBD), block devices on containers, and
 * the kubelet's internal volume spec and state enums.
 */
import type { Container, Node, Pod, Volume } from '../api/index.js';

export type PersistentVolumeMode = 'Filesystem' | 'Block';

/** A pod volume, plus the two attachable in-tree sources the Go fixtures use. */
export type PodVolume = Volume & {
  gcePersistentDisk?: { pdName: string };
  rbd?: { image: string };
};

/** A container that may also consume raw block devices. */
export type ContainerWithDevices = Container & { volumeDevices?: { name: string; devicePath: string }[] };

export interface PersistentVolume {
  metadata: { name: string; uid?: string; annotations?: Record<string, string> };
  spec: {
    claimRef?: { name: string; namespace?: string; uid?: string };
    volumeMode?: PersistentVolumeMode;
    capacity?: { storage?: string };
    gcePersistentDisk?: { pdName: string };
    rbd?: { image: string };
  };
}

export interface PersistentVolumeClaim {
  metadata: { name: string; namespace?: string; uid?: string; deletionTimestamp?: string };
  spec: { volumeName?: string; volumeMode?: PersistentVolumeMode };
  status?: { phase?: 'Pending' | 'Bound' | 'Lost'; capacity?: { storage?: string } };
}

/** The node object with the attach/detach controller's view of attached volumes. */
export type NodeWithVolumes = Node & { status?: NonNullable<Node['status']> & { volumesAttached?: { name: string; devicePath: string }[] } };

/** What the volume manager reads from the API server. */
export interface VolumeAPIReader {
  getPersistentVolumeClaim(namespace: string, name: string): PersistentVolumeClaim | undefined;
  getPersistentVolume(name: string): PersistentVolume | undefined;
  getNode(): NodeWithVolumes | undefined;
}

/** A plain in-memory {@link VolumeAPIReader}. */
export class FakeVolumeAPI implements VolumeAPIReader {
  constructor(
    readonly objects: { node?: NodeWithVolumes; pvs?: PersistentVolume[]; pvcs?: PersistentVolumeClaim[] } = {},
  ) {}
  getPersistentVolumeClaim(namespace: string, name: string) {
    return this.objects.pvcs?.find((c) => c.metadata.name === name && (c.metadata.namespace ?? '') === namespace);
  }
  getPersistentVolume(name: string) {
    return this.objects.pvs?.find((v) => v.metadata.name === name);
  }
  getNode() {
    return this.objects.node;
  }
}

/**
 * The kubelet's internal handle on a volume: either a pod's inline volume or a bound PV.
 * @go k8s.io/kubernetes/pkg/volume.Spec
 */
export interface VolumeSpec {
  volume?: PodVolume;
  persistentVolume?: PersistentVolume;
  readOnly: boolean;
}

/** @go k8s.io/kubernetes/pkg/volume.(*Spec).Name */
export function specName(spec: VolumeSpec): string {
  return spec.volume?.name ?? spec.persistentVolume?.metadata.name ?? '';
}

/** Block only for a PV that says so; everything else is a filesystem. @go k8s.io/kubernetes/pkg/volume/util.CheckVolumeModeFilesystem */
export function isFilesystemVolume(spec: VolumeSpec): boolean {
  return spec.persistentVolume?.spec.volumeMode !== 'Block';
}

/** `plugin/volume` for attachable or device-mountable volumes, `plugin/pod-volume` otherwise. */
export type UniqueVolumeName = string;
/** The pod's UID. */
export type UniquePodName = string;

/** @go k8s.io/kubernetes/pkg/volume/util.GetUniquePodName */
export function getUniquePodName(pod: Pod): UniquePodName {
  return pod.metadata.uid ?? '';
}

/** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.VolumeMountState */
export type VolumeMountState = 'VolumeMounted' | 'VolumeMountUncertain' | 'VolumeNotMounted';
/** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.DeviceMountState */
export type DeviceMountState = 'DeviceGloballyMounted' | 'DeviceMountUncertain' | 'DeviceNotMounted';

/**
 * The operation may still be completing (a timeout): the volume may or may not be mounted.
 * @go k8s.io/kubernetes/pkg/volume/util/types.UncertainProgressError
 */
export class UncertainProgressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UncertainProgressError';
  }
}

/** Any other error means the operation has finished, unsuccessfully. @go k8s.io/kubernetes/pkg/volume/util/types.IsOperationFinishedError */
export function isOperationFinishedError(err: unknown): boolean {
  return !(err instanceof UncertainProgressError);
}

/** Thrown for bad volume input, naming the field as the API server would. */
export class VolumeSpecError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'VolumeSpecError';
  }
}
