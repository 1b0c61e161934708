/**
 * The reconciler: every 100 ms it compares desired and actual state and starts the operations that
 * close the gap (pkg/kubelet/volumemanager/reconciler, reconcileNew and reconciler_common.go).
 * Unmounts come before mounts so a volume moving from a deleted pod to a new one is released first;
 * device unmount and detach come last, and only once the desired state is fully populated.
 */
import type { ActualStateOfWorld } from './actual-state.js';
import { deviceMayBeMounted } from './actual-state.js';
import type { DesiredStateOfWorld, VolumeToMount } from './desired-state.js';
import type { OperationExecutor, StartResult } from './operations.js';

export const reconcilerLoopSleepDurationMs = 100;

export interface ReconcilerOptions {
  /** The attach/detach controller, not the kubelet, attaches and detaches (the default). */
  controllerAttachDetachEnabled: boolean;
  dsw: DesiredStateOfWorld;
  asw: ActualStateOfWorld;
  operationExecutor: OperationExecutor;
  /** The populator has added all pods at least once since sources became ready. */
  populatorHasAddedPods: () => boolean;
}

/** A record of what each pass started, for scenario tests and readers. */
export interface ReconcileEvent {
  operation: 'attach' | 'verifyControllerAttached' | 'mount' | 'unmount' | 'unmountDevice' | 'detach' | 'markDetached';
  volumeName: string;
  podName?: string;
  result: StartResult;
}

/**
 * Simplified: no volume reconstruction at startup, no node-status device-path fix-ups, no SELinux
 * mismatch and no online expansion branch.
 * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.reconciler
 */
export class Reconciler {
  readonly events: ReconcileEvent[] = [];
  constructor(private readonly o: ReconcilerOptions) {}

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).reconcileNew */
  reconcile(): void {
    const readyToUnmount = this.readyToUnmount();
    if (readyToUnmount) this.unmountVolumes();
    this.mountOrAttachVolumes();
    if (readyToUnmount) this.unmountDetachDevices();
  }

  /** Never unmount before the desired state has every pod, or a still-needed volume would go. @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).readyToUnmount */
  readyToUnmount(): boolean {
    return this.o.populatorHasAddedPods();
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).unmountVolumes */
  unmountVolumes(): void {
    for (const mounted of this.o.asw.getAllMountedVolumes()) {
      if (this.o.dsw.podExistsInVolume(mounted.podName, mounted.volumeName)) continue;
      const result = this.o.operationExecutor.unmountVolume(mounted, this.o.asw);
      this.events.push({ operation: 'unmount', volumeName: mounted.volumeName, podName: mounted.podName, result });
    }
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).mountOrAttachVolumes */
  mountOrAttachVolumes(): void {
    for (const volumeToMount of this.o.dsw.getVolumesToMount()) {
      const { exists, devicePath, reason } = this.o.asw.podExistsInVolume(volumeToMount.podName, volumeToMount.volumeName);
      volumeToMount.devicePath = devicePath;
      if (reason === 'volumeNotAttached') this.waitForVolumeAttach(volumeToMount);
      else if (!exists || reason === 'remountRequired') this.mountAttachedVolumes(volumeToMount, reason === 'remountRequired');
    }
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).mountAttachedVolumes */
  mountAttachedVolumes(volumeToMount: VolumeToMount, isRemount: boolean): void {
    const result = this.o.operationExecutor.mountVolume(volumeToMount, this.o.asw, isRemount);
    this.events.push({ operation: 'mount', volumeName: volumeToMount.volumeName, podName: volumeToMount.podName, result });
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).waitForVolumeAttach */
  waitForVolumeAttach(volumeToMount: VolumeToMount): void {
    if (this.o.controllerAttachDetachEnabled || !volumeToMount.pluginIsAttachable) {
      // Not reported in use yet: the controller may still detach it; do not even start (no back-off).
      if (volumeToMount.pluginIsAttachable && !volumeToMount.reportedInUse) return;
      const result = this.o.operationExecutor.verifyControllerAttachedVolume(volumeToMount, this.o.asw);
      this.events.push({ operation: 'verifyControllerAttached', volumeName: volumeToMount.volumeName, result });
    } else {
      const result = this.o.operationExecutor.attachVolume(volumeToMount, this.o.asw);
      this.events.push({ operation: 'attach', volumeName: volumeToMount.volumeName, result });
    }
  }

  /**
   * Attached volumes no pod uses and no pod wants: unmount the device first, detach on a later pass.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager/reconciler.(*reconciler).unmountDetachDevices
   */
  unmountDetachDevices(): void {
    for (const attached of this.o.asw.getUnmountedVolumes()) {
      if (this.o.dsw.volumeExists(attached.volumeName) || this.o.operationExecutor.pending.isOperationPending()) continue;
      if (deviceMayBeMounted(attached)) {
        const result = this.o.operationExecutor.unmountDevice(attached, this.o.asw);
        this.events.push({ operation: 'unmountDevice', volumeName: attached.volumeName, result });
      } else if (this.o.controllerAttachDetachEnabled || !attached.pluginIsAttachable) {
        // Detaching is the controller's job; the kubelet just forgets the volume.
        this.o.asw.markVolumeAsDetached(attached.volumeName);
        this.events.push({ operation: 'markDetached', volumeName: attached.volumeName, result: 'done' });
      } else {
        const result = this.o.operationExecutor.detachVolume(attached, this.o.asw);
        this.events.push({ operation: 'detach', volumeName: attached.volumeName, result });
      }
    }
  }
}
