/**
 * What the sec platform takes in any request (its contract's limits, ./rules.ts), and the rule for the
 * names people see in its console.
 */
import * as forms from '../../schema/forms.js';
import { SEC_LIMITS } from './rules.js';

export { SEC_LIMITS };

/** A name or title: one line of visible text, within the platform's limit for a text. */
export const SEC_NAME = forms.name(SEC_LIMITS.characters);
