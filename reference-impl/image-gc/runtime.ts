/**
 * What image garbage collection needs from the container runtime (images, pods, image removal) and
 * from the stats provider (image filesystem size), plus in-memory fakes like the Go tests use.
 */

/** @go k8s.io/kubernetes/pkg/kubelet/container.Image */
export interface Image {
  id: string;
  /** Bytes. */
  size: number;
  pinned?: boolean;
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.Container */
export interface RuntimeContainer {
  id: string;
  name?: string;
  /** The image as the spec named it; may be empty for an image without a name. */
  image?: string;
  /** The runtime's image ID, which is what GC matches on. */
  imageID: string;
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.Pod */
export interface RuntimePod {
  name?: string;
  namespace?: string;
  containers: RuntimeContainer[];
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container.Runtime
 * Simplified: only the four calls GC makes; synchronous, failures are thrown.
 */
export interface ImageGCRuntime {
  getImageRef(image: string): string;
  listImages(): Image[];
  getPods(all: boolean): RuntimePod[];
  removeImage(image: string): void;
}

/** @go k8s.io/kubelet/pkg/apis/stats/v1alpha1.FsStats */
export interface FsStats {
  availableBytes?: number;
  capacityBytes?: number;
}

/** @go k8s.io/kubernetes/pkg/kubelet/images.StatsProvider */
export interface StatsProvider {
  imageFsStats(): FsStats;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container/testing.FakeRuntime
 * Simplified: the image and pod calls only.
 */
export class FakeGCRuntime implements ImageGCRuntime {
  imageList: Image[] = [];
  allPodList: RuntimePod[] = [];
  calledFunctions: string[] = [];
  err: Error | undefined;

  /** @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).GetImageRef */
  getImageRef(image: string): string {
    this.calledFunctions.push('GetImageRef');
    return this.imageList.find((i) => i.id === image)?.id ?? '';
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).ListImages */
  listImages(): Image[] {
    this.calledFunctions.push('ListImages');
    if (this.err) throw this.err;
    return this.imageList;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).GetPods */
  getPods(all: boolean): RuntimePod[] {
    this.calledFunctions.push('GetPods');
    if (this.err) throw this.err;
    return all ? this.allPodList : [];
  }

  /**
   * Removes the first image with that ID (or, like the Go fake, the first image when none matches).
   * @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).RemoveImage
   */
  removeImage(image: string): void {
    this.calledFunctions.push('RemoveImage');
    const index = Math.max(0, this.imageList.findIndex((i) => i.id === image));
    this.imageList.splice(index, 1);
    if (this.err) throw this.err;
  }
}
