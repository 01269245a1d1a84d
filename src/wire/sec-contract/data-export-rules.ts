import { field, type ContractBodies } from './language.js';
import { routingRuleBody } from './routing-rules.js';

/** The request body of a data export rule. */
export const DATA_EXPORT_RULE_BODIES: ContractBodies = {
  DataExportRules: routingRuleBody('Dataexport', {
    channels: field.array(field.string(), { minItems: 1 }),
    filters: { profileVersions: field.array(field.string(), { optional: true }) },
  }),
};
