/**
 * The slice of the CRI that container GC talks to, and an in-memory fake of it. Shapes follow the CRI
 * protobuf messages (runtime.v1 Container, PodSandbox) in their JSON form; times are milliseconds
 * since the epoch from the injected clock (the CRI itself uses nanoseconds).
 */

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

/** The label the kubelet stamps on every container it creates, naming the owning pod. */
export const KubernetesPodUIDLabel = 'io.kubernetes.pod.uid';

export interface CRIContainer {
  id: string;
  podSandboxId: string;
  metadata: { name: string; attempt: number };
  state: ContainerState;
  createdAt: number;
  labels: Record<string, string>;
}

export interface CRIPodSandbox {
  id: string;
  metadata: { name: string; namespace: string; uid: string; attempt: number };
  state: PodSandboxState;
  createdAt: number;
}

/** What the GC needs from the runtime service. */
export interface RuntimeService {
  listContainers(): CRIContainer[];
  listPodSandbox(): CRIPodSandbox[];
  stopContainer(id: string): void;
  removeContainer(id: string): void;
  stopPodSandbox(id: string): void;
  removePodSandbox(id: string): void;
}

/** The pod-lifecycle questions the GC asks the pod workers. */
export interface PodStateProvider {
  /** The pod is gone from the kubelet: its containers, sandboxes and logs may all go. */
  shouldPodContentBeRemoved(uid: string): boolean;
  /** The pod is terminated (maybe not deleted): its containers and sandboxes may go. */
  shouldPodRuntimeBeRemoved(uid: string): boolean;
}

/** Sandbox IDs as the Go fake runtime builds them: name_namespace_uid_attempt. @go k8s.io/cri-api/pkg/apis/testing.BuildSandboxName */
export function buildSandboxName(m: CRIPodSandbox['metadata']): string {
  return `${m.name}_${m.namespace}_${m.uid}_${m.attempt}`;
}

/** Container IDs as the Go fake runtime builds them: sandboxID_name_attempt. @go k8s.io/cri-api/pkg/apis/testing.BuildContainerName */
export function buildContainerName(m: CRIContainer['metadata'], sandboxId: string): string {
  return `${sandboxId}_${m.name}_${m.attempt}`;
}

/**
 * An in-memory runtime that records every call.
 * Simplified: only the six calls the GC makes; StopContainer just marks the container exited.
 * @go k8s.io/cri-api/pkg/apis/testing.FakeRuntimeService
 */
export class FakeRuntimeService implements RuntimeService {
  readonly calls: string[] = [];
  private containers = new Map<string, CRIContainer>();
  private sandboxes = new Map<string, CRIPodSandbox>();

  setFakeContainers(containers: CRIContainer[]): void {
    this.containers = new Map(containers.map((c) => [c.id, structuredClone(c)]));
  }
  setFakeSandboxes(sandboxes: CRIPodSandbox[]): void {
    this.sandboxes = new Map(sandboxes.map((s) => [s.id, structuredClone(s)]));
  }
  listContainers(): CRIContainer[] {
    this.calls.push('ListContainers');
    return [...this.containers.values()].map((c) => structuredClone(c));
  }
  listPodSandbox(): CRIPodSandbox[] {
    this.calls.push('ListPodSandbox');
    return [...this.sandboxes.values()].map((s) => structuredClone(s));
  }
  stopContainer(id: string): void {
    this.calls.push('StopContainer');
    const c = this.containers.get(id);
    if (!c) throw new Error(`container "${id}" not found`);
    c.state = 'CONTAINER_EXITED';
  }
  removeContainer(id: string): void {
    this.calls.push('RemoveContainer');
    this.containers.delete(id);
  }
  stopPodSandbox(id: string): void {
    this.calls.push('StopPodSandbox');
    const s = this.sandboxes.get(id);
    if (s) s.state = 'SANDBOX_NOTREADY';
  }
  removePodSandbox(id: string): void {
    this.calls.push('RemovePodSandbox');
    this.sandboxes.delete(id);
  }
  hasContainer(id: string): boolean {
    return this.containers.has(id);
  }
  hasSandbox(id: string): boolean {
    return this.sandboxes.has(id);
  }
}

/** The two file-system calls the pod-log GC makes. */
export interface LogDirectoryFS {
  readDir(path: string): string[];
  removeAll(path: string): void;
}

/** Records removals instead of touching disk. */
export class FakeLogFS implements LogDirectoryFS {
  readonly removes: string[] = [];
  constructor(private entries: string[] = []) {}
  readDir(): string[] {
    return [...this.entries];
  }
  removeAll(path: string): void {
    this.removes.push(path);
  }
}
