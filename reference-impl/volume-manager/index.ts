export {
  VolumeManager,
  getExtraSupplementalGid,
  getExpectedVolumes,
  podAttachAndMountTimeoutMs,
  podAttachAndMountRetryIntervalMs,
  type VolumeManagerOptions,
} from './volume-manager.js';
export { DesiredStateOfWorld, type VolumeToMount } from './desired-state.js';
export { ActualStateOfWorld, deviceMayBeMounted, type MountedVolume, type AttachedVolume, type MarkVolumeOpts, type PodExistsReason } from './actual-state.js';
export { DesiredStateOfWorldPopulator, getPodVolumeNames, validatePodVolumes, VolumeGidAnnotationKey, type PodSource, type PodStateProvider } from './populator.js';
export { Reconciler, reconcilerLoopSleepDurationMs, type ReconcilerOptions, type ReconcileEvent } from './reconciler.js';
export {
  OperationExecutor,
  PendingOperations,
  markDeviceErrorState,
  markVolumeErrorState,
  initialDurationBeforeRetryMs,
  maxDurationBeforeRetryMs,
  VerifyControllerAttachedVolumeOpName,
  type StartResult,
} from './operations.js';
export {
  FakeVolumePlugin,
  VolumePluginMgr,
  TimeoutOnSetupVolumeName,
  FailOnSetupVolumeName,
  TimeoutAndFailOnSetupVolumeName,
  SuccessAndTimeoutSetupVolumeName,
  SuccessAndFailOnSetupVolumeName,
  FailVolumeExpansion,
  TimeoutOnMountDeviceVolumeName,
  TimeoutAndFailOnMountDeviceVolumeName,
  FailMountDeviceVolumeName,
  SuccessAndTimeoutDeviceName,
  SuccessAndFailOnMountDeviceName,
  type FakeVolumePluginOptions,
  type FakeVolumeCounts,
} from './plugin.js';
export * from './types.js';
