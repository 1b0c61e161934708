/**
 * The fake mounter: a volume plugin that mounts nothing, counts every call, and fails or "times out"
 * on cue for the volume names the Go tests use (pkg/volume/testing/testing.go). It is attachable
 * unless told otherwise, and always device-mountable, like the Go FakeVolumePlugin.
 */
import { parseQuantity } from '../api/index.js';
import { UncertainProgressError, isFilesystemVolume, specName, type PersistentVolumeClaim, type VolumeSpec } from './types.js';

// Volume names with scripted behaviour, with the same values as the Go constants.
export const TimeoutOnSetupVolumeName = 'timeout-setup-volume';
export const FailOnSetupVolumeName = 'fail-setup-volume';
export const TimeoutAndFailOnSetupVolumeName = 'timeout-and-fail-setup-volume';
export const SuccessAndTimeoutSetupVolumeName = 'success-and-timeout-setup-volume-name';
export const SuccessAndFailOnSetupVolumeName = 'success-and-failed-setup-device-name';
export const FailVolumeExpansion = 'fail-expansion-test';
export const TimeoutOnMountDeviceVolumeName = 'timeout-mount-device-volume';
export const TimeoutAndFailOnMountDeviceVolumeName = 'timeout-and-fail-mount-device-name';
export const FailMountDeviceVolumeName = 'fail-mount-device-volume-name';
export const SuccessAndTimeoutDeviceName = 'success-and-timeout-device-name';
export const SuccessAndFailOnMountDeviceName = 'success-and-failed-mount-device-name';

export interface FakeVolumePluginOptions {
  pluginName?: string;
  nonAttachable?: boolean;
  /** Which specs this plugin handles; all of them by default. */
  canSupport?: (spec: VolumeSpec) => boolean;
  supportsRemount?: boolean;
  disableNodeExpansion?: boolean;
}

/** Call counters, named after the Go FakeVolume fields. */
export interface FakeVolumeCounts {
  attach: number;
  detach: number;
  waitForAttach: number;
  mountDevice: number;
  unmountDevice: number;
  setUp: number;
  tearDown: number;
  setUpDevice: number;
  tearDownDevice: number;
  mapPodDevice: number;
  unmapPodDevice: number;
  getPodDeviceMapPath: number;
  nodeExpand: number;
}

/**
 * Simplified: one shared fake volume per plugin (as in Go, where every mounter of a FakeVolumePlugin
 * is the same FakeVolume); paths are not created on disk.
 * @go k8s.io/kubernetes/pkg/volume/testing.FakeVolumePlugin
 */
export class FakeVolumePlugin {
  readonly pluginName: string;
  nonAttachable: boolean;
  supportsRemount: boolean;
  disableNodeExpansion: boolean;
  private readonly canSupportFn?: (spec: VolumeSpec) => boolean;
  readonly counts: FakeVolumeCounts = {
    attach: 0, detach: 0, waitForAttach: 0, mountDevice: 0, unmountDevice: 0, setUp: 0,
    tearDown: 0, setUpDevice: 0, tearDownDevice: 0, mapPodDevice: 0, unmapPodDevice: 0, getPodDeviceMapPath: 0, nodeExpand: 0,
  };
  /** What the fake believes about each device after its last MountDevice, by volume name. */
  private readonly deviceMountState = new Map<string, 'deviceMounted' | 'deviceMountUncertain' | 'deviceNotMounted'>();
  /** What the fake believes about each volume after its last SetUp/MapPodDevice, by volume name. */
  private readonly volumeMountState = new Map<string, 'volumeMounted' | 'volumeMountUncertain' | 'volumeNotMounted'>();
  /** volume name → nodes it is attached to. */
  private readonly volumesAttached = new Map<string, Set<string>>();

  constructor(opts: FakeVolumePluginOptions = {}) {
    this.pluginName = opts.pluginName ?? 'fake-plugin';
    this.nonAttachable = opts.nonAttachable ?? false;
    this.supportsRemount = opts.supportsRemount ?? false;
    this.disableNodeExpansion = opts.disableNodeExpansion ?? false;
    this.canSupportFn = opts.canSupport;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).CanSupport */
  canSupport(spec: VolumeSpec): boolean {
    return this.canSupportFn ? this.canSupportFn(spec) : true;
  }

