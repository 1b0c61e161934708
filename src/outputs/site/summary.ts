/** The lines printed after a build: time, size, the largest page and data file. */
import type { SiteResult } from './model.js';

export function formatSiteSummary(r: SiteResult): string {
  const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  const steps = Object.entries(r.timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}s`).join(', ');
  return [
    `wrote ${r.outDir}: ${r.pages} pages, ${r.files} files, ${mb(r.bytes)} (${r.symbols} symbols, ${r.packages} packages)`,
    `largest page: ${r.largestPage.path} (${kb(r.largestPage.bytes)}); largest data file: ${r.largestData.path} (${kb(r.largestData.bytes)})`,
    `site built in ${(r.ms / 1000).toFixed(1)}s (${steps})`,
  ].join('\n') + '\n';
}
