/**
 * Runs one probe (exec, HTTP GET or TCP) against a container and reduces the outcome to a
 * Success/Failure verdict, recording an event when the probe fails or warns.
 */
import type { Container, Pod, PodStatus, Probe } from '../api/index.js';
import { generateContainerRef } from '../container-refs/index.js';
import type { ContainerID } from './container-id.js';
import type { Result } from './results.js';
import { PROBE_FIELD, probeTypeName, type ProbeType } from './probe-spec.js';

/** What a single probe attempt reports. @go k8s.io/kubernetes/pkg/probe.Result */
export type ProbeOutcome = 'success' | 'warning' | 'failure' | 'unknown';

export interface ProbeAttempt {
  result: ProbeOutcome;
  output: string;
  /** The probe could not be carried out (as opposed to the container answering badly). */
  error?: Error;
}

/** A command to run inside the container. */
export interface ExecCommand {
  containerID: ContainerID;
  command: string[];
  timeoutMs: number;
}

/** Where an HTTP probe connects. */
export interface HTTPTarget {
  scheme: string;
  host: string;
  port: number;
  path: string;
}

/**
 * The network and exec back ends. Tests (and readers) plug in fakes.
 * Simplified: no gRPC probes; the shared API shapes have no grpc handler.
 */
export interface ProbeHandlers {
  exec(cmd: ExecCommand): ProbeAttempt;
  http(target: HTTPTarget, timeoutMs: number): ProbeAttempt;
  tcp(host: string, port: number, timeoutMs: number): ProbeAttempt;
}

/** The container fields the prober reads. `env` is not in the shared API shapes, so it is added here. */
export type ProbedContainer = Container & { env?: { name: string; value?: string }[] };

export interface ContainerEvent {
  eventType: 'Normal' | 'Warning';
  reason: string;
  message: string;
  fieldPath?: string;
}

/** @go k8s.io/kubernetes/pkg/kubelet/events.ContainerUnhealthy */
export const CONTAINER_UNHEALTHY = 'Unhealthy';
/** @go k8s.io/kubernetes/pkg/kubelet/events.ContainerProbeWarning */
export const CONTAINER_PROBE_WARNING = 'ProbeWarning';

const MAX_PROBE_RETRIES = 3;

const unavailable = (what: string) => (): ProbeAttempt => ({ result: 'unknown', output: '', error: new Error(`no ${what} prober configured`) });

/**
 * @go k8s.io/kubernetes/pkg/kubelet/prober.newProber
 */
export class Prober {
  handlers: ProbeHandlers;
  /** Events recorded on containers, newest last (stands in for record.EventRecorder). */
  readonly events: ContainerEvent[] = [];

  constructor(handlers: Partial<ProbeHandlers> = {}) {
    this.handlers = { exec: unavailable('exec'), http: unavailable('http'), tcp: unavailable('tcp'), ...handlers };
  }

  /**
   * Success when the probe succeeds or warns; Failure otherwise, with the error when the probe
   * itself could not run (after three tries). A container without this probe type passes.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*prober).probe
   */
  probe(probeType: ProbeType, pod: Pod, status: PodStatus, container: ProbedContainer, containerID: ContainerID): { result: Result; error?: Error } {
    const spec = container[PROBE_FIELD[probeType]];
    if (!spec) return { result: 'Success' };

    const { result, output, error } = this.runProbeWithRetries(spec, pod, status, container, containerID, MAX_PROBE_RETRIES);
    const name = probeTypeName(probeType);
    if (error || (result !== 'success' && result !== 'warning')) {
      const message = error ? `${name} probe errored: ${error.message}` : `${name} probe failed: ${output}`;
      this.recordContainerEvent(pod, container, 'Warning', CONTAINER_UNHEALTHY, message);
      return error ? { result: 'Failure', error } : { result: 'Failure' };
    }
    if (result === 'warning') {
      this.recordContainerEvent(pod, container, 'Warning', CONTAINER_PROBE_WARNING, `${name} probe warning: ${output}`);
    }
    return { result: 'Success' };
  }

