/**
 * readWhole: a file's bytes as readFileSync gives them, whether the addon maps the file or not; a
 * write into them stays in the process; a missing file throws as readFileSync does. The addon's
 * mapRange: a range of an open file, at any offset, cut at the file's end.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rangeMapper, readWhole } from '../../src/index/mapped.js';
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

  const mapRange = rangeMapper();
  it('maps a range of an open file at any offset, cut at the file\'s end', { skip: mapRange ? false : 'the native addon (map_file) is not built' }, () => {
    const file = join(dir, 'ranges.bin');
    const bytes = Buffer.alloc(5 * 4096 + 123);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 255;
    writeFileSync(file, bytes);
    const fd = openSync(file, 'r');
    try {
      for (const [at, n] of [[0, 1], [0, bytes.length], [1, 4095], [4095, 2], [4096, 4096], [5000, 10_000], [bytes.length - 1, 1], [bytes.length - 10, 100]]) {
        const got = mapRange!(fd, at, n);
        assert.ok(got, `${at}, ${n}`);
        assert.ok(got.equals(bytes.subarray(at, at + n)), `${at}, ${n}: the bytes, no more than the file has`);
        got[0] ^= 1;
        assert.equal(readFileSync(file)[at], bytes[at], 'a write stays in the process');
      }
      // Nothing at or past the end, nothing of no length, no bad descriptor.
      assert.equal(mapRange!(fd, bytes.length, 1), undefined);
      assert.equal(mapRange!(fd, 0, 0), undefined);
      assert.equal(mapRange!(-1, 0, 10), undefined);
    } finally {
      closeSync(fd);
    }
  });
});
