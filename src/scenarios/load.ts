/**
 * Reads a scenario file and checks everything a run depends on, so a typo fails here with the file,
 * the field and the line instead of somewhere inside a port.
 */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { validatePod, type Container, type Pod } from '../../reference-impl/api/index.js';
import { DEFAULT_IMAGE_GC_POLICY, validateImageGCPolicy, type ImageGCPolicy } from '../../reference-impl/image-gc/index.js';
import { DefaultEvictionHard, parseGoDuration, parseThresholdConfig } from '../../reference-impl/eviction/index.js';
import { parseImageName } from '../../reference-impl/image-manager/index.js';
import { validateProbe, withProbeDefaults } from '../../reference-impl/prober/index.js';
import { parseQuantity } from '../../reference-impl/api/index.js';
import { EVENT_KINDS, type EvictionFlags, type ImageFact, type NodeFacts, type ProbeKind, type Scenario, type ScenarioEvent } from './schema.js';

/** A problem in a scenario file: `file:line: field: detail`. */
export class ScenarioError extends Error {
  constructor(readonly file: string, readonly line: number, readonly field: string, readonly detail: string) {
    super(`${file}:${line}: ${field}: ${detail}`);
    this.name = 'ScenarioError';
  }
}

type Path = (string | number)[];
type Obj = Record<string, unknown>;

const TOP_FIELDS = ['name', 'description', 'duration', 'node', 'images', 'pods', 'events'];
const NODE_FIELDS = ['name', 'memory', 'systemMemory', 'disk', 'diskUsed', 'eviction', 'imageGC', 'sandboxImage'];
const EVICTION_FIELDS = ['hard', 'soft', 'softGracePeriod', 'minimumReclaim', 'pressureTransitionPeriod', 'maxPodGracePeriod'];
const IMAGE_GC_FIELDS = ['highThresholdPercent', 'lowThresholdPercent', 'minAge'];
const IMAGE_FIELDS = ['name', 'size', 'present', 'pinned', 'lastUsedAgo'];
const EVENT_FIELDS: Record<(typeof EVENT_KINDS)[number], string[]> = {
  'pod-add': ['pod'],
  'container-exit': ['pod', 'container', 'exitCode', 'repeatAfterStart'],
  'memory-usage': ['pod', 'container', 'memory'],
  'probe-fail': ['pod', 'container', 'probe', 'output'],
  'probe-pass': ['pod', 'container', 'probe'],
  'image-pull': ['image'],
};
const PROBES: ProbeKind[] = ['liveness', 'readiness', 'startup'];

export function loadScenario(path: string): Scenario {
  return parseScenario(readFileSync(path, 'utf8'), path);
}

/** Parses scenario text; `source` names the file in error messages and gives the default name. */
export function parseScenario(text: string, source = 'scenario.yaml'): Scenario {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const r = new Reader(doc, lineCounter, source);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw new ScenarioError(source, e.linePos?.[0]?.line ?? 1, 'yaml', e.message.split('\n')[0]);
  }
  const top = r.object([], doc.toJS(), TOP_FIELDS);
  const duration = r.duration(['duration'], top.duration, true);
  if (duration <= 0) r.fail(['duration'], 'must be longer than 0s');
  const node = readNode(r, top.node);
  const images = r.list(['images'], top.images).map((v, i) => readImage(r, ['images', i], v));
  const pods = r.list(['pods'], top.pods).map((v, i) => readPod(r, ['pods', i], v));
  if (pods.length === 0) r.fail(['pods'], 'Required value: a scenario needs at least one pod');
  const seen = new Set<string>();
  pods.forEach((p, i) => {
    const name = p.metadata.name ?? '';
    if (seen.has(name)) r.fail(['pods', i, 'metadata', 'name'], `Duplicate value: "${name}"`);
    seen.add(name);
  });
  const events = r
    .list(['events'], top.events)
    .map((v, i) => readEvent(r, ['events', i], v, pods, duration))
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);
  const added = new Set<string>();
  for (const e of events) {
    if (e.event !== 'pod-add') continue;
    if (added.has(e.pod)) throw new ScenarioError(source, e.line, 'pod', `pod "${e.pod}" is added twice`);
    added.add(e.pod);
  }
  return {
    name: r.optString(['name'], top.name) ?? basename(source, extname(source)),
    description: r.optString(['description'], top.description) ?? '',
    source,
    duration,
    node,
    images,
    pods,
    events,
  };
}

