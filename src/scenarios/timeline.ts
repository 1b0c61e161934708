/** Printing a timeline: `HH:MM:SS  what happened   ← the Go symbol it mirrors`. */
import { shortGoId } from './go-ids.js';
import type { TimelineEntry } from './schema.js';

/** Widest text that still gets its arrow aligned with the others; longer lines just get two spaces. */
const ALIGN_LIMIT = 78;

export function clockTime(ms: number): string {
  const s = Math.floor(ms / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function formatTimeline(entries: TimelineEntry[]): string {
  const width = Math.min(ALIGN_LIMIT, Math.max(0, ...entries.filter((e) => e.go).map((e) => e.text.length)));
  return entries
    .map((e) => {
      const head = `${clockTime(e.at)}  `;
      if (!e.go) return `${head}${e.text}`;
      return `${head}${e.text.padEnd(width)}  ← ${shortGoId(e.go)}`;
    })
    .join('\n') + '\n';
}

/**
 * Byte counts as Kubernetes quantities: the largest binary suffix that divides exactly ("5300Mi",
 * "2Gi"); amounts no suffix divides get one decimal of the largest unit that fits.
 */
export function formatBytes(n: number): string {
  const units: [string, number][] = [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]];
  for (const [suffix, size] of units) if (n !== 0 && n % size === 0) return `${n / size}${suffix}`;
  for (const [suffix, size] of units) if (Math.abs(n) >= size) return `${(n / size).toFixed(1)}${suffix}`;
  return `${n}`;
}
