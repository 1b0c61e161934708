#!/usr/bin/env node
const { main } = await import('../dist/src/cli/main.js');

process.exitCode = await main(process.argv);
