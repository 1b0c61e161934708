/** The annotations engine: load topics, resolve anchors, lock them, and check them for drift. */
export { loadAnnotations, parseAnnotations, readAnnotationFiles } from './load.js';
export { resolveAnchors, lookupAnchor } from './resolve.js';
export { lockAnnotations, writeLock, formatLock, locate, shapeOf, LOCK_FIX, type LockOptions, type LockResult } from './lock.js';
export { readLock, parseLock } from './readlock.js';
export { checkAnnotations, type CheckInput } from './check.js';
export { lineDiff } from './classify.js';
export { formatReport, type ReportContext } from './report.js';
export { treeReader, lockKnows } from './source.js';
export { SECTION_TITLES } from './markdown.js';
export * from './types.js';
