import { field, type ContractBodies } from './language.js';

/** The request body of a data export rule, a create or a whole replacement alike. */
export const DATA_EXPORT_RULE_BODIES: ContractBodies = {
  DataExportRules: field.object({
    mcGuid: field.string({ optional: true }),
    type: field.string({ oneOf: ['Dataexport'] }),
    intgGuidList: field.array(field.string(), { minItems: 1 }),
    filters: field.object({
      name: field.string(),
      description: field.string({ optional: true, allowEmpty: true }),
      enabled: field.flag(),
      profileVersions: field.array(field.string(), { optional: true }),
      // Read-only fields a client may send back; ignored.
      createdOrUpdatedTime: field.string({ optional: true, allowEmpty: true }),
      createdOrUpdatedBy: field.string({ optional: true, allowEmpty: true }),
    }),
  }),
};
