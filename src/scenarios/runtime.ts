/**
 * The node the scenario plays on: a container runtime that remembers every sandbox and container
 * instance, the images on disk and how much memory each container uses. It answers each port in that
 * port's own terms (PLEG listings, kuberuntime pod status, image GC and image service calls).
 */
import type { Clock, Container, ContainerStatus, Pod, PodStatus } from '../../reference-impl/api/index.js';
import type { RuntimePodStatus } from '../../reference-impl/kuberuntime/index.js';
import { hashContainer } from '../../reference-impl/kuberuntime/index.js';
import type { Runtime as PlegRuntime, RuntimePod as PlegPod } from '../../reference-impl/pleg/index.js';
import type { ImageGCRuntime, Image as GCImage, RuntimePod as GCPod } from '../../reference-impl/image-gc/index.js';
import type { ImageService } from '../../reference-impl/image-manager/index.js';
import { applyDefaultImageTag } from '../../reference-impl/image-manager/index.js';
import type { ProbeKind } from './schema.js';

export const RUNTIME_TYPE = 'containerd';

export interface ContainerInstance {
  id: string;
  name: string;
  /** 0 for the first instance of this container name in the pod. */
  restartIndex: number;
  imageID: string;
  hash: number;
  state: 'running' | 'exited';
  startedAt: number;
  finishedAt?: number;
  exitCode?: number;
  reason?: string;
  /** A scheduled exit (from a container-exit event or a crash-on-start behaviour). */
  exitAt?: number;
  exitCodeAtExit?: number;
  /** Probes this instance fails, with the output they report. */
  failing: Map<ProbeKind, string>;
}

export interface SandboxInstance {
  id: string;
  attempt: number;
  ready: boolean;
  ip: string;
}

interface PodRecord {
  pod: Pod;
  ip: string;
  sandboxes: SandboxInstance[];
  /** Oldest first. */
  containers: ContainerInstance[];
}

export interface ImageOnDisk {
  id: string;
  size: number;
  pinned: boolean;
}

export class FakeRuntime {
  private readonly pods = new Map<string, PodRecord>();
  readonly images: ImageOnDisk[] = [];
  /** Sizes of images that can be pulled, by tagged name. */
  private readonly catalog = new Map<string, number>();
  /** Memory working set per pod UID and container name. */
  private readonly memory = new Map<string, number>();
  /** Crash-on-start behaviours: pod UID/container → how long each instance runs and its exit code. */
  private readonly crashAfterStart = new Map<string, { after: number; exitCode: number }>();
  /** Images removed, in order, for the timeline to report. */
  readonly removedImages: ImageOnDisk[] = [];
  private podCount = 0;

  constructor(private readonly clock: Clock) {}

  addCatalogImage(name: string, size: number, present: boolean, pinned: boolean): void {
    const id = applyDefaultImageTag(name);
    this.catalog.set(id, size);
    if (present && !this.images.some((i) => i.id === id)) this.images.push({ id, size, pinned });
  }

  /** Puts an image on disk as a pull would; size from the catalog, else 0. */
  pull(name: string): ImageOnDisk {
    const id = applyDefaultImageTag(name);
    let image = this.images.find((i) => i.id === id);
    if (!image) {
      image = { id, size: this.catalog.get(id) ?? 0, pinned: false };
      this.images.push(image);
    }
    return image;
  }

  imageBytes(): number {
    return this.images.reduce((sum, i) => sum + i.size, 0);
  }

  register(pod: Pod): void {
    const uid = pod.metadata.uid ?? '';
    if (this.pods.has(uid)) return;
    this.podCount++;
    this.pods.set(uid, { pod, ip: `10.244.0.${this.podCount + 1}`, sandboxes: [], containers: [] });
  }

  podByIP(ip: string): Pod | undefined {
    for (const r of this.pods.values()) if (r.ip === ip) return r.pod;
    return undefined;
  }

