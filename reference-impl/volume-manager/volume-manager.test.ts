import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, SECOND, type Pod } from '../api/index.js';
import { BasicManager } from '../pod-manager/index.js';
import {
  VolumeManager,
  DesiredStateOfWorld,
  ActualStateOfWorld,
  OperationExecutor,
  Reconciler,
  FakeVolumePlugin,
  VolumePluginMgr,
  FakeVolumeAPI,
  VolumeGidAnnotationKey,
  VerifyControllerAttachedVolumeOpName,
  getExtraSupplementalGid,
  getUniquePodName,
  TimeoutOnSetupVolumeName,
  FailOnSetupVolumeName,
  TimeoutAndFailOnSetupVolumeName,
  SuccessAndTimeoutSetupVolumeName,
  SuccessAndFailOnSetupVolumeName,
  FailVolumeExpansion,
  FailMountDeviceVolumeName,
  TimeoutOnMountDeviceVolumeName,
  TimeoutAndFailOnMountDeviceVolumeName,
  SuccessAndTimeoutDeviceName,
  SuccessAndFailOnMountDeviceName,
  type NodeWithVolumes,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type PersistentVolumeMode,
  type PodVolume,
  type VolumeSpec,
  type UniqueVolumeName,
} from './index.js';

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/volumemanager/volume_manager_test.go

const testHostname = 'test-hostname';

/** createObjects: a node with the PV attached, a pod using the claim, the PV and the bound claim. */
function createObjects(pvMode: PersistentVolumeMode, podMode: PersistentVolumeMode | 'none') {
  const node: NodeWithVolumes = { metadata: { name: testHostname }, status: { volumesAttached: [{ name: 'fake/fake-device', devicePath: 'fake/path' }] } };
  const container: Pod['spec']['containers'][number] & { volumeDevices?: { name: string; devicePath: string }[] } = { name: 'container1' };
  if (podMode === 'Block') container.volumeDevices = [{ name: 'vol1', devicePath: '/dev/vol1' }];
  if (podMode === 'Filesystem') container.volumeMounts = [{ name: 'vol1', mountPath: '/mnt/vol1' }];
  const pod: Pod = {
    metadata: { name: 'abc', namespace: 'nsA', uid: '1234' },
    spec: { containers: [container], volumes: [{ name: 'vol1', persistentVolumeClaim: { claimName: 'claimA' } }], securityContext: { supplementalGroups: [555] } },
  };
  const pv: PersistentVolume = { metadata: { name: 'pvA' }, spec: { rbd: { image: 'fake-device' }, claimRef: { namespace: 'nsA', name: 'claimA' }, volumeMode: pvMode } };
  const claim: PersistentVolumeClaim = { metadata: { name: 'claimA', namespace: 'nsA' }, spec: { volumeName: 'pvA', volumeMode: pvMode }, status: { phase: 'Bound' } };
  return { node, pod, pv, claim };
}

/** newTestVolumeManager: "fake" handles RBD and is attachable, "unattachable-fake-plugin" handles config maps. */
function newTestVolumeManager(podManager: BasicManager, api: FakeVolumeAPI) {
  const clock = new FakeClock();
  const attachable = new FakeVolumePlugin({ pluginName: 'fake', canSupport: (s: VolumeSpec) => s.persistentVolume?.spec.rbd !== undefined || s.volume?.rbd !== undefined });
  const unattachable = new FakeVolumePlugin({ pluginName: 'unattachable-fake-plugin', nonAttachable: true, canSupport: (s: VolumeSpec) => s.volume?.configMap !== undefined });
  const vm = new VolumeManager({ clock, nodeName: testHostname, controllerAttachDetachEnabled: true, podManager, api, plugins: [attachable, unattachable] });
  return { vm, clock, attachable };
}

