/** The benchmark starts its children with the node options of the CLI's entry line. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cliNodeOptions } from '../../src/bench/node-options.js';

describe('cliNodeOptions', () => {
  it('reads the options of the CLI entry\'s first line', () => {
    const options = cliNodeOptions(resolve('bin/kubelet-atlas.cjs'));
    assert.ok(options.some((o) => /^--max-semi-space-size=\d+$/.test(o)), options.join(' '));
  });

  it('names the file and line when the first line is not an env -S node line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ka-node-options-'));
    const file = join(dir, 'entry.cjs');
    writeFileSync(file, '#!/usr/bin/env node\n');
    assert.throws(() => cliNodeOptions(file), (err: Error) => err.message.startsWith(`${file}:1:`));
    writeFileSync(file, '#!/usr/bin/env -S node --a=1 --b\n');
    assert.deepEqual(cliNodeOptions(file), ['--a=1', '--b']);
  });
});
