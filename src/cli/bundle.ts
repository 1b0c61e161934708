/**
 * The CLI's core commands (index, the queries, callgraph, fetch) as one CommonJS file, written after
 * tsc by `npm run build` (and `prepare`, `test`): `node dist/src/cli/bundle.js`. The bin runs a core
 * command from it when it exists, and everything else from the ES modules.
 *
 * Why: a one-shot query's own work is a few milliseconds, and most of what it costs beyond Node's start
 * is loading the CLI. As ES modules, the ~25 files a query needs are resolved, read and compiled one by
 * one through the ES module loader, whose own internals Node compiles first. One CommonJS file skips
 * all of that. The file holds the same compiled code, joined and minified by esbuild, and is written
 * whole or not at all (to a temporary file, then renamed).
 *
 * What stays outside: the lazily loaded command modules (annotations, run, notes, diff, site, guide,
 * tour, which the bin never sends here), the parser's worker (a file of its own, `new Worker`), and the
 * packages in node_modules but commander (loaded with require at run time, as before). Each module's
 * `import.meta.url` becomes the URL of its own file in dist, so the paths built from it (the native
 * addon, the `.scm` queries, the worker, the tool stamp's folders) are the same as when it runs as an
 * ES module.
 *
 * commander is inside, and its `node:child_process` (which it needs only for subcommands that are
 * programs of their own, which we have none of) is required when first used: Node compiles that module
 * and the stream and net modules under it, about 5 ms of every command's start, measured.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeBytes } from '../index/atomic.js';

/** The bundle's path, from the dist folder. */
export const CORE_BUNDLE = join('src', 'cli', 'core.cjs');

/** The command modules main.ts imports only for their commands: left out of the bundle. */
const LAZY = ['annotations-commands', 'run-command', 'notes-commands', 'diff-command', 'site-command', 'guide-commands'];

/** The name the bundle gives each module's own URL (what `import.meta.url` is in the ES modules). */
const MODULE_URL = '__kubeletAtlasModuleUrl';

/** How commander.ts loads commander (see there); the bundle's copy says `require`, which esbuild follows. */
const COMMANDER_LOAD = "createRequire(import.meta.url)('commander')";

/** Writes the bundle into `dist` (tsc's output folder). Resolves to its path and the number of modules in it. */
export async function bundleCli(dist: string): Promise<{ file: string; modules: number }> {
  const esbuild = await import('esbuild');
  const pkg = JSON.parse(await readFile(join(dist, '..', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const outfile = join(dist, CORE_BUNDLE);
  const distSrc = join(dist, 'src') + sep;
  const result = await esbuild.build({
    entryPoints: [join(dist, 'src', 'cli', 'main.js')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    write: false,
    // Packages load from node_modules at run time, as they do for the ES modules; commander is inside.
    external: [...LAZY.map((m) => `./${m}.js`), ...Object.keys(pkg.dependencies ?? {}).filter((d) => d !== 'commander')],
    logLevel: 'warning',
    metafile: true,
    // Minified: half the bytes to read and for V8 to take in; a start about 10 ms shorter, measured.
    // Error classes set their names themselves; a stack trace (KUBELET_ATLAS_DEBUG) names the bundle's
    // functions as minified, and the same command from the ES modules names them as written.
    minify: true,
    plugins: [
      {
        name: 'import-meta-url',
        setup(build) {
          build.onLoad({ filter: /\.js$/ }, async (args) => {
            let text = await readFile(args.path, 'utf8');
            if (args.path === join(distSrc, 'cli', 'commander.js')) {
              if (!text.includes(COMMANDER_LOAD)) throw new Error(`${args.path} no longer loads commander with ${COMMANDER_LOAD}: update bundle.ts`);
              text = text.replace(COMMANDER_LOAD, "require('commander')");
            }
            if (!args.path.startsWith(distSrc) || !text.includes('import.meta.url')) return { contents: text, loader: 'js' };
            // The module's own URL, found from the bundle's folder at run time (the package can move),
            // in a constant of the module's own: written in place, its require() would be the one of
            // the function it lands in, and `const require = createRequire(import.meta.url)` read
            // its own name before it was set (the bindings' path then failed in every parse).
            const rel = relative(dirname(outfile), args.path).split(sep).join('/');
            const url = `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(rel)})).href`;
            return { contents: `const ${MODULE_URL} = ${url};\n${text.replaceAll('import.meta.url', MODULE_URL)}`, loader: 'js' };
          });
        },
      },
      {
        name: 'lazy-child-process',
        setup(build) {
          build.onResolve({ filter: /^node:child_process$/ }, (args) => (args.importer.includes(`${sep}node_modules${sep}commander${sep}`) ? { path: 'child_process', namespace: 'lazy' } : undefined));
          build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
            contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
            loader: 'js',
          }));
        },
      },
    ],
  });
  const [out] = result.outputFiles ?? [];
  if (result.errors.length || !out) throw new Error(`bundling the CLI failed: ${result.errors.map((e) => e.text).join('; ') || 'no output'}`);
  writeBytes(outfile, out.contents);
  return { file: outfile, modules: Object.keys(result.metafile?.inputs ?? {}).length };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  bundleCli(dist).then(
    ({ file, modules }) => console.log(`kubelet-atlas: bundled ${modules} modules into ${relative(process.cwd(), file)}`),
    (err: Error & { code?: string }) => {
      if (err.code === 'ERR_MODULE_NOT_FOUND' && /esbuild/.test(err.message)) {
        // An install without dev dependencies: the bin runs the ES modules instead.
        console.log('kubelet-atlas: esbuild is not installed; the CLI runs from its ES modules (slower to start)');
        return;
      }
      console.error(`kubelet-atlas: ${err.message}`);
      process.exitCode = 1;
    },
  );
}
