/**
 * Whether a Go symbol is declared in a tree, for @go IDs outside the indexed scope (test helper
 * packages such as pkg/volume/testing). A light check: the package folder exists and one of its
 * non-test files declares the function or method with that receiver.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function packageDir(root: string, modulePath: string, pkg: string): string | undefined {
  if (pkg === modulePath) return root;
  if (pkg.startsWith(`${modulePath}/`)) return join(root, pkg.slice(modulePath.length + 1));
  const staging = join(root, 'staging', 'src', pkg);
  if (existsSync(staging)) return staging;
  const vendor = join(root, 'vendor', pkg);
  return existsSync(vendor) ? vendor : undefined;
}

/** Splits a pprof ID into package, receiver type (if any, without `*`), pointer flag and name. */
export function splitId(id: string): { pkg: string; recv?: string; ptr: boolean; name: string } | undefined {
  const m = /^(.*?\/[^/.]+|[^/.]+)\.(?:\((\*)?([A-Za-z_]\w*)(?:\[\.\.\.\])?\)\.|([A-Za-z_]\w*)(?:\[\.\.\.\])?\.)?([A-Za-z_]\w*)$/.exec(id);
  if (!m) return undefined;
  return { pkg: m[1], recv: m[3] ?? m[4], ptr: m[2] === '*', name: m[5] };
}

export function declaredInTree(root: string, modulePath: string, id: string): boolean {
  const parts = splitId(id);
  if (!parts) return false;
  const dir = packageDir(root, modulePath, parts.pkg);
  if (!dir || !existsSync(dir)) return false;
  const pattern = parts.recv
    ? new RegExp(`^func \\(\\s*\\w*\\s*${parts.ptr ? '\\*' : ''}${parts.recv}(\\[[^\\]]*\\])?\\s*\\)\\s*${parts.name}\\b`, 'm')
    : new RegExp(`^(func|type) ${parts.name}\\b|^\\s+${parts.name}\\s+(struct|interface)\\b|^(const|var) ${parts.name}\\b|^\\t${parts.name}\\s*(=|\\w)`, 'm');
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.go') || name.endsWith('_test.go')) continue;
    if (pattern.test(readFileSync(join(dir, name), 'utf8'))) return true;
  }
  return false;
}
