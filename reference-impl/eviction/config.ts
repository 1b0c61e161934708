/**
 * Turns the kubelet's eviction flags (--eviction-hard, --eviction-soft, --eviction-soft-grace-period,
 * --eviction-minimum-reclaim, --enforce-node-allocatable) into a list of thresholds, rejecting values
 * the kubelet would refuse to start with.
 */
import { parseQuantity } from '../api/index.js';
import { OpForSignal, type Signal, type Threshold, type ThresholdValue } from './api.js';
import { parseGoDuration } from './duration.js';
import { validSignal } from './signals.js';

/** A bad flag value; `field` names the flag and signal, e.g. `evictionHard[memory.available]`. */
export class ThresholdConfigError extends Error {
  constructor(readonly field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'ThresholdConfigError';
  }
}

/** --enforce-node-allocatable value that also turns memory.available into allocatableMemory.available. */
export const NodeAllocatableEnforcementKey = 'pods';

/**
 * Hard thresholds first, then soft ones (each must have a grace period), then min-reclaim attached by
 * signal; with "pods" enforcement every hard memory.available threshold is copied for
 * allocatableMemory.available.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.ParseThresholdConfig
 */
export function parseThresholdConfig(
  allocatableConfig: string[],
  evictionHard: Record<string, string> = {},
  evictionSoft: Record<string, string> = {},
  evictionSoftGracePeriod: Record<string, string> = {},
  evictionMinimumReclaim: Record<string, string> = {},
): Threshold[] {
  const results: Threshold[] = [...parseThresholdStatements(evictionHard, 'evictionHard')];
  const softThresholds = parseThresholdStatements(evictionSoft, 'evictionSoft');
  const gracePeriods = parseGracePeriods(evictionSoftGracePeriod);
  const minReclaims = parseMinimumReclaims(evictionMinimumReclaim);
  for (const soft of softThresholds) {
    const period = gracePeriods.get(soft.signal);
    if (period === undefined) {
      throw new ThresholdConfigError(`evictionSoftGracePeriod[${soft.signal}]`, 'a soft threshold needs a grace period');
    }
    soft.gracePeriod = period;
  }
  results.push(...softThresholds);
  for (const t of results) {
    const minReclaim = minReclaims.get(t.signal);
    if (minReclaim !== undefined) t.minReclaim = { ...minReclaim };
  }
  if (allocatableConfig.includes(NodeAllocatableEnforcementKey)) return addAllocatableThresholds(results);
  return results;
}

/**
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.addAllocatableThresholds
 */
export function addAllocatableThresholds(thresholds: Threshold[]): Threshold[] {
  const additional: Threshold[] = [];
  for (const t of thresholds) {
    if (t.signal === 'memory.available' && t.gracePeriod === 0) {
      additional.push({ signal: 'allocatableMemory.available', operator: t.operator, value: t.value, gracePeriod: 0, minReclaim: t.minReclaim });
    }
  }
  return [...thresholds, ...additional];
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.parseThresholdStatements */
function parseThresholdStatements(statements: Record<string, string>, flag: string): Threshold[] {
  const results: Threshold[] = [];
  for (const [signal, val] of Object.entries(statements)) {
    const result = parseThresholdStatement(signal, val, `${flag}[${signal}]`);
    if (result !== undefined) results.push(result);
  }
  return results;
}

/**
 * One "signal<value" statement. "0%" and "100%" switch the signal off (undefined); other percentages
 * must lie in (0, 100]; quantities must be positive.
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.parseThresholdStatement
 */
export function parseThresholdStatement(signal: string, val: string, field = `eviction[${signal}]`): Threshold | undefined {
  if (!validSignal(signal)) throw new ThresholdConfigError(field, `unsupported eviction signal ${signal}`);
  const operator = OpForSignal[signal];
  if (val.endsWith('%')) {
    if (val === '0%' || val === '100%') return undefined;
    const percentage = parsePercentage(val, field);
    if (percentage < 0) throw new ThresholdConfigError(field, `percentage ${val} is below 0%`);
    if (percentage > 1) throw new ThresholdConfigError(field, `percentage ${val} is above 100%`);
    return { signal, operator, value: { percentage }, gracePeriod: 0 };
  }
  const quantity = parseQuantity(val, field);
  if (quantity <= 0) throw new ThresholdConfigError(field, `threshold ${val} is not above zero`);
  return { signal, operator, value: { quantity, percentage: 0 }, gracePeriod: 0 };
}

const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * "10.5%" → 0.105, computed in float32 as Go does (strip trailing %s, parse, divide by 100).
 * @go k8s.io/kubernetes/pkg/kubelet/eviction.parsePercentage
 * Simplified: accepts decimal notation only (no Go hex floats, "Inf" or "NaN").
 */
export function parsePercentage(input: string, field = 'percentage'): number {
  const text = input.replace(/%+$/, '');
  if (!FLOAT.test(text)) throw new ThresholdConfigError(field, `invalid percentage "${input}"`);
  return Math.fround(Math.fround(Number(text)) / 100);
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.parseGracePeriods */
function parseGracePeriods(statements: Record<string, string>): Map<Signal, number> {
  const results = new Map<Signal, number>();
  for (const [signal, val] of Object.entries(statements)) {
    const field = `evictionSoftGracePeriod[${signal}]`;
    if (!validSignal(signal)) throw new ThresholdConfigError(field, `unsupported eviction signal ${signal}`);
    const gracePeriod = parseGoDuration(val, field);
    if (gracePeriod < 0) throw new ThresholdConfigError(field, `grace period ${val} is negative`);
    results.set(signal, gracePeriod);
  }
  return results;
}

/** @go k8s.io/kubernetes/pkg/kubelet/eviction.parseMinimumReclaims */
function parseMinimumReclaims(statements: Record<string, string>): Map<Signal, ThresholdValue> {
  const results = new Map<Signal, ThresholdValue>();
  for (const [signal, val] of Object.entries(statements)) {
    const field = `evictionMinimumReclaim[${signal}]`;
    if (!validSignal(signal)) throw new ThresholdConfigError(field, `unsupported eviction signal ${signal}`);
    if (val.endsWith('%')) {
      const percentage = parsePercentage(val, field);
      if (percentage <= 0) throw new ThresholdConfigError(field, `minimum reclaim ${val} is not above 0%`);
      results.set(signal, { percentage });
      continue;
    }
    const quantity = parseQuantity(val, field);
    if (quantity < 0) throw new ThresholdConfigError(field, `minimum reclaim ${val} is negative`);
    results.set(signal, { quantity, percentage: 0 });
  }
  return results;
}
