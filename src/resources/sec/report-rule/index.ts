import {
  attr,
  type ModelOf,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import { idIdentity, noFilters } from '../../shared/identity.js';
import { REPORT_NOTIFICATION_KEYS, type ReportNotifications } from '../../../clients/sec/report-notification-keys.js';
import type { ReportRule, ReportRuleInput } from '../../../clients/sec/report-rules.js';
import {
  SEVERITIES,
  canonical,
  severityListChecks,
  notBlankEntries,
  severityNumbers,
  trimmedTexts,
  flagOrNull,
  listOrNull,
  sameIgnoringCase,
  sameTrimmedSet,
  textOrNull,
} from '../governance-values.js';
import { REPORT_BLOCKS, REPORT_BLOCK_NAMES, flagKeys } from './reports.js';
import { madeAtFrom } from '../../shared/made-at.js';
import { checkedBy, secRules } from '../rules.js';
import { wireFields } from '../wired-fields.js';

// Severity names are sent as numbers, and the lists' first element is required: the attributes say so.
const SEVERITY_CHECKS = severityListChecks();
checkedBy('ReportRules.filters.severity', 'minItems', { checks: SEVERITY_CHECKS, sent: severityNumbers });
checkedBy('ReportRules.filters.severity[]', 'range', { checks: SEVERITY_CHECKS, sent: severityNumbers });
const CHANNEL_CHECKS = [validators.nonEmpty<string[]>(), notBlankEntries];
checkedBy('ReportRules.intgGuidList', 'minItems', { checks: CHANNEL_CHECKS, sent: trimmedTexts });

/**
 * Attributes that are one field of the body as it is, by the field's path (../wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'ReportRules',
  {
    id: attr.sdkId('The report rule GUID (the same as `guid`).'),
    name: attr.string({
      required: true,
      validate: secRules('ReportRules.filters.name', { name: true }),
      description: 'The report rule name.',
    }),
    description: attr.string({ optional: true, description: 'What the report rule is for.' }),
    enabled: attr.bool({ optional: true, default: true, description: 'Whether reports are sent. Default `true`.' }),
    severities: attr.stringList({
      required: true,
      validate: SEVERITY_CHECKS,
      equal: sameIgnoringCase,
      unordered: true,
      description: 'Severities the reports cover: `Critical`, `High`, `Medium`, `Low`, `Info` (any case).',
    }),
    resource_groups: attr.stringSet({
      optional: true,
      refersTo: 'resource groups',
      validate: [notBlankEntries],
      equal: sameTrimmedSet,
      description: 'GUIDs of the resource groups the reports cover.',
    }),
    email_alert_channels: attr.stringSet({
      required: true,
      refersTo: 'e-mail alert channels',
      validate: CHANNEL_CHECKS,
      equal: sameTrimmedSet,
      description: 'GUIDs (`intg_guid`) of the e-mail alert channels that receive the reports.',
    }),
    weekly_snapshot: attr.bool({ optional: true, description: 'Send the weekly trend report.' }),
    cloud_a_compliance_reports: REPORT_BLOCKS.cloud_a_compliance_reports.def,
    cloud_b_compliance_reports: REPORT_BLOCKS.cloud_b_compliance_reports.def,
    cloud_c_compliance_reports: REPORT_BLOCKS.cloud_c_compliance_reports.def,
    daily_compliance_reports: REPORT_BLOCKS.daily_compliance_reports.def,
    guid: attr.string({ computed: true, description: 'The report rule GUID.' }),
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
    type: attr.string({ computed: true, description: 'The platform type of the rule, always `Report`.' }),
  },
  {},
);

const schema = resourceSchema(wired.fields, {
  description:
    'A report rule: which compliance and event reports go to which e-mail alert channels, for which ' +
    'severities and resource groups.',
});
type Model = ModelOf<typeof schema.fields>;
type BlockModel = Record<string, boolean | null>;

function toApi(m: Model): ReportRuleInput {
  const flags = Object.fromEntries(REPORT_NOTIFICATION_KEYS.map((key) => [key, false])) as ReportNotifications;
  for (const name of REPORT_BLOCK_NAMES) {
    const given = (m[name] as BlockModel[])[0];
    if (!given) continue;
    // Absent flags of a present block take their default, false.
    for (const [field, key] of flagKeys(name)) flags[key] = given[field] === true;
  }
  flags.trendReport = m.weekly_snapshot === true;
  return {
    intgGuidList: m.email_alert_channels.map((g) => g.trim()),
    filters: {
      name: m.name,
      description: m.description ?? '',
      enabled: m.enabled !== false,
      severity: [...new Set(m.severities.map((s) => canonical(SEVERITIES, s)!))],
      resourceGroups: (m.resource_groups ?? []).map((g) => g.trim()),
    },
    reportNotificationTypes: flags,
    declared: wired.declared(m),
  };
}

/**
 * The rule as the API has it. A report block is shown when any of its flags is on, or when the
 * prior state had it (a block whose flags are all off is then kept, not dropped).
 */
function fromApi(r: ReportRule, prior: Partial<Model>): Partial<Model> {
  const blocks: Record<string, BlockModel[]> = {};
  for (const name of REPORT_BLOCK_NAMES) {
    const values = Object.fromEntries(flagKeys(name).map(([field, key]) => [field, r.reportNotificationTypes[key]]));
    const hadBlock = ((prior[name] as BlockModel[] | undefined) ?? []).length > 0;
    blocks[name] = hadBlock || Object.values(values).some(Boolean) ? [values] : [];
  }
  return {
    id: r.mcGuid,
    guid: r.mcGuid,
    name: r.filters.name,
    description: textOrNull(r.filters.description, prior.description),
    enabled: r.filters.enabled,
    severities: r.filters.severity,
    resource_groups: listOrNull(r.filters.resourceGroups, prior.resource_groups),
    email_alert_channels: r.intgGuidList,
    weekly_snapshot: flagOrNull(r.reportNotificationTypes.trendReport, prior.weekly_snapshot),
    ...(blocks as Partial<Model>),
    created_or_updated_time: r.filters.createdOrUpdatedTime,
    created_or_updated_by: r.filters.createdOrUpdatedBy,
    type: r.type,
    ...(wired.read(r) as Partial<Model>),
  };
}

const guidOf = (m: Model) => m.guid ?? m.id ?? '';

const reportRule = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_report_rule',
  schema,
  importIdDescription: 'the report rule GUID',
  importState: async (id) => ({ id, guid: id }),
  identity: idIdentity('The report rule GUID.'),
  list: {
    schema: noFilters('report rule'),
    list: async (_filters, ctx) =>
      (await ctx.client.reportRules.list({ signal: ctx.signal })).map((r) => fromApi(r, {})),
    displayName: (m) => m.name,
  },
  create: async (plan, ctx) => fromApi(await ctx.client.reportRules.create(toApi(plan), { signal: ctx.signal }), plan),
  // A report rule is known by its name.
  findCreated: {
    key: 'its name',
    uniqueKey: false,
    describe: (plan) => `the report rule named ${JSON.stringify(plan.name)}`,
    list: async (plan, ctx) => (await ctx.client.reportRules.list({ signal: ctx.signal })).map((r) => fromApi(r, plan)),
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.guid ?? '',
    madeAt: madeAtFrom('created_or_updated_time'),
  },
  read: async (prior, ctx) => fromApi(await ctx.client.reportRules.get(guidOf(prior), { signal: ctx.signal }), prior),
  readsByListing: {
    pages: listedInOneCall((ctx) => ctx.client.reportRules.list({ signal: ctx.signal })),
    idOf: (rule) => rule.mcGuid,
    read: fromApi,
  },
  update: async (plan, prior, ctx) =>
    fromApi(await ctx.client.reportRules.update(guidOf(prior), toApi(plan), { signal: ctx.signal }), plan),
  delete: async (prior, ctx) => ctx.client.reportRules.delete(guidOf(prior), { signal: ctx.signal }),
});

export const reportRuleResources: ResourceDef<any, SecClient>[] = [reportRule];
