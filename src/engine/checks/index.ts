/**
 * The checks part: Terraform core's plan and apply checks, ported so that tests see what it would
 * refuse (docs/protocol.md, "Terraform's checks"). The three building blocks mirror
 * internal/plans/objchange (proposed-new.ts, plan-valid.ts, object-compatible.ts); rpc-checks.ts bundles
 * them as Terraform applies them around PlanResourceChange, ApplyResourceChange and ReadResource.
 * The engine's own parts never call them: src/tfclient and the tests do.
 */
export { proposedNew } from './proposed-new.js';
export { checkApplyResult, checkPlannedState, checkReadResult } from './rpc-checks.js';