  /** The PD name or RBD image, else the spec name. @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).GetVolumeName */
  getVolumeName(spec: VolumeSpec): string {
    const pv = spec.persistentVolume?.spec;
    const name = spec.volume?.gcePersistentDisk?.pdName ?? spec.volume?.rbd?.image ?? pv?.gcePersistentDisk?.pdName ?? pv?.rbd?.image ?? '';
    return name === '' ? specName(spec) : name;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).CanAttach */
  canAttach(): boolean {
    return !this.nonAttachable;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).CanDeviceMount */
  canDeviceMount(): boolean {
    return true;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).RequiresRemount */
  requiresRemount(): boolean {
    return this.supportsRemount;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).RequiresFSResize */
  requiresFSResize(): boolean {
    return !this.disableNodeExpansion;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).Attach */
  attach(spec: VolumeSpec, nodeName: string): string {
    this.counts.attach++;
    const name = this.getVolumeName(spec);
    const nodes = this.volumesAttached.get(name) ?? new Set<string>();
    if (nodes.size > 0 && !nodes.has(nodeName)) {
      throw new Error(`volume "${name}" trying to attach to node "${nodeName}" is already attached to node "${[...nodes][0]}"`);
    }
    nodes.add(nodeName);
    this.volumesAttached.set(name, nodes);
    return '/dev/vdb-test';
  }

  /** Detaching something not attached is an error and is not counted. @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).Detach */
  detach(volumeName: string, nodeName: string): void {
    const nodes = this.volumesAttached.get(volumeName);
    if (!nodes?.has(nodeName)) throw new Error(`volume "${volumeName}" is not attached to node "${nodeName}", nothing to detach`);
    this.counts.detach++;
    nodes.delete(nodeName);
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).WaitForAttach */
  waitForAttach(): string {
    this.counts.waitForAttach++;
    return '/dev/sdb';
  }

  /**
   * Scripted like SetUp, for the device names; only successes are counted, as in Go.
   * @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).MountDevice
   */
  mountDevice(spec: VolumeSpec, devicePath: string): void {
    this.scriptedDeviceMount(spec, devicePath);
    this.counts.mountDevice++;
  }

  /** The device-name script shared by MountDevice and SetUpDevice; throws or records "mounted". @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).mountDeviceInternal */
  private scriptedDeviceMount(spec: VolumeSpec, devicePath: string): void {
    const name = specName(spec);
    const seen = this.deviceMountState.has(name);
    const timeout = (msg: string) => {
      this.deviceMountState.set(name, 'deviceMountUncertain');
      throw new UncertainProgressError(msg);
    };
    const fail = () => {
      this.deviceMountState.set(name, 'deviceNotMounted');
      throw new Error(`error mounting disk: ${devicePath}`);
    };
    if (name === TimeoutOnMountDeviceVolumeName) timeout('mount failed');
    if (name === FailMountDeviceVolumeName) fail();
    if (name === TimeoutAndFailOnMountDeviceVolumeName) (seen ? fail : () => timeout('timed out mounting error'))();
    if (name === SuccessAndTimeoutDeviceName && seen) timeout('error mounting state');
    if (name === SuccessAndFailOnMountDeviceName && seen) throw new Error(`error mounting disk: ${devicePath}`);
    this.deviceMountState.set(name, 'deviceMounted');
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).UnmountDevice */
  unmountDevice(): void {
    this.counts.unmountDevice++;
  }

  /** The block-mode twin of MountDevice, with the same script. @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).SetUpDevice */
  setUpDevice(spec: VolumeSpec, devicePath: string): void {
    this.scriptedDeviceMount(spec, devicePath);
    this.counts.setUpDevice++;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).TearDownDevice */
  tearDownDevice(): void {
    this.counts.tearDownDevice++;
  }

