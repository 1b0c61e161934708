/**
 * Search data, split so no page loads it up front: symbols are sharded by the first letter of their
 * name (the client loads the shard for what is typed), prose is one small file. The client builds a
 * MiniSearch index from the rows it loads.
 */
import type { SymbolRecord } from '../../model/index.js';
import type { Topic } from '../../annotations/index.js';
import { dataScript } from './html.js';
import { localName, symbolHref, topicPage } from './paths.js';

export function shardOf(name: string): string {
  const c = name.charAt(0).toLowerCase();
  return c >= 'a' && c <= 'z' ? c : '_';
}

export function searchShards(symbols: SymbolRecord[], topics: Topic[]): [string, string][] {
  const shards = new Map<string, [string, string, string, string, string][]>();
  for (const s of symbols) {
    if (s.kind === 'closure') continue;
    const key = shardOf(s.name);
    let rows = shards.get(key);
    if (!rows) shards.set(key, (rows = []));
    // [name, local name, package, kind, href]
    rows.push([s.name, localName(s.id, s.pkg), s.pkg.replace(/^k8s\.io\/kubernetes\//, ''), s.kind, symbolHref(s.id, s.pkg)]);
  }
  const out: [string, string][] = [];
  for (const [key, rows] of shards) out.push([`data/search/s-${key}.js`, dataScript(`search/s-${key}`, rows)]);
  const prose: [string, string, string][] = [];
  for (const t of topics) {
    const href = topicPage(t.id, t.lang);
    prose.push([t.title, t.summary, href]);
    for (const sec of t.sections) prose.push([`${t.title} › ${sec.heading.replace(/`@?/g, '')}`, sec.markdown.replace(/[`*_#>|]/g, ' ').slice(0, 600), href]);
  }
  out.push(['data/search/prose.js', dataScript('search/prose', prose)]);
  out.push(['data/search/shards.js', dataScript('search/shards', [...shards.keys()].sort())]);
  return out;
}
