/** Data export rules: the platform's data, exported to object-store alert channels. */
import {
  attr,
  type ModelOf,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../clients/sec/index.js';
import type { DataExportRule, DataExportRuleInput } from '../../clients/sec/data-export-rules.js';
import { idIdentity, noFilters } from '../shared/identity.js';
import { notBlankEntries, sameTrimmedList, textOrNull, trimmedTexts } from './governance-values.js';
import { madeAtFrom } from '../shared/made-at.js';
import { checkedBy, secRules } from './rules.js';
import { wireFields } from './wired-fields.js';

const INTEGRATIONS_CHECKS = [validators.nonEmpty<string[]>(), notBlankEntries];
checkedBy('DataExportRules.intgGuidList', 'minItems', { checks: INTEGRATIONS_CHECKS, sent: trimmedTexts });

/**
 * Attributes that are one field of the body as it is, by the field's path (wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'DataExportRules',
  {
    id: attr.sdkId('The data export rule GUID (the same as `guid`).'),
    name: attr.string({
      required: true,
      validate: [validators.nonEmpty(), ...secRules('DataExportRules.filters.name', { name: true })],
      description: 'The name of the data export rule.',
    }),
    integration_ids: attr.stringList({
      required: true,
      distinct: true,
      refersTo: 'object-store alert channels',
      validate: INTEGRATIONS_CHECKS,
      equal: sameTrimmedList,
      unordered: true,
      description:
        'GUIDs (`intg_guid`) of the object-store alert channels ' +
        '(`sec_alert_channel_cloud_a_object_store`) the data is exported to.',
    }),
    description: attr.string({ optional: true, description: 'What the data export rule is for.' }),
    enabled: attr.bool({ optional: true, default: true, description: 'Whether data is exported. Default `true`.' }),
    type: attr.string({ computed: true, description: 'The platform type of the rule, always `Dataexport`.' }),
    guid: attr.string({ computed: true, description: 'The data export rule GUID.' }),
    created_or_updated_time: attr.string({
      computed: true,
      volatile: true,
      description: 'When the rule was last created or changed.',
    }),
    created_or_updated_by: attr.string({
      computed: true,
      volatile: true,
      description: 'Who last created or changed the rule.',
    }),
  },
  {},
);

const schema = resourceSchema(wired.fields, {
  description: "A data export rule: the platform's data, exported to object-store alert channels.",
});
type Model = ModelOf<typeof schema.fields>;

const toApi = (m: Model): DataExportRuleInput => ({
  intgGuidList: m.integration_ids.map((g) => g.trim()),
  name: m.name,
  description: m.description ?? '',
  enabled: m.enabled !== false,
  declared: wired.declared(m),
});

const fromApi = (r: DataExportRule, prior: Partial<Model>): Partial<Model> => ({
  id: r.mcGuid,
  guid: r.mcGuid,
  name: r.filters.name,
  description: textOrNull(r.filters.description, prior.description),
  enabled: r.filters.enabled,
  integration_ids: r.intgGuidList,
  type: r.type,
  created_or_updated_time: r.filters.createdOrUpdatedTime,
  created_or_updated_by: r.filters.createdOrUpdatedBy,
  ...(wired.read(r) as Partial<Model>),
});

const guidOf = (m: Model) => m.guid ?? m.id ?? '';

const dataExportRule = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_data_export_rule',
  schema,
  importIdDescription: 'the data export rule GUID',
  importState: async (id) => ({ id, guid: id }),
  identity: idIdentity('The data export rule GUID.'),
  list: {
    schema: noFilters('data export rule'),
    list: async (_filters, ctx) =>
      (await ctx.client.dataExportRules.list({ signal: ctx.signal })).map((r) => fromApi(r, {})),
    displayName: (m) => m.name,
  },
  create: async (plan, ctx) =>
    fromApi(await ctx.client.dataExportRules.create(toApi(plan), { signal: ctx.signal }), plan),
  // A data export rule is known by its name; names are not unique on the platform.
  findCreated: {
    key: 'its name',
    uniqueKey: false,
    describe: (plan) => `the data export rule named ${JSON.stringify(plan.name)}`,
    list: async (plan, ctx) =>
      (await ctx.client.dataExportRules.list({ signal: ctx.signal })).map((r) => fromApi(r, plan)),
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.guid ?? '',
    madeAt: madeAtFrom('created_or_updated_time'),
  },
  read: async (prior, ctx) =>
    fromApi(await ctx.client.dataExportRules.get(guidOf(prior), { signal: ctx.signal }), prior),
  readsByListing: {
    pages: listedInOneCall((ctx) => ctx.client.dataExportRules.list({ signal: ctx.signal })),
    idOf: (rule) => rule.mcGuid,
    read: fromApi,
  },
  update: async (plan, prior, ctx) =>
    fromApi(await ctx.client.dataExportRules.update(guidOf(prior), toApi(plan), { signal: ctx.signal }), plan),
  delete: async (prior, ctx) => ctx.client.dataExportRules.delete(guidOf(prior), { signal: ctx.signal }),
});

export const dataExportRuleResources: ResourceDef<any, SecClient>[] = [dataExportRule];
