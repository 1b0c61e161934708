/** The static call-graph website: `buildSite` writes it, `loadExtras` reads topics, notes and ports for it. */
export { buildSite } from './build.js';
export { loadExtras, type ExtraInputs, type ExtraOptions } from './inputs.js';
export { markdownToHtml, mdastToHtml } from './markdown.js';
export { highlightGo } from './highlight.js';
export { formatSiteSummary } from './summary.js';
export type { SiteInput, SiteResult } from './model.js';
