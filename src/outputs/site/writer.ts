/** Writes the site's files and keeps the numbers printed at the end (count, total size, largest page). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface WriteStats {
  files: number;
  bytes: number;
  pages: number;
  largestPage: { path: string; bytes: number };
  largestData: { path: string; bytes: number };
}

export class SiteWriter {
  private dirs = new Set<string>();
  readonly stats: WriteStats = { files: 0, bytes: 0, pages: 0, largestPage: { path: '', bytes: 0 }, largestData: { path: '', bytes: 0 } };

  constructor(readonly outDir: string) {}

  write(path: string, content: string | Buffer): void {
    const abs = join(this.outDir, path);
    const dir = dirname(abs);
    if (!this.dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.dirs.add(dir);
    }
    writeFileSync(abs, content);
    const bytes = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
    this.stats.files++;
    this.stats.bytes += bytes;
    const slot = path.endsWith('.html') ? 'largestPage' : path.startsWith('data/') ? 'largestData' : undefined;
    if (path.endsWith('.html')) this.stats.pages++;
    if (slot && bytes > this.stats[slot].bytes) this.stats[slot] = { path, bytes };
  }
}
