/**
 * Garbage collection of dead containers, empty sandboxes and pod log directories
 * (pkg/kubelet/kuberuntime/kuberuntime_gc.go), in the same order as the Go file.
 *
 * Containers are grouped into "evict units", one per (pod UID, container name): the restarts of one
 * container. Units of removed pods are emptied; every other unit keeps its newest MaxPerPodContainer;
 * then, if the node still holds more than MaxContainers, each unit is cut to an equal share and
 * finally the oldest containers node-wide go.
 */
import type { Clock } from '../api/index.js';
import type { GCPolicy, GarbageCollector } from './policy.js';
import { KubernetesPodUIDLabel, type LogDirectoryFS, type PodStateProvider, type RuntimeService } from './runtime.js';

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containerGCInfo */
export interface ContainerGCInfo {
  id: string;
  name: string;
  createTime: number;
  /** The runtime cannot tell whether it runs, so it is stopped before removal. */
  unknown: boolean;
}

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.sandboxGCInfo */
export interface SandboxGCInfo {
  id: string;
  createTime: number;
  /** Ready, or still holding containers: never removed. */
  active: boolean;
}

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.evictUnit */
export interface EvictUnit {
  uid: string;
  name: string;
  containers: ContainerGCInfo[];
}

/** Keyed by (pod UID, container name). @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containersByEvictUnit */
export type ContainersByEvictUnit = Map<string, EvictUnit>;

export const podLogsRootDirectory = '/var/log/pods';

const unitKey = (uid: string, name: string) => JSON.stringify([uid, name]);

/** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containersByEvictUnit.NumContainers */
export function numContainers(units: ContainersByEvictUnit): number {
  let n = 0;
  for (const unit of units.values()) n += unit.containers.length;
  return n;
}

/** Newest first, as Go's `byCreated` orders. Simplified: JavaScript's sort is stable, Go's sort.Sort is not. */
function newestFirst<T extends { createTime: number }>(items: T[]): void {
  items.sort((a, b) => b.createTime - a.createTime);
}

/**
 * Log directories are named namespace_name_uid (older kubelets used just the UID); the UID is the last part.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.parsePodUIDFromLogsDirectory
 */
export function parsePodUIDFromLogsDirectory(name: string): string {
  const parts = name.split('_');
  return parts[parts.length - 1];
}

/**
 * Simplified: runs synchronously against a {@link RuntimeService}; failures are collected in
 * `errors` where Go logs them; killing an unknown container is a plain StopContainer call.
 * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.containerGC
 */
export class ContainerGC implements GarbageCollector {
  readonly errors: string[] = [];

  /** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.newContainerGC */
  constructor(
    private readonly client: RuntimeService,
    private readonly podStateProvider: PodStateProvider,
    private readonly clock: Clock,
    private readonly logFS?: LogDirectoryFS,
  ) {}

  /** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).enforceMaxContainersPerEvictUnit */
  enforceMaxContainersPerEvictUnit(units: ContainersByEvictUnit, maxContainers: number): void {
    for (const unit of units.values()) {
      const toRemove = unit.containers.length - maxContainers;
      if (toRemove > 0) unit.containers = this.removeOldestN(unit.containers, toRemove);
    }
  }

  /**
   * Removes the `toRemove` oldest and returns the rest, assuming every removal worked so one failing
   * container does not make the next round over-eager.
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).removeOldestN
   */
  removeOldestN(containers: ContainerGCInfo[], toRemove: number): ContainerGCInfo[] {
    const numToKeep = containers.length - toRemove;
    if (numToKeep > 0) newestFirst(containers);
    for (let i = containers.length - 1; i >= numToKeep; i--) {
      const c = containers[i];
      if (c.unknown) {
        try {
          this.client.stopContainer(c.id);
        } catch (err) {
          this.errors.push(`Failed to stop container ${c.id}: ${(err as Error).message}`);
          continue;
        }
      }
      try {
        this.client.removeContainer(c.id);
      } catch (err) {
        this.errors.push(`Failed to remove container ${c.id}: ${(err as Error).message}`);
      }
    }
    return containers.slice(0, Math.max(numToKeep, 0));
  }

  /**
   * Goes oldest to newest through the `toRemove` oldest sandboxes, skipping active ones.
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).removeOldestNSandboxes
   */
  removeOldestNSandboxes(sandboxes: SandboxGCInfo[], toRemove: number): void {
    const numToKeep = sandboxes.length - toRemove;
    if (numToKeep > 0) newestFirst(sandboxes);
    for (let i = sandboxes.length - 1; i >= numToKeep; i--) {
      if (!sandboxes[i].active) this.removeSandbox(sandboxes[i].id);
    }
  }

  /**
   * Stops before removing, in case the kubelet never got to StopPodSandbox.
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).removeSandbox
   */
  removeSandbox(sandboxId: string): void {
    try {
      this.client.stopPodSandbox(sandboxId);
    } catch (err) {
      this.errors.push(`Failed to stop sandbox ${sandboxId} before removing: ${(err as Error).message}`);
      return;
    }
    try {
      this.client.removePodSandbox(sandboxId);
    } catch (err) {
      this.errors.push(`Failed to remove sandbox ${sandboxId}: ${(err as Error).message}`);
    }
  }

