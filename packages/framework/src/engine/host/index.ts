/**
 * The host part: what the provider can know of the client that runs it (Terraform, OpenTofu, Pulumi's
 * bridge) and of what its user asked (host-view.ts, from the processes above it: host-process.ts), the
 * words of that client for messages (host-terms.ts), the state a saved plan was made against
 * and what it forgets (saved-plan.ts), and which walk the process serves (walk.ts).
 */
export { HostTerms } from './host-terms.js';
export { HostView } from './host-view.js';
export { forgottenObjects, priorStateObjects, type StoredObject } from './saved-plan.js';
export { WalkView } from './walk.js';
