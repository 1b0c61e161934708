/**
 * The options the CLI's entry gives node on its first line, `#!/usr/bin/env -S node --option...` (a
 * larger young generation: see bin/kubelet-atlas.cjs). The benchmark starts its children with them, so
 * that they run as a user's command does.
 */
import { readFileSync } from 'node:fs';

export function cliNodeOptions(entry: string): string[] {
  const first = readFileSync(entry, 'utf8').split('\n', 1)[0];
  const m = /^#!\/usr\/bin\/env -S node((?: --[\w-]+(?:=\S+)?)*)\s*$/.exec(first);
  if (!m) throw new Error(`${entry}:1: expected a '#!/usr/bin/env -S node [--option...]' line, found ${JSON.stringify(first)}`);
  return m[1].split(' ').filter(Boolean);
}
