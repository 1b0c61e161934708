/**
 * The volume manager (pkg/kubelet/volumemanager/volume_manager.go): owns the desired and actual
 * state, runs the populator and the reconciler every 100 ms, and answers the pod workers' questions
 * ("are this pod's volumes mounted?", "which extra groups does it need?").
 */
import type { Clock, Pod } from '../api/index.js';
import { ActualStateOfWorld, type MountedVolume } from './actual-state.js';
import { DesiredStateOfWorld } from './desired-state.js';
import { OperationExecutor } from './operations.js';
import { FakeVolumePlugin, VolumePluginMgr } from './plugin.js';
import { DesiredStateOfWorldPopulator, getPodVolumeNames, validatePodVolumes, type PodSource, type PodStateProvider } from './populator.js';
import { Reconciler, reconcilerLoopSleepDurationMs } from './reconciler.js';
import { getUniquePodName, type UniquePodName, type UniqueVolumeName, type VolumeAPIReader } from './types.js';

export const podAttachAndMountTimeoutMs = 2 * 60_000 + 3_000;
export const podAttachAndMountRetryIntervalMs = 300;

export interface VolumeManagerOptions {
  clock: Clock;
  nodeName: string;
  /** True in production: the attach/detach controller attaches, the kubelet only verifies. */
  controllerAttachDetachEnabled?: boolean;
  podManager: PodSource;
  podStateProvider?: PodStateProvider;
  api: VolumeAPIReader;
  plugins: FakeVolumePlugin[];
  /** Whether every pod source (file, http, API) has been seen; true by default. */
  sourcesReady?: () => boolean;
}

/**
 * Where Go calls `strconv.ParseInt(value, 10, 64)` and checks the pod does not already ask for the group.
 * @go k8s.io/kubernetes/pkg/kubelet/volumemanager.getExtraSupplementalGid
 */
export function getExtraSupplementalGid(volumeGidValue: string, pod: Pod): number | undefined {
  if (!/^[+-]?\d+$/.test(volumeGidValue)) return undefined;
  const gid = Number(volumeGidValue);
  if (!Number.isSafeInteger(gid)) return undefined;
  if (pod.spec.securityContext?.supplementalGroups?.includes(gid)) return undefined;
  return gid;
}

/** Volumes the pod's containers mount or map. @go k8s.io/kubernetes/pkg/kubelet/volumemanager.getExpectedVolumes */
export function getExpectedVolumes(pod: Pod): string[] {
  const { mounts, devices } = getPodVolumeNames(pod);
  return [...new Set([...mounts, ...devices])];
}

const goList = (items: string[]) => `[${items.join(' ')}]`;

/**
 * Simplified: one synchronous {@link VolumeManager.tick} replaces the populator and reconciler
 * goroutines; waiting steps the injected clock instead of sleeping.
 * @go k8s.io/kubernetes/pkg/kubelet/volumemanager.volumeManager
 */
export class VolumeManager {
  readonly dsw: DesiredStateOfWorld;
  readonly asw: ActualStateOfWorld;
  readonly operationExecutor: OperationExecutor;
  readonly reconciler: Reconciler;
  readonly populator: DesiredStateOfWorldPopulator;
  private readonly clock: Clock & { step?: (ms: number) => void };
  private readonly sourcesReady: () => boolean;

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.NewVolumeManager */
  constructor(opts: VolumeManagerOptions) {
    const pluginMgr = new VolumePluginMgr(opts.plugins);
    this.clock = opts.clock;
    this.sourcesReady = opts.sourcesReady ?? (() => true);
    this.dsw = new DesiredStateOfWorld(pluginMgr);
    this.asw = new ActualStateOfWorld(pluginMgr);
    this.operationExecutor = new OperationExecutor({ clock: opts.clock, pluginMgr, api: opts.api, nodeName: opts.nodeName });
    const podStateProvider = opts.podStateProvider ?? { shouldPodContainersBeTerminating: () => false, shouldPodRuntimeBeRemoved: () => false };
    this.populator = new DesiredStateOfWorldPopulator(opts.podManager, podStateProvider, this.dsw, this.asw, opts.api);
    this.reconciler = new Reconciler({
      controllerAttachDetachEnabled: opts.controllerAttachDetachEnabled ?? true,
      dsw: this.dsw,
      asw: this.asw,
      operationExecutor: this.operationExecutor,
      populatorHasAddedPods: () => this.populator.getHasAddedPods(),
    });
  }

  /** One 100 ms round of both loops. @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).Run */
  tick(): void {
    this.populator.run(this.sourcesReady());
    this.reconciler.reconcile();
  }

  /** Steps a FakeClock forward, ticking every 100 ms; `onTick` runs after each round (e.g. a node status update). */
  runFor(ms: number, onTick?: () => void): void {
    for (let t = 0; t < ms; t += reconcilerLoopSleepDurationMs) this.advance(onTick);
  }

