/** Runs the CLI in-process with captured output, as a user would call it, for tests. */
import { tmpdir } from 'node:os';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/context.js';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** How many times the command wrote to its output. */
  writes: number;
}

/**
 * `env` is the whole environment the command sees, over a HOME in the temp folder. `cli`: the main()
 * to run (the ES modules' by default; the bundle's, for its tests).
 */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cli: typeof main = main): Promise<CliRun> {
  let out = '';
  let err = '';
  let writes = 0;
  const io: Io = { out: (s) => { out += s; writes++; }, err: (s) => { err += s; }, isTTY: false, env: { HOME: tmpdir(), ...env } };
  const code = await cli(['node', 'kubelet-atlas', ...args], io);
  return { code, out, err, writes };
}
