#!/usr/bin/env node
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';

// Indexing makes millions of short-lived objects (syntax nodes, facts): a 64 MB semi-space lets most
// of them die young instead of being copied and promoted (about a fifth faster). V8 sizes the young
// generation when the process starts, so the flag only works on node's command line; the commands that
// may build an index therefore run again in a child with it. Quick commands (queries on a fresh store)
// do not pay for a second start.
const SEMI = '--max-semi-space-size=64';
const BUILDERS = new Set(['index', 'callgraph', 'goroutines', 'channels', 'check', 'annotations', 'guide', 'tour', 'site', 'notes', 'diff']);
const flagged = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith('--max-semi-space-size'));
if (BUILDERS.has(process.argv[2]) && !flagged && process.env.KUBELET_ATLAS_REEXEC !== '0') {
  const r = spawnSync(process.execPath, [SEMI, ...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  if (!r.error) {
    // A child killed by a signal exits the way a shell reports it: 128 + the signal's number.
    process.exit(r.status ?? 128 + (constants.signals[r.signal] ?? 0));
  }
}
const { main } = await import('../dist/src/cli/main.js');
process.exitCode = await main(process.argv);