  /**
   * Repeats the attempt while it errors, up to `retries` times; a clean failure is not retried.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*prober).runProbeWithRetries
   */
  runProbeWithRetries(spec: Probe, pod: Pod, status: PodStatus, container: ProbedContainer, containerID: ContainerID, retries: number): ProbeAttempt {
    let attempt: ProbeAttempt = { result: 'unknown', output: '' };
    for (let i = 0; i < retries; i++) {
      attempt = this.runProbe(spec, pod, status, container, containerID);
      if (!attempt.error) return attempt;
    }
    return attempt;
  }

  /**
   * Dispatches on the handler kind. Exec commands get $(VAR) expanded from the container's static
   * env; HTTP and TCP default the host to the pod IP and resolve named ports.
   * @go k8s.io/kubernetes/pkg/kubelet/prober.(*prober).runProbe
   */
  runProbe(spec: Probe, pod: Pod, status: PodStatus, container: ProbedContainer, containerID: ContainerID): ProbeAttempt {
    const timeoutMs = (spec.timeoutSeconds ?? 0) * 1000;
    if (spec.exec) {
      const command = expandContainerCommandOnlyStatic(spec.exec.command ?? [], container.env ?? []);
      return this.handlers.exec({ containerID, command, timeoutMs });
    }
    if (spec.httpGet) {
      const port = resolveContainerPort(spec.httpGet.port, container);
      if (port.error) return { result: 'unknown', output: '', error: port.error };
      const target: HTTPTarget = {
        scheme: (spec.httpGet.scheme ?? '').toLowerCase() || 'http',
        host: spec.httpGet.host || (status.podIP ?? ''),
        port: port.port,
        path: spec.httpGet.path ?? '',
      };
      return this.handlers.http(target, timeoutMs);
    }
    if (spec.tcpSocket) {
      const port = resolveContainerPort(spec.tcpSocket.port, container);
      if (port.error) return { result: 'unknown', output: '', error: port.error };
      return this.handlers.tcp(spec.tcpSocket.host || (status.podIP ?? ''), port.port, timeoutMs);
    }
    const podDesc = `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
    return { result: 'unknown', output: '', error: new Error(`missing probe handler for ${podDesc}:${container.name}`) };
  }

  /** @go k8s.io/kubernetes/pkg/kubelet/prober.(*prober).recordContainerEvent */
  private recordContainerEvent(pod: Pod, container: Container, eventType: 'Normal' | 'Warning', reason: string, message: string): void {
    const ref = generateContainerRef(pod, container);
    this.events.push({ eventType, reason, message, fieldPath: ref.fieldPath });
  }
}

/**
 * A port given as a number, a port name from the container's ports, or a numeric string; it must
 * end up in 1..65535.
 * @go k8s.io/kubernetes/pkg/probe.ResolveContainerPort
 */
export function resolveContainerPort(param: number | string, container: Container): { port: number; error?: Error } {
  let port: number;
  if (typeof param === 'number') {
    port = param;
  } else {
    const named = (container.ports ?? []).find((p) => p.name === param);
    if (named) port = named.containerPort;
    else if (/^[+-]?\d+$/.test(param)) port = Number(param);
    else return { port: 0, error: new Error(`strconv.Atoi: parsing "${param}": invalid syntax`) };
  }
  if (port > 0 && port < 65536) return { port };
  return { port, error: new Error(`invalid port number: ${port}`) };
}

/**
 * Replaces $(NAME) with the value of a static env var; unknown names stay as written, and $$ is a
 * literal $.
 * @go k8s.io/kubernetes/pkg/kubelet/container.ExpandContainerCommandOnlyStatic
 */
export function expandContainerCommandOnlyStatic(command: string[], env: { name: string; value?: string }[]): string[] {
  const vars = new Map(env.map((e) => [e.name, e.value ?? '']));
  return command.map((arg) => expand(arg, (name) => vars.get(name) ?? `$(${name})`));
}

/** The third_party/forked/golang/expansion scanner. */
function expand(input: string, mapping: (name: string) => string): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const rest = input.slice(cursor + 1);
    let advance = 1;
    if (rest[0] === '$') {
      out += '$';
    } else if (rest[0] === '(') {
      const close = rest.indexOf(')', 1);
      if (close >= 0) {
        out += mapping(rest.slice(1, close));
        advance = close + 1;
      } else {
        out += '$(';
      }
    } else {
      out += '$' + rest[0];
    }
    cursor += advance;
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}
