/**
 * Actual state of world: which volumes are attached, whether their device is globally mounted, and
 * which pods have them mounted (pkg/kubelet/volumemanager/cache/actual_state_of_world.go), as plain
 * maps. "Uncertain" records an operation that timed out: it may or may not have taken effect, so it
 * is retried on the way up and cleaned up on the way down.
 */
import type { VolumePluginMgr } from './plugin.js';
import type { DeviceMountState, UniquePodName, UniqueVolumeName, VolumeMountState, VolumeSpec } from './types.js';

/** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.MarkVolumeOpts */
export interface MarkVolumeOpts {
  podName: UniquePodName;
  podUID: string;
  volumeName: UniqueVolumeName;
  outerVolumeSpecName: string;
  volumeGidValue: string;
  volumeSpec: VolumeSpec;
  volumeMountState: VolumeMountState;
}

interface MountedPod {
  podName: UniquePodName;
  podUID: string;
  outerVolumeSpecName: string;
  volumeGidValue: string;
  volumeSpec: VolumeSpec;
  volumeMountStateForPod: VolumeMountState;
  /** Set when the pod was re-synced and its plugin wants SetUp to run again (e.g. downward API). */
  remountRequired: boolean;
}

interface AttachedVolumeObj {
  volumeName: UniqueVolumeName;
  spec: VolumeSpec;
  pluginName: string;
  pluginIsAttachable: boolean;
  devicePath: string;
  deviceMountState: DeviceMountState;
  mountedPods: Map<UniquePodName, MountedPod>;
}

/** One (volume, pod) mount as callers see it. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.MountedVolume */
export interface MountedVolume extends MountedPod {
  volumeName: UniqueVolumeName;
  pluginName: string;
  devicePath: string;
}

/** One attached volume as callers see it. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.AttachedVolume */
export interface AttachedVolume {
  volumeName: UniqueVolumeName;
  volumeSpec: VolumeSpec;
  pluginName: string;
  pluginIsAttachable: boolean;
  devicePath: string;
  deviceMountState: DeviceMountState;
}

/** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.AttachedVolume.DeviceMayBeMounted */
export function deviceMayBeMounted(v: AttachedVolume): boolean {
  return v.deviceMountState === 'DeviceGloballyMounted' || v.deviceMountState === 'DeviceMountUncertain';
}

/** The reason {@link ActualStateOfWorld.podExistsInVolume} attaches to its answer, as Go's typed errors. */
export type PodExistsReason = 'volumeNotAttached' | 'remountRequired' | undefined;

/**
 * Simplified: no reconstruction bookkeeping, SELinux contexts or online-resize sizes.
 * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.actualStateOfWorld
 */
export class ActualStateOfWorld {
  private readonly attachedVolumes = new Map<UniqueVolumeName, AttachedVolumeObj>();

  constructor(private readonly pluginMgr: VolumePluginMgr) {}

  /** Adds the volume, or updates its device path if known. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkVolumeAsAttached */
  markVolumeAsAttached(volumeName: UniqueVolumeName, volumeSpec: VolumeSpec, devicePath: string): void {
    const plugin = this.pluginMgr.findPluginBySpec(volumeSpec);
    const existing = this.attachedVolumes.get(volumeName);
    if (existing) {
      existing.devicePath = devicePath;
      return;
    }
    this.attachedVolumes.set(volumeName, {
      volumeName,
      spec: volumeSpec,
      pluginName: plugin.pluginName,
      pluginIsAttachable: plugin.canAttach(),
      devicePath,
      deviceMountState: 'DeviceNotMounted',
      mountedPods: new Map(),
    });
  }

  /** Refuses while pods still have it mounted. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkVolumeAsDetached */
  markVolumeAsDetached(volumeName: UniqueVolumeName): void {
    const v = this.attachedVolumes.get(volumeName);
    if (v && v.mountedPods.size === 0) this.attachedVolumes.delete(volumeName);
  }

