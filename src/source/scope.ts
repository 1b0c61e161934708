import type { BuildContext, Diagnostic } from '../model/index.js';
import { sameContext } from './context.js';
import { isActive } from './match.js';
import { importPathOf } from './tree.js';
import type { GoFile, PackageOrigin, Scope, ScopeResult, SourcePackage, SourceTree } from './types.js';

/** The codes of the diagnostics computeScope gives (the others of a scan are the walk's). */
export const SCOPE_CODES: ReadonlySet<string> = new Set(['source.no-roots', 'source.import-not-found', 'source.no-active-files']);

/** Package dirs whose whole subtree is the kubelet itself. */
const KUBELET_ROOTS = ['cmd/kubelet', 'pkg/kubelet'];

/**
 * Chooses the packages later stages parse. 'default' starts from the kubelet's own dirs and follows
 * imports of active files into the module and staging; 'all' takes every module and staging package.
 * Third-party vendor code is never in scope: it is only a leaf the call graph points at.
 */
export function computeScope(tree: SourceTree, scope: Scope, ctx: BuildContext): ScopeResult {
  // Files keep their flags unless the tree was opened for another context; hand-built trees (no
  // context) carry no constraint facts to re-evaluate, so their flags are taken as given.
  const stale = tree.context !== undefined && !sameContext(ctx, tree.context);
  const packages = stale ? reevaluate(tree.packages, ctx) : tree.packages;
  const originOf = (p: SourcePackage): PackageOrigin => p.origin ?? importPathOf(p.dir, tree.modulePath).origin;
  const own = (p: SourcePackage): boolean => originOf(p) !== 'vendor';
  const hasActive = (p: SourcePackage): boolean => p.files.some((f) => f.active);
  const diagnostics: Diagnostic[] = [];

  if (scope === 'all') {
    return { packages: sortByPath([...packages.values()].filter((p) => own(p) && hasActive(p))), diagnostics };
  }

  const ownNamespace = namespace(tree);

  const chosen = new Map<string, SourcePackage>();
  const queue: SourcePackage[] = [];
  for (const p of packages.values()) {
    if (originOf(p) === 'module' && hasActive(p) && KUBELET_ROOTS.some((r) => p.dir === r || p.dir.startsWith(`${r}/`))) {
      chosen.set(p.importPath, p);
      queue.push(p);
    }
  }
  if (queue.length === 0) {
    diagnostics.push({
      severity: 'warning', code: 'source.no-roots',
      message: `no active Go packages under ${KUBELET_ROOTS.join(' or ')} in ${tree.root}`,
    });
  }

  const report = (from: GoFile, code: string, message: string): void => {
    diagnostics.push({ severity: 'info', code, message, file: from.path });
  };

  // The imports that are not chosen, and never will be (the standard library's, vendor's, those
  // reported): each is looked at once, where the first file importing it is (which is the one a
  // report names).
  const passed = new Set<string>();
  for (let i = 0; i < queue.length; i++) {
    const pkg = queue[i] as SourcePackage;
    for (const file of pkg.files) {
      if (!file.active) continue;
      for (const imp of file.imports ?? []) {
        if (chosen.has(imp) || passed.has(imp)) continue;
        const target = packages.get(imp);
        if (target === undefined || !own(target)) {
          passed.add(imp);
          if (target === undefined && ownNamespace(imp)) {
            report(file, 'source.import-not-found', `import "${imp}" (from ${pkg.importPath}) is not in the module or staging; left out of scope`);
          }
          continue;
        }
        if (!hasActive(target)) {
          passed.add(imp);
          report(file, 'source.no-active-files', `import "${imp}" (from ${pkg.importPath}) has no files active in this build context`);
          continue;
        }
        chosen.set(imp, target);
        queue.push(target);
      }
    }
  }
  return { packages: sortByPath([...chosen.values()]), diagnostics };
}

/** Whether an import path is the module's or staging's, found in the tree or not (an import of it not found is reported). */
export function namespace(tree: SourceTree): (imp: string) => boolean {
  const stagingRoots = new Set<string>();
  for (const p of tree.packages.values()) if ((p.origin ?? importPathOf(p.dir, tree.modulePath).origin) === 'staging') stagingRoots.add(firstTwo(p.importPath));
  const own = `${tree.modulePath}/`;
  return (imp) => imp === tree.modulePath || imp.startsWith(own) || stagingRoots.has(firstTwo(imp));
}

/** An import path's first two elements ("k8s.io/api" of "k8s.io/api/core/v1"), or the whole path when it has fewer. */
function firstTwo(imp: string): string {
  const second = imp.indexOf('/', imp.indexOf('/') + 1);
  return second < 0 ? imp : imp.slice(0, second);
}

function reevaluate(packages: Map<string, SourcePackage>, ctx: BuildContext): Map<string, SourcePackage> {
  const out = new Map<string, SourcePackage>();
  for (const [key, p] of packages) {
    const files = p.files.map((f) => {
      const facts = { ...f, name: f.path.slice(f.path.lastIndexOf('/') + 1), imports: f.imports ?? [] };
      return { ...f, active: isActive(facts, ctx) };
    });
    out.set(key, { ...p, files });
  }
  return out;
}

function sortByPath(list: SourcePackage[]): SourcePackage[] {
  return list.sort((a, b) => (a.importPath < b.importPath ? -1 : a.importPath > b.importPath ? 1 : 0));
}
