/**
 * Small arithmetic over ResourceLists for the container manager. Quantities arrive as strings in the
 * API shape; here they become numbers in base units (cores, bytes) so they can be summed and compared.
 * Simplified: JavaScript numbers, not exact decimals; equality tolerates float rounding noise.
 */
import { parseQuantity, milliValue, intValue } from '../api/index.js';
import type { ResourceList } from '../api/index.js';

/** A ResourceList already parsed into numbers, keyed by resource name. */
export type NumericResources = Map<string, number>;

/** Parses every entry of a ResourceList; a malformed value throws a QuantityError naming `field[name]`. */
export function parseResourceList(list: ResourceList | undefined, field: string): NumericResources {
  const out: NumericResources = new Map();
  for (const [name, q] of Object.entries(list ?? {})) out.set(name, parseQuantity(q, `${field}[${name}]`));
  return out;
}

/** Adds `extra` into `into`, creating missing keys. */
export function addInto(into: NumericResources, extra: NumericResources): void {
  for (const [name, v] of extra) into.set(name, (into.get(name) ?? 0) + v);
}

/** Raises each entry of `into` to the value in `other` where `other` is larger (or missing in `into`). */
export function maxInto(into: NumericResources, other: NumericResources): void {
  for (const [name, v] of other) {
    const cur = into.get(name);
    if (cur === undefined || v > cur) into.set(name, v);
  }
}

/** Equality for sums of quantities, ignoring binary rounding of decimal fractions such as 0.1 + 0.2. */
export function sameQuantity(a: number, b: number): boolean {
  return Math.abs(a - b) <= Math.max(Math.abs(a), Math.abs(b)) * Number.EPSILON * 8;
}

/** Quantity.MilliValue of a parsed number (rounds up). */
export function toMilli(v: number): number {
  return milliValue(v);
}

/** Quantity.Value of a parsed number (rounds up to a whole unit). */
export function toInt(v: number): number {
  return intValue(v);
}

/** Prints a number back as a quantity string that parses to the same value ("150m", "262144000"). */
export function formatQuantity(v: number): string {
  if (Number.isInteger(v)) return String(v);
  const milli = v * 1e3;
  if (Math.abs(milli - Math.round(milli)) < 1e-6) return `${Math.round(milli)}m`;
  return `${Math.round(v * 1e9)}n`;
}

/** Turns parsed resources back into the API shape. */
export function toResourceList(values: NumericResources): ResourceList {
  const out: ResourceList = {};
  for (const [name, v] of values) out[name] = formatQuantity(v);
  return out;
}
