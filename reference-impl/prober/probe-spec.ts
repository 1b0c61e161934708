/**
 * Probe kinds, API defaults and the validation the API server applies to probe specs.
 */
import type { Probe } from '../api/index.js';

/** @go k8s.io/kubernetes/pkg/kubelet/prober.probeType */
export type ProbeType = 'liveness' | 'readiness' | 'startup';

/** "Liveness", "Readiness", "Startup", as used in events and logs. @go k8s.io/kubernetes/pkg/kubelet/prober.probeType.String */
export function probeTypeName(t: ProbeType): string {
  return t[0].toUpperCase() + t.slice(1);
}

/** The spec field that holds each probe type. */
export const PROBE_FIELD: Record<ProbeType, 'livenessProbe' | 'readinessProbe' | 'startupProbe'> = {
  liveness: 'livenessProbe',
  readiness: 'readinessProbe',
  startup: 'startupProbe',
};

/** A probe spec rejected the way the API server would reject it; `field` is the full field path. */
export class ProbeSpecError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'ProbeSpecError';
  }
}

/**
 * Fills unset (or zero) fields: timeout 1s, period 10s, success 1, failure 3.
 * @go k8s.io/kubernetes/pkg/apis/core/v1.SetDefaults_Probe
 */
export function withProbeDefaults(probe: Probe): Probe {
  return {
    ...probe,
    timeoutSeconds: probe.timeoutSeconds || 1,
    periodSeconds: probe.periodSeconds || 10,
    successThreshold: probe.successThreshold || 1,
    failureThreshold: probe.failureThreshold || 3,
  };
}

const NUMERIC_FIELDS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const;
const HANDLERS = ['exec', 'httpGet', 'tcpSocket'] as const;

/**
 * Rejects negative or fractional timings, zero or several handlers, and a success threshold other
 * than 1 for liveness and startup probes. Run on the defaulted spec, as the API server does.
 * @go k8s.io/kubernetes/pkg/apis/core/validation.validateProbe
 * Simplified: handler contents (exec command, HTTP path/port syntax) are not checked.
 */
export function validateProbe(probe: Probe, probeType: ProbeType, field: string): void {
  const handlers = HANDLERS.filter((h) => probe[h] !== undefined);
  if (handlers.length === 0) throw new ProbeSpecError(field, 'Required value: must specify a handler type');
  if (handlers.length > 1) throw new ProbeSpecError(`${field}.${handlers[1]}`, 'Forbidden: may not specify more than 1 handler type');
  for (const f of NUMERIC_FIELDS) {
    const v = probe[f];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      throw new ProbeSpecError(`${field}.${f}`, `Invalid value: ${String(v)}: must be greater than or equal to 0`);
    }
  }
  if (probeType !== 'readiness' && probe.successThreshold !== 1) {
    throw new ProbeSpecError(`${field}.successThreshold`, `Invalid value: ${String(probe.successThreshold)}: must be 1`);
  }
}