describe('TestGetMountedVolumesForPodAndGetVolumesInUse', () => {
  const cases: [string, PersistentVolumeMode, PersistentVolumeMode, boolean, boolean][] = [
    ['filesystem volume', 'Filesystem', 'Filesystem', true, false],
    ['block volume', 'Block', 'Block', true, false],
    ['mismatched volume', 'Block', 'Filesystem', false, true],
  ];
  for (const [name, pvMode, podMode, expectMount, expectError] of cases) {
    it(name, () => {
      const podManager = new BasicManager();
      const { node, pod, pv, claim } = createObjects(pvMode, podMode);
      const { vm } = newTestVolumeManager(podManager, new FakeVolumeAPI({ node, pvs: [pv], pvcs: [claim] }));
      podManager.setPods([pod]);
      // Stands in for the node status updater reporting the volume in use.
      const onTick = () => vm.markVolumesAsReportedInUse([node.status?.volumesAttached?.[0].name as string]);
      let error: Error | undefined;
      try {
        vm.waitForAttachAndMount(pod, { onTick });
      } catch (err) {
        error = err as Error;
      }
      assert.equal(error !== undefined, expectError, error?.message);
      const mounted = vm.getMountedVolumesForPod(getUniquePodName(pod));
      assert.deepEqual([...mounted.keys()], expectMount ? ['vol1'] : []);
      assert.deepEqual(vm.getVolumesInUse(), expectMount ? ['fake/fake-device'] : []);
    });
  }
});

describe('TestWaitForAttachAndMountError', () => {
  it('names the unattached and the unprocessable volumes', () => {
    const podManager = new BasicManager();
    const volumes: PodVolume[] = [
      { name: FailMountDeviceVolumeName, configMap: { name: '' } },
      { name: 'vol2', rbd: { image: '' } },
      { name: 'vol02', rbd: { image: '' } },
      { name: 'vol3', azureDisk: {} } as PodVolume, // no plugin handles Azure disks here
      { name: 'vol03', azureDisk: {} } as PodVolume,
    ];
    const pod: Pod = {
      metadata: { name: 'abc', namespace: 'nsA', uid: '1234' },
      spec: { containers: [{ name: 'container1', volumeMounts: volumes.map((v) => ({ name: v.name, mountPath: `/${v.name}` })) }], volumes },
    };
    const { vm } = newTestVolumeManager(podManager, new FakeVolumeAPI());
    podManager.setPods([pod]);
    assert.throws(() => vm.waitForAttachAndMount(pod), (err: Error) => {
      assert.match(err.message, /unattached volumes=\[vol02 vol2\], failed to process volumes=\[vol03 vol3\]/);
      return true;
    });
  });
});

describe('TestGetExtraSupplementalGroupsForPod', () => {
  const cases: [string, number[]][] = [
    ['777', [777]],
    ['555', []], // the pod already asks for 555
    ['a', []],
    ['', []],
  ];
  for (const [gidAnnotation, expected] of cases) {
    it(`gid annotation ${JSON.stringify(gidAnnotation)}`, () => {
      const podManager = new BasicManager();
      const { node, pod, pv, claim } = createObjects('Filesystem', 'Filesystem');
      pv.metadata.annotations = { [VolumeGidAnnotationKey]: gidAnnotation };
      const { vm } = newTestVolumeManager(podManager, new FakeVolumeAPI({ node, pvs: [pv], pvcs: [claim] }));
      podManager.setPods([pod]);
      vm.waitForAttachAndMount(pod, { onTick: () => vm.markVolumesAsReportedInUse(['fake/fake-device']) });
      assert.deepEqual(vm.getExtraSupplementalGroupsForPod(pod), expected);
    });
  }
});

describe('TestInitialPendingVolumesForPodAndGetVolumesInUse', () => {
  it('a claim that becomes bound later still gets mounted', () => {
    const podManager = new BasicManager();
    const { node, pod, pv, claim } = createObjects('Filesystem', 'Filesystem');
    claim.status = { phase: 'Pending' };
    const { vm, clock } = newTestVolumeManager(podManager, new FakeVolumeAPI({ node, pvs: [pv], pvcs: [claim] }));
    podManager.setPods([pod]);
    const bindAt = clock.now() + 500;
    const onTick = () => {
      vm.markVolumesAsReportedInUse(['fake/fake-device']);
      if (clock.now() >= bindAt) claim.status = { phase: 'Bound' }; // delayClaimBecomesBound
    };
    // Go retries WaitForAttachAndMount every 100 ms for 1 s; early "PVC is not bound" errors are expected.
    let mounted = false;
    for (let i = 0; i < 10 && !mounted; i++) {
      try {
        vm.waitForAttachAndMount(pod, { onTick });
        mounted = true;
      } catch {
        vm.runFor(100, onTick);
      }
    }
    assert.ok(mounted);
  });
});

