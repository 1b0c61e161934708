/**
 * A parse worker: receives batches of files (path and bytes), extracts each one's facts and sends them
 * back encoded (codec.ts), so the main thread only decodes them and can store the same bytes in the cache.
 * The addon extracts and encodes most files in C (extract_facts.c); the others are extracted here.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { packFacts } from './codec.js';
import { newClock, timed, type ParseClock } from './clock.js';
import { extractFile, extractPackedNative } from './extract.js';

export interface Batch {
  files: { i: number; path: string; bytes: Uint8Array; declarationsOnly?: boolean }[];
}

export interface BatchResult {
  worker: number;
  results: { i: number; packed: Uint8Array }[];
  /** This batch's times on the worker. */
  clock: ParseClock;
  error?: string;
}

const { port, signal, id } = workerData as { port: MessagePort; signal: Int32Array; id: number };

parentPort!.on('message', (batch: Batch) => {
  const clock = newClock();
  const results = batch.files.map((f) => {
    // In C where the addon can (nearly every file), else extracted here and encoded: the same bytes.
    const native = extractPackedNative(f.path, f.bytes, clock, f.declarationsOnly);
    if (native) return { i: f.i, packed: native };
    const facts = extractFile(f.path, f.bytes, clock, f.declarationsOnly);
    return { i: f.i, packed: timed(clock, 'encode', () => packFacts(facts)) };
  });
  const message: BatchResult = { worker: id, results, clock };
  port.postMessage(message, results.map((r) => r.packed.buffer as ArrayBuffer));
  // The main thread waits on this counter (it parses synchronously): wake it.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
