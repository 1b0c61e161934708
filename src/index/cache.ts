/**
 * On-disk cache of parsed files, keyed by content hash, and of the resolved graph. One pack file per
 * tree and build context, written atomically, so a second run re-parses only files whose bytes changed.
 */
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { FileFacts } from '../parse/index.js';
import { FACTS_VERSION } from './key.js';

export { cacheKey, FACTS_VERSION, toolStamp } from './key.js';

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha1').update(FACTS_VERSION).update(bytes).digest('hex');
}

export function readPack<T>(file: string): T | undefined {
  try {
    return deserialize(readFileSync(file)) as T;
  } catch {
    return undefined;
  }
}

export function writePack(file: string, value: unknown): void {
  writeBytes(file, serialize(value));
}

/** Writes to a temporary file in the same folder, then renames it over the target. */
export function writeBytes(file: string, bytes: Uint8Array): void {
  writeChunks(file, [bytes]);
}

/**
 * The per-file facts cache: each entry is one file's facts as serialized by node:v8 (by the parse
 * worker that made them), keyed by file path and content hash. Entries are deserialized only when
 * used, and a rebuild writes unchanged entries back byte for byte.
 * Layout: 'KAF1', a u32 header length, a JSON header { keys, lengths }, then the entries in order.
 */
export type FactsPack = Map<string, Uint8Array>;

const FACTS_MAGIC = 'KAF1';

export function factsKey(path: string, hash: string): string {
  return `${hash} ${path}`;
}

export function readFactsPack(file: string): FactsPack {
  const out: FactsPack = new Map();
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return out;
  }
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== FACTS_MAGIC) return out;
  const len = buf.readUInt32LE(4);
  let header: { keys: string[]; lengths: number[] };
  try {
    header = JSON.parse(buf.toString('utf8', 8, 8 + len)) as typeof header;
  } catch {
    return out;
  }
  let at = 8 + len;
  header.keys.forEach((k, i) => {
    out.set(k, buf.subarray(at, at + header.lengths[i]));
    at += header.lengths[i];
  });
  return out;
}

export function writeFactsPack(file: string, pack: FactsPack): void {
  const keys = [...pack.keys()];
  const head = Buffer.from(JSON.stringify({ keys, lengths: keys.map((k) => pack.get(k)!.length) }));
  const pre = Buffer.alloc(8);
  pre.write(FACTS_MAGIC, 0, 'latin1');
  pre.writeUInt32LE(head.length, 4);
  writeChunks(file, [pre, head, ...pack.values()]);
}

/** Writes content given in pieces (no concatenated copy) to a temporary file, then renames it over the target. */
export function writeChunks(file: string, chunks: Uint8Array[]): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    try {
      for (const c of chunks) {
        let done = 0;
        while (done < c.length) done += writeSync(fd, c, done, c.length - done);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    // A full disk: the target keeps its old content and no half-written file is left behind.
    rmSync(tmp, { force: true });
    throw err;
  }
}

export function unpackFacts(bytes: Uint8Array): FileFacts {
  return deserialize(bytes) as FileFacts;
}