function readNode(r: Reader, value: unknown): NodeFacts {
  const n = r.object(['node'], value ?? {}, NODE_FIELDS);
  const ev = r.object(['node', 'eviction'], n.eviction ?? {}, EVICTION_FIELDS);
  const eviction: EvictionFlags = {
    hard: n.eviction !== undefined && ev.hard !== undefined ? r.stringMap(['node', 'eviction', 'hard'], ev.hard) : { ...DefaultEvictionHard },
    soft: r.stringMap(['node', 'eviction', 'soft'], ev.soft ?? {}),
    softGracePeriod: r.stringMap(['node', 'eviction', 'softGracePeriod'], ev.softGracePeriod ?? {}),
    minimumReclaim: r.stringMap(['node', 'eviction', 'minimumReclaim'], ev.minimumReclaim ?? {}),
    pressureTransitionPeriod: ev.pressureTransitionPeriod === undefined ? 5 * 60_000 : r.duration(['node', 'eviction', 'pressureTransitionPeriod'], ev.pressureTransitionPeriod),
    maxPodGracePeriod: ev.maxPodGracePeriod === undefined ? 0 : r.integer(['node', 'eviction', 'maxPodGracePeriod'], ev.maxPodGracePeriod, 0),
  };
  checkThresholds(r, eviction);

  const gc = r.object(['node', 'imageGC'], n.imageGC ?? {}, IMAGE_GC_FIELDS);
  const imageGC: ImageGCPolicy = {
    highThresholdPercent: gc.highThresholdPercent === undefined ? DEFAULT_IMAGE_GC_POLICY.highThresholdPercent : r.integer(['node', 'imageGC', 'highThresholdPercent'], gc.highThresholdPercent, 0),
    lowThresholdPercent: gc.lowThresholdPercent === undefined ? DEFAULT_IMAGE_GC_POLICY.lowThresholdPercent : r.integer(['node', 'imageGC', 'lowThresholdPercent'], gc.lowThresholdPercent, 0),
    minAge: gc.minAge === undefined ? DEFAULT_IMAGE_GC_POLICY.minAge : r.duration(['node', 'imageGC', 'minAge'], gc.minAge),
  };
  try {
    validateImageGCPolicy(imageGC);
  } catch (e) {
    r.fail(['node', 'imageGC'], (e as Error).message);
  }

  const disk = n.disk === undefined ? undefined : r.quantity(['node', 'disk'], n.disk);
  const diskUsed = n.diskUsed === undefined ? 0 : r.quantity(['node', 'diskUsed'], n.diskUsed);
  if (disk === undefined && n.diskUsed !== undefined) r.fail(['node', 'diskUsed'], 'needs node.disk (the filesystem size)');
  if (disk !== undefined && diskUsed > disk) r.fail(['node', 'diskUsed'], 'is larger than node.disk');
  return {
    name: r.optString(['node', 'name'], n.name) ?? 'node-1',
    memory: n.memory === undefined ? 8 * 2 ** 30 : r.quantity(['node', 'memory'], n.memory),
    systemMemory: n.systemMemory === undefined ? 0 : r.quantity(['node', 'systemMemory'], n.systemMemory),
    disk,
    diskUsed,
    eviction,
    imageGC,
    sandboxImage: r.optString(['node', 'sandboxImage'], n.sandboxImage) ?? 'registry.k8s.io/pause:3.9',
  };
}

/** Runs the kubelet's own flag parsing and points its complaint at the right line. */
function checkThresholds(r: Reader, ev: EvictionFlags): void {
  try {
    parseThresholdConfig([], ev.hard, ev.soft, ev.softGracePeriod, ev.minimumReclaim);
  } catch (e) {
    const err = e as Error & { field?: string };
    const m = /^eviction(Hard|Soft|SoftGracePeriod|MinimumReclaim)\[(.*)\]$/.exec(err.field ?? '');
    const key = m ? m[1][0].toLowerCase() + m[1].slice(1) : undefined;
    const path: Path = key ? ['node', 'eviction', key, m![2]] : ['node', 'eviction'];
    r.fail(path, stripField(err.message, err.field));
  }
}

function readImage(r: Reader, path: Path, value: unknown): ImageFact {
  const o = r.object(path, value, IMAGE_FIELDS);
  const name = r.string([...path, 'name'], o.name);
  try {
    parseImageName(name);
  } catch (e) {
    r.fail([...path, 'name'], (e as Error).message);
  }
  return {
    name,
    size: o.size === undefined ? 0 : r.quantity([...path, 'size'], o.size),
    present: o.present === undefined ? true : r.boolean([...path, 'present'], o.present),
    pinned: o.pinned === undefined ? false : r.boolean([...path, 'pinned'], o.pinned),
    ...(o.lastUsedAgo === undefined ? {} : { lastUsedAgo: r.duration([...path, 'lastUsedAgo'], o.lastUsedAgo) }),
  };
}

