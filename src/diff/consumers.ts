/**
 * The things in this repository that point at Go symbols: annotation anchors (through the lock's
 * IDs), study notes, and the reference ports' `@go <ID>` tags. A diff tells which of them go stale.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Note } from '../notes/index.js';
import type { LockAnchors } from './topics.js';
import type { ConsumerKind } from './types.js';

export interface Consumer {
  consumer: ConsumerKind;
  id: string;
  at: string[];
}

export function annotationConsumers(lock: LockAnchors | undefined): Consumer[] {
  if (!lock) return [];
  return [...lock].map(([id, at]) => ({ consumer: 'annotation' as const, id, at: [...at].sort() }));
}

/** `dirName` is how the notes folder is shown (its base name by default), so reports do not depend on where it is. */
export function noteConsumers(notes: readonly Note[], dirName = 'notes'): Consumer[] {
  const by = new Map<string, string[]>();
  for (const n of notes) by.set(n.anchor.symbol, [...(by.get(n.anchor.symbol) ?? []), `${dirName}/${n.id}.md`]);
  return [...by].map(([id, at]) => ({ consumer: 'note' as const, id, at }));
}

/** Every `@go <ID>` tag in the .ts files under `dir`; `base` makes the reported paths relative. */
export function portConsumers(dir: string, base = dir): Consumer[] {
  const by = new Map<string, string[]>();
  for (const file of tsFiles(dir)) {
    const rel = relative(base, file).split('\\').join('/');
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      for (const m of line.matchAll(/@go\s+([^\s]+)/g)) {
        const id = m[1].replace(/\*\/$/, '').replace(/[,;.]$/, '');
        if (!id.includes('.')) continue;
        by.set(id, [...(by.get(id) ?? []), `${rel}:${i + 1}`]);
      }
    });
  }
  return [...by].map(([id, at]) => ({ consumer: 'port' as const, id, at }));
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
