/** `kubelet-atlas run SCENARIO`: play a bundled scenario (or a YAML file) and print its timeline. */
import { existsSync } from 'node:fs';
import {
  bundledScenarioPath,
  formatTimeline,
  listBundledScenarios,
  loadScenario,
  runScenario,
  ScenarioError,
  type Scenario,
} from '../scenarios/index.js';
import type { Io } from './context.js';
import { UserError } from './errors.js';

export interface RunOptions {
  json?: boolean;
  /** A scenario file, instead of (or as well as being named by) the positional argument. */
  file?: string;
  /** Only list the bundled scenarios. */
  list?: boolean;
}

export async function runCommand(name: string, opts: RunOptions, io: Io): Promise<number> {
  if (opts.list) {
    io.out(listing());
    return 0;
  }
  const path = resolve(name, opts.file);
  if (path === undefined) {
    io.err(`${name ? `kubelet-atlas: unknown scenario '${name}'\n` : 'kubelet-atlas: which scenario? '}bundled scenarios:\n${listing()}` +
      'or give a path to a scenario file: kubelet-atlas run ./my-scenario.yaml\n');
    return 2;
  }
  let scenario: Scenario;
  try {
    scenario = loadScenario(path);
  } catch (err) {
    if (err instanceof ScenarioError) throw new UserError(err.message, 2);
    throw err;
  }
  const entries = runScenario(scenario);
  if (opts.json) {
    io.out(JSON.stringify({ scenario: scenario.name, description: scenario.description, source: path, entries }, null, 2) + '\n');
    return 0;
  }
  io.out(`scenario ${scenario.name}${scenario.description ? `: ${scenario.description}` : ''}\n\n`);
  io.out(formatTimeline(entries));
  return 0;
}

/** A bundled name, else an existing file; undefined when it is neither. */
function resolve(name: string, file: string | undefined): string | undefined {
  if (file !== undefined) {
    if (!existsSync(file)) throw new UserError(`scenario file ${file} does not exist`, 2);
    return file;
  }
  if (!name) return undefined;
  const bundled = bundledScenarioPath(name);
  if (bundled) return bundled;
  if (/[\\/]|\.ya?ml$/.test(name)) {
    if (!existsSync(name)) throw new UserError(`scenario file ${name} does not exist`, 2);
    return name;
  }
  return undefined;
}

function listing(): string {
  const names = listBundledScenarios();
  const width = Math.max(0, ...names.map((n) => n.length));
  return names
    .map((n) => {
      let description = '';
      try {
        description = loadScenario(bundledScenarioPath(n)!).description;
      } catch (err) {
        description = `(does not load: ${(err as Error).message})`;
      }
      return `  ${n.padEnd(width)}  ${description}\n`;
    })
    .join('');
}
