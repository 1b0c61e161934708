/**
 * The reference ports' mappings and code, kept in the cache between runs: reading them needs ts-morph,
 * which costs seconds to load, while a guide for one topic should take well under two. The stamp is
 * every port file's path, size and mtime, so any edit to a port reads them again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import type { PortMapping } from '../../ports/index.js';

export interface PortEntry {
  mapping: PortMapping;
  code: string;
}

const FORMAT = 1;

export async function cachedPorts(root: string, cacheDir: string): Promise<PortEntry[]> {
  const dir = join(root, 'reference-impl');
  if (!existsSync(dir)) return [];
  const stamp = `${FORMAT}\n${stampOf(dir).join('\n')}`;
  const file = join(cacheDir, 'guides', 'ports.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { root: string; stamp: string; entries: PortEntry[] };
    if (saved.root === root && saved.stamp === stamp) return saved.entries;
  } catch {
    // No cache yet, or an unreadable one: read the ports.
  }
  const { readPortMappings, extractPortCode } = await import('../../ports/index.js');
  const entries = readPortMappings(root).map((mapping) => ({ mapping, code: extractPortCode(mapping, { root }) }));
  try {
    mkdirSync(join(cacheDir, 'guides'), { recursive: true });
    await writeFileAtomic(file, JSON.stringify({ root, stamp, entries }));
  } catch {
    // A read-only cache only costs speed.
  }
  return entries;
}

function stampOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (name.endsWith('.ts')) out.push(`${p}\t${st.size}\t${st.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}
