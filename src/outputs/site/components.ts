/**
 * The home page map: the kubelet's components, each owning some files, and edges between them
 * aggregated from the call graph (calls and goroutine starts) and from channels one sends on and
 * another receives from.
 */
import type { Graph } from '../../model/index.js';

export interface Component {
  id: string;
  label: string;
  /** Topic page the box links to. */
  topic: string;
  /** File path prefixes (relative to the tree root); the longest match wins. */
  owns: string[];
  /** Column and row on the map (the layout is fixed: it reads top-down like the kubelet starts). */
  at: [number, number];
}

export const COMPONENTS: Component[] = [
  { id: 'startup', label: 'Startup (cmd/kubelet)', topic: 'startup', owns: ['cmd/kubelet/'], at: [1, 0] },
  { id: 'config', label: 'Pod sources', topic: 'pod-sources', owns: ['pkg/kubelet/config/'], at: [0, 1] },
  { id: 'syncloop', label: 'syncLoop', topic: 'syncloop', owns: ['pkg/kubelet/kubelet.go', 'pkg/kubelet/kubelet_pods.go', 'pkg/kubelet/kubelet_getters.go'], at: [1, 1] },
  { id: 'pod', label: 'Pod manager', topic: 'pod-manager', owns: ['pkg/kubelet/pod/'], at: [2, 1] },
  { id: 'pleg', label: 'PLEG', topic: 'pleg', owns: ['pkg/kubelet/pleg/'], at: [0, 2] },
  { id: 'podworkers', label: 'Pod workers', topic: 'pod-workers', owns: ['pkg/kubelet/pod_workers.go'], at: [1, 2] },
  { id: 'prober', label: 'Probe manager', topic: 'prober', owns: ['pkg/kubelet/prober/'], at: [2, 2] },
  { id: 'runtime', label: 'Runtime manager', topic: 'runtime-manager', owns: ['pkg/kubelet/kuberuntime/'], at: [0, 3] },
  { id: 'status', label: 'Status manager', topic: 'status-manager', owns: ['pkg/kubelet/status/'], at: [1, 3] },
  { id: 'volume', label: 'Volume manager', topic: 'volume-manager', owns: ['pkg/kubelet/volumemanager/'], at: [2, 3] },
  { id: 'cm', label: 'Container manager', topic: 'container-manager', owns: ['pkg/kubelet/cm/'], at: [0, 4] },
  { id: 'eviction', label: 'Eviction manager', topic: 'eviction', owns: ['pkg/kubelet/eviction/'], at: [1, 4] },
  { id: 'imagegc', label: 'Image GC', topic: 'image-gc', owns: ['pkg/kubelet/images/image_gc_manager.go'], at: [2, 4] },
  { id: 'containergc', label: 'Container GC', topic: 'container-gc', owns: ['pkg/kubelet/container/container_gc.go', 'pkg/kubelet/kuberuntime/kuberuntime_gc.go'], at: [0, 5] },
  { id: 'images', label: 'Image manager', topic: 'image-manager', owns: ['pkg/kubelet/images/'], at: [1, 5] },
  { id: 'nodestatus', label: 'Node status', topic: 'node-status', owns: ['pkg/kubelet/kubelet_node_status.go', 'pkg/kubelet/nodestatus/'], at: [2, 5] },
];

export interface ComponentEdge {
  from: string;
  to: string;
  calls: number;
  goroutines: number;
  channels: number;
}

export function componentOf(file: string): Component | undefined {
  let best: Component | undefined;
  let len = -1;
  for (const c of COMPONENTS) {
    for (const p of c.owns) {
      if (file.startsWith(p) && p.length > len) {
        best = c;
        len = p.length;
      }
    }
  }
  return best;
}

export function componentEdges(graph: Graph, fileOf: (id: string) => string | undefined): ComponentEdge[] {
  const byKey = new Map<string, ComponentEdge>();
  const bump = (a: Component | undefined, b: Component | undefined, k: 'calls' | 'goroutines' | 'channels') => {
    if (!a || !b || a === b) return;
    const key = `${a.id}>${b.id}`;
    let e = byKey.get(key);
    if (!e) byKey.set(key, (e = { from: a.id, to: b.id, calls: 0, goroutines: 0, channels: 0 }));
    e[k]++;
  };
  for (const e of graph.edges) {
    if (e.mode === 'ref' || e.how.startsWith('iface-ruled-out') || e.how === 'iface-never-created') continue;
    const to = fileOf(e.callee);
    if (to) bump(componentOf(e.file), componentOf(to), e.mode === 'go' ? 'goroutines' : 'calls');
  }
  // A channel links the senders' component to the receivers' component.
  const ops = new Map<string, { send: Set<Component>; recv: Set<Component> }>();
  for (const op of graph.channels) {
    const c = componentOf(op.file);
    if (!c) continue;
    let o = ops.get(op.channel);
    if (!o) ops.set(op.channel, (o = { send: new Set(), recv: new Set() }));
    (op.op === 'send' || op.op === 'close' ? o.send : o.recv).add(c);
  }
  for (const o of ops.values()) for (const s of o.send) for (const r of o.recv) bump(s, r, 'channels');
  return [...byKey.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}
