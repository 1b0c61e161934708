/**
 * Reads pod manifests (YAML or JSON, one or many documents) into typed Pods, rejecting what the API
 * server would reject for the fields the ports use, with the field path in the message.
 */
import { parseAllDocuments } from 'yaml';
import type { Pod, Container, RestartPolicy } from './types.js';
import { parseQuantity } from './quantity.js';

export class ManifestError extends Error {
  constructor(readonly field: string, detail: string, readonly source?: string) {
    super(`${source ? source + ': ' : ''}${field}: ${detail}`);
    this.name = 'ManifestError';
  }
}

const RESTART_POLICIES: RestartPolicy[] = ['Always', 'OnFailure', 'Never'];
const PULL_POLICIES = ['Always', 'Never', 'IfNotPresent'];

/** Parses YAML or JSON text holding one or more Pod documents. */
export function loadPods(text: string, source?: string): Pod[] {
  const docs = parseAllDocuments(text);
  const pods: Pod[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const line = e.linePos?.[0]?.line;
      throw new ManifestError(line ? `line ${line}` : 'document', e.message.split('\n')[0], source);
    }
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    pods.push(validatePod(value, source));
  }
  return pods;
}

/** Checks the shape of one Pod object and fills the defaults the API server would. */
export function validatePod(value: unknown, source?: string): Pod {
  const fail = (field: string, detail: string): never => {
    throw new ManifestError(field, detail, source);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('pod', 'Invalid value: expected an object');
  const pod = value as Pod;
  if (pod.kind !== undefined && pod.kind !== 'Pod') fail('kind', `Unsupported value: "${pod.kind}": supported values: "Pod"`);
  if (typeof pod.metadata !== 'object' || pod.metadata === null) fail('metadata', 'Required value');
  if (!pod.metadata.name) fail('metadata.name', 'Required value: name or generateName is required');
  pod.metadata.namespace ??= 'default';
  pod.metadata.uid ??= `${pod.metadata.namespace}-${pod.metadata.name}`;
  if (typeof pod.spec !== 'object' || pod.spec === null) fail('spec', 'Required value');
  if (!Array.isArray(pod.spec.containers) || pod.spec.containers.length === 0) fail('spec.containers', 'Required value');
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (!RESTART_POLICIES.includes(policy)) {
    fail('spec.restartPolicy', `Unsupported value: "${policy}": supported values: "Always", "OnFailure", "Never"`);
  }
  pod.spec.restartPolicy = policy;
  const checkContainers = (list: Container[] | undefined, path: string) => {
    (list ?? []).forEach((c, i) => {
      const at = `${path}[${i}]`;
      if (!c || typeof c.name !== 'string' || c.name === '') fail(`${at}.name`, 'Required value');
      if (c.imagePullPolicy !== undefined && !PULL_POLICIES.includes(c.imagePullPolicy)) {
        fail(`${at}.imagePullPolicy`, `Unsupported value: "${c.imagePullPolicy}": supported values: "Always", "IfNotPresent", "Never"`);
      }
      for (const kind of ['requests', 'limits'] as const) {
        for (const [name, q] of Object.entries(c.resources?.[kind] ?? {})) {
          parseQuantity(q, `${at}.resources.${kind}[${name}]`);
        }
      }
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        const p = c[probe];
        if (!p) continue;
        for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
          const v = p[f];
          if (v !== undefined && (typeof v !== 'number' || v < 0)) fail(`${at}.${probe}.${f}`, `Invalid value: ${v}: must be greater than or equal to 0`);
        }
      }
    });
  };
  checkContainers(pod.spec.containers, 'spec.containers');
  checkContainers(pod.spec.initContainers, 'spec.initContainers');
  return pod;
}