/** Validates like the API server (through the shared manifest reader) and fills its defaults. */
function readPod(r: Reader, path: Path, value: unknown): Pod {
  let pod: Pod;
  try {
    pod = validatePod(structuredClone(value));
  } catch (e) {
    const err = e as Error & { field?: string };
    r.fail([...path, ...parseFieldPath(err.field ?? '')], stripField(err.message, err.field));
  }
  for (const key of ['initContainers', 'ephemeralContainers'] as const) {
    if ((pod.spec[key] ?? []).length > 0) r.fail([...path, 'spec', key], 'not supported by the scenario driver yet (regular containers only)');
  }
  pod.spec.containers.forEach((c: Container, i: number) => {
    const at: Path = [...path, 'spec', 'containers', i];
    if (!c.image) r.fail([...at, 'image'], 'Required value');
    try {
      parseImageName(c.image);
    } catch (e) {
      r.fail([...at, 'image'], (e as Error).message);
    }
    c.imagePullPolicy ??= defaultPullPolicy(c.image);
    for (const probe of PROBES) {
      const field = `${probe}Probe` as const;
      const spec = c[field];
      if (!spec) continue;
      try {
        validateProbe(withProbeDefaults(spec), probe, field);
      } catch (e) {
        const err = e as Error & { field?: string };
        r.fail([...at, ...parseFieldPath(err.field ?? field)], stripField(err.message, err.field));
      }
    }
  });
  return pod;
}

/** The API server's default: Always for ":latest" or no tag, otherwise IfNotPresent. */
function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const { tag, digest } = parseImageName(image);
  return digest === '' && tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function readEvent(r: Reader, path: Path, value: unknown, pods: Pod[], duration: number): ScenarioEvent {
  const raw = r.object(path, value, null);
  const kind = raw.event;
  if (typeof kind !== 'string' || !(EVENT_KINDS as readonly string[]).includes(kind)) {
    r.fail([...path, 'event'], `unknown event kind ${JSON.stringify(kind ?? null)}; expected one of ${EVENT_KINDS.join(', ')}`);
  }
  const k = kind as (typeof EVENT_KINDS)[number];
  const o = r.object(path, value, ['at', 'event', ...EVENT_FIELDS[k]]);
  const at = r.duration([...path, 'at'], o.at, true);
  if (at > duration) r.fail([...path, 'at'], `is after the end of the scenario (${fmt(duration)})`);
  const line = r.line(path);
  const base = { at, line };
  if (k === 'image-pull') return { ...base, event: k, image: r.string([...path, 'image'], o.image) };

  const pod = pickPod(r, path, o.pod, pods);
  const podName = pod.metadata.name ?? '';
  if (k === 'pod-add') return { ...base, event: k, pod: podName };

  const containerName = r.string([...path, 'container'], o.container);
  const container = pod.spec.containers.find((c) => c.name === containerName);
  if (!container) {
    r.fail([...path, 'container'], `pod "${podName}" has no container "${containerName}" (it has ${pod.spec.containers.map((c) => `"${c.name}"`).join(', ')})`);
  }
  const target = { pod: podName, container: containerName };
  switch (k) {
    case 'container-exit':
      return {
        ...base,
        event: k,
        ...target,
        exitCode: o.exitCode === undefined ? 1 : r.integer([...path, 'exitCode'], o.exitCode, 0),
        ...(o.repeatAfterStart === undefined ? {} : { repeatAfterStart: positive(r, [...path, 'repeatAfterStart'], o.repeatAfterStart) }),
      };
    case 'memory-usage':
      return { ...base, event: k, ...target, bytes: r.quantity([...path, 'memory'], o.memory, true) };
    case 'probe-fail':
    case 'probe-pass': {
      const probe = r.string([...path, 'probe'], o.probe);
      if (!(PROBES as string[]).includes(probe)) r.fail([...path, 'probe'], `Unsupported value: "${probe}": supported values: ${PROBES.map((p) => `"${p}"`).join(', ')}`);
      if (!container[`${probe as ProbeKind}Probe`]) r.fail([...path, 'probe'], `container "${containerName}" has no ${probe}Probe`);
      if (k === 'probe-pass') return { ...base, event: k, ...target, probe: probe as ProbeKind };
      return { ...base, event: k, ...target, probe: probe as ProbeKind, output: r.optString([...path, 'output'], o.output) ?? '' };
    }
  }
}

