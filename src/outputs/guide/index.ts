/** Study guides: one Markdown file per annotation topic, plus a reading plan. */
export { buildGuide, DEFAULT_LIMITS, type GuideInput, type GuideLimits } from './build.js';
export { buildPlan, type PlanEntry } from './plan.js';
export { driftFor, portLookup } from './inputs.js';
export { stringify } from './md.js';
export { labelsFor } from './labels.js';
export { linkAnchors, plainAnchors, type Resolve } from './prose.js';
export { shortId, permalink, symbolLink, isFake } from './symbols.js';
export type { PortCode } from './excerpt.js';
export { cachedPorts, type PortEntry } from './ports-cache.js';