describe('port: getExtraSupplementalGid', () => {
  it('parses like strconv.ParseInt and skips groups the pod already has', () => {
    const pod: Pod = { metadata: {}, spec: { containers: [], securityContext: { supplementalGroups: [10] } } };
    assert.equal(getExtraSupplementalGid('20', pod), 20);
    assert.equal(getExtraSupplementalGid('+7', pod), 7);
    assert.equal(getExtraSupplementalGid('10', pod), undefined);
    assert.equal(getExtraSupplementalGid(' 20', pod), undefined);
    assert.equal(getExtraSupplementalGid('1e3', pod), undefined);
  });
});

// ---------------------------------------------------------------------------------------------
// pkg/kubelet/volumemanager/reconciler/reconciler_test.go, as scenarios over the fake mounter:
// the reconciler runs every 100 ms of fake time; "wait for" steps until the condition holds.

const nodeName = 'mynodename';

function reconcilerSetup(opts: { controllerAttachDetachEnabled: boolean; attached?: string[]; pvs?: PersistentVolume[]; pvcs?: PersistentVolumeClaim[]; supportsRemount?: boolean }) {
  const clock = new FakeClock();
  const plugin = new FakeVolumePlugin({ supportsRemount: opts.supportsRemount });
  const pluginMgr = new VolumePluginMgr([plugin]);
  const dsw = new DesiredStateOfWorld(pluginMgr);
  const asw = new ActualStateOfWorld(pluginMgr);
  const node: NodeWithVolumes = { metadata: { name: nodeName }, status: { volumesAttached: (opts.attached ?? ['fake-plugin/fake-device1']).map((name) => ({ name, devicePath: 'fake/path' })) } };
  const oex = new OperationExecutor({ clock, pluginMgr, api: new FakeVolumeAPI({ node, pvs: opts.pvs, pvcs: opts.pvcs }), nodeName });
  const reconciler = new Reconciler({ controllerAttachDetachEnabled: opts.controllerAttachDetachEnabled, dsw, asw, operationExecutor: oex, populatorHasAddedPods: () => true });
  const run = (ms: number) => {
    for (let t = 0; t < ms; t += 100) {
      clock.step(100);
      reconciler.reconcile();
    }
  };
  /** Go retries with back-off 100 ms ×3, 6 steps (about 36 s); the same budget in fake time. */
  const waitFor = (what: string, condition: () => boolean) => {
    for (let t = 0; t <= 36_400; t += 100) {
      if (condition()) return;
      run(100);
    }
    assert.fail(`timed out waiting for ${what}`);
  };
  const waitForMount = (v: UniqueVolumeName) => waitFor(`mount of ${v}`, () => asw.getMountedVolumes().some((m) => m.volumeName === v));
  const waitForDetach = (v: UniqueVolumeName) => waitFor(`detach of ${v}`, () => !asw.volumeExists(v));
  return { clock, plugin, dsw, asw, oex, reconciler, run, waitFor, waitForMount, waitForDetach };
}

const gcePod = (): Pod & { spec: { volumes: PodVolume[] } } => ({
  metadata: { name: 'pod1', uid: 'pod1uid' },
  spec: { containers: [], volumes: [{ name: 'volume-name', gcePersistentDisk: { pdName: 'fake-device1' } }] },
});

function addGcePod(dsw: DesiredStateOfWorld) {
  const pod = gcePod();
  const spec: VolumeSpec = { volume: pod.spec.volumes[0], readOnly: false };
  const podName = getUniquePodName(pod);
  const volumeName = dsw.addPodToVolume(podName, pod, spec, 'volume-name', '');
  return { pod, podName, volumeName };
}

describe('Test_Run_Positive_DoNothing', () => {
  it('an empty desired state starts nothing', () => {
    const { plugin, run } = reconcilerSetup({ controllerAttachDetachEnabled: false });
    run(SECOND);
    const c = plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.mountDevice, c.setUp, c.tearDown, c.detach], [0, 0, 0, 0, 0, 0]);
  });
});

describe('Test_Run_Positive_VolumeAttachAndMount', () => {
  it('the kubelet attaches, then mounts', () => {
    const { plugin, dsw, waitForMount } = reconcilerSetup({ controllerAttachDetachEnabled: false });
    const { volumeName } = addGcePod(dsw);
    assert.equal(volumeName, 'fake-plugin/fake-device1');
    waitForMount(volumeName);
    const c = plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.mountDevice, c.setUp, c.tearDown, c.detach], [1, 1, 1, 1, 0, 0]);
  });
});

