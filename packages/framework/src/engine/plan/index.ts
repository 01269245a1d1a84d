/**
 * The plan part: the rules every resource's values go through, written once over the schema DSL.
 * A configuration is validated (validate.ts, with set-elements.ts, secret-rules.ts and what the platforms
 * refuse, platform-values.ts), planned (planner.ts: the schema walk of PlanResourceChange, and
 * refused-changes.ts: what of a plan the platform refuses) and merged
 * with what the API answers (reconcile.ts); platform-settings.ts says which values the platform holds,
 * so that a change it would not see sends nothing.
 */
export { planObject } from './planner.js';
export { assignedValueChanges, type RefusedChangeAt, refusedChanges } from './refused-changes.js';
export {
  inCurrentForm,
  isConfigurable,
  isPlatformSetting,
  movedInto,
  samePlatformSettings,
} from './platform-settings.js';
export { withoutRepeats, withWriteOnlyValues } from './platform-values.js';
export { differencesFromPlan, finalizeApplied, type Mismatch, reconcileRead } from './reconcile.js';
export { checkConfig, type Checked, type ClientCapabilities } from './validate.js';
