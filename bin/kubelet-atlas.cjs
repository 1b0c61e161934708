#!/usr/bin/env -S node --max-semi-space-size=64
'use strict';
// node's options, on the line above: a young generation of 64 MB semi-spaces (16 MB by default). A
// cold build makes millions of short-lived syntax nodes and facts: on v1.28 on one thread, collecting
// them took 3.7 to 7.4 s with the default, and 2.4 s with this. (Parse workers get the same through
// their resource limits.) Run as `node bin/kubelet-atlas.cjs`, the line is not read: node's defaults.
//
// A CommonJS entry. Where Node can require() ES modules (20.19 and later), the CLI's modules load
// synchronously: that skips the ES module loader's set-up and its asynchronous reads, about a quarter of
// a query's time beyond Node's own start. Older Nodes import them.
const entry = '../dist/src/cli/main.js';
const cli = process.features.require_module ? Promise.resolve(require(entry)) : import(entry);
cli.then(({ main }) => main(process.argv)).then((code) => {
  process.exitCode = code;
});
