/**
 * The kubelet's in-memory index of the pods bound to this node.
 *
 * Regular pods (including static pods from files or HTTP) are indexed by UID and by full name; mirror
 * pods, the API-server shadows of static pods, are indexed separately. A static pod and its mirror
 * share a full name but not a UID, so the manager keeps a mirror-UID → static-UID translation that
 * every public kubelet entry point applies to UIDs a user may hand it.
 */
import { ManifestError, type Pod } from '../api/index.js';
import { getPodFullName, buildPodFullName } from './full-name.js';
import { isMirrorPod, isStaticPod } from './pod-source.js';

/** A UID that has been translated to the static pod's UID when it named a mirror pod. */
export type ResolvedPodUID = string;
/** The UID of a mirror pod as the API server knows it. */
export type MirrorPodUID = string;

/** What {@link BasicManager.getPodAndMirrorPod} returns: the pair, and whether the argument was the mirror. */
export interface PodAndMirror {
  pod: Pod | undefined;
  mirrorPod: Pod | undefined;
  wasMirror: boolean;
}

function requireIdentity(pod: Pod): void {
  if (!pod.metadata?.uid) throw new ManifestError('metadata.uid', 'Required value');
  if (!pod.metadata.name) throw new ManifestError('metadata.name', 'Required value');
}

/**
 * Simplified: no lock (JavaScript is single-threaded) and no ephemeral-container metric.
 * @go k8s.io/kubernetes/pkg/kubelet/pod.basicManager
 */
export class BasicManager {
  private podByUID = new Map<ResolvedPodUID, Pod>();
  private mirrorPodByUID = new Map<MirrorPodUID, Pod>();
  private podByFullName = new Map<string, Pod>();
  private mirrorPodByFullName = new Map<string, Pod>();
  private translationByUID = new Map<MirrorPodUID, ResolvedPodUID>();

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.NewBasicPodManager */
  constructor() {
    this.setPods([]);
  }

  /**
   * Forgets everything and indexes `pods` from scratch.
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).SetPods
   */
  setPods(pods: Pod[]): void {
    this.podByUID = new Map();
    this.podByFullName = new Map();
    this.mirrorPodByUID = new Map();
    this.mirrorPodByFullName = new Map();
    this.translationByUID = new Map();
    this.updatePodsInternal(pods);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).AddPod */
  addPod(pod: Pod): void {
    this.updatePod(pod);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).UpdatePod */
  updatePod(pod: Pod): void {
    this.updatePodsInternal([pod]);
  }

  /**
   * Adding either half of a static/mirror pair links it to the other half if that is already known,
   * so the order in which the two arrive does not matter.
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).updatePodsInternal
   */
  private updatePodsInternal(pods: Pod[]): void {
    for (const pod of pods) {
      requireIdentity(pod);
      const uid = pod.metadata.uid as string;
      const fullName = getPodFullName(pod);
      if (isMirrorPod(pod)) {
        this.mirrorPodByUID.set(uid, pod);
        this.mirrorPodByFullName.set(fullName, pod);
        const staticPod = this.podByFullName.get(fullName);
        if (staticPod) this.translationByUID.set(uid, staticPod.metadata.uid as string);
      } else {
        this.podByUID.set(uid, pod);
        this.podByFullName.set(fullName, pod);
        const mirror = this.mirrorPodByFullName.get(fullName);
        if (mirror) this.translationByUID.set(mirror.metadata.uid as string, uid);
      }
    }
  }

  /**
   * Removing a static pod leaves its mirror in place: the mirror becomes an orphan that housekeeping
   * deletes from the API server (see {@link getPodsAndMirrorPods}).
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).RemovePod
   */
  removePod(pod: Pod): void {
    requireIdentity(pod);
    const uid = pod.metadata.uid as string;
    const fullName = getPodFullName(pod);
    if (isMirrorPod(pod)) {
      this.mirrorPodByUID.delete(uid);
      this.mirrorPodByFullName.delete(fullName);
      this.translationByUID.delete(uid);
    } else {
      this.podByUID.delete(uid);
      this.podByFullName.delete(fullName);
    }
  }

  /** Regular (non-mirror) pods only. @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPods */
  getPods(): Pod[] {
    return [...this.podByUID.values()];
  }

  /**
   * All regular pods, all mirror pods, and the full names of mirrors whose static pod is gone.
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPodsAndMirrorPods
   */
  getPodsAndMirrorPods(): { pods: Pod[]; mirrorPods: Pod[]; orphanedMirrorPodFullNames: string[] } {
    const orphanedMirrorPodFullNames = [...this.mirrorPodByFullName.keys()].filter((name) => !this.podByFullName.has(name));
    return { pods: this.getPods(), mirrorPods: [...this.mirrorPodByUID.values()], orphanedMirrorPodFullNames };
  }

  /** Never returns a mirror pod. @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPodByUID */
  getPodByUID(uid: string): Pod | undefined {
    return this.podByUID.get(uid);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPodByName */
  getPodByName(namespace: string, name: string): Pod | undefined {
    return this.getPodByFullName(buildPodFullName(name, namespace));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPodByFullName */
  getPodByFullName(podFullName: string): Pod | undefined {
    return this.podByFullName.get(podFullName);
  }

  /**
   * Mirror UID → static pod UID; any other UID (and "") comes back unchanged.
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).TranslatePodUID
   */
  translatePodUID(uid: string): ResolvedPodUID {
    if (uid === '') return uid;
    return this.translationByUID.get(uid) ?? uid;
  }

  /**
   * Both directions of the static/mirror link. Every static pod appears in `podToMirror`, mapped to ""
   * while it has no mirror yet, so callers can tell "no mirror" from "not static".
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetUIDTranslations
   */
  getUIDTranslations(): { podToMirror: Map<ResolvedPodUID, MirrorPodUID>; mirrorToPod: Map<MirrorPodUID, ResolvedPodUID> } {
    const podToMirror = new Map<ResolvedPodUID, MirrorPodUID>();
    const mirrorToPod = new Map<MirrorPodUID, ResolvedPodUID>();
    for (const [uid, pod] of this.podByUID) {
      if (isStaticPod(pod)) podToMirror.set(uid, '');
    }
    for (const [mirrorUID, podUID] of this.translationByUID) {
      mirrorToPod.set(mirrorUID, podUID);
      podToMirror.set(podUID, mirrorUID);
    }
    return { podToMirror, mirrorToPod };
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetMirrorPodByPod */
  getMirrorPodByPod(pod: Pod): Pod | undefined {
    return this.mirrorPodByFullName.get(getPodFullName(pod));
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPodByMirrorPod */
  getPodByMirrorPod(mirrorPod: Pod): Pod | undefined {
    return this.podByFullName.get(getPodFullName(mirrorPod));
  }

  /**
   * Completes a pair from either half: a mirror yields its static pod, anything else its mirror.
   * @go k8s.io/kubernetes/pkg/kubelet/pod.(*basicManager).GetPodAndMirrorPod
   */
  getPodAndMirrorPod(aPod: Pod): PodAndMirror {
    const fullName = getPodFullName(aPod);
    if (isMirrorPod(aPod)) return { pod: this.podByFullName.get(fullName), mirrorPod: aPod, wasMirror: true };
    return { pod: aPod, mirrorPod: this.mirrorPodByFullName.get(fullName), wasMirror: false };
  }
}
