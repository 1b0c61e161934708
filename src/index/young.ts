/**
 * A collection of V8's young generation, for a process that builds again and again (see watchIndex)
 * to run once a build is done and reported. An edit's build allocates some 35 MB (v1.28's default
 * scope, a line added to a method of `kubelet.go`), far more than the young generation holds, and much
 * of it is still alive while the build runs: each collection that falls inside a build copies what is
 * alive at that moment, the build's and the one before's alike. Run while the watch idles, one
 * collection takes the last build's leftovers out of the way of the next.
 *
 * V8's `gc` is had at run time, as `--expose-gc` would give it (in a context of its own, so the
 * program's global is left as it is); where it cannot be had, nothing is collected.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'minor' | 'major' }) => void;

let gc: Gc | null | undefined;

export function collectYoung(): void {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const found: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
      gc = typeof found === 'function' ? (found as Gc) : null;
    } catch {
      gc = null;
    }
  }
  gc?.({ type: 'minor' });
}
