import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/temp.js';

/** Writes `files` (relative path → contents) under a fresh temp dir and returns its path. */
export function makeTree(files: Record<string, string>): string {
  const root = tempDir('katlas-source-');
  for (const [rel, text] of Object.entries(files)) writeFile(root, rel, text);
  return root;
}

export function writeFile(root: string, rel: string, text: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}

/** Creates `rel` as a relative symlink to `target` (a path relative to the link's own dir). */
export function link(root: string, rel: string, target: string): void {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.symlinkSync(target, abs);
}

export function removeTree(root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
}

/** A Go file with a package clause, optional header lines above it and the given imports. */
export function goFile(pkg: string, imports: string[] = [], header = ''): string {
  const head = header === '' ? '' : `${header}\n\n`;
  const block = imports.length === 0 ? '' : `import (\n${imports.map((i) => `\t${i}`).join('\n')}\n)\n`;
  return `${head}package ${pkg}\n\n${block}\nfunc placeholder() {}\n`;
}

export const GO_MOD = 'module k8s.io/kubernetes\n\ngo 1.20\n\nrequire (\n\tgithub.com/spf13/cobra v1.7.0\n)\n';