describe('Test_Run_Positive_VolumeMountControllerAttachEnabled', () => {
  it('the controller attached it: verify, then mount, never attach', () => {
    const { plugin, dsw, waitForMount } = reconcilerSetup({ controllerAttachDetachEnabled: true });
    const { volumeName } = addGcePod(dsw);
    dsw.markVolumesReportedInUse([volumeName]);
    waitForMount(volumeName);
    const c = plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.mountDevice, c.setUp, c.tearDown, c.detach], [0, 1, 1, 1, 0, 0]);
  });
});

describe('Test_Run_Negative_VolumeMountControllerAttachEnabled', () => {
  it('not reported in use: nothing starts and nothing backs off', () => {
    const { plugin, dsw, oex, run } = reconcilerSetup({ controllerAttachDetachEnabled: true });
    const { volumeName, podName } = addGcePod(dsw);
    run(10 * SECOND); // reconcilerSyncWaitDuration
    assert.ok(oex.isOperationSafeToRetry(volumeName, podName, VerifyControllerAttachedVolumeOpName));
    assert.ok(oex.isOperationSafeToRetry(volumeName, '', VerifyControllerAttachedVolumeOpName));
    const c = plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.mountDevice], [0, 0, 0]);
  });
});

describe('Test_Run_Positive_VolumeAttachMountUnmountDetach', () => {
  it('attach, mount; then unmount, unmount the device and detach', () => {
    const { plugin, dsw, waitForMount, waitForDetach } = reconcilerSetup({ controllerAttachDetachEnabled: false });
    const { podName, volumeName } = addGcePod(dsw);
    waitForMount(volumeName);
    const c = plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.mountDevice, c.setUp, c.tearDown, c.detach], [1, 1, 1, 1, 0, 0]);

    dsw.deletePodFromVolume(podName, volumeName);
    waitForDetach(volumeName);
    assert.deepEqual([c.tearDown, c.unmountDevice, c.detach], [1, 1, 1]);
  });
});

describe('Test_Run_Positive_VolumeUnmountControllerAttachEnabled', () => {
  it('the kubelet unmounts but leaves the detach to the controller', () => {
    const { plugin, dsw, waitForMount, waitForDetach } = reconcilerSetup({ controllerAttachDetachEnabled: true });
    const { podName, volumeName } = addGcePod(dsw);
    dsw.markVolumesReportedInUse([volumeName]);
    waitForMount(volumeName);
    const c = plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.mountDevice, c.setUp, c.tearDown, c.detach], [0, 1, 1, 1, 0, 0]);

    dsw.deletePodFromVolume(podName, volumeName);
    waitForDetach(volumeName);
    assert.deepEqual([c.tearDown, c.detach], [1, 0]);
  });
});

/** The block-mode fixtures: a GCE PD PV in Block mode bound to a claim of the same size. */
function blockSetup(controllerAttachDetachEnabled: boolean) {
  const pv: PersistentVolume = {
    metadata: { uid: '001', name: 'volume-name' },
    spec: { capacity: { storage: '10G' }, gcePersistentDisk: { pdName: 'fake-device1' }, volumeMode: 'Block', claimRef: { namespace: 'ns', name: 'pvc-volume-name' } },
  };
  const pvc: PersistentVolumeClaim = {
    metadata: { uid: 'pvc-001', name: 'pvc-volume-name', namespace: 'ns' },
    spec: { volumeName: 'volume-name', volumeMode: 'Block' },
    status: { phase: 'Bound', capacity: { storage: '10G' } },
  };
  const pod: Pod = { metadata: { name: 'pod1', uid: 'pod1uid', namespace: 'ns' }, spec: { containers: [] } };
  const s = reconcilerSetup({ controllerAttachDetachEnabled, pvs: [pv], pvcs: [pvc] });
  const podName = getUniquePodName(pod);
  const volumeName = s.dsw.addPodToVolume(podName, pod, { persistentVolume: pv, readOnly: false }, 'volume-name', '');
  return { ...s, podName, volumeName };
}

