/**
 * Alert rules: which alerts (severities, sources, alert and event categories, resource groups) the
 * platform sends to which alert channels. Channels and resource groups are named by their GUIDs.
 */
import { attr, resourceSchema, validators, type ModelOf } from '../../schema/define.js';
import { resource, type ResourceDef } from '../../engine/contracts.js';
import type { SecClient } from '../../clients/sec/index.js';
import { ALERT_RULE_CATEGORIES, ALERT_RULE_EVENT_CATEGORIES, ALERT_RULE_SOURCES } from '../../clients/sec/alert-rule-values.js';
import type { AlertRule, AlertRuleInput } from '../../clients/sec/alert-rules.js';
import { idIdentity, noFilters } from '../shared/identity.js';
import { SEVERITIES, canonical, listOrNull, oneOfIgnoringCase, sameIgnoringCase, sameTrimmedSet, textOrNull } from './governance-values.js';

const names = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');

const schema = resourceSchema(
  {
    id: attr.sdkId('The alert rule GUID (the same as `guid`).'),
    name: attr.string({ required: true, validate: [validators.nonEmpty()], description: 'The alert rule name.' }),
    description: attr.string({ optional: true, description: 'What the alert rule is for.' }),
    enabled: attr.bool({ optional: true, default: true, description: 'Whether alerts are routed by this rule. Default `true`.' }),
    alert_channels: attr.stringSet({
      optional: true,
      refersTo: 'alert channels',
      equal: sameTrimmedSet,
      description: 'GUIDs (`intg_guid`) of the alert channels the alerts go to.',
    }),
    severities: attr.stringList({
      required: true,
      distinct: true,
      validate: [validators.nonEmpty(), validators.each(oneOfIgnoringCase(SEVERITIES))],
      equal: sameIgnoringCase,
      description: `Severities of the alerts the rule routes: ${names(SEVERITIES)} (any case).`,
    }),
    resource_groups: attr.stringSet({ optional: true, refersTo: 'resource groups', equal: sameTrimmedSet, description: 'GUIDs of the resource groups whose alerts the rule routes; all when not set.' }),
    alert_categories: attr.stringSet({
      optional: true,
      validate: [validators.each(validators.oneOf(...ALERT_RULE_CATEGORIES))],
      description: `Kinds of alert the rule routes: ${names(ALERT_RULE_CATEGORIES)}; all when not set.`,
    }),
    sources: attr.stringSet({
      optional: true,
      validate: [validators.each(validators.oneOf(...ALERT_RULE_SOURCES))],
      description: `Where the alerts come from: ${names(ALERT_RULE_SOURCES)}; all when not set.`,
    }),
    event_categories: attr.stringSet({
      optional: true,
      validate: [validators.each(validators.oneOf(...ALERT_RULE_EVENT_CATEGORIES))],
      description: `What the alerts are about: ${names(ALERT_RULE_EVENT_CATEGORIES)}; all when not set.`,
    }),
    guid: attr.string({ computed: true, description: 'The alert rule GUID.' }),
    created_or_updated_time: attr.string({ computed: true, volatile: true, description: 'When the rule was last created or changed.' }),
    created_or_updated_by: attr.string({ computed: true, volatile: true, description: 'Who last created or changed the rule.' }),
    type: attr.string({ computed: true, description: 'The platform type of the rule, always `Event`.' }),
  },
  { description: 'An alert rule: which alerts (severities, sources, alert and event categories, resource groups) go to which alert channels.' },
);
type Model = ModelOf<typeof schema.fields>;

const toApi = (m: Model): AlertRuleInput => ({
  intgGuidList: (m.alert_channels ?? []).map((g) => g.trim()),
  filters: {
    name: m.name,
    description: m.description ?? '',
    enabled: m.enabled !== false,
    severity: [...new Set(m.severities.map((s) => canonical(SEVERITIES, s)!))],
    resourceGroups: (m.resource_groups ?? []).map((g) => g.trim()),
    eventCategory: m.event_categories ?? [],
    sources: m.sources ?? [],
    category: m.alert_categories ?? [],
  },
});

function fromApi(r: AlertRule, prior: Partial<Model>): Partial<Model> {
  return {
    id: r.mcGuid,
    guid: r.mcGuid,
    name: r.filters.name,
    description: textOrNull(r.filters.description, prior.description),
    enabled: r.filters.enabled,
    severities: r.filters.severity,
    alert_channels: listOrNull(r.intgGuidList, prior.alert_channels),
    resource_groups: listOrNull(r.filters.resourceGroups, prior.resource_groups),
    alert_categories: listOrNull(r.filters.category, prior.alert_categories),
    sources: listOrNull(r.filters.sources, prior.sources),
    event_categories: listOrNull(r.filters.eventCategory, prior.event_categories),
    created_or_updated_time: r.filters.createdOrUpdatedTime,
    created_or_updated_by: r.filters.createdOrUpdatedBy,
    type: r.type,
  };
}

const guidOf = (m: Model) => m.guid ?? m.id ?? '';

const alertRule = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_alert_rule',
  schema,
  importIdDescription: 'the alert rule GUID',
  importState: async (id) => ({ id, guid: id }),
  identity: idIdentity('The alert rule GUID.'),
  list: {
    schema: noFilters('alert rule'),
    list: async (_filters, ctx) => (await ctx.client.alertRules.list({ signal: ctx.signal })).map((r) => fromApi(r, {})),
    displayName: (m) => m.name,
  },
  create: async (plan, ctx) => fromApi(await ctx.client.alertRules.create(toApi(plan), { signal: ctx.signal }), plan),
  // An alert rule is known by its name; names are not unique on the platform.
  findCreated: {
    key: 'its name',
    uniqueKey: false,
    describe: (plan) => `the alert rule named ${JSON.stringify(plan.name)}`,
    list: async (plan, ctx) => (await ctx.client.alertRules.list({ signal: ctx.signal })).map((r) => fromApi(r, plan)),
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.guid ?? '',
  },
  read: async (prior, ctx) => fromApi(await ctx.client.alertRules.get(guidOf(prior), { signal: ctx.signal }), prior),
  update: async (plan, prior, ctx) => fromApi(await ctx.client.alertRules.update(guidOf(prior), toApi(plan), { signal: ctx.signal }), plan),
  delete: async (prior, ctx) => ctx.client.alertRules.delete(guidOf(prior), { signal: ctx.signal }),
});

export const alertRuleResources: ResourceDef<any, SecClient>[] = [alertRule];
