/**
 * Desired state of world: the volumes this node's pods need, attached and mounted into which pods
 * (pkg/kubelet/volumemanager/cache/desired_state_of_world.go), as plain maps.
 */
import type { Pod } from '../api/index.js';
import type { VolumePluginMgr } from './plugin.js';
import { specName, type UniquePodName, type UniqueVolumeName, type VolumeSpec } from './types.js';

/** One (volume, pod) pair the reconciler should make true. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.VolumeToMount */
export interface VolumeToMount {
  volumeName: UniqueVolumeName;
  podName: UniquePodName;
  pod: Pod;
  volumeSpec: VolumeSpec;
  /** The name in pod.spec.volumes. */
  outerVolumeSpecName: string;
  pluginIsAttachable: boolean;
  pluginIsDeviceMountable: boolean;
  volumeGidValue: string;
  /** The node status lists the volume in volumesInUse, so the controller will not detach it. */
  reportedInUse: boolean;
  /** Filled in by the reconciler from the actual state. */
  devicePath: string;
}

interface DesiredVolume {
  volumeName: UniqueVolumeName;
  pluginIsAttachable: boolean;
  pluginIsDeviceMountable: boolean;
  volumeGidValue: string;
  reportedInUse: boolean;
  podsToMount: Map<UniquePodName, { pod: Pod; volumeSpec: VolumeSpec; outerVolumeSpecName: string }>;
}

/**
 * Simplified: no SELinux labels, size limits or mount request times.
 * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.desiredStateOfWorld
 */
export class DesiredStateOfWorld {
  private readonly volumesToMount = new Map<UniqueVolumeName, DesiredVolume>();
  private readonly podErrors = new Map<UniquePodName, Set<string>>();

  constructor(private readonly pluginMgr: VolumePluginMgr) {}

  /**
   * Attachable or device-mountable volumes are named after the device, so pods sharing it share one
   * entry; others get one entry per pod.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).AddPodToVolume
   */
  addPodToVolume(podName: UniquePodName, pod: Pod, volumeSpec: VolumeSpec, outerVolumeSpecName: string, volumeGidValue: string): UniqueVolumeName {
    const plugin = this.pluginMgr.findPluginBySpec(volumeSpec);
    const attachable = plugin.canAttach();
    const deviceMountable = plugin.canDeviceMount();
    const volumeName =
      attachable || deviceMountable ? `${plugin.pluginName}/${plugin.getVolumeName(volumeSpec)}` : `${plugin.pluginName}/${podName}-${specName(volumeSpec)}`;
    let volume = this.volumesToMount.get(volumeName);
    if (!volume) {
      volume = { volumeName, pluginIsAttachable: attachable, pluginIsDeviceMountable: deviceMountable, volumeGidValue, reportedInUse: false, podsToMount: new Map() };
      this.volumesToMount.set(volumeName, volume);
    }
    volume.podsToMount.set(podName, { pod, volumeSpec, outerVolumeSpecName });
    return volumeName;
  }

  /** Removing the last pod removes the volume. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).DeletePodFromVolume */
  deletePodFromVolume(podName: UniquePodName, volumeName: UniqueVolumeName): void {
    this.podErrors.delete(podName);
    const volume = this.volumesToMount.get(volumeName);
    if (!volume) return;
    volume.podsToMount.delete(podName);
    if (volume.podsToMount.size === 0) this.volumesToMount.delete(volumeName);
  }

  /**
   * Called after the node status reported these volumes in use; all others become unreported.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).MarkVolumesReportedInUse
   */
  markVolumesReportedInUse(reported: UniqueVolumeName[]): void {
    const set = new Set(reported);
    for (const [name, volume] of this.volumesToMount) volume.reportedInUse = set.has(name);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).PodExistsInVolume */
  podExistsInVolume(podName: UniquePodName, volumeName: UniqueVolumeName): boolean {
    return this.volumesToMount.get(volumeName)?.podsToMount.has(podName) ?? false;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).VolumeExists */
  volumeExists(volumeName: UniqueVolumeName): boolean {
    return this.volumesToMount.has(volumeName);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).GetVolumesToMount */
  getVolumesToMount(): VolumeToMount[] {
    const out: VolumeToMount[] = [];
    for (const v of this.volumesToMount.values()) {
      for (const [podName, p] of v.podsToMount) {
        out.push({
          volumeName: v.volumeName,
          podName,
          pod: p.pod,
          volumeSpec: p.volumeSpec,
          outerVolumeSpecName: p.outerVolumeSpecName,
          pluginIsAttachable: v.pluginIsAttachable,
          pluginIsDeviceMountable: v.pluginIsDeviceMountable,
          volumeGidValue: v.volumeGidValue,
          reportedInUse: v.reportedInUse,
          devicePath: '',
        });
      }
    }
    return out;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).AddErrorToPod */
  addErrorToPod(podName: UniquePodName, err: string): void {
    const errors = this.podErrors.get(podName) ?? new Set<string>();
    errors.add(err);
    this.podErrors.set(podName, errors);
  }

  /** Returns and forgets the pod's errors, sorted. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).PopPodErrors */
  popPodErrors(podName: UniquePodName): string[] {
    const errors = [...(this.podErrors.get(podName) ?? [])].sort();
    this.podErrors.delete(podName);
    return errors;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/cache.(*desiredStateOfWorld).GetPodsWithErrors */
  getPodsWithErrors(): UniquePodName[] {
    return [...this.podErrors.keys()];
  }
}
