/**
 * Scenarios: YAML files describing pods, node facts and events over time, played through the
 * reference ports into a timeline whose lines name the Go code they mirror.
 */
export { loadScenario, parseScenario, ScenarioError } from './load.js';
export { runScenario, ScenarioDriver, TICK } from './driver.js';
export { formatTimeline, clockTime, formatBytes } from './timeline.js';
export { listBundledScenarios, bundledScenarioPath, bundledScenarioDir } from './bundled.js';
export { GO, DRIVER_ONLY, shortGoId } from './go-ids.js';
export type { Scenario, ScenarioEvent, TimelineEntry, NodeFacts, ImageFact, EvictionFlags, ProbeKind } from './schema.js';
