/**
 * A parse worker: receives batches of files (path and bytes), extracts each one's facts and sends them
 * back encoded (codec.ts), so the main thread only decodes them and can store the same bytes in the cache.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { packFacts } from './codec.js';
import { extractFile } from './extract.js';

export interface Batch {
  files: { i: number; path: string; bytes: Uint8Array }[];
}

export interface BatchResult {
  worker: number;
  results: { i: number; packed: Uint8Array }[];
  error?: string;
}

const { port, signal, id } = workerData as { port: MessagePort; signal: Int32Array; id: number };

parentPort!.on('message', (batch: Batch) => {
  const results = batch.files.map((f) => ({ i: f.i, packed: packFacts(extractFile(f.path, f.bytes)) }));
  const message: BatchResult = { worker: id, results };
  port.postMessage(message, results.map((r) => r.packed.buffer as ArrayBuffer));
  // The main thread waits on this counter (it parses synchronously): wake it.
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
