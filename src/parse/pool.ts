/**
 * Extracts many files on several threads while the caller stays synchronous: the calling thread hands
 * batches to worker threads, sleeps on a shared counter (Atomics.wait) and drains results with
 * receiveMessageOnPort. A worker's result is the facts encoded by codec.ts; the caller decodes it once
 * and is handed the very same bytes for the facts cache as soon as they arrive, so that no file's
 * bytes are held to the end.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { extractFile, extractPackedNative } from './extract.js';
import type { FileFacts } from './facts.js';
import { shareStrings, type StringTable } from './share.js';
import { packFacts, unpackFacts } from './codec.js';
import { addClock, timed, type ParseClock } from './clock.js';
import type { Batch, BatchResult } from './worker.js';

export interface ExtractInput {
  path: string;
  bytes: Uint8Array;
  /** The file is outside the build: only its declarations are kept, and encoded (see declarationsOnly). */
  declarationsOnly?: boolean;
  /** Keep the file's syntax tree for its next parse on this thread (see extractFile); workers ignore it. */
  retain?: boolean;
}

export interface PoolOptions {
  /** Threads extracting (N workers are started, and this thread decodes what they send); 0 or 1: this thread only. Default: the cores available. */
  workers?: number;
  onProgress?: (done: number, total: number, what: string) => void;
  /** Receives each file's facts encoded by codec.ts (by input index, in no particular order) when they are made. */
  onPacked?: (index: number, packed: Uint8Array) => void;
  /** Equal strings of all files' facts are stored once, through this table (see share.ts). */
  strings?: StringTable;
  /** Below this many files the work stays on the calling thread (starting workers costs more). */
  minFilesForWorkers?: number;
  /** Receives the time of each part of the work, summed over the threads. */
  clock?: ParseClock;
}

const BATCH = 24;
/** Below this many files, starting workers costs more than it saves. */
const MIN_FILES_FOR_WORKERS = 64;
/** A worker that sends nothing for this long is taken for dead; its files are extracted here. */
const STALL_MS = 120_000;

/** Small jobs get small batches, so that every worker has some. */
function batchSize(files: number): number {
  return Math.max(1, Math.min(BATCH, Math.floor(files / 8)));
}

export function defaultWorkers(): number {
  const env = Number(process.env['KUBELET_ATLAS_WORKERS']);
  return Number.isInteger(env) && env >= 0 ? env : availableParallelism();
}

/** The worker threads extractAll starts for this many files (0: the calling thread extracts them alone). */
export function workersFor(files: number, requested?: number, minFiles = MIN_FILES_FOR_WORKERS): number {
  const workers = Math.min(requested ?? defaultWorkers(), Math.ceil(files / batchSize(files)));
  return workers <= 1 || files < minFiles ? 0 : workers;
}

/** Each input's facts, in input order. */
export function extractAll(inputs: readonly ExtractInput[], opts: PoolOptions = {}): FileFacts[] {
  const workers = workersFor(inputs.length, opts.workers, opts.minFilesForWorkers);
  return workers ? pooled(inputs, workers, opts) : inline(inputs, opts);
}

/**
 * One file on the calling thread, encoded (when asked) as a worker would send it. Made in C where the
 * addon can (see extractPackedNative) and decoded, unless its syntax tree is to be kept (the addon's
 * extraction keeps none).
 */
function extractHere(f: ExtractInput, i: number, opts: PoolOptions): FileFacts {
  const { clock, strings } = opts;
  const native = f.retain ? undefined : extractPackedNative(f.path, f.bytes, clock, f.declarationsOnly);
  if (native) {
    const facts = timed(clock, 'decode', () => unpackFacts(native, strings));
    opts.onPacked?.(i, native);
    return facts;
  }
  const facts = extractFile(f.path, f.bytes, clock, f.declarationsOnly, f.retain);
  // Encoding shares the strings as it goes (see packFacts); without an encode, a walk of their own.
  if (opts.onPacked) opts.onPacked(i, timed(clock, 'encode', () => packFacts(facts, strings)));
  else if (strings) timed(clock, 'decode', () => shareStrings(facts, strings));
  return facts;
}

function inline(inputs: readonly ExtractInput[], opts: PoolOptions): FileFacts[] {
  return inputs.map((f, i) => {
    const r = extractHere(f, i, opts);
    opts.onProgress?.(i + 1, inputs.length, f.path);
    return r;
  });
}

/**
 * `count` workers extract; this thread decodes what they send. It used to take a batch itself whenever
 * no result was waiting, but a parse on this thread ran with V8's default young generation (16 MB; a
 * worker's is set below): each file's garbage was collected several times over, along with the facts
 * made meanwhile. On v1.28's default scope, two workers and a thread that only decodes took the parse
 * stage 1.7 s less (median of four alternating cold builds) than one worker and this thread.
 */
function pooled(inputs: readonly ExtractInput[], count: number, opts: PoolOptions): FileFacts[] {
  const out: (FileFacts | undefined)[] = new Array(inputs.length);
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const batches: Batch[] = [];
  const size = batchSize(inputs.length);
  for (let i = 0; i < inputs.length; i += size) {
    batches.push({ files: inputs.slice(i, i + size).map((f, k) => ({ i: i + k, path: f.path, bytes: f.bytes, declarationsOnly: f.declarationsOnly })) });
  }
  // Each worker answers on its own channel; the main thread drains all of them.
  const pool = Array.from({ length: count }, (_, id) => {
    const { port1, port2 } = new MessageChannel();
    // A large young generation for the workers (resource limits are the one place a thread's heap can
    // be sized from inside the process): a file's syntax nodes die young.
    const worker = new Worker(new URL('./worker.js', import.meta.url), {
      workerData: { port: port2, signal, id },
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: 192 },
    });
    worker.unref();
    return { worker, port: port1, busy: 0 };
  });
  let next = 0;
  const give = (w: (typeof pool)[number]) => {
    if (next < batches.length) {
      w.worker.postMessage(batches[next++]);
      w.busy++;
    }
  };
  // Two batches in flight per worker, so none waits for the main thread between batches.
  for (const w of pool) {
    give(w);
    give(w);
  }
  let done = 0;
  let lastProgress = Date.now();
  try {
    while (done < inputs.length) {
      const seen = Atomics.load(signal, 0);
      let got = false;
      for (const w of pool) {
        for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
          got = true;
          const r = m.message as BatchResult;
          w.busy--;
          give(w);
          if (opts.clock) addClock(opts.clock, r.clock);
          for (const { i, packed } of r.results) {
            const bytes = new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength);
            out[i] = timed(opts.clock, 'decode', () => unpackFacts(bytes, opts.strings));
            opts.onPacked?.(i, bytes);
            done++;
            opts.onProgress?.(done, inputs.length, inputs[i].path);
          }
        }
      }
      if (got) {
        lastProgress = Date.now();
        continue;
      }
      if (Date.now() - lastProgress > STALL_MS) break;
      Atomics.wait(signal, 0, seen, 1000);
    }
  } finally {
    for (const w of pool) {
      w.port.close();
      void w.worker.terminate();
    }
  }
  // Whatever a stalled worker did not send is extracted here. (Array.from visits the holes a stalled
  // worker left, which Array.prototype.map skips: the fallback never ran and those files had no facts.)
  return Array.from(out, (r, i) => r ?? extractHere(inputs[i], i, opts));
}
