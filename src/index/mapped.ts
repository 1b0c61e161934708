/**
 * The index folder's large files read through a private memory map when the addon is built
 * (src/parse/native/map_file.c): the graph file and facts pack whole, the query store a section at a
 * time (see index/stored.ts). The bytes are the page cache's own pages, where readFileSync copies them
 * into memory the process first has to fault in, which costs more than the read (58 MB: about 11 ms
 * mapped, 200-220 ms read, on the VM we measure on).
 */
import { readFileSync } from 'node:fs';
import { loadAddon } from '../parse/addon.js';
import type { Reuse } from './atomic.js';

interface MapFile {
  /** The file's bytes over a private map; undefined when it cannot be mapped (empty, missing, not a file). */
  mapFile(path: string): Buffer | undefined;
  /** The `length` bytes at `offset` of the open file `fd` (fewer at its end) over a private map of their pages; undefined when they cannot be mapped (absent from an addon built before it). */
  mapRange?(fd: number, offset: number, length: number): Buffer | undefined;
  /** Whether no process has the file open or mapped (false when it cannot tell). */
  unshared(path: string): boolean;
}

let addon: MapFile | null | undefined;

/**
 * All of `file`'s bytes, mapped or read; throws as readFileSync does. Writes into the Buffer stay in this
 * process. The index replaces its files by renaming new ones over them, so a map keeps the old bytes;
 * a file truncated in place by something else would fault the process when a lost page is read.
 */
export function readWhole(file: string): Buffer {
  return mapper()?.mapFile(file) ?? readFileSync(file);
}

/** The addon's map of a range of an open file (see MapFile.mapRange), or undefined when it is not built or has none. */
export function rangeMapper(): MapFile['mapRange'] {
  // A Node-API function, which uses no `this`: given as it is.
  return mapper()?.mapRange;
}

function mapper(): MapFile | null {
  if (addon === undefined) addon = loadAddon<MapFile>('map_file') ?? null;
  return addon;
}

/**
 * Writes into the spare of a file written again and again, when no process holds the spare (see
 * atomic.ts, Reuse); undefined without the addon, which alone can tell.
 */
export function spareReuse(): Reuse | undefined {
  const a = mapper();
  return a ? { unshared: (path) => a.unshared(path) } : undefined;
}