  createSandbox(uid: string, attempt: number): SandboxInstance {
    const r = this.record(uid);
    for (const s of r.sandboxes) s.ready = false;
    const sandbox = { id: `${r.pod.metadata.name}-sandbox-${attempt}`, attempt, ready: true, ip: r.ip };
    r.sandboxes.push(sandbox);
    return sandbox;
  }

  startContainer(uid: string, container: Container, imageID: string): ContainerInstance {
    const r = this.record(uid);
    const restartIndex = r.containers.filter((c) => c.name === container.name).length;
    const now = this.clock.now();
    const instance: ContainerInstance = {
      id: `${r.pod.metadata.name}-${container.name}-${restartIndex + 1}`,
      name: container.name,
      restartIndex,
      imageID,
      hash: hashContainer(container),
      state: 'running',
      startedAt: now,
      failing: new Map(),
    };
    const crash = this.crashAfterStart.get(`${uid}/${container.name}`);
    if (crash) {
      instance.exitAt = now + crash.after;
      instance.exitCodeAtExit = crash.exitCode;
    }
    r.containers.push(instance);
    return instance;
  }

  /** Stops a running instance now; `exitCode` is what the process reported. */
  stopContainer(instance: ContainerInstance, exitCode: number, reason: string): void {
    if (instance.state !== 'running') return;
    instance.state = 'exited';
    instance.finishedAt = this.clock.now();
    instance.exitCode = exitCode;
    instance.reason = reason;
    instance.exitAt = undefined;
  }

  killPod(uid: string, exitCode: number): ContainerInstance[] {
    const r = this.record(uid);
    const killed = r.containers.filter((c) => c.state === 'running');
    for (const c of killed) this.stopContainer(c, exitCode, 'Error');
    for (const s of r.sandboxes) s.ready = false;
    return killed;
  }

  setCrashAfterStart(uid: string, container: string, after: number, exitCode: number): void {
    this.crashAfterStart.set(`${uid}/${container}`, { after, exitCode });
  }

  /** Exits every instance whose scheduled exit time has come; returns them. */
  exitDue(): { uid: string; instance: ContainerInstance }[] {
    const now = this.clock.now();
    const out: { uid: string; instance: ContainerInstance }[] = [];
    for (const [uid, r] of this.pods) {
      for (const c of r.containers) {
        if (c.state !== 'running' || c.exitAt === undefined || c.exitAt > now) continue;
        const at = c.exitAt;
        const code = c.exitCodeAtExit ?? 1;
        this.stopContainer(c, code, code === 0 ? 'Completed' : 'Error');
        c.finishedAt = at;
        out.push({ uid, instance: c });
      }
    }
    return out;
  }

  running(uid: string, name: string): ContainerInstance | undefined {
    return this.record(uid).containers.find((c) => c.name === name && c.state === 'running');
  }

  latest(uid: string, name: string): ContainerInstance | undefined {
    const list = this.record(uid).containers.filter((c) => c.name === name);
    return list[list.length - 1];
  }

  instanceByID(id: string): { uid: string; instance: ContainerInstance } | undefined {
    for (const [uid, r] of this.pods) {
      const instance = r.containers.find((c) => c.id === id);
      if (instance) return { uid, instance };
    }
    return undefined;
  }

  restarts(uid: string, name: string): number {
    return Math.max(0, this.record(uid).containers.filter((c) => c.name === name).length - 1);
  }

  setMemory(uid: string, container: string, bytes: number): void {
    this.memory.set(`${uid}/${container}`, bytes);
  }

  /** Working set of a container: its usage while an instance runs, nothing otherwise. */
  memoryOf(uid: string, container: string): number {
    return this.running(uid, container) ? (this.memory.get(`${uid}/${container}`) ?? 0) : 0;
  }

