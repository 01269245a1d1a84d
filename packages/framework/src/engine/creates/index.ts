/**
 * The creates part: a create that may have made an object is never forgotten, and an object it did not
 * make is never taken over (docs/decisions.md, "Whose object is it"). create-recovery.ts runs a create
 * and looks for what a lost answer made, on the evidence of create-evidence.ts; create-records.ts judges
 * what a killed run's record (the journal part's) proves; create-lookalikes.ts and lookalike-verdicts.ts
 * say at plan what a create says of the objects like it; cut-off-replacement.ts names what a replacement
 * cut off after its create made; create-messages.ts words all of them.
 */
export { CreateLedger, type CreateRecoveryOptions, DEFAULT_CREATE_RECOVERY } from './create-evidence.js';
export { CreateLookalikes } from './create-lookalikes.js';
export { cutOffReplacement } from './cut-off-replacement.js';
export { describe } from './create-messages.js';
export { type CreateBooks, createTracked } from './create-recovery.js';