function pickPod(r: Reader, path: Path, value: unknown, pods: Pod[]): Pod {
  if (value === undefined) {
    if (pods.length === 1) return pods[0];
    r.fail([...path, 'pod'], 'Required value: the scenario has several pods');
  }
  const name = r.string([...path, 'pod'], value);
  const pod = pods.find((p) => p.metadata.name === name);
  if (!pod) r.fail([...path, 'pod'], `no pod named "${name}" in pods`);
  return pod;
}

function positive(r: Reader, path: Path, value: unknown): number {
  const d = r.duration(path, value, true);
  if (d <= 0) r.fail(path, 'must be longer than 0s');
  return d;
}

/** "spec.containers[0].resources.requests[memory]" → ['spec', 'containers', 0, 'resources', 'requests', 'memory']. */
function parseFieldPath(field: string): Path {
  return field
    .split(/[.[\]]/)
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Error texts from the ports start with their own field name; the scenario error prints its own. */
function stripField(message: string, field: string | undefined): string {
  return field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}

function fmt(ms: number): string {
  const s = ms / 1000;
  return s % 60 === 0 ? `${s / 60}m` : `${s}s`;
}

/** Typed access to the parsed values, failing with the line of the offending node. */
class Reader {
  constructor(
    private readonly doc: Document.Parsed,
    private readonly lineCounter: LineCounter,
    private readonly file: string,
  ) {}

  line(path: Path): number {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = p.length === 0 ? this.doc.contents : this.doc.getIn(p, true);
      if (isNode(node) && node.range) return this.lineCounter.linePos(node.range[0]).line;
      if (p.length === 0) return 1;
    }
  }

  fail(path: Path, detail: string): never {
    throw new ScenarioError(this.file, this.line(path), fieldName(path), detail);
  }

  /** A mapping whose keys are all in `allowed` (null: any keys). */
  object(path: Path, value: unknown, allowed: string[] | null): Obj {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'Invalid value: expected a mapping');
    if (allowed) {
      for (const key of Object.keys(value)) {
        if (!allowed.includes(key)) this.fail([...path, key], `unknown field; expected one of ${allowed.join(', ')}`);
      }
    }
    return value as Obj;
  }

  list(path: Path, value: unknown): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(path, 'Invalid value: expected a list');
    return value;
  }

  string(path: Path, value: unknown): string {
    if (value === undefined || value === null || value === '') this.fail(path, 'Required value');
    if (typeof value !== 'string') this.fail(path, `Invalid value: ${JSON.stringify(value)}: expected a string`);
    return value;
  }

  optString(path: Path, value: unknown): string | undefined {
    return value === undefined ? undefined : this.string(path, value);
  }

  boolean(path: Path, value: unknown): boolean {
    if (typeof value !== 'boolean') this.fail(path, `Invalid value: ${JSON.stringify(value)}: expected true or false`);
    return value;
  }

  integer(path: Path, value: unknown, min: number): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
      this.fail(path, `Invalid value: ${JSON.stringify(value)}: expected a whole number of at least ${min}`);
    }
    return value;
  }

  stringMap(path: Path, value: unknown): Record<string, string> {
    const o = this.object(path, value, null);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(o)) out[k] = this.string([...path, k], typeof v === 'number' ? String(v) : v);
    return out;
  }

  /** Go duration text ("90s", "1m30s"); a bare 0 is allowed too. */
  duration(path: Path, value: unknown, required = false): number {
    if (value === undefined && !required) return 0;
    if (value === 0) return 0;
    if (typeof value !== 'string') this.fail(path, value === undefined ? 'Required value' : `Invalid value: ${JSON.stringify(value)}: expected a duration such as "30s" or "1m30s"`);
    let ms: number;
    try {
      ms = parseGoDuration(value, fieldName(path));
    } catch (e) {
      this.fail(path, stripField((e as Error).message, fieldName(path)));
    }
    if (ms < 0) this.fail(path, `Invalid value: "${value}": must not be negative`);
    return ms;
  }

  /** A Kubernetes quantity ("512Mi", "1Gi") as a whole number of bytes. */
  quantity(path: Path, value: unknown, required = false): number {
    if (value === undefined && required) this.fail(path, 'Required value');
    if (typeof value !== 'string' && typeof value !== 'number') this.fail(path, `Invalid value: ${JSON.stringify(value)}: expected a quantity such as "512Mi"`);
    let n: number;
    try {
      n = parseQuantity(value, fieldName(path));
    } catch (e) {
      this.fail(path, stripField((e as Error).message, fieldName(path)));
    }
    if (n < 0) this.fail(path, `Invalid value: "${value}": must not be negative`);
    return Math.round(n);
  }
}

function fieldName(path: Path): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (p.includes('.')) out += `[${p}]`;
    else out += out === '' ? p : `.${p}`;
  }
  return out || '(top level)';
}
