export {
  ContainerGC,
  numContainers,
  parsePodUIDFromLogsDirectory,
  podLogsRootDirectory,
  type ContainerGCInfo,
  type SandboxGCInfo,
  type EvictUnit,
  type ContainersByEvictUnit,
} from './container-gc.js';
export { RealContainerGC, validateGCPolicy, DEFAULT_GC_POLICY, GCPolicyError, type GCPolicy, type GarbageCollector } from './policy.js';
export {
  FakeRuntimeService,
  FakeLogFS,
  KubernetesPodUIDLabel,
  buildContainerName,
  buildSandboxName,
  type RuntimeService,
  type PodStateProvider,
  type LogDirectoryFS,
  type CRIContainer,
  type CRIPodSandbox,
  type ContainerState,
  type PodSandboxState,
} from './runtime.js';
