export type * from './facts.js';
export { extractFile, decode, MAX_FILE_BYTES } from './extract.js';
export { fingerprint, lineHashes, tokens } from './fingerprint.js';
export { extractAll, defaultWorkers, workersFor, type ExtractInput, type PoolOptions } from './pool.js';
export { nativeParserInUse, parseOnly } from './extract.js';
export { shareStrings, type StringTable } from './share.js';
export { packFacts, unpackFacts } from './codec.js';
export { declarationsOnly } from './declarations.js';
export { newClock, type ParseClock } from './clock.js';
