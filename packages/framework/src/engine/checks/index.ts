/**
 * The checks part: Terraform core's plan and apply checks, ported so that tests see what it would
 * refuse (docs/protocol.md, "Terraform's checks"). The three building blocks mirror
 * internal/plans/objchange (proposed-new.ts, plan-valid.ts, object-compatible.ts); rpc-checks.ts bundles
 * them as Terraform applies them around PlanResourceChange, ApplyResourceChange and ReadResource.
 * The engine calls them only to hold what a resource's modifyPlan planned; src/tfclient, the framework's
 * test harness and the tests call them as Terraform would.
 */
export { proposedNew } from './proposed-new.js';
export { checkApplyResult, checkPlannedState, checkReadResult } from './rpc-checks.js';
export { type CheckProblem, emptyBlockValue } from './util.js';
