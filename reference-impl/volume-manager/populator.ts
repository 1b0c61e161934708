/**
 * The desired-state populator (pkg/kubelet/volumemanager/populator): every 100 ms it adds the volumes
 * of new pods from the pod manager to the desired state, resolving claims to their bound PVs, and
 * removes the volumes of pods whose containers have all stopped.
 */
import type { Pod } from '../api/index.js';
import type { ActualStateOfWorld } from './actual-state.js';
import type { DesiredStateOfWorld } from './desired-state.js';
import { getUniquePodName, VolumeSpecError, type ContainerWithDevices, type PersistentVolumeClaim, type PodVolume, type UniquePodName, type VolumeAPIReader, type VolumeSpec } from './types.js';

/** The annotation a PV may carry to ask for an extra supplemental group in pods that mount it. */
export const VolumeGidAnnotationKey = 'pv.beta.kubernetes.io/gid';

export interface PodSource {
  getPods(): Pod[];
  getPodByUID(uid: string): Pod | undefined;
}

/** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.PodStateProvider */
export interface PodStateProvider {
  shouldPodContainersBeTerminating(uid: string): boolean;
  shouldPodRuntimeBeRemoved(uid: string): boolean;
}

/**
 * Names of volumes the pod's containers (init and ephemeral included) mount and map.
 * @go k8s.io/kubernetes/pkg/volume/util.GetPodVolumeNames
 */
export function getPodVolumeNames(pod: Pod): { mounts: Set<string>; devices: Set<string> } {
  const mounts = new Set<string>();
  const devices = new Set<string>();
  const all = [...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])] as ContainerWithDevices[];
  for (const c of all) {
    for (const m of c.volumeMounts ?? []) mounts.add(m.name);
    for (const d of c.volumeDevices ?? []) devices.add(d.name);
  }
  return { mounts, devices };
}

/**
 * What the API server's validation guarantees about pod volumes and the code below relies on:
 * named, unique, and a claim source names its claim. Throws naming the field.
 */
export function validatePodVolumes(pod: Pod): void {
  const seen = new Set<string>();
  ((pod.spec.volumes ?? []) as PodVolume[]).forEach((v, i) => {
    if (!v.name) throw new VolumeSpecError(`spec.volumes[${i}].name`, 'Required value');
    if (seen.has(v.name)) throw new VolumeSpecError(`spec.volumes[${i}].name`, `Duplicate value: "${v.name}"`);
    seen.add(v.name);
    if (v.persistentVolumeClaim && !v.persistentVolumeClaim.claimName) {
      throw new VolumeSpecError(`spec.volumes[${i}].persistentVolumeClaim.claimName`, 'Required value');
    }
  });
}

/**
 * Simplified: no ephemeral volumes, CSI migration, SELinux contexts or resize bookkeeping; the
 * "keep terminated pod volumes" flag is off.
 * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.desiredStateOfWorldPopulator
 */
export class DesiredStateOfWorldPopulator {
  private hasAddedPods = false;
  /** true: processed; false: seen, to be processed again; absent: never seen. */
  private readonly processedPods = new Map<UniquePodName, boolean>();

