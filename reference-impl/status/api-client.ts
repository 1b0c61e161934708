/**
 * The three pod calls the status manager makes to the API server, and an in-memory fake that records
 * them like client-go's fake clientset.
 */
import type { Pod, PodStatus } from '../api/index.js';

export interface PodStatusClient {
  /** The stored pod, or undefined when it does not exist (NotFound). */
  getPod(namespace: string, name: string): Pod | undefined;
  /** Replaces the status of the pod with that UID and returns the stored pod. */
  patchPodStatus(namespace: string, name: string, uid: string, status: PodStatus): Pod;
  /** Deletes immediately (grace period 0) if the stored pod still has `preconditionUID`. */
  deletePod(namespace: string, name: string, preconditionUID: string): void;
}

export interface ClientAction {
  verb: 'get' | 'patch' | 'delete';
  resource: 'pods';
  subresource?: 'status';
  namespace: string;
  name: string;
}

/** Simplified: a patch replaces the whole status instead of applying a strategic merge patch. */
export class FakePodStatusClient implements PodStatusClient {
  readonly actions: ClientAction[] = [];
  private pods = new Map<string, Pod>();

  constructor(pods: Pod[] = []) {
    for (const pod of pods) this.pods.set(key(pod.metadata.namespace, pod.metadata.name), structuredClone(pod));
  }

  getPod(namespace: string, name: string): Pod | undefined {
    this.actions.push({ verb: 'get', resource: 'pods', namespace, name });
    const pod = this.pods.get(key(namespace, name));
    return pod && structuredClone(pod);
  }

  patchPodStatus(namespace: string, name: string, uid: string, status: PodStatus): Pod {
    this.actions.push({ verb: 'patch', resource: 'pods', subresource: 'status', namespace, name });
    const pod = this.pods.get(key(namespace, name));
    if (!pod) throw new Error(`pods "${name}" not found`);
    if (pod.metadata.uid !== uid) throw new Error(`Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid}`);
    pod.status = structuredClone(status);
    return structuredClone(pod);
  }

  deletePod(namespace: string, name: string, preconditionUID: string): void {
    this.actions.push({ verb: 'delete', resource: 'pods', namespace, name });
    const pod = this.pods.get(key(namespace, name));
    if (!pod) throw new Error(`pods "${name}" not found`);
    if (pod.metadata.uid !== preconditionUID) throw new Error(`Precondition failed: UID in precondition: ${preconditionUID}`);
    this.pods.delete(key(namespace, name));
  }

  /** The stored copy, without recording an action. */
  peek(namespace: string, name: string): Pod | undefined {
    return this.pods.get(key(namespace, name));
  }

  clearActions(): void {
    this.actions.length = 0;
  }
}

const key = (namespace?: string, name?: string) => `${namespace ?? ''}/${name ?? ''}`;
