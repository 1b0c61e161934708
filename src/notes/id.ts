/**
 * Note IDs: a UTC timestamp to the millisecond, so names sort by time, then random hex, so two
 * members writing in the same millisecond on different machines still get different files.
 */
import { randomBytes } from 'node:crypto';

export const NOTE_ID = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;

export function newNoteId(now: Date, random: () => string = () => randomBytes(4).toString('hex')): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${random()}`;
}

/** The time part of an ID back as a Date (undefined for a malformed ID). */
export function noteIdTime(id: string): Date | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/.exec(id);
  if (!m) return undefined;
  return new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], +m[7]));
}