  constructor(
    private readonly podManager: PodSource,
    private readonly podStateProvider: PodStateProvider,
    private readonly dsw: DesiredStateOfWorld,
    private readonly asw: ActualStateOfWorld,
    private readonly api: VolumeAPIReader,
  ) {}

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).HasAddedPods */
  getHasAddedPods(): boolean {
    return this.hasAddedPods;
  }

  /**
   * Go keeps calling the loop until all sources are ready, then flags hasAddedPods.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).Run
   */
  run(sourcesReady: boolean): void {
    this.populatorLoop();
    if (sourcesReady) this.hasAddedPods = true;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).populatorLoop */
  populatorLoop(): void {
    this.findAndAddNewPods();
    this.findAndRemoveDeletedPods();
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).ReprocessPod */
  reprocessPod(podName: UniquePodName): void {
    this.processedPods.set(podName, false);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).findAndAddNewPods */
  findAndAddNewPods(): void {
    for (const pod of this.podManager.getPods()) {
      const uid = pod.metadata.uid ?? '';
      // Pods that can no longer start containers do not get (new) volumes.
      if (this.hasAddedPods && this.podStateProvider.shouldPodContainersBeTerminating(uid)) continue;
      if (!this.hasAddedPods && this.podStateProvider.shouldPodRuntimeBeRemoved(uid)) continue;
      this.processPodVolumes(pod);
    }
  }

  /**
   * A pod's volumes leave the desired state only once its containers are all gone, and (while the pod
   * still exists) only after the actual state shows them unmounted.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).findAndRemoveDeletedPods
   */
  findAndRemoveDeletedPods(): void {
    const podsFromCache = new Set<UniquePodName>();
    for (const v of this.dsw.getVolumesToMount()) {
      const uid = v.pod.metadata.uid ?? '';
      podsFromCache.add(uid);
      const pod = this.podManager.getPodByUID(uid);
      if (pod && !this.podStateProvider.shouldPodRuntimeBeRemoved(uid)) continue;
      if (!this.podStateProvider.shouldPodRuntimeBeRemoved(uid)) continue;
      const removed = this.asw.podRemovedFromVolume(v.podName, v.volumeName);
      if (removed && pod) continue;
      this.dsw.deletePodFromVolume(v.podName, v.volumeName);
      this.processedPods.delete(v.podName);
    }
    for (const podName of [...this.processedPods.keys()]) {
      if (!podsFromCache.has(podName) && !this.podManager.getPodByUID(podName) && this.podStateProvider.shouldPodRuntimeBeRemoved(podName)) {
        this.processedPods.delete(podName);
      }
    }
    for (const podName of this.dsw.getPodsWithErrors()) {
      if (!this.podManager.getPodByUID(podName)) this.dsw.popPodErrors(podName);
    }
  }

  /**
   * Adds each volume a container uses; a failure is recorded on the pod and the pod is retried
   * (every loop until it has been seen once, then only when reprocessed).
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).processPodVolumes
   */
  processPodVolumes(pod: Pod): void {
    const podName = getUniquePodName(pod);
    if (this.processedPods.get(podName) === true) return;
    let allVolumesAdded = true;
    try {
      validatePodVolumes(pod);
    } catch (err) {
      this.dsw.addErrorToPod(podName, (err as Error).message);
      return;
    }
    const { mounts, devices } = getPodVolumeNames(pod);
    for (const podVolume of (pod.spec.volumes ?? []) as PodVolume[]) {
      if (!mounts.has(podVolume.name) && !devices.has(podVolume.name)) continue; // unused volume
      try {
        const { volumeSpec, volumeGidValue } = this.createVolumeSpec(podVolume, pod, mounts, devices);
        this.dsw.addPodToVolume(podName, pod, volumeSpec, podVolume.name, volumeGidValue);
      } catch (err) {
        this.dsw.addErrorToPod(podName, (err as Error).message);
        allVolumesAdded = false;
      }
    }
    if (allVolumesAdded) {
      this.processedPods.set(podName, true);
      // Re-run SetUp for plugins that refresh content on every sync (downward API, projected).
      this.asw.markRemountRequired(podName);
      this.dsw.popPodErrors(podName);
    } else if (this.processedPods.has(podName)) {
      // Seen before: stop retrying every loop; SyncPod's ReprocessPod asks again.
      this.processedPods.set(podName, true);
    }
  }

  /**
   * A claim is replaced by its bound PV, which must point back at the claim and match how the
   * containers use it (mounted: filesystem; mapped: block).
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).createVolumeSpec
   */
  createVolumeSpec(podVolume: PodVolume, pod: Pod, mounts: Set<string>, devices: Set<string>): { pvc?: PersistentVolumeClaim; volumeSpec: VolumeSpec; volumeGidValue: string } {
    const claimSource = podVolume.persistentVolumeClaim;
    if (!claimSource) return { volumeSpec: { volume: structuredClone(podVolume), readOnly: false }, volumeGidValue: '' };

    const namespace = pod.metadata.namespace ?? '';
    const where = `error processing PVC ${namespace}/${claimSource.claimName}`;
    const pvc = this.getPVCExtractPV(namespace, claimSource.claimName, where);
    const { volumeSpec, volumeGidValue } = this.getPVSpec(pvc.spec.volumeName as string, claimSource.readOnly ?? false, pvc.metadata.uid ?? '', where);
    const mode = volumeSpec.persistentVolume?.spec.volumeMode ?? 'Filesystem';
    if (mounts.has(podVolume.name) && mode !== 'Filesystem') throw new Error(`volume ${podVolume.name} has volumeMode ${mode}, but is specified in volumeMounts`);
    if (devices.has(podVolume.name) && mode !== 'Block') throw new Error(`volume ${podVolume.name} has volumeMode ${mode}, but is specified in volumeDevices`);
    return { pvc, volumeSpec, volumeGidValue };
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).getPVCExtractPV */
  private getPVCExtractPV(namespace: string, claimName: string, where: string): PersistentVolumeClaim {
    const pvc = this.api.getPersistentVolumeClaim(namespace, claimName);
    if (!pvc) throw new Error(`${where}: claim not found on the API server`);
    // A pod must not start on a claim that is going away.
    if (pvc.metadata.deletionTimestamp) throw new Error(`${where}: PVC is being deleted`);
    if (pvc.status?.phase !== 'Bound') throw new Error(`${where}: PVC is not bound`);
    if (!pvc.spec.volumeName) throw new Error(`${where}: PVC has empty pvc.Spec.VolumeName`);
    return pvc;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/populator.(*desiredStateOfWorldPopulator).getPVSpec */
  private getPVSpec(name: string, readOnly: boolean, expectedClaimUID: string, where: string): { volumeSpec: VolumeSpec; volumeGidValue: string } {
    const pv = this.api.getPersistentVolume(name);
    if (!pv) throw new Error(`${where}: PV ${name} not found on the API server`);
    if (!pv.spec.claimRef) {
      throw new Error(`${where}: PV ${name} has no claimRef: not bound to any claim yet`);
    }
    if ((pv.spec.claimRef.uid ?? '') !== expectedClaimUID) {
      throw new Error(`${where}: PV ${name} is bound to claim UID ${pv.spec.claimRef.uid ?? ''}, not to ${expectedClaimUID}`);
    }
    return { volumeSpec: { persistentVolume: structuredClone(pv), readOnly }, volumeGidValue: pv.metadata.annotations?.[VolumeGidAnnotationKey] ?? '' };
  }
}
