/**
 * The two snapshots the PLEG compares: for each pod UID, what the previous successful relist saw
 * ("old") and what the current relist sees ("current").
 */
import type { RuntimePod } from './runtime-types.js';

interface PodRecord {
  old?: RuntimePod;
  current?: RuntimePod;
}

/** @go k8s.io/kubernetes/pkg/kubelet/pleg.podRecords */
export class PodRecords {
  private readonly records = new Map<string, PodRecord>();

  uids(): string[] {
    return [...this.records.keys()];
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pleg.podRecords.getOld */
  getOld(id: string): RuntimePod | undefined {
    return this.records.get(id)?.old;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pleg.podRecords.getCurrent */
  getCurrent(id: string): RuntimePod | undefined {
    return this.records.get(id)?.current;
  }

  /**
   * Clears every current snapshot, then files the listed pods as current. A pod missing from the
   * list keeps its old snapshot and so shows up as "all containers gone".
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.podRecords.setCurrent
   */
  setCurrent(pods: RuntimePod[]): void {
    for (const r of this.records.values()) r.current = undefined;
    for (const pod of pods) {
      const r = this.records.get(pod.id);
      if (r) r.current = pod;
      else this.records.set(pod.id, { current: pod });
    }
  }

  /**
   * Promotes current to old once its events were handled; a pod with no current snapshot is forgotten.
   * @go k8s.io/kubernetes/pkg/kubelet/pleg.podRecords.update
   */
  update(id: string): void {
    const r = this.records.get(id);
    if (!r) return;
    if (r.current === undefined) {
      this.records.delete(id);
      return;
    }
    r.old = r.current;
    r.current = undefined;
  }
}
