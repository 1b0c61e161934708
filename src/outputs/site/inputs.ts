/**
 * Reads what the site shows beside the graph: topics, notes and the reference ports. Each is optional:
 * a missing folder gives an empty list and a warning, so a site can be built from the graph alone.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAnnotations, type Topic } from '../../annotations/index.js';
import { readNotes, type Note } from '../../notes/index.js';
import { readPortMappings, type PortMapping } from '../../ports/index.js';

export interface ExtraInputs {
  topics: Topic[];
  notes: Note[];
  ports: PortMapping[];
  readPort: (m: PortMapping) => string | undefined;
  warnings: string[];
}

export interface ExtraOptions {
  annotationsDir?: string;
  notesDir?: string;
  /** The repository holding reference-impl/ (ports are skipped when absent). */
  portsRoot?: string;
}

export function loadExtras(o: ExtraOptions): ExtraInputs {
  const warnings: string[] = [];
  let topics: Topic[] = [];
  if (o.annotationsDir && existsSync(o.annotationsDir)) {
    const r = loadAnnotations(o.annotationsDir);
    topics = r.topics;
    const errors = r.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length) warnings.push(`${errors.length} problems in the topics (run \`kubelet-atlas check\`)`);
  } else if (o.annotationsDir) warnings.push(`no annotations folder at ${o.annotationsDir}`);
  let notes: Note[] = [];
  if (o.notesDir && existsSync(o.notesDir)) {
    const r = readNotes(o.notesDir);
    notes = r.notes;
    if (r.problems.length) warnings.push(`${r.problems.length} note files could not be read (run \`kubelet-atlas notes check\`)`);
  }
  let ports: PortMapping[] = [];
  const cache = new Map<string, string[]>();
  const root = o.portsRoot;
  if (root && existsSync(join(root, 'reference-impl'))) {
    try {
      ports = readPortMappings(root);
    } catch (err) {
      warnings.push(`reference ports not read: ${(err as Error).message}`);
    }
  }
  const readPort = (m: PortMapping): string | undefined => {
    if (!root) return undefined;
    let lines = cache.get(m.file);
    if (!lines) {
      try {
        lines = readFileSync(join(root, m.file), 'utf8').split('\n');
      } catch {
        return undefined;
      }
      cache.set(m.file, lines);
    }
    return lines.slice(m.line - 1, m.endLine).join('\n');
  };
  return { topics, notes, ports, readPort, warnings };
}
