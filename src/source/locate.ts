import os from 'node:os';
import path from 'node:path';

/** The source folder the user asked for: --source first, then KUBELET_ATLAS_SOURCE; undefined means "clone". */
export function resolveSourceDir(opts: { source?: string; env?: NodeJS.ProcessEnv }): string | undefined {
  const env = opts.env ?? process.env;
  const raw = nonEmpty(opts.source) ?? nonEmpty(env['KUBELET_ATLAS_SOURCE']);
  if (raw === undefined) return undefined;
  // Shells leave a quoted ~ alone; expanding it here saves a confusing "does not exist".
  const home = nonEmpty(env['HOME']) ?? os.homedir();
  const expanded = raw === '~' ? home : raw.startsWith('~/') ? path.join(home, raw.slice(2)) : raw;
  return path.resolve(expanded);
}

/** `$XDG_CACHE_HOME/kubelet-atlas`, else `~/.cache/kubelet-atlas`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = nonEmpty(env['XDG_CACHE_HOME']);
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'kubelet-atlas');
  return path.join(nonEmpty(env['HOME']) ?? os.homedir(), '.cache', 'kubelet-atlas');
}

function nonEmpty(s: string | undefined): string | undefined {
  return s === undefined || s.trim() === '' ? undefined : s;
}