  /**
   * The scripted part: first and later calls for the special names succeed, fail or time out.
   * SetUp counts every call; MapPodDevice counts only successes, as in Go.
   * @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).setupInternal
   */
  private scriptedSetUp(volName: string): void {
    const seen = this.volumeMountState.has(volName);
    const timeout = () => {
      this.volumeMountState.set(volName, 'volumeMountUncertain');
      throw new UncertainProgressError('time out on setup');
    };
    const fail = () => {
      this.volumeMountState.set(volName, 'volumeNotMounted');
      throw new Error('mounting volume failed');
    };
    if (volName === TimeoutOnSetupVolumeName) timeout();
    if (volName === FailOnSetupVolumeName) fail();
    if (volName === TimeoutAndFailOnSetupVolumeName) (seen ? fail : timeout)();
    if (volName === SuccessAndFailOnSetupVolumeName && seen) fail();
    if (volName === SuccessAndTimeoutSetupVolumeName && seen) timeout();
    this.volumeMountState.set(volName, 'volumeMounted');
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).SetUp */
  setUp(spec: VolumeSpec): void {
    try {
      this.scriptedSetUp(specName(spec));
    } finally {
      this.counts.setUp++;
    }
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).MapPodDevice */
  mapPodDevice(spec: VolumeSpec): void {
    this.scriptedSetUp(specName(spec));
    this.counts.mapPodDevice++;
  }

  /** Where the pod's device link goes; counted because the Go block tests check it. @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).GetPodDeviceMapPath */
  getPodDeviceMapPath(): void {
    this.counts.getPodDeviceMapPath++;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).TearDown */
  tearDown(): void {
    this.counts.tearDown++;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolume).UnmapPodDevice */
  unmapPodDevice(): void {
    this.counts.unmapPodDevice++;
  }

  /** @go k8s.io/kubernetes/pkg/volume/testing.(*FakeVolumePlugin).NodeExpand */
  nodeExpand(spec: VolumeSpec): void {
    this.counts.nodeExpand++;
    if (specName(spec) === FailVolumeExpansion) throw new Error(`fail volume expansion for volume: ${FailVolumeExpansion}`);
  }

  /**
   * Whether mounting should also grow the filesystem: the PV is bigger than the claim's recorded size.
   * Simplified: the legacy (non-recovery) path, without updating the claim afterwards.
   * @go k8s.io/kubernetes/pkg/volume/util/operationexecutor.(*operationGenerator).expandVolumeDuringMount
   */
  expandDuringMount(spec: VolumeSpec, claim: PersistentVolumeClaim | undefined): void {
    const pv = spec.persistentVolume;
    if (!pv || !this.requiresFSResize() || spec.readOnly) return;
    if (!claim) throw new Error('mountVolume.NodeExpandVolume get PVC failed : not found');
    const claimSize = parseQuantity(claim.status?.capacity?.storage ?? '0', 'status.capacity[storage]');
    const pvSize = parseQuantity(pv.spec.capacity?.storage ?? '0', 'spec.capacity[storage]');
    if (claimSize < pvSize) this.nodeExpand(spec);
  }

  /** Filesystem volumes are set up; block volumes are mapped. */
  isFilesystem(spec: VolumeSpec): boolean {
    return isFilesystemVolume(spec);
  }
}

/**
 * Finds the plugin for a volume.
 * Simplified: a plain list of fake plugins, no probing or host.
 * @go k8s.io/kubernetes/pkg/volume.VolumePluginMgr
 */
export class VolumePluginMgr {
  constructor(readonly plugins: FakeVolumePlugin[]) {}

  /** Exactly one plugin must support the spec. @go k8s.io/kubernetes/pkg/volume.(*VolumePluginMgr).FindPluginBySpec */
  findPluginBySpec(spec: VolumeSpec): FakeVolumePlugin {
    const matches = this.plugins.filter((p) => p.canSupport(spec));
    if (matches.length === 0) throw new Error(`no volume plugin matched name: ${specName(spec)}`);
    if (matches.length > 1) throw new Error(`multiple volume plugins matched: ${matches.map((p) => p.pluginName).join(',')}`);
    return matches[0];
  }

  /** @go k8s.io/kubernetes/pkg/volume.(*VolumePluginMgr).FindPluginByName */
  findPluginByName(name: string): FakeVolumePlugin {
    const plugin = this.plugins.find((p) => p.pluginName === name);
    if (!plugin) throw new Error(`no volume plugin matched name: ${name}`);
    return plugin;
  }
}
