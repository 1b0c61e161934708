/**
 * The operation executor and generator (pkg/volume/util/operationexecutor) as far as the kubelet's
 * reconciler uses them: attach, verify-controller-attached, mount/map, unmount/unmap, unmount device,
 * detach. Each operation records its outcome in the actual state of world.
 *
 * Go runs every operation on its own goroutine and refuses a second operation on the same volume
 * while one is pending; after a failure it refuses the same operation for an exponentially growing
 * back-off (500 ms doubling to 2 min 2 s). Here operations run to completion when started, so only
 * the back-off remains, measured on the injected clock.
 */
import type { Clock } from '../api/index.js';
import type { ActualStateOfWorld, AttachedVolume, MarkVolumeOpts, MountedVolume } from './actual-state.js';
import type { VolumeToMount } from './desired-state.js';
import type { VolumePluginMgr } from './plugin.js';
import { isFilesystemVolume, isOperationFinishedError, UncertainProgressError, type UniquePodName, type UniqueVolumeName, type VolumeAPIReader } from './types.js';

export const initialDurationBeforeRetryMs = 500;
export const maxDurationBeforeRetryMs = 2 * 60_000 + 2_000;

export const VerifyControllerAttachedVolumeOpName = 'verify_controller_attached_volume';

/** The outcome of asking the executor to start an operation. */
export type StartResult = 'done' | 'failed' | 'backoff';

interface Backoff {
  operationName: string;
  lastErrorTime: number;
  durationBeforeRetry: number;
  lastError: string;
}

/**
 * Simplified: no goroutines, so never "already exists"; back-off per (volume, pod) key and operation name.
 * @go k8s.io/kubernetes/pkg/volume/util/nestedpendingoperations.nestedPendingOperations
 */
export class PendingOperations {
  private readonly backoffs = new Map<string, Backoff>();
  constructor(private readonly clock: Clock) {}

  private key(volumeName: string, podName: string): string {
    return `${volumeName}\u0000${podName}`;
  }

  /**
   * Refuses while the same operation is backing off; a different operation on the key resets it.
   * @go k8s.io/kubernetes/pkg/volume/util/nestedpendingoperations.(*nestedPendingOperations).Run
   */
  run(volumeName: string, podName: string, operationName: string, op: () => void): StartResult {
    const key = this.key(volumeName, podName);
    const previous = this.backoffs.get(key);
    if (previous && previous.operationName === operationName && this.clock.now() - previous.lastErrorTime <= previous.durationBeforeRetry) {
      return 'backoff';
    }
    if (previous && previous.operationName !== operationName) this.backoffs.delete(key);
    try {
      op();
      this.backoffs.delete(key);
      return 'done';
    } catch (err) {
      // @go k8s.io/kubernetes/pkg/util/goroutinemap/exponentialbackoff.(*ExponentialBackoff).Update
      const b = this.backoffs.get(key) ?? { operationName, lastErrorTime: 0, durationBeforeRetry: 0, lastError: '' };
      b.durationBeforeRetry = b.durationBeforeRetry === 0 ? initialDurationBeforeRetryMs : Math.min(2 * b.durationBeforeRetry, maxDurationBeforeRetryMs);
      b.lastErrorTime = this.clock.now();
      b.lastError = (err as Error).message;
      this.backoffs.set(key, b);
      return 'failed';
    }
  }

  /** @go k8s.io/kubernetes/pkg/volume/util/nestedpendingoperations.(*nestedPendingOperations).IsOperationSafeToRetry */
  isOperationSafeToRetry(volumeName: string, podName: string, operationName: string): boolean {
    const b = this.backoffs.get(this.key(volumeName, podName));
    if (!b || b.operationName !== operationName) return true;
    return this.clock.now() - b.lastErrorTime > b.durationBeforeRetry;
  }

  /** Always false: operations finish inside the call that starts them. */
  isOperationPending(): boolean {
    return false;
  }

  lastError(volumeName: string, podName: string): string | undefined {
    return this.backoffs.get(this.key(volumeName, podName))?.lastError;
  }
}

export interface OperationExecutorDeps {
  clock: Clock;
  pluginMgr: VolumePluginMgr;
  api: VolumeAPIReader;
  nodeName: string;
}

/** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.operationExecutor */
export class OperationExecutor {
  readonly pending: PendingOperations;
  constructor(private readonly deps: OperationExecutorDeps) {
    this.pending = new PendingOperations(deps.clock);
  }

  /**
   * Kubelet-side attach (controller attach/detach disabled).
   * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateAttachVolumeFunc
   */
  attachVolume(v: VolumeToMount, asw: ActualStateOfWorld): StartResult {
    return this.pending.run(v.volumeName, '', 'volume_attach', () => {
      const plugin = this.deps.pluginMgr.findPluginBySpec(v.volumeSpec);
      const devicePath = plugin.attach(v.volumeSpec, this.deps.nodeName);
      asw.markVolumeAsAttached(v.volumeName, v.volumeSpec, devicePath);
    });
  }

  /**
   * With the attach/detach controller in charge, "attached" means the node status says so. It only
   * runs once the kubelet has reported the volume in use (the controller's signal not to detach).
   * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateVerifyControllerAttachedVolumeFunc
   */
  verifyControllerAttachedVolume(v: VolumeToMount, asw: ActualStateOfWorld): StartResult {
    return this.pending.run(v.volumeName, '', VerifyControllerAttachedVolumeOpName, () => {
      if (!v.pluginIsAttachable) {
        asw.markVolumeAsAttached(v.volumeName, v.volumeSpec, '');
        return;
      }
      if (!v.reportedInUse) throw new Error('volume is not yet reported in node.status.volumesInUse');
      const attached = this.deps.api.getNode()?.status?.volumesAttached?.find((a) => a.name === v.volumeName);
      if (!attached) throw new Error('node.status.volumesAttached does not list the volume');
      asw.markVolumeAsAttached(v.volumeName, v.volumeSpec, attached.devicePath);
    });
  }

  /**
   * Mount (filesystem) or map (block): wait for attach, mount or set up the device once per node, then
   * set up or map it for the pod, then grow the filesystem if the PV was resized. Timeouts leave the
   * state uncertain; a definite failure after a timeout puts it back to "not mounted".
   * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateMountVolumeFunc
   */
  mountVolume(v: VolumeToMount, asw: ActualStateOfWorld, isRemount: boolean): StartResult {
    const podName = !v.pluginIsAttachable && !v.pluginIsDeviceMountable ? v.podName : '';
    const filesystem = isFilesystemVolume(v.volumeSpec);
    return this.pending.run(v.volumeName, podName, filesystem ? 'volume_mount' : 'map_volume', () => {
      void isRemount; // Go only lowers the log verbosity for remounts
      const plugin = this.deps.pluginMgr.findPluginBySpec(v.volumeSpec);
      let devicePath = v.devicePath;
      if (plugin.canAttach()) devicePath = plugin.waitForAttach();

      if (plugin.canDeviceMount() && asw.getDeviceMountState(v.volumeName) !== 'DeviceGloballyMounted') {
        try {
          if (filesystem) plugin.mountDevice(v.volumeSpec, devicePath);
          else plugin.setUpDevice(v.volumeSpec, devicePath);
        } catch (err) {
          markDeviceErrorState(v, devicePath, err, asw);
          throw err;
        }
        asw.markDeviceAsMounted(v.volumeName, devicePath);
      }

      const opts: MarkVolumeOpts = {
        podName: v.podName,
        podUID: v.pod.metadata.uid ?? '',
        volumeName: v.volumeName,
        outerVolumeSpecName: v.outerVolumeSpecName,
        volumeGidValue: v.volumeGidValue,
        volumeSpec: v.volumeSpec,
        volumeMountState: 'VolumeMounted',
      };
      try {
        if (filesystem) plugin.setUp(v.volumeSpec);
        else plugin.mapPodDevice(v.volumeSpec);
      } catch (err) {
        markVolumeErrorState(v, opts, err, asw);
        throw err;
      }
      if (!filesystem) plugin.getPodDeviceMapPath(); // then the pod's device symlink is made

      try {
        const claimRef = v.volumeSpec.persistentVolume?.spec.claimRef;
        const claim = claimRef ? this.deps.api.getPersistentVolumeClaim(claimRef.namespace ?? '', claimRef.name) : undefined;
        plugin.expandDuringMount(v.volumeSpec, claim);
      } catch (err) {
        // Set up, but not usable at its full size: keep it uncertain so it is neither used nor leaked.
        asw.markVolumeMountAsUncertain(opts);
        throw err;
      }
      asw.markVolumeAsMounted(opts);
    });
  }

