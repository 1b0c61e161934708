/**
 * A thread of the bench's two-thread baseline: tree-sitter alone (the native addon the indexer uses)
 * on its share of the scope's files. It reads its texts before it says it is ready, then parses them
 * all when told to go and says when it is done, so that the figure holds the parsing and nothing else.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { parseOnly } from '../parse/index.js';

const texts = (workerData as { files: string[] }).files.map((f) => readFileSync(f, 'utf8'));
// One small parse first: the addon's language is set up before the clock starts, as on one thread.
parseOnly('package p\n');
parentPort!.once('message', () => {
  for (const text of texts) parseOnly(text);
  parentPort!.postMessage('done');
});
parentPort!.postMessage('ready');
