#!/usr/bin/env node
'use strict';
// A CommonJS entry. Where Node can require() ES modules (20.19 and later), the CLI's modules load
// synchronously: that skips the ES module loader's set-up and its asynchronous reads, about a quarter of
// a query's time beyond Node's own start. Older Nodes import them.
const entry = '../dist/src/cli/main.js';
const cli = process.features.require_module ? Promise.resolve(require(entry)) : import(entry);
cli.then(({ main }) => main(process.argv)).then((code) => {
  process.exitCode = code;
});