describe('Test_Run_Positive_VolumeAttachAndMap', () => {
  it('the kubelet attaches, then maps the block device', () => {
    const s = blockSetup(false);
    s.waitForMount(s.volumeName);
    const c = s.plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.getPodDeviceMapPath, c.tearDownDevice, c.detach], [1, 1, 1, 0, 0]);
  });
});

describe('Test_Run_Positive_BlockVolumeMapControllerAttachEnabled', () => {
  it('the controller attached it: verify, then map', () => {
    const s = blockSetup(true);
    s.dsw.markVolumesReportedInUse([s.volumeName]);
    s.waitForMount(s.volumeName);
    const c = s.plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.getPodDeviceMapPath, c.tearDownDevice, c.detach], [0, 1, 1, 0, 0]);
  });
});

describe('Test_Run_Positive_BlockVolumeAttachMapUnmapDetach', () => {
  it('attach, map; then unmap, tear down the device and detach', () => {
    const s = blockSetup(false);
    s.waitForMount(s.volumeName);
    const c = s.plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.getPodDeviceMapPath, c.tearDownDevice, c.detach], [1, 1, 1, 0, 0]);
    s.dsw.deletePodFromVolume(s.podName, s.volumeName);
    s.waitForDetach(s.volumeName);
    assert.deepEqual([c.tearDownDevice, c.detach], [1, 1]);
  });
});

describe('Test_Run_Positive_VolumeUnmapControllerAttachEnabled', () => {
  it('the kubelet unmaps but leaves the detach to the controller', () => {
    const s = blockSetup(true);
    s.dsw.markVolumesReportedInUse([s.volumeName]);
    s.waitForMount(s.volumeName);
    const c = s.plugin.counts;
    assert.deepEqual([c.attach, c.waitForAttach, c.getPodDeviceMapPath, c.tearDownDevice, c.detach], [0, 1, 1, 0, 0]);
    s.dsw.deletePodFromVolume(s.podName, s.volumeName);
    s.waitForDetach(s.volumeName);
    assert.deepEqual([c.tearDownDevice, c.detach], [1, 0]);
  });
});

describe('Test_UncertainDeviceGlobalMounts', () => {
  type DeviceState = 'DeviceMountUncertain' | 'DeviceNotMounted' | 'DeviceGloballyMounted';
  const cases: { name: string; deviceState: DeviceState; unmountDeviceCallCount: number; volumeName: string; supportRemount?: boolean }[] = [
    { name: 'timed out operations should result in device marked as uncertain', deviceState: 'DeviceMountUncertain', unmountDeviceCallCount: 1, volumeName: TimeoutOnMountDeviceVolumeName },
    { name: 'failed operation should result in not-mounted device', deviceState: 'DeviceNotMounted', unmountDeviceCallCount: 0, volumeName: FailMountDeviceVolumeName },
    { name: 'timeout followed by failed operation should result in non-mounted device', deviceState: 'DeviceNotMounted', unmountDeviceCallCount: 0, volumeName: TimeoutAndFailOnMountDeviceVolumeName },
    { name: 'success followed by timeout operation should result in mounted device', deviceState: 'DeviceGloballyMounted', unmountDeviceCallCount: 1, volumeName: SuccessAndTimeoutDeviceName, supportRemount: true },
    { name: 'success followed by failed operation should result in mounted device', deviceState: 'DeviceGloballyMounted', unmountDeviceCallCount: 1, volumeName: SuccessAndFailOnMountDeviceName, supportRemount: true },
  ];
  for (const mode of ['Block', 'Filesystem'] as const) {
    for (const tc of cases) {
      it(`${tc.name} [${mode}]`, () => {
        const pv: PersistentVolume = { metadata: { name: tc.volumeName, uid: 'pvuid' }, spec: { claimRef: { name: 'pvc' }, volumeMode: mode } };
        const pvc: PersistentVolumeClaim = { metadata: { name: 'pvc', uid: 'pvcuid' }, spec: { volumeName: tc.volumeName, volumeMode: mode } };
        const pod: Pod = { metadata: { name: 'pod1', uid: 'pod1uid' }, spec: { containers: [], volumes: [{ name: 'volume-name', persistentVolumeClaim: { claimName: 'pvc' } }] } };
        const s = reconcilerSetup({ controllerAttachDetachEnabled: true, attached: [`fake-plugin/${tc.volumeName}`], pvs: [pv], pvcs: [pvc], supportsRemount: tc.supportRemount });
        const podName = getUniquePodName(pod);
        const volumeName = s.dsw.addPodToVolume(podName, pod, { persistentVolume: pv, readOnly: false }, tc.volumeName, '');
        s.dsw.markVolumesReportedInUse([volumeName]);

        s.waitFor('volume in ASW', () => s.asw.volumeExists(volumeName));
        if (tc.volumeName === TimeoutAndFailOnMountDeviceVolumeName) s.run(10 * SECOND);
        if (tc.volumeName === SuccessAndFailOnMountDeviceName || tc.volumeName === SuccessAndTimeoutDeviceName) {
          s.waitForMount(volumeName);
          s.asw.markRemountRequired(podName);
          s.run(10 * SECOND);
        }
        if (tc.deviceState === 'DeviceMountUncertain') {
          s.waitFor('uncertain global mount', () => s.asw.getUnmountedVolumes().some((v) => v.volumeName === volumeName && v.deviceMountState === 'DeviceMountUncertain'));
        }
        if (tc.deviceState === 'DeviceGloballyMounted') s.waitForMount(volumeName);
        if (tc.deviceState === 'DeviceNotMounted') assert.equal(s.asw.getDeviceMountState(volumeName), 'DeviceNotMounted');

        s.dsw.deletePodFromVolume(podName, volumeName);
        s.waitForDetach(volumeName);
        const c = s.plugin.counts;
        assert.equal(mode === 'Filesystem' ? c.unmountDevice : c.tearDownDevice, tc.unmountDeviceCallCount);
      });
    }
  }
});

