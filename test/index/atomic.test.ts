/**
 * Atomic writes of large files: the old file is linked aside before the rename and removed in the
 * background, and names left aside by a process that stopped are swept.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeBytes } from '../../src/index/atomic.js';
import { until } from '../helpers/until.js';
import { tempDir } from '../helpers/temp.js';

describe('writeBytes, large files', () => {
  it('replaces the file and leaves nothing beside it', async () => {
    const dir = tempDir('ka-atomic-');
    const file = join(dir, 'query.bin');
    const big = (fill: number) => Buffer.alloc(5 << 20, fill);
    writeBytes(file, big(1));
    writeBytes(file, big(2));
    assert.ok(readFileSync(file).equals(big(2)), 'the new content, whole');
    writeBytes(file, Buffer.from('small'));
    assert.equal(readFileSync(file, 'utf8'), 'small');
    assert.ok(await until(() => readdirSync(dir).length === 1), `only the file is left: ${readdirSync(dir).join(', ')}`);
  });

  it('sweeps names another process linked aside and did not remove', async () => {
    const dir = tempDir('ka-atomic-');
    const file = join(dir, 'graph.bin');
    // PID 2^22 + 1 is above Linux's largest: no process has it.
    const stale = `${file}.4194305.0.old`;
    const other = `${file}.${process.pid}.999.old`;
    writeFileSync(stale, 'left by a process that stopped');
    writeFileSync(other, 'this process: left alone');
    writeBytes(file, Buffer.alloc(5 << 20, 1));
    writeBytes(file, Buffer.alloc(5 << 20, 2));
    assert.ok(await until(() => !existsSync(stale)), 'the stale name is removed');
    assert.ok(existsSync(other), "a name of a live process stays");
  });
});
