/**
 * Which config sources (file, http, api) have delivered their first update.
 */

/** @go k8s.io/kubernetes/pkg/kubelet/config.SourcesReady */
export class SourcesReady {
  private readonly seen = new Set<string>();

  /** @go k8s.io/kubernetes/pkg/kubelet/config.NewSourcesReady */
  constructor(private readonly readyFn: (sourcesSeen: ReadonlySet<string>) => boolean) {}

  /** @go k8s.io/kubernetes/pkg/kubelet/config.(*sourcesImpl).AddSource */
  addSource(source: string): void {
    this.seen.add(source);
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/config.(*sourcesImpl).AllReady */
  allReady(): boolean {
    return this.readyFn(this.seen);
  }
}