describe('Test_UncertainVolumeMountState', () => {
  type State = 'VolumeMountUncertain' | 'VolumeNotMounted' | 'VolumeMounted';
  const cases: { name: string; volumeState: State; unmountDeviceCallCount: number; unmountVolumeCount: number; volumeName: string; supportRemount?: boolean; pvSize?: string; pvcStatusSize?: string }[] = [
    { name: 'timed out operations should result in volume marked as uncertain', volumeState: 'VolumeMountUncertain', unmountDeviceCallCount: 1, unmountVolumeCount: 1, volumeName: TimeoutOnSetupVolumeName },
    { name: 'failed operation should result in not-mounted volume', volumeState: 'VolumeNotMounted', unmountDeviceCallCount: 1, unmountVolumeCount: 0, volumeName: FailOnSetupVolumeName },
    { name: 'timeout followed by failed operation should result in non-mounted volume', volumeState: 'VolumeNotMounted', unmountDeviceCallCount: 1, unmountVolumeCount: 0, volumeName: TimeoutAndFailOnSetupVolumeName },
    { name: 'success followed by timeout operation should result in mounted volume', volumeState: 'VolumeMounted', unmountDeviceCallCount: 1, unmountVolumeCount: 1, volumeName: SuccessAndTimeoutSetupVolumeName, supportRemount: true },
    { name: 'success followed by failed operation should result in mounted volume', volumeState: 'VolumeMounted', unmountDeviceCallCount: 1, unmountVolumeCount: 1, volumeName: SuccessAndFailOnSetupVolumeName, supportRemount: true },
    { name: 'mount success but fail to expand filesystem', volumeState: 'VolumeMountUncertain', unmountDeviceCallCount: 1, unmountVolumeCount: 1, volumeName: FailVolumeExpansion, supportRemount: true, pvSize: '10G', pvcStatusSize: '2G' },
  ];

  for (const mode of ['Block', 'Filesystem'] as const) {
    for (const tc of cases) {
      it(`${tc.name} [${mode}]`, () => {
        const pv: PersistentVolume = { metadata: { name: tc.volumeName, uid: 'pvuid' }, spec: { claimRef: { name: 'pvc' }, volumeMode: mode } };
        if (tc.pvSize) pv.spec.capacity = { storage: tc.pvSize };
        const pvc: PersistentVolumeClaim = { metadata: { name: 'pvc', uid: 'pvcuid' }, spec: { volumeName: tc.volumeName, volumeMode: mode } };
        if (tc.pvcStatusSize) pvc.status = { capacity: { storage: tc.pvcStatusSize } };
        const pod: Pod = { metadata: { name: 'pod1', uid: 'pod1uid' }, spec: { containers: [], volumes: [{ name: 'volume-name', persistentVolumeClaim: { claimName: 'pvc' } }] } };
        const s = reconcilerSetup({ controllerAttachDetachEnabled: true, attached: [`fake-plugin/${tc.volumeName}`], pvs: [pv], pvcs: [pvc], supportsRemount: tc.supportRemount });

        const spec: VolumeSpec = { persistentVolume: pv, readOnly: false };
        const podName = getUniquePodName(pod);
        const volumeName = s.dsw.addPodToVolume(podName, pod, spec, tc.volumeName, '');
        s.dsw.markVolumesReportedInUse([volumeName]);

        s.waitFor('volume in ASW', () => s.asw.volumeExists(volumeName));
        s.waitFor('global mount', () => s.asw.getGloballyMountedVolumes().some((v) => v.volumeName === volumeName));
        if (tc.volumeName === TimeoutAndFailOnSetupVolumeName) s.run(10 * SECOND);
        if (tc.volumeName === SuccessAndFailOnSetupVolumeName || tc.volumeName === SuccessAndTimeoutSetupVolumeName) {
          // Mounted once; then ask for a remount, which fails or times out.
          s.waitForMount(volumeName);
          s.asw.markRemountRequired(podName);
          s.run(10 * SECOND);
        }
        if (tc.volumeState === 'VolumeMountUncertain') {
          s.waitFor('uncertain pod mount', () => !s.asw.podExistsInVolume(podName, volumeName).exists && s.asw.getAllMountedVolumes().some((v) => v.volumeName === volumeName));
        }
        if (tc.volumeState === 'VolumeMounted') s.waitForMount(volumeName);
        if (tc.volumeState === 'VolumeNotMounted') assert.equal(s.asw.getVolumeMountState(volumeName, podName), 'VolumeNotMounted');

        s.dsw.deletePodFromVolume(podName, volumeName);
        s.waitForDetach(volumeName);

        const c = s.plugin.counts;
        if (mode === 'Filesystem') {
          assert.equal(c.unmountDevice, tc.unmountDeviceCallCount, 'UnmountDevice calls');
          assert.equal(c.tearDown, tc.unmountVolumeCount, 'TearDown calls');
        } else {
          assert.equal(c.unmapPodDevice, tc.unmountVolumeCount, 'UnmapPodDevice calls');
          assert.equal(c.tearDownDevice, tc.unmountDeviceCallCount, 'TearDownDevice calls');
        }
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Port checks: the back-off and the populator path that the Go tests above only touch indirectly.

describe('port: exponential back-off on the fake clock', () => {
  it('a failing SetUp is retried after 0.5 s, 1 s, 2 s, ... and capped at 2 min 2 s', () => {
    const pv: PersistentVolume = { metadata: { name: FailOnSetupVolumeName }, spec: { claimRef: { name: 'pvc' } } };
    const s = reconcilerSetup({ controllerAttachDetachEnabled: true, attached: [`fake-plugin/${FailOnSetupVolumeName}`], pvs: [pv] });
    const pod: Pod = { metadata: { name: 'p', uid: 'u' }, spec: { containers: [] } };
    const volumeName = s.dsw.addPodToVolume('u', pod, { persistentVolume: pv, readOnly: false }, 'v', '');
    s.dsw.markVolumesReportedInUse([volumeName]);
    s.run(10 * SECOND);
    // Verified at 0.1 s; SetUp fails at 0.2 s, then after waits of more than 0.5, 1, 2 and 4 s:
    // at 0.8, 1.9, 4.0 and 8.1 s. The next try would be after 16.2 s.
    const attempts = s.reconciler.events.filter((e) => e.operation === 'mount' && e.result !== 'backoff');
    assert.equal(attempts.length, 5);
    assert.equal(s.plugin.counts.setUp, 5);
    assert.equal(s.oex.isOperationSafeToRetry(volumeName, '', 'volume_mount'), false);
  });

  it('removing the pod still unmounts the device even while mounts were backing off', () => {
    const pv: PersistentVolume = { metadata: { name: FailOnSetupVolumeName }, spec: { claimRef: { name: 'pvc' } } };
    const s = reconcilerSetup({ controllerAttachDetachEnabled: true, attached: [`fake-plugin/${FailOnSetupVolumeName}`], pvs: [pv] });
    const pod: Pod = { metadata: { name: 'p', uid: 'u' }, spec: { containers: [] } };
    const volumeName = s.dsw.addPodToVolume('u', pod, { persistentVolume: pv, readOnly: false }, 'v', '');
    s.dsw.markVolumesReportedInUse([volumeName]);
    s.run(3 * SECOND);
    s.dsw.deletePodFromVolume('u', volumeName);
    s.waitForDetach(volumeName);
    assert.deepEqual([s.plugin.counts.tearDown, s.plugin.counts.unmountDevice], [0, 1]);
  });
});

describe('port: bad input', () => {
  it('pod volumes are checked the way the API server would, naming the field', () => {
    const podManager = new BasicManager();
    const { vm } = newTestVolumeManager(podManager, new FakeVolumeAPI());
    const pod = (volumes: PodVolume[]): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [{ name: 'c', volumeMounts: [{ name: 'a', mountPath: '/a' }] }], volumes } });
    assert.throws(() => vm.waitForAttachAndMount(pod([{ name: '' }])), /spec\.volumes\[0\]\.name: Required value/);
    assert.throws(() => vm.waitForAttachAndMount(pod([{ name: 'a' }, { name: 'a' }])), /spec\.volumes\[1\]\.name: Duplicate value: "a"/);
    assert.throws(() => vm.waitForAttachAndMount(pod([{ name: 'a', persistentVolumeClaim: { claimName: '' } }])), /spec\.volumes\[0\]\.persistentVolumeClaim\.claimName: Required value/);
  });

  it('a malformed PV capacity fails the mount with the field named', () => {
    const pv: PersistentVolume = { metadata: { name: 'pv' }, spec: { claimRef: { name: 'pvc' }, capacity: { storage: '10Gx' } } };
    const pvc: PersistentVolumeClaim = { metadata: { name: 'pvc' }, spec: { volumeName: 'pv' } };
    const s = reconcilerSetup({ controllerAttachDetachEnabled: true, attached: ['fake-plugin/pv'], pvs: [pv], pvcs: [pvc] });
    const pod: Pod = { metadata: { name: 'p', uid: 'u' }, spec: { containers: [] } };
    const volumeName = s.dsw.addPodToVolume('u', pod, { persistentVolume: pv, readOnly: false }, 'pv', '');
    s.dsw.markVolumesReportedInUse([volumeName]);
    s.run(SECOND);
    assert.match(s.oex.pending.lastError(volumeName, '') ?? '', /spec\.capacity\[storage\]: Invalid value: "10Gx"/);
    assert.equal(s.asw.getVolumeMountState(volumeName, 'u'), 'VolumeMountUncertain', 'set up but not usable');
  });
});

describe('port: populator', () => {
  it('an unbound claim is reported on the pod, and a terminated pod loses its volumes', () => {
    const podManager = new BasicManager();
    const { node, pod, pv, claim } = createObjects('Filesystem', 'Filesystem');
    claim.status = { phase: 'Pending' };
    const terminated = new Set<string>();
    const clock = new FakeClock();
    const plugin = new FakeVolumePlugin({ pluginName: 'fake' });
    const vm = new VolumeManager({
      clock,
      nodeName: testHostname,
      podManager,
      api: new FakeVolumeAPI({ node, pvs: [pv], pvcs: [claim] }),
      plugins: [plugin],
      podStateProvider: { shouldPodContainersBeTerminating: (uid) => terminated.has(uid), shouldPodRuntimeBeRemoved: (uid) => terminated.has(uid) },
    });
    podManager.setPods([pod]);
    vm.tick();
    assert.deepEqual(vm.dsw.popPodErrors('1234'), ['error processing PVC nsA/claimA: PVC is not bound']);

    claim.status = { phase: 'Bound' };
    vm.waitForAttachAndMount(pod, { onTick: () => vm.markVolumesAsReportedInUse(vm.getVolumesInUse()) });
    assert.deepEqual([...vm.getMountedVolumesForPod('1234').keys()], ['vol1']);

    terminated.add('1234');
    podManager.removePod(pod);
    vm.runFor(SECOND);
    assert.equal(vm.getPossiblyMountedVolumesForPod('1234').size, 0);
    assert.equal(vm.volumeIsAttached('fake/fake-device'), false, 'forgotten once unmounted (the controller detaches)');
    assert.deepEqual([plugin.counts.setUp, plugin.counts.tearDown, plugin.counts.unmountDevice], [1, 1, 1]);
  });
});
