/**
 * Every Go symbol a port names in its `@go` tags must exist: in the index when a tree is at hand, else
 * in the annotations' lock (which records the ports' IDs when it is written). IDs outside Kubernetes and its
 * staging modules (the standard library, k8s.io/utils, third-party modules) are not indexed; they are reported as information only.
 */
import type { Diagnostic } from '../model/index.js';
import type { PortMapping } from './types.js';

/** Kubernetes itself and its staging modules: the code a tree holds. Others (k8s.io/utils, the standard library) are outside. */
const STAGING = [
  'api', 'apiextensions-apiserver', 'apimachinery', 'apiserver', 'cli-runtime', 'client-go', 'cloud-provider', 'cluster-bootstrap',
  'code-generator', 'component-base', 'component-helpers', 'controller-manager', 'cri-api', 'csi-translation-lib',
  'dynamic-resource-allocation', 'endpointslice', 'kms', 'kube-aggregator', 'kube-controller-manager', 'kube-proxy',
  'kube-scheduler', 'kubectl', 'kubelet', 'legacy-cloud-providers', 'metrics', 'mount-utils', 'pod-security-admission',
  'sample-apiserver', 'sample-cli-plugin', 'sample-controller',
];
const K8S = new RegExp(`^k8s\\.io/(kubernetes|${STAGING.map((x) => x.replace(/[-.]/g, '\\$&')).join('|')})(/|\\.)`);

export function portIds(mappings: PortMapping[]): string[] {
  return [...new Set(mappings.flatMap((m) => m.goIds).filter((id) => K8S.test(id)))].sort();
}

export function checkPortMappings(mappings: PortMapping[], isKnown: (id: string) => boolean, against: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const external = new Set<string>();
  for (const m of mappings) {
    for (const id of m.goIds) {
      if (!K8S.test(id)) {
        external.add(id);
        continue;
      }
      if (!isKnown(id)) {
        out.push({
          severity: 'error',
          code: 'port.unknown-go-symbol',
          message: `${m.exportName} names @go ${id}, which is not in ${against}`,
          file: m.file,
          line: m.line,
          hint: against.includes('lock') ? 'fix the tag, or re-lock with `kubelet-atlas annotations lock --source DIR` if the symbol is real' : 'fix the tag to the symbol\'s pprof name',
        });
      }
    }
  }
  if (external.size) {
    out.push({ severity: 'info', code: 'port.external-go-symbol', message: `${external.size} @go tags name symbols outside Kubernetes and its staging modules (not checked): ${[...external].sort().slice(0, 6).join(', ')}${external.size > 6 ? ', …' : ''}` });
  }
  return out;
}
