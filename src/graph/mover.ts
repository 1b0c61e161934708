/**
 * Lines of one file moved in the records both forms of the graph (and the query store) keep as
 * objects: channel operations, goroutine starts, diagnostics. Kept apart from remap.ts, so that the
 * query store's reader (graph/store.ts) imports the mover alone.
 */
import type { ChannelOpRecord, Diagnostic, GoroutineRecord } from '../model/index.js';
import type { FileMove } from './remap.js';

/** Maps lines of one file, noting any line the map does not know. */
export class Mover {
  complete = true;
  readonly origin: string;

  constructor(readonly file: string, private readonly lines: ReadonlyMap<number, number>) {
    this.origin = `make@${file}:`;
  }

  to(n: number): number {
    const m = this.lines.get(n);
    if (m === undefined) this.complete = false;
    return m ?? n;
  }

  /** Channel operations, goroutine starts and diagnostics: the records both forms of the graph keep as objects. */
  records(g: MovableRecords): MovableRecords {
    const { file, origin } = this;
    const moveOrigin = (o: string): string => (o.startsWith(origin) ? origin + this.to(Number(o.slice(origin.length))) : o);
    return {
      channels: g.channels.map((c) => {
        const moved = c.file === file ? { ...c, line: this.to(c.line) } : c;
        return c.origins?.some((o) => o.startsWith(origin)) ? { ...moved, origins: c.origins.map(moveOrigin) } : moved;
      }),
      goroutines: g.goroutines.map((r) => (r.file === file ? { ...r, line: this.to(r.line) } : r)),
      diagnostics: this.diagnostics(g.diagnostics),
    };
  }

  /** The diagnostics placed in the file, moved. */
  diagnostics(ds: Diagnostic[]): Diagnostic[] {
    return ds.map((d) => (d.file === this.file && d.line !== undefined ? { ...d, line: this.to(d.line) } : d));
  }
}

/** Records as Mover.records moves them. */
export interface MovableRecords {
  channels: ChannelOpRecord[];
  goroutines: GoroutineRecord[];
  diagnostics: Diagnostic[];
}

/** `records` with the moves' lines moved, one file after another; undefined when a line is not in its file's map. */
export function movedRecords<T extends MovableRecords>(records: T, moves: readonly FileMove[]): T | undefined {
  let out = records;
  for (const [file, lines] of moves) {
    const m = new Mover(file, lines);
    out = { ...out, ...m.records(out) };
    if (!m.complete) return undefined;
  }
  return out;
}
