import { type ContractBodies, field, type FieldSpec, NON_BLANK_PATTERN } from './language.js';

/**
 * The fields every integration body has around its type's `data` (alert channels, cloud accounts,
 * container registries). `data` is the family's own body, named `<Family>:<type>`
 * (`AlertChannels:Siem`), so it is not part of this one.
 */
const COMMON_FIELDS = {
  /** On an update only: the one in the path. */
  intgGuid: field.string({ optional: true }),
  // The console shows the name: a blank one is refused, within the platform's limit for a text.
  name: field.string({ pattern: NON_BLANK_PATTERN, patternRule: 'a non-empty string' }),
  type: field.string(),
  enabled: field.flag(),
} as const satisfies Record<string, FieldSpec>;

export const INTEGRATION_BODIES: ContractBodies = { Integrations: field.object(COMMON_FIELDS) };

/** The common fields' specs, for the emulator to judge each (its messages for type and enabled say more). */
export const INTEGRATION_FIELDS = COMMON_FIELDS;

/** A family's `data` bodies by type, named in the contract as `<collection>:<type>`. */
export function bodiesByType(collection: string, specs: Readonly<Record<string, FieldSpec>>): ContractBodies {
  return Object.fromEntries(Object.entries(specs).map(([type, spec]) => [`${collection}:${type}`, spec]));
}
