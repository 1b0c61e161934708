/**
 * Go duration strings ("30s", "1m30s", "1.5h", "-30s") as milliseconds.
 * @go time.ParseDuration
 * Simplified: the result is a float number of milliseconds rather than integer nanoseconds.
 */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign
  'μs': 1e-3, // U+03BC Greek small letter mu
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

export class DurationError extends Error {
  constructor(readonly field: string, readonly input: string, detail: string) {
    super(`${field}: time: ${detail} "${input}"`);
    this.name = 'DurationError';
  }
}

export function parseGoDuration(input: string, field = 'duration'): number {
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s[0] === '-' ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new DurationError(field, input, 'invalid duration');
  let total = 0;
  const part = /^(\d*)(?:\.(\d*))?([^\d.]*)/;
  while (s !== '') {
    const m = part.exec(s);
    if (m === null || (m[1] === '' && (m[2] ?? '') === '')) throw new DurationError(field, input, 'invalid duration');
    const unit = m[3];
    if (unit === '') throw new DurationError(field, input, 'missing unit in duration');
    const scale = UNIT_MS[unit];
    if (scale === undefined) throw new DurationError(field, input, `unknown unit "${unit}" in duration`);
    total += Number(`${m[1] || '0'}.${m[2] ?? ''}0`) * scale;
    s = s.slice(m[0].length);
  }
  return sign * total;
}
