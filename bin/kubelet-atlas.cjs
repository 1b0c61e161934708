#!/usr/bin/env node
'use strict';
const args = process.argv.slice(2);
const WATCH_CHILD = 'KUBELET_ATLAS_WATCH_CHILD';
// `index --watch` runs in a child Node with a young generation of 64 MB a semi-space (V8's default is
// 16 MB, and it can only be set when a process starts): an edit's build then allocates without a
// collection in its middle, and the watch empties the young generation while it waits. The child has
// a process group of its own (a terminal's Ctrl-C reaches this process only, which passes each signal
// on once) and an IPC channel, which closes if this process dies: the child then stops too.
const sized = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith('--max-semi-space-size'));
if (args[0] === 'index' && args.includes('--watch') && !process.env[WATCH_CHILD] && !sized) {
  const { spawn } = require('node:child_process');
  const { constants } = require('node:os');
  const child = spawn(process.execPath, [...process.execArgv, '--max-semi-space-size=64', __filename, ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: process.platform !== 'win32',
    env: { ...process.env, [WATCH_CHILD]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    process.stderr.write(`kubelet-atlas: could not start the watch: ${err.message}\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
    process.exit();
  });
  return;
}
if (process.env[WATCH_CHILD] && process.channel) {
  // The channel must not keep this process alive; its end (the parent gone) stops the watch.
  process.channel.unref();
  process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
// The core commands (the index, the queries, the call graph) run from one CommonJS file made by the
// build (see src/cli/bundle.ts): loading it skips the ES module loader, most of a query's time beyond
// Node's start. Everything else (help, the guide, the site, annotations...) runs from the ES modules,
// and so does a core command when that file is missing, older than the modules it was made from (a
// build by tsc alone) or fails to load, or with KUBELET_ATLAS_BUNDLE=0 (a stack trace then names
// functions as written). Where Node can require() ES modules (20.19 and later), they load
// synchronously, which skips the loader's set-up and its asynchronous reads; older Nodes import them.
// The core commands are main.ts's CORE_COMMANDS (a test compares them).
const CORE = ['index', 'fetch', 'callgraph', 'show', 'callers', 'callees', 'path', 'search', 'goroutines', 'channels'];
const fs = require('node:fs');
const path = require('node:path');
const stat = (file) => fs.statSync(file, { throwIfNoEntry: false });
const bundled = () => {
  const dist = path.join(__dirname, '..', 'dist', 'src', 'cli');
  const bundle = stat(path.join(dist, 'core.cjs'));
  const modules = stat(path.join(dist, 'main.js'));
  return bundle && modules && bundle.mtimeMs >= modules.mtimeMs ? { file: path.join(dist, 'core.cjs'), stat: bundle } : undefined;
};

/**
 * Loads the bundle with V8's code cache, kept beside it, one per command (`core.cjs.KEY.COMMAND.cache`,
 * KEY naming the bundle's inode, size and mtime and Node's version and architecture: V8 itself checks
 * only the source's length). A command run without a usable cache writes one as it exits, with the
 * functions it compiled, and removes the caches of other bundles; later runs of that command skip
 * parsing and compiling those functions (a query's cache holds few of an index build's, and one cache
 * for both would hold what the first command run compiled). A watch writes none (it runs with other V8
 * flags, and V8 refuses a cache made under other flags). Where the folder is read-only, each run
 * compiles the bundle. The bundle runs as a vm script, where import() has no loader: the core commands
 * do not use it (its only import() calls load the other commands' modules, which main() skips for a
 * core command). KUBELET_ATLAS_DEBUG set: says on stderr, as the process exits, what ran and what the
 * cache did.
 */
function loadBundle({ file, stat: st }) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const dir = path.dirname(file);
  const bundleKey = [st.ino, st.size, Math.round(st.mtimeMs * 1000)].join('-');
  const cacheFile = `${file}.${bundleKey}-${process.version}-${process.arch}.${args[0]}.cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet.
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(dir);
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, dir);
  mod.loaded = true;
  const used = cachedData !== undefined && !script.cachedDataRejected;
  if (used || args.includes('--watch')) {
    debug(`${file} (code cache ${used ? 'used' : 'not written by a watch'})`);
    return mod.exports;
  }
  process.once('exit', () => {
    const temp = `${cacheFile}.${process.pid}.tmp`;
    try {
      for (const name of fs.readdirSync(dir)) {
        if (name.startsWith('core.cjs.') && name.endsWith('.cache') && !name.startsWith(`core.cjs.${bundleKey}-`)) fs.rmSync(path.join(dir, name), { force: true });
      }
      fs.writeFileSync(temp, script.createCachedData());
      fs.renameSync(temp, cacheFile);
      say(`${file} (code cache ${cachedData ? 'refused by V8, written again' : 'written'})`);
    } catch (err) {
      fs.rmSync(temp, { force: true });
      say(`${file} (code cache not written: ${err.message})`);
    }
  });
  return mod.exports;
}

/** What ran, said now (say) or as the process exits (debug), with KUBELET_ATLAS_DEBUG set. */
function say(what) {
  if (process.env.KUBELET_ATLAS_DEBUG) process.stderr.write(`kubelet-atlas: ran from ${what}\n`);
}
function debug(what) {
  process.once('exit', () => say(what));
}

/** The bundle's exports, or undefined (said with KUBELET_ATLAS_DEBUG) when it fails to load. */
function tryBundle(core) {
  try {
    return loadBundle(core);
  } catch (err) {
    debug(`the ES modules (${core.file} failed to load: ${err.message})`);
    return undefined;
  }
}

const core = CORE.includes(args[0]) && process.env.KUBELET_ATLAS_BUNDLE !== '0' ? bundled() : undefined;
const fromBundle = core && tryBundle(core);
const entry = '../dist/src/cli/main.js';
if (!core) debug('the ES modules');
const cli = fromBundle ? Promise.resolve(fromBundle) : process.features.require_module ? Promise.resolve(require(entry)) : import(entry);
cli.then(({ main }) => main(process.argv)).then((code) => {
  process.exitCode = code;
});
