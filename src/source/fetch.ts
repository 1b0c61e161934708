import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SourceError } from './errors.js';
import { defaultCacheDir } from './locate.js';

export const DEFAULT_REF = 'v1.28.0';
export const DEFAULT_REPO_URL = 'https://github.com/kubernetes/kubernetes.git';
/**
 * Cone-mode dirs; cone mode always adds the root files too, which brings go.mod. third_party/forked
 * is there because pkg/kubelet imports third_party/forked/golang/expansion.
 */
export const SPARSE_DIRS = ['cmd/kubelet', 'pkg', 'staging/src/k8s.io', 'third_party/forked'];

export interface FetchOptions {
  ref?: string;
  cacheDir?: string;
  repoUrl?: string;
  onProgress?: (line: string) => void;
}

/**
 * Makes a shallow, blob-filtered, sparse clone of one release under the cache dir and returns it.
 * The clone goes to a private temp dir that is renamed into place only when complete, so an
 * interrupted run never leaves a half checkout that a later run would trust.
 */
export async function fetchRelease(opts: FetchOptions = {}): Promise<string> {
  const ref = opts.ref ?? DEFAULT_REF;
  const repoUrl = opts.repoUrl ?? DEFAULT_REPO_URL;
  const cacheDir = path.resolve(opts.cacheDir ?? defaultCacheDir());
  const progress = opts.onProgress ?? ((): void => {});
  if (ref === '' || ref.startsWith('-') || /[\s\\:~^?*[]|\.\./.test(ref)) {
    throw new SourceError('source.bad-ref', `"${ref}" is not a usable git tag or branch name`, 'pass a release tag such as v1.28.0');
  }
  if (repoUrl.startsWith('-')) throw new SourceError('source.bad-url', `"${repoUrl}" is not a repository URL`);

  const dest = path.join(cacheDir, ref.replace(/\//g, '_'));
  if (fs.existsSync(path.join(dest, 'go.mod'))) {
    progress(`using cached checkout ${dest}`);
    return dest;
  }
  if (fs.existsSync(dest)) {
    throw new SourceError(
      'source.cache-corrupt', `${dest} exists but holds no go.mod, so it is not a finished checkout`,
      `delete ${dest} and run again`,
    );
  }
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
  } catch (err) {
    throw new SourceError('source.cache-unwritable', `cannot create cache dir ${cacheDir}: ${String(err)}`, 'set XDG_CACHE_HOME to a writable dir');
  }
  const tmp = fs.mkdtempSync(path.join(cacheDir, `.partial-${ref.replace(/\//g, '_')}-`));
  try {
    progress(`cloning ${repoUrl} at ${ref} (shallow, sparse) into ${dest}`);
    await runGit(['-c', 'advice.detachedHead=false', 'clone', '--depth', '1', '--filter=blob:none', '--sparse', '--progress', '--branch', ref, repoUrl, tmp], progress);
    progress(`sparse checkout: ${SPARSE_DIRS.join(' ')}`);
    await runGit(['-C', tmp, 'sparse-checkout', 'set', '--cone', ...SPARSE_DIRS], progress);
    if (!fs.existsSync(path.join(tmp, 'go.mod'))) {
      throw new SourceError('source.not-kubernetes', `${repoUrl} at ${ref} has no go.mod at its root`, 'check --ref and the repository URL');
    }
    try {
      fs.renameSync(tmp, dest);
    } catch (err) {
      // Another run may have finished the same release first; its copy is as good as ours.
      if (!fs.existsSync(path.join(dest, 'go.mod'))) throw err;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  progress(`checkout ready at ${dest}`);
  return dest;
}

const TAIL_LINES = 15;

/** Runs git without a shell, forwarding each progress line (git rewrites them with \r) as it arrives. */
function runGit(args: string[], progress: (line: string) => void): Promise<void> {
  const shown = `git ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    });
    const tail: string[] = [];
    let pending = '';
    const take = (chunk: string): void => {
      pending += chunk;
      const parts = pending.split(/[\r\n]/);
      pending = parts.pop() ?? '';
      for (const part of parts) emit(part);
    };
    const emit = (raw: string): void => {
      const line = raw.trim();
      if (line === '') return;
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      progress(line);
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', take);
    child.on('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT'
        ? new SourceError('source.git-missing', `cannot run ${shown}: git is not installed or not on PATH`, 'install git, or pass --source DIR')
        : new SourceError('source.git-failed', `cannot run ${shown}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      emit(pending);
      pending = '';
      if (code === 0) { resolve(); return; }
      const why = signal !== null ? `killed by ${signal}` : `exit code ${String(code)}`;
      reject(new SourceError(
        'source.git-failed',
        `${shown} failed (${why})${tail.length > 0 ? `:\n${tail.join('\n')}` : ''}`,
        'check the network, the repository URL and that the tag exists; or pass --source DIR',
      ));
    });
  });
}
