/**
 * The sec provider's functions (`provider::sec::<name>(…)`), one file each and one line here; the
 * provider takes every export of this module (ARCHITECTURE.md, "A function").
 */
export { default as policyId } from './policy-id.js';
export { default as policyIdSuffix } from './policy-id-suffix.js';
export { default as policyIds } from './policy-ids.js';
