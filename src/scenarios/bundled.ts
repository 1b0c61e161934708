/** The scenarios shipped in reference-impl/scenarios/, found by name or by path. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../ports/index.js';

export function bundledScenarioDir(root: string = packageRoot()): string {
  return join(root, 'reference-impl', 'scenarios');
}

/** Names of the bundled scenarios (file names without .yaml), sorted. */
export function listBundledScenarios(root?: string): string[] {
  const dir = bundledScenarioDir(root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** The file of a bundled scenario, or undefined when there is none by that name. */
export function bundledScenarioPath(name: string, root?: string): string | undefined {
  if (!listBundledScenarios(root).includes(name)) return undefined;
  return join(bundledScenarioDir(root), `${name}.yaml`);
}
