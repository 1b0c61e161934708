export { SymbolTable, normalizeId, distance, type Lookup } from './lookup.js';
export { GraphView, edgesToTsv, type CallTree } from './queries.js';
