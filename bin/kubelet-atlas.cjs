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
// A CommonJS entry. Where Node can require() ES modules (20.19 and later), the CLI's modules load
// synchronously: that skips the ES module loader's set-up and its asynchronous reads, about a quarter of
// a query's time beyond Node's own start. Older Nodes import them.
const entry = '../dist/src/cli/main.js';
const cli = process.features.require_module ? Promise.resolve(require(entry)) : import(entry);
cli.then(({ main }) => main(process.argv)).then((code) => {
  process.exitCode = code;
});
