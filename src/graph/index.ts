export { SymbolTable, normalizeId, distance, type Lookup, type SymbolSource } from './lookup.js';
export { GraphView, edgesToTsv, isRuledOut, type CallTree, type Adjacency } from './queries.js';
export { GraphStore, bufferBytes, encodeStore, moveStoreLines, type StoreBytes } from './store.js';
export { channelProducers, type ReceiveWithProducers } from './channels.js';
export { remapLines, remapPackedLines } from './remap.js';
export { summarize, type GraphSummary } from './pack.js';