  /**
   * Records (or updates) the pod's mount and clears any pending remount.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).AddPodToVolume
   */
  addPodToVolume(opts: MarkVolumeOpts): void {
    const v = this.attachedVolumes.get(opts.volumeName);
    if (!v) throw new Error(`no volume with the name "${opts.volumeName}" exists in the list of attached volumes`);
    const existing = v.mountedPods.get(opts.podName);
    const pod: MountedPod = existing ?? {
      podName: opts.podName,
      podUID: opts.podUID,
      outerVolumeSpecName: opts.outerVolumeSpecName,
      volumeGidValue: opts.volumeGidValue,
      volumeSpec: opts.volumeSpec,
      volumeMountStateForPod: opts.volumeMountState,
      remountRequired: false,
    };
    pod.remountRequired = false;
    pod.volumeMountStateForPod = opts.volumeMountState;
    v.mountedPods.set(opts.podName, pod);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkVolumeAsMounted */
  markVolumeAsMounted(opts: MarkVolumeOpts): void {
    this.addPodToVolume({ ...opts, volumeMountState: 'VolumeMounted' });
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkVolumeMountAsUncertain */
  markVolumeMountAsUncertain(opts: MarkVolumeOpts): void {
    this.addPodToVolume({ ...opts, volumeMountState: 'VolumeMountUncertain' });
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkVolumeAsUnmounted */
  markVolumeAsUnmounted(podName: UniquePodName, volumeName: UniqueVolumeName): void {
    const v = this.attachedVolumes.get(volumeName);
    if (!v) throw new Error(`no volume with the name "${volumeName}" exists in the list of attached volumes`);
    v.mountedPods.delete(podName);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).SetDeviceMountState */
  setDeviceMountState(volumeName: UniqueVolumeName, state: DeviceMountState, devicePath: string): void {
    const v = this.attachedVolumes.get(volumeName);
    if (!v) throw new Error(`no volume with the name "${volumeName}" exists in the list of attached volumes`);
    v.deviceMountState = state;
    if (devicePath !== '') v.devicePath = devicePath;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkDeviceAsMounted */
  markDeviceAsMounted(volumeName: UniqueVolumeName, devicePath: string): void {
    this.setDeviceMountState(volumeName, 'DeviceGloballyMounted', devicePath);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkDeviceAsUncertain */
  markDeviceAsUncertain(volumeName: UniqueVolumeName, devicePath: string): void {
    this.setDeviceMountState(volumeName, 'DeviceMountUncertain', devicePath);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkDeviceAsUnmounted */
  markDeviceAsUnmounted(volumeName: UniqueVolumeName): void {
    this.setDeviceMountState(volumeName, 'DeviceNotMounted', '');
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetDeviceMountState */
  getDeviceMountState(volumeName: UniqueVolumeName): DeviceMountState {
    return this.attachedVolumes.get(volumeName)?.deviceMountState ?? 'DeviceNotMounted';
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetVolumeMountState */
  getVolumeMountState(volumeName: UniqueVolumeName, podName: UniquePodName): VolumeMountState {
    return this.attachedVolumes.get(volumeName)?.mountedPods.get(podName)?.volumeMountStateForPod ?? 'VolumeNotMounted';
  }

  /** Without reconstruction nothing is ever "found on disk at startup". @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).IsVolumeReconstructed */
  isVolumeReconstructed(): boolean {
    return false;
  }

  /**
   * Flags every mount of the pod whose plugin wants SetUp re-run on resync.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).MarkRemountRequired
   */
  markRemountRequired(podName: UniquePodName): void {
    for (const v of this.attachedVolumes.values()) {
      const pod = v.mountedPods.get(podName);
      if (pod && this.pluginMgr.findPluginBySpec(pod.volumeSpec).requiresRemount()) pod.remountRequired = true;
    }
  }

  /**
   * Whether the pod has the volume mounted. An uncertain mount answers "no", so mounting is retried;
   * a remount request answers "yes, but remount".
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).PodExistsInVolume
   */
  podExistsInVolume(podName: UniquePodName, volumeName: UniqueVolumeName): { exists: boolean; devicePath: string; reason: PodExistsReason } {
    const v = this.attachedVolumes.get(volumeName);
    if (!v) return { exists: false, devicePath: '', reason: 'volumeNotAttached' };
    const pod = v.mountedPods.get(podName);
    if (pod) {
      if (pod.volumeMountStateForPod === 'VolumeMountUncertain') return { exists: false, devicePath: v.devicePath, reason: undefined };
      if (pod.remountRequired) return { exists: true, devicePath: v.devicePath, reason: 'remountRequired' };
    }
    return { exists: pod !== undefined, devicePath: v.devicePath, reason: undefined };
  }

  /** Mounted or uncertain still counts as "not removed". @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).PodRemovedFromVolume */
  podRemovedFromVolume(podName: UniquePodName, volumeName: UniqueVolumeName): boolean {
    const state = this.attachedVolumes.get(volumeName)?.mountedPods.get(podName)?.volumeMountStateForPod;
    return state !== 'VolumeMountUncertain' && state !== 'VolumeMounted';
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).VolumeExists */
  volumeExists(volumeName: UniqueVolumeName): boolean {
    return this.attachedVolumes.has(volumeName);
  }

  private mounted(filter: (p: MountedPod) => boolean): MountedVolume[] {
    const out: MountedVolume[] = [];
    for (const v of this.attachedVolumes.values()) {
      for (const p of v.mountedPods.values()) {
        if (filter(p)) out.push({ ...p, volumeName: v.volumeName, pluginName: v.pluginName, devicePath: v.devicePath });
      }
    }
    return out;
  }

  /** Certainly mounted only. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetMountedVolumes */
  getMountedVolumes(): MountedVolume[] {
    return this.mounted((p) => p.volumeMountStateForPod === 'VolumeMounted');
  }

  /** Mounted or uncertain: everything that may need unmounting. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetAllMountedVolumes */
  getAllMountedVolumes(): MountedVolume[] {
    return this.mounted((p) => p.volumeMountStateForPod === 'VolumeMounted' || p.volumeMountStateForPod === 'VolumeMountUncertain');
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetMountedVolumesForPod */
  getMountedVolumesForPod(podName: UniquePodName): MountedVolume[] {
    return this.mounted((p) => p.podName === podName && p.volumeMountStateForPod === 'VolumeMounted');
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetPossiblyMountedVolumesForPod */
  getPossiblyMountedVolumesForPod(podName: UniquePodName): MountedVolume[] {
    return this.mounted((p) => p.podName === podName && p.volumeMountStateForPod !== 'VolumeNotMounted');
  }

  private attached(filter: (v: AttachedVolumeObj) => boolean): AttachedVolume[] {
    return [...this.attachedVolumes.values()].filter(filter).map((v) => ({
      volumeName: v.volumeName,
      volumeSpec: v.spec,
      pluginName: v.pluginName,
      pluginIsAttachable: v.pluginIsAttachable,
      devicePath: v.devicePath,
      deviceMountState: v.deviceMountState,
    }));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetGloballyMountedVolumes */
  getGloballyMountedVolumes(): AttachedVolume[] {
    return this.attached((v) => v.deviceMountState === 'DeviceGloballyMounted');
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetAttachedVolumes */
  getAttachedVolumes(): AttachedVolume[] {
    return this.attached(() => true);
  }

  /** Attached, with no pod mounting it: candidates for unmount-device and detach. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*actualStateOfWorld).GetUnmountedVolumes */
  getUnmountedVolumes(): AttachedVolume[] {
    return this.attached((v) => v.mountedPods.size === 0);
  }
}
