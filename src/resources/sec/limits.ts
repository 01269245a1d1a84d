/**
 * What the sec platform takes: in one request its 1 MiB body, of one text 8,192 characters, of one
 * list 1,000 elements (ProviderDef `limits`, checked for every value at plan time); and the rule for
 * the names people see in its console.
 */
import * as forms from '../../schema/forms.js';

export const SEC_LIMITS = { characters: 8192, items: 1000, bodyBytes: 1024 * 1024 } as const;

/** A name or title: one line of visible text, within the platform's limit for a text. */
export const SEC_NAME = forms.name(SEC_LIMITS.characters);
