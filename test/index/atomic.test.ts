/**
 * Atomic writes of large files: the old file is linked aside before the rename and removed in the
 * background, and names left aside by a process that stopped are swept. A file written again and
 * again is written into its spare when no one holds the spare.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSpare, openAtomic, writeBytes, writeParts } from '../../src/index/atomic.js';
import { readWhole, spareReuse } from '../../src/index/mapped.js';
import { buildIndex, indexDir } from '../../src/index/build.js';
import { forgetDeltaBases, keptTree } from '../helpers/kept-tree.js';
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

describe('writeParts, reusing the spare', () => {
  const reuse = spareReuse();
  const skip = reuse ? false : 'the native addon (src/parse/native) is not built: nothing can tell whether a spare is held';

  it('writes into the file it replaced the time before, in place, and keeps the file it replaces as the next spare', { skip }, () => {
    const dir = tempDir('ka-atomic-');
    const file = join(dir, 'query.bin');
    const spare = `${file}.spare`;
    writeParts(file, [Buffer.alloc(3 << 20, 1)], reuse);
    assert.ok(!existsSync(spare), 'no spare before a file was replaced');
    const first = statSync(file).ino;
    writeParts(file, [Buffer.alloc(2 << 20, 2), Buffer.from('end')], reuse);
    assert.equal(statSync(spare).ino, first, 'the replaced file is the spare');
    const second = statSync(file).ino;
    writeParts(file, [Buffer.from('short')], reuse);
    assert.equal(statSync(file).ino, first, 'the spare, written in place, is the file');
    assert.equal(readFileSync(file, 'utf8'), 'short', 'cut to what was written');
    assert.equal(statSync(spare).ino, second);
    assert.ok(readFileSync(spare).subarray(0, 2 << 20).equals(Buffer.alloc(2 << 20, 2)), 'the spare holds the content before');
    assert.deepEqual(readdirSync(dir).sort(), ['query.bin', 'query.bin.spare']);
  });

  it('gives the stat of a spare written in place as the file will be, cut to what was written', { skip }, () => {
    const dir = tempDir('ka-atomic-');
    const file = join(dir, 'state.v8');
    writeParts(file, [Buffer.alloc(4096, 1)], reuse);
    writeParts(file, [Buffer.alloc(4096, 2)], reuse);
    const out = openAtomic(file, reuse);
    out.write(Buffer.from('shorter'));
    const stat = out.stat();
    out.close();
    const now = statSync(file, { bigint: true });
    assert.equal(stat.size, 7n);
    assert.deepEqual([stat.ino, stat.size, stat.mtimeNs], [now.ino, now.size, now.mtimeNs], 'the stat taken before the close is the file\'s');
  });

  it('makes a spare as a copy when there is none, so that the next write goes in place', { skip }, () => {
    const dir = tempDir('ka-atomic-');
    const file = join(dir, 'query.bin');
    makeSpare(file);
    assert.deepEqual(readdirSync(dir), [], 'no file, no spare');
    writeParts(file, [Buffer.from('first')], reuse);
    makeSpare(file);
    const spare = `${file}.spare`;
    assert.equal(readFileSync(spare, 'utf8'), 'first', 'a copy of the file');
    assert.notEqual(statSync(spare).ino, statSync(file).ino);
    const copy = statSync(spare).ino;
    writeFileSync(spare, 'kept');
    makeSpare(file);
    assert.equal(readFileSync(spare, 'utf8'), 'kept', 'a spare there is left as it is');
    writeParts(file, [Buffer.from('second')], reuse);
    assert.equal(statSync(file).ino, copy, 'the write went into the spare');
    assert.equal(readFileSync(file, 'utf8'), 'second');
    assert.deepEqual(readdirSync(dir).sort(), ['query.bin', 'query.bin.spare']);
  });

  it('is how a process that keeps its resolution writes its state and freshness manifest after each edit; a one-shot build keeps no spares of them', { skip }, () => {
    const { root, loc } = keptTree('ka-atomic-small');
    const kubelet = join(root, 'pkg/kubelet/kubelet.go');
    const original = readFileSync(kubelet, 'utf8');
    const dir = indexDir(loc);
    const inodes = (name: string) => [statSync(join(dir, name)).ino, statSync(join(dir, `${name}.spare`)).ino];
    buildIndex(loc);
    writeFileSync(kubelet, `${original}\nfunc spareOne() {}\n`);
    buildIndex(loc);
    const [state, fresh] = [inodes('state.v8'), inodes('query.fresh')];
    writeFileSync(kubelet, `${original}\nfunc spareTwo() {}\n`);
    assert.ok(buildIndex(loc).incremental);
    // The spare was written in place and is the file now; the file it replaced is the spare.
    assert.deepEqual(inodes('state.v8'), [state[1], state[0]]);
    assert.deepEqual(inodes('query.fresh'), [fresh[1], fresh[0]]);
    const oneShot = { ...loc, memo: undefined, cacheDir: tempDir('ka-atomic-oneshot-') };
    buildIndex(oneShot);
    writeFileSync(kubelet, original);
    buildIndex(oneShot);
    assert.deepEqual(readdirSync(indexDir(oneShot)).filter((n) => n.startsWith('state.v8') || n.startsWith('query.fresh')).sort(), ['query.fresh', 'state.v8']);
    forgetDeltaBases();
  });

  it('writes a new file when the spare is held open or mapped, and the holder keeps its bytes', { skip }, () => {
    const dir = tempDir('ka-atomic-');
    const file = join(dir, 'graph.bin');
    writeParts(file, [Buffer.from('one')], reuse);
    const mapped = readWhole(file);
    writeParts(file, [Buffer.from('two')], reuse);
    // "one" is the spare now, and this process maps it.
    writeParts(file, [Buffer.from('three')], reuse);
    assert.equal(mapped.toString(), 'one', 'the map still reads the bytes it took');
    assert.equal(readFileSync(file, 'utf8'), 'three');
    assert.equal(readFileSync(`${file}.spare`, 'utf8'), 'two', 'the file replaced is the spare; the held one lost its name');
    const fd = openSync(`${file}.spare`, 'r');
    try {
      writeParts(file, [Buffer.from('four')], reuse);
      assert.equal(readFileSync(fd, 'utf8'), 'two', 'an open file is not written into');
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(file, 'utf8'), 'four');
  });
});
