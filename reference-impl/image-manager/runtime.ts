/**
 * The slice of the container runtime the image manager talks to, and an in-memory fake that records
 * the calls it receives, as the Go tests' FakeRuntime does.
 */

/** @go k8s.io/kubernetes/pkg/kubelet/container.Annotation */
export interface Annotation {
  name: string;
  value: string;
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.ImageSpec */
export interface ImageSpec {
  image: string;
  annotations?: Annotation[];
}

/** @go k8s.io/kubernetes/pkg/kubelet/container.Image */
export interface Image {
  id: string;
  size?: number;
  spec?: ImageSpec;
  pinned?: boolean;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container.ImageService
 * Simplified: synchronous; a failure is a thrown Error instead of a returned one.
 */
export interface ImageService {
  /** The image's ID when present, "" when absent; throws when the runtime cannot tell. */
  getImageRef(spec: ImageSpec): string;
  /** Pulls and returns the image reference; throws on failure. */
  pullImage(spec: ImageSpec, pullSecrets: unknown[]): string;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/container/testing.FakeRuntime
 * Simplified: only the image calls; no BlockImagePulls (pulls never wait).
 */
export class FakeImageRuntime implements ImageService {
  calledFunctions: string[] = [];
  imageList: Image[] = [];
  /** Returned by PullImage (and every other call in Go's fake). */
  err: Error | undefined;
  /** Returned by GetImageRef when the image is absent. */
  inspectErr: Error | undefined;

  /** @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).GetImageRef */
  getImageRef(spec: ImageSpec): string {
    this.calledFunctions.push('GetImageRef');
    const found = this.imageList.find((i) => i.id === spec.image);
    if (found) return found.id;
    if (this.inspectErr) throw this.inspectErr;
    return '';
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).PullImage */
  pullImage(spec: ImageSpec): string {
    this.calledFunctions.push('PullImage');
    if (this.err === undefined) {
      this.imageList.push({ id: spec.image, spec });
      return spec.image;
    }
    throw this.err;
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/container/testing.(*FakeRuntime).ListImages */
  listImages(): Image[] {
    this.calledFunctions.push('ListImages');
    if (this.err) throw this.err;
    return this.imageList;
  }
}