  /** What kuberuntime sees after asking the CRI: sandboxes and containers newest first. */
  podStatus(uid: string): RuntimePodStatus {
    const r = this.record(uid);
    const m = r.pod.metadata;
    return {
      id: uid,
      name: m.name,
      namespace: m.namespace,
      sandboxStatuses: [...r.sandboxes].reverse().map((s) => ({
        id: s.id,
        state: s.ready ? 'SANDBOX_READY' : 'SANDBOX_NOTREADY',
        metadata: { name: m.name, namespace: m.namespace, uid, attempt: s.attempt },
        network: { ip: s.ip },
      })),
      containerStatuses: [...r.containers].reverse().map((c) => ({
        id: c.id,
        name: c.name,
        state: c.state,
        hash: c.hash,
        ...(c.exitCode === undefined ? {} : { exitCode: c.exitCode }),
        ...(c.finishedAt === undefined ? {} : { finishedAt: c.finishedAt }),
        ...(c.reason === undefined ? {} : { reason: c.reason }),
      })),
    };
  }

  /** The API status the status manager would hold (before the prober fills started/ready). */
  apiStatus(uid: string, phase: PodStatus['phase']): PodStatus {
    const r = this.record(uid);
    const iso = (t: number) => new Date(t).toISOString();
    const containerStatuses: ContainerStatus[] = r.pod.spec.containers.map((spec) => {
      const c = this.latest(uid, spec.name);
      const base = { name: spec.name, image: spec.image, ready: false, restartCount: this.restarts(uid, spec.name) };
      if (!c) return { ...base, state: { waiting: { reason: 'ContainerCreating' } } };
      const containerID = `${RUNTIME_TYPE}://${c.id}`;
      if (c.state === 'running') return { ...base, containerID, state: { running: { startedAt: iso(c.startedAt) } } };
      return {
        ...base,
        containerID,
        state: { terminated: { exitCode: c.exitCode ?? 0, reason: c.reason, finishedAt: iso(c.finishedAt ?? 0), containerID } },
      };
    });
    return { phase, podIP: r.ip, containerStatuses };
  }

  asPlegRuntime(): PlegRuntime {
    return {
      getPods: () =>
        [...this.pods.entries()].map(([uid, r]): PlegPod => ({
          id: uid,
          name: r.pod.metadata.name,
          namespace: r.pod.metadata.namespace,
          containers: r.containers.map((c) => ({ id: { type: RUNTIME_TYPE, id: c.id }, name: c.name, state: c.state })),
          sandboxes: r.sandboxes.map((s) => ({ id: { type: RUNTIME_TYPE, id: s.id }, state: s.ready ? 'running' : 'exited' })),
        })),
      getPodStatus: (uid) => ({ status: { id: uid } }),
    };
  }

  asImageGCRuntime(): ImageGCRuntime {
    return {
      getImageRef: (image) => this.images.find((i) => i.id === applyDefaultImageTag(image))?.id ?? '',
      listImages: (): GCImage[] => this.images.map((i) => ({ ...i })),
      // Exited containers still count: their images stay in use until container GC removes them.
      getPods: (): GCPod[] =>
        [...this.pods.values()].map((r) => ({
          name: r.pod.metadata.name,
          namespace: r.pod.metadata.namespace,
          containers: r.containers.map((c) => ({ id: c.id, name: c.name, imageID: c.imageID })),
        })),
      removeImage: (id) => {
        const index = this.images.findIndex((i) => i.id === id);
        if (index < 0) throw new Error(`image ${id} not found`);
        this.removedImages.push(...this.images.splice(index, 1));
      },
    };
  }

  asImageService(): ImageService {
    return {
      getImageRef: (spec) => this.images.find((i) => i.id === spec.image)?.id ?? '',
      pullImage: (spec) => this.pull(spec.image).id,
    };
  }

  private record(uid: string): PodRecord {
    const r = this.pods.get(uid);
    if (!r) throw new Error(`pod ${uid} is unknown to the runtime`);
    return r;
  }
}
