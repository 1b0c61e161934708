/**
 * The canonical string a resource.Quantity prints for an integer amount, which is what ends up in
 * node.status.capacity ("2", "2Ki", "50Ki", "1k").
 * @go k8s.io/apimachinery/pkg/api/resource.(*Quantity).CanonicalizeBytes
 * Simplified: only exact integer amounts (optionally in thousandths) are handled; no inf.Dec path.
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI';

const DECIMAL_SUFFIX = new Map<number, string>([
  [-9, 'n'], [-6, 'u'], [-3, 'm'], [0, ''], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E'],
]);
const BINARY_SUFFIX = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * Formats `amount × 10^scale` the way Quantity.String does for the given format.
 * BinarySI falls back to DecimalSI below 1024 in magnitude (so 1000 prints as "1k") and when the
 * amount is not a whole number.
 */
export function formatQuantity(amount: bigint, scale: number, format: QuantityFormat): string {
  if (amount === 0n) return '0';
  if (format === 'BinarySI') {
    const whole = scale >= 0 ? amount * 10n ** BigInt(scale) : undefined;
    const exact = whole !== undefined || amount % 10n ** BigInt(-scale) === 0n;
    const value = whole ?? amount / 10n ** BigInt(-scale);
    if (exact && (value >= 1024n || value <= -1024n)) return formatBase1024(value);
  }
  return formatBase10(amount, scale);
}

/** Strips factors of 10, then moves the exponent down to a multiple of 3 so an SI suffix fits. */
function formatBase10(amount: bigint, scale: number): string {
  let mantissa = amount;
  let exponent = scale;
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  const over = ((exponent % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(over);
  exponent -= over;
  // Go emits no suffix at all for exponents past E; amounts that large do not occur here.
  return `${mantissa}${DECIMAL_SUFFIX.get(exponent) ?? ''}`;
}

function formatBase1024(value: bigint): string {
  let mantissa = value;
  let step = 0;
  while (mantissa % 1024n === 0n && step < BINARY_SUFFIX.length - 1) {
    mantissa /= 1024n;
    step += 1;
  }
  return `${mantissa}${BINARY_SUFFIX[step]}`;
}