  /**
   * Not running and created at least `minAgeMs` ago, grouped by (pod UID, container name).
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).evictableContainers
   */
  evictableContainers(minAgeMs: number): ContainersByEvictUnit {
    const units: ContainersByEvictUnit = new Map();
    const newestGCTime = this.clock.now() - minAgeMs;
    for (const container of this.client.listContainers()) {
      if (container.state === 'CONTAINER_RUNNING') continue;
      if (newestGCTime < container.createdAt) continue;
      const info: ContainerGCInfo = {
        id: container.id,
        name: container.metadata.name,
        createTime: container.createdAt,
        unknown: container.state === 'CONTAINER_UNKNOWN',
      };
      const uid = container.labels[KubernetesPodUIDLabel] ?? '';
      const key = unitKey(uid, info.name);
      const unit = units.get(key) ?? { uid, name: info.name, containers: [] };
      unit.containers.push(info);
      units.set(key, unit);
    }
    return units;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).evictContainers */
  evictContainers(policy: GCPolicy, allSourcesReady: boolean, evictNonDeletedPods: boolean): void {
    const units = this.evictableContainers(policy.minAgeMs);

    // Until every source has reported, an unknown pod may simply not be loaded yet.
    if (allSourcesReady) {
      for (const [key, unit] of units) {
        if (this.podStateProvider.shouldPodContentBeRemoved(unit.uid) || (evictNonDeletedPods && this.podStateProvider.shouldPodRuntimeBeRemoved(unit.uid))) {
          this.removeOldestN(unit.containers, unit.containers.length);
          units.delete(key);
        }
      }
    }

    if (policy.maxPerPodContainer >= 0) this.enforceMaxContainersPerEvictUnit(units, policy.maxPerPodContainer);

    if (policy.maxContainers >= 0 && numContainers(units) > policy.maxContainers) {
      // First an equal share per unit (at least one each) so no pod loses all its history...
      const perUnit = Math.max(Math.floor(policy.maxContainers / units.size), 1);
      this.enforceMaxContainersPerEvictUnit(units, perUnit);
      // ...then, if that is still too many, the oldest go regardless of pod.
      const remaining = numContainers(units);
      if (remaining > policy.maxContainers) {
        const flattened = [...units.values()].flatMap((u) => u.containers);
        newestFirst(flattened);
        this.removeOldestN(flattened, remaining - policy.maxContainers);
      }
    }
  }

  /**
   * A sandbox may go when it is not ready, holds no containers, and either its pod is gone or it is
   * not the pod's newest sandbox.
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).evictSandboxes
   */
  evictSandboxes(evictNonDeletedPods: boolean): void {
    const containers = this.client.listContainers();
    const sandboxes = this.client.listPodSandbox();
    const sandboxIDs = new Set(containers.map((c) => c.podSandboxId));

    const byPod = new Map<string, SandboxGCInfo[]>();
    for (const sandbox of sandboxes) {
      const info: SandboxGCInfo = {
        id: sandbox.id,
        createTime: sandbox.createdAt,
        active: sandbox.state === 'SANDBOX_READY' || sandboxIDs.has(sandbox.id),
      };
      const list = byPod.get(sandbox.metadata.uid) ?? [];
      list.push(info);
      byPod.set(sandbox.metadata.uid, list);
    }

    for (const [podUID, list] of byPod) {
      if (this.podStateProvider.shouldPodContentBeRemoved(podUID) || (evictNonDeletedPods && this.podStateProvider.shouldPodRuntimeBeRemoved(podUID))) {
        // Even the newest dead sandbox goes when the pod is gone.
        this.removeOldestNSandboxes(list, list.length);
      } else {
        this.removeOldestNSandboxes(list, list.length - 1);
      }
    }
  }

  /**
   * Simplified: the legacy /var/log/containers symlink clean-up is left out.
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).evictPodLogsDirectories
   */
  evictPodLogsDirectories(allSourcesReady: boolean): void {
    if (!allSourcesReady || !this.logFS) return;
    for (const name of this.logFS.readDir(podLogsRootDirectory)) {
      const podUID = parsePodUIDFromLogsDirectory(name);
      if (!this.podStateProvider.shouldPodContentBeRemoved(podUID)) continue;
      this.logFS.removeAll(`${podLogsRootDirectory}/${name}`);
    }
  }

  /**
   * Containers first, then sandboxes (which may have just been emptied), then log directories. Each
   * step runs even if an earlier one failed; failures are thrown together at the end.
   * @go k8s.io/kubernetes/pkg/kubelet/kuberuntime.(*containerGC).GarbageCollect
   */
  garbageCollect(policy: GCPolicy, allSourcesReady: boolean, evictNonDeletedPods: boolean): void {
    const failures: unknown[] = [];
    const steps = [
      () => this.evictContainers(policy, allSourcesReady, evictNonDeletedPods),
      () => this.evictSandboxes(evictNonDeletedPods),
      () => this.evictPodLogsDirectories(allSourcesReady),
    ];
    for (const step of steps) {
      try {
        step();
      } catch (err) {
        failures.push(err);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, 'container garbage collection failed');
  }
}
