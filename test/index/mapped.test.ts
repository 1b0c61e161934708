/**
 * readWhole: a file's bytes as readFileSync gives them, whether the addon maps the file or not; a
 * write into them stays in the process; a missing file throws as readFileSync does.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readWhole } from '../../src/index/mapped.js';
import { tempDir } from '../helpers/temp.js';

describe('readWhole', () => {
  const dir = tempDir('ka-mapped-');

  it('gives the bytes of a file, large or empty', () => {
    const big = join(dir, 'big.bin');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) & 255;
    writeFileSync(big, bytes);
    assert.ok(readWhole(big).equals(bytes));
    const empty = join(dir, 'empty.bin');
    writeFileSync(empty, '');
    assert.equal(readWhole(empty).length, 0);
  });

  it('keeps a write into the bytes in this process, and the old bytes when a new file is renamed over it', () => {
    const file = join(dir, 'kept.bin');
    writeFileSync(file, 'abcdef');
    const b = readWhole(file);
    b[0] = 'z'.charCodeAt(0);
    assert.equal(readFileSync(file, 'utf8'), 'abcdef', 'the file is unchanged');
    writeFileSync(join(dir, 'next.bin'), 'uvwxyz');
    renameSync(join(dir, 'next.bin'), file);
    assert.equal(b.toString(), 'zbcdef', 'the bytes read before the rename');
    assert.equal(readWhole(file).toString(), 'uvwxyz');
  });

  it('throws as readFileSync does for a missing file or a folder', () => {
    assert.throws(() => readWhole(join(dir, 'missing.bin')), /ENOENT/);
    assert.throws(() => readWhole(dir), /EISDIR/);
  });
});