  private advance(onTick?: () => void): void {
    if (!this.clock.step) throw new Error('clock: Invalid value: waiting needs a FakeClock that can step');
    this.clock.step(reconcilerLoopSleepDurationMs);
    this.tick();
    onTick?.();
  }

  /**
   * Resolves once every volume the pod's containers use is mounted; throws with the unmounted,
   * unattached and unprocessed volumes if the desired state reports an error or 2 min 3 s pass.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).WaitForAttachAndMount
   */
  waitForAttachAndMount(pod: Pod, opts: { onTick?: () => void } = {}): void {
    validatePodVolumes(pod);
    const expected = getExpectedVolumes(pod);
    if (expected.length === 0) return;
    const podName = getUniquePodName(pod);
    // Plugins that refresh content on every sync get SetUp again.
    this.populator.reprocessPod(podName);

    const start = this.clock.now();
    let failure: string | undefined;
    for (let elapsed = 0; ; ) {
      const errors = this.dsw.popPodErrors(podName);
      if (errors.length > 0) {
        failure = errors.join('; ');
        break;
      }
      if (this.getUnmountedVolumes(podName, expected).length === 0) return;
      if (elapsed + podAttachAndMountRetryIntervalMs > podAttachAndMountTimeoutMs) {
        failure = 'timed out waiting for the condition';
        break;
      }
      while (this.clock.now() - start < elapsed + podAttachAndMountRetryIntervalMs) this.advance(opts.onTick);
      elapsed = this.clock.now() - start;
    }
    const unmounted = this.getUnmountedVolumes(podName, expected);
    if (unmounted.length === 0) return;
    throw new Error(
      `unmounted volumes=${goList(unmounted)}, unattached volumes=${goList(this.getUnattachedVolumes(podName))}, failed to process volumes=${goList(this.getVolumesNotInDSW(podName, expected))}: ${failure}`,
    );
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).getUnmountedVolumes */
  private getUnmountedVolumes(podName: UniquePodName, expected: string[]): string[] {
    const mounted = new Set(this.asw.getMountedVolumesForPod(podName).map((v) => v.outerVolumeSpecName));
    return expected.filter((v) => !mounted.has(v)).sort();
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).getUnattachedVolumes */
  private getUnattachedVolumes(podName: UniquePodName): string[] {
    return this.dsw
      .getVolumesToMount()
      .filter((v) => v.podName === podName && v.pluginIsAttachable && !this.asw.volumeExists(v.volumeName))
      .map((v) => v.outerVolumeSpecName)
      .sort();
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).getVolumesNotInDSW */
  private getVolumesNotInDSW(podName: UniquePodName, expected: string[]): string[] {
    const inDSW = new Set(this.dsw.getVolumesToMount().filter((v) => v.podName === podName).map((v) => v.outerVolumeSpecName));
    return expected.filter((v) => !inDSW.has(v)).sort();
  }

  /** Keyed by the pod's volume name. @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).GetMountedVolumesForPod */
  getMountedVolumesForPod(podName: UniquePodName): Map<string, MountedVolume> {
    return new Map(this.asw.getMountedVolumesForPod(podName).map((v) => [v.outerVolumeSpecName, v]));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).GetPossiblyMountedVolumesForPod */
  getPossiblyMountedVolumesForPod(podName: UniquePodName): Map<string, MountedVolume> {
    return new Map(this.asw.getPossiblyMountedVolumesForPod(podName).map((v) => [v.outerVolumeSpecName, v]));
  }

  /**
   * GIDs from the pv.beta.kubernetes.io/gid annotation of mounted PVs that the pod does not already
   * list, sorted as strings like Go's sets.String.List.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).GetExtraSupplementalGroupsForPod
   */
  getExtraSupplementalGroupsForPod(pod: Pod): number[] {
    const groups = new Set<string>();
    for (const v of this.asw.getMountedVolumesForPod(getUniquePodName(pod))) if (v.volumeGidValue !== '') groups.add(v.volumeGidValue);
    const result: number[] = [];
    for (const group of [...groups].sort()) {
      const gid = getExtraSupplementalGid(group, pod);
      if (gid !== undefined) result.push(gid);
    }
    return result;
  }

  /**
   * Attachable volumes that are desired or attached: what the node status reports in volumesInUse,
   * so the controller does not detach them.
   * @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).GetVolumesInUse
   */
  getVolumesInUse(): UniqueVolumeName[] {
    const names = new Set<UniqueVolumeName>();
    for (const v of this.dsw.getVolumesToMount()) if (v.pluginIsAttachable) names.add(v.volumeName);
    for (const v of this.asw.getAttachedVolumes()) if (v.pluginIsAttachable) names.add(v.volumeName);
    return [...names].sort();
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).MarkVolumesAsReportedInUse */
  markVolumesAsReportedInUse(names: UniqueVolumeName[]): void {
    this.dsw.markVolumesReportedInUse(names);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/volumemanager.(*volumeManager).VolumeIsAttached */
  volumeIsAttached(name: UniqueVolumeName): boolean {
    return this.asw.volumeExists(name);
  }
}
