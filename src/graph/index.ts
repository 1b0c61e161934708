export { SymbolTable, normalizeId, distance, type Lookup } from './lookup.js';
export { GraphView, edgesToTsv, isRuledOut, type CallTree } from './queries.js';
export { channelProducers, type ReceiveWithProducers } from './channels.js';
