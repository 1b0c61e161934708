/** Reads the `// want:` expectations written inline in the Go fixtures (see test/fixtures/go/README.md). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface Want {
  file: string;
  line: number;
  callee: string;
  kind: string;
  mode?: string;
}

export interface WantLine {
  file: string;
  line: number;
  wants: Want[];
  none: boolean;
}

export function goFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...goFiles(p));
    else if (name.endsWith('.go')) out.push(p);
  }
  return out.sort();
}

export function readWants(root: string): WantLine[] {
  const out: WantLine[] = [];
  for (const abs of goFiles(root)) {
    const file = relative(root, abs).split('\\').join('/');
    readFileSync(abs, 'utf8').split('\n').forEach((text, i) => {
      const m = /\/\/ want: (.*)$/.exec(text);
      if (!m) return;
      const body = m[1].trim();
      if (body === 'none') {
        out.push({ file, line: i + 1, wants: [], none: true });
        return;
      }
      const wants = body.split(' ; ').map((part) => {
        const [callee, kind, mode] = part.trim().split(/\s+/);
        return { file, line: i + 1, callee, kind, mode };
      });
      out.push({ file, line: i + 1, wants, none: false });
    });
  }
  return out;
}
