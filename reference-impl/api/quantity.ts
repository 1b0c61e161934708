/**
 * Kubernetes resource quantities ("100m", "1Gi", "2.5", "1e3") reduced to exact numbers.
 * @go k8s.io/apimachinery/pkg/api/resource.ParseQuantity
 * Simplified: values are JavaScript numbers (exact up to 2^53), not arbitrary-precision decimals.
 */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const PATTERN = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

/** Thrown when a quantity does not parse; `field` names where it was read, as the API server would. */
export class QuantityError extends Error {
  constructor(readonly field: string, readonly value: string) {
    super(`${field}: Invalid value: "${value}": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    this.name = 'QuantityError';
  }
}

/** Parses a quantity into its value in base units (bytes, cores). */
export function parseQuantity(value: string | number, field = 'quantity'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QuantityError(field, String(value));
    return value;
  }
  const m = PATTERN.exec(value.trim());
  if (!m) throw new QuantityError(field, value);
  const base = Number(m[1]);
  if (m[3] !== undefined) return base * 10 ** Number(m[3]);
  const suffix = m[2] ?? '';
  return base * (BINARY[suffix] ?? DECIMAL[suffix]);
}

/** The value in thousandths, rounded up like Quantity.MilliValue. */
export function milliValue(value: string | number, field = 'quantity'): number {
  return Math.ceil(Math.round(parseQuantity(value, field) * 1e9) / 1e6);
}

/** The integer value, rounded up like Quantity.Value. */
export function intValue(value: string | number, field = 'quantity'): number {
  return Math.ceil(parseQuantity(value, field) - 1e-12);
}