  /**
   * A failed tear-down leaves the mount uncertain so a new pod still gets SetUp.
   * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateUnmountVolumeFunc
   */
  unmountVolume(m: MountedVolume, asw: ActualStateOfWorld): StartResult {
    const filesystem = isFilesystemVolume(m.volumeSpec);
    return this.pending.run(m.volumeName, m.podName, filesystem ? 'volume_unmount' : 'unmap_volume', () => {
      const plugin = this.deps.pluginMgr.findPluginByName(m.pluginName);
      try {
        if (filesystem) plugin.tearDown();
        else plugin.unmapPodDevice();
      } catch (err) {
        asw.markVolumeMountAsUncertain({ ...m, volumeMountState: 'VolumeMountUncertain' });
        throw err;
      }
      asw.markVolumeAsUnmounted(m.podName, m.volumeName);
    });
  }

  /** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateUnmountDeviceFunc */
  unmountDevice(a: AttachedVolume, asw: ActualStateOfWorld): StartResult {
    const filesystem = isFilesystemVolume(a.volumeSpec);
    return this.pending.run(a.volumeName, '', filesystem ? 'unmount_device' : 'unmap_device', () => {
      const plugin = this.deps.pluginMgr.findPluginByName(a.pluginName);
      try {
        if (filesystem) plugin.unmountDevice();
        else plugin.tearDownDevice();
      } catch (err) {
        asw.markDeviceAsUncertain(a.volumeName, a.devicePath);
        throw err;
      }
      asw.markDeviceAsUnmounted(a.volumeName);
    });
  }

  /** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).GenerateDetachVolumeFunc */
  detachVolume(a: AttachedVolume, asw: ActualStateOfWorld): StartResult {
    return this.pending.run(a.volumeName, '', 'volume_detach', () => {
      const plugin = this.deps.pluginMgr.findPluginByName(a.pluginName);
      plugin.detach(plugin.getVolumeName(a.volumeSpec), this.deps.nodeName);
      asw.markVolumeAsDetached(a.volumeName);
    });
  }

  /** @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationExecutor).IsOperationSafeToRetry */
  isOperationSafeToRetry(volumeName: UniqueVolumeName, podName: UniquePodName, operationName: string): boolean {
    return this.pending.isOperationSafeToRetry(volumeName, podName, operationName);
  }
}

/**
 * Only an uncertain device may become unmounted after a definite failure, and only an unmounted one
 * becomes uncertain after a timeout; a mounted device is never downgraded here.
 * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).markDeviceErrorState
 */
export function markDeviceErrorState(v: VolumeToMount, devicePath: string, err: unknown, asw: ActualStateOfWorld): void {
  const state = asw.getDeviceMountState(v.volumeName);
  if (isOperationFinishedError(err) && state === 'DeviceMountUncertain') asw.markDeviceAsUnmounted(v.volumeName);
  else if (err instanceof UncertainProgressError && state === 'DeviceNotMounted') asw.markDeviceAsUncertain(v.volumeName, devicePath);
}

/**
 * The same rule for the pod's mount: uncertain → not mounted on a definite failure (unless it was
 * reconstructed at startup), not mounted → uncertain on a timeout; a mounted volume stays mounted.
 * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).markVolumeErrorState
 */
export function markVolumeErrorState(v: VolumeToMount, opts: MarkVolumeOpts, err: unknown, asw: ActualStateOfWorld): void {
  const state = asw.getVolumeMountState(v.volumeName, opts.podName);
  if (isOperationFinishedError(err) && state === 'VolumeMountUncertain') {
    if (asw.isVolumeReconstructed()) return;
    asw.markVolumeAsUnmounted(opts.podName, v.volumeName);
  } else if (err instanceof UncertainProgressError && state === 'VolumeNotMounted') {
    asw.markVolumeMountAsUncertain(opts);
  }
}
