export * from './types.js';
export * from './quantity.js';
export * from './clock.js';
export * from './manifest.js';
