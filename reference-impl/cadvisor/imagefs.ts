/**
 * Which cAdvisor filesystem label holds container images. Only CRI-O is known to cAdvisor; other
 * runtimes report image filesystem stats through CRI instead.
 */

/**
 * @go k8s.io/kubernetes/pkg/kubelet/cadvisor.CrioSocket
 */
export const CRIO_SOCKET = '/var/run/crio/crio.sock';

/** cAdvisor's label for the CRI-O image store (github.com/google/cadvisor/fs.LabelCrioImages). */
export const LABEL_CRIO_IMAGES = 'crio-images';

export class NoImageFsLabelError extends Error {
  constructor() {
    super('no imagefs label for configured runtime');
    this.name = 'NoImageFsLabelError';
  }
}

/**
 * True when the runtime endpoint is CRI-O's socket, with or without the unix:// scheme.
 * @go k8s.io/kubernetes/pkg/kubelet/cadvisor.UsingLegacyCadvisorStats
 */
export function usingLegacyCadvisorStats(runtimeEndpoint: string): boolean {
  return runtimeEndpoint === CRIO_SOCKET || runtimeEndpoint === 'unix://' + CRIO_SOCKET;
}

/**
 * Remembers the runtime endpoint and answers which filesystem label holds its images.
 * @go k8s.io/kubernetes/pkg/kubelet/cadvisor.NewImageFsInfoProvider
 */
export class ImageFsInfoProvider {
  constructor(readonly runtimeEndpoint: string) {}

  /**
   * The CRI-O images label, or NoImageFsLabelError for any other runtime.
   * @go k8s.io/kubernetes/pkg/kubelet/cadvisor.(*imageFsInfoProvider).ImageFsInfoLabel
   */
  imageFsInfoLabel(): string {
    if (this.runtimeEndpoint === CRIO_SOCKET || this.runtimeEndpoint === 'unix://' + CRIO_SOCKET) return LABEL_CRIO_IMAGES;
    throw new NoImageFsLabelError();
  }
}
