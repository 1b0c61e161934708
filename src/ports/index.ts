/** Which TypeScript port declaration mirrors which Go symbol, read from the ports' `@go` tags. */
export { readPortMappings } from './read.js';
export { extractPortCode, packageRoot, type ExtractOptions } from './extract.js';
export type { PortKind, PortMapping } from './types.js';
export { checkPortMappings, portIds } from './check.js';
export { declaredInTree } from './declared.js';
