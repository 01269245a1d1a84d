/**
 * Alert rules: which alerts (severities, sources, alert and event categories, resource groups) the
 * platform sends to which alert channels. Channels and resource groups are named by their GUIDs.
 */
import {
  attr,
  attrStep,
  type ConfigModelOf,
  type Diagnostics,
  type ModelOf,
  ownEntry,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../clients/sec/index.js';
import {
  ALERT_RULE_CATEGORIES,
  ALERT_RULE_SOURCES,
  ALERT_RULE_SUBCATEGORIES,
  LEGACY_ALERT_RULE_SUBCATEGORIES,
  currentSubcategory,
} from '../../clients/sec/alert-rule-values.js';
import type { AlertRule, AlertRuleInput } from '../../clients/sec/alert-rules.js';
import { idIdentity, noFilters } from '../shared/identity.js';
import {
  SEVERITIES,
  canonical,
  severityListChecks,
  severityNumbers,
  listOrNull,
  sameIgnoringCase,
  notBlankEntries,
  sameTrimmedSet,
  textOrNull,
} from './governance-values.js';
import { madeAtFrom } from '../shared/made-at.js';
import { checkedBy, secRules } from './rules.js';
import { wireFields } from './wired-fields.js';

// Rules of fields the resource sends mapped (severity names to numbers, older subcategory names to
// current ones): the attributes check them in the words users write.
const SEVERITY_CHECKS = severityListChecks();
checkedBy('AlertRules.filters.severity', 'minItems', { checks: SEVERITY_CHECKS, sent: severityNumbers });
checkedBy('AlertRules.filters.severity[]', 'range', { checks: SEVERITY_CHECKS, sent: severityNumbers });

const names = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(', ');

/** Every name a subcategory may be given: the current ones, then the older ones. */
const SUBCATEGORY_NAMES = [...ALERT_RULE_SUBCATEGORIES, ...Object.keys(LEGACY_ALERT_RULE_SUBCATEGORIES)];
const SUBCATEGORY_CHECKS = [validators.each(validators.oneOf(...SUBCATEGORY_NAMES))];
checkedBy('AlertRules.filters.subCategory[]', 'oneOf', {
  checks: SUBCATEGORY_CHECKS,
  sent: (value) => (Array.isArray(value) ? value.map((name) => currentSubcategory(String(name))) : value),
});
const LEGACY_NAMES = Object.entries(LEGACY_ALERT_RULE_SUBCATEGORIES)
  .map(([old, now]) => `\`${old}\` (\`${now}\`)`)
  .join(', ');

/** Two sets of subcategories the platform stores alike (an older name is its current one). */
const currentSet = (values: readonly string[]) => [...new Set(values.map(currentSubcategory))].sort();
const sameSubcategories = (a: string[], b: string[]) => JSON.stringify(currentSet(a)) === JSON.stringify(currentSet(b));

/**
 * The current argument and its deprecated twin send the same API field: one of them, not both. An
 * older subcategory name warns with its current one.
 */
function vocabularyProblems(config: ConfigModelOf<typeof schema.fields>, diags: Diagnostics): void {
  const pairs = [
    ['alert_subcategories', 'event_categories'],
    ['alert_sources', 'sources'],
  ] as const;
  for (const [current, deprecated] of pairs) {
    const [now, old] = [config[current], config[deprecated]];
    if (now === undefined || old === undefined || now === null || old === null) continue;
    diags.error(
      'Conflicting arguments',
      `Set \`${current}\` or the deprecated \`${deprecated}\`, not both: they set the same list on the ` +
        `platform. Move the values to \`${current}\`.`,
      [attrStep(deprecated)],
    );
  }
  for (const name of ['alert_subcategories', 'event_categories'] as const) {
    for (const value of config[name] ?? []) {
      const now = value === undefined ? undefined : ownEntry(LEGACY_ALERT_RULE_SUBCATEGORIES, value);
      if (now)
        diags.warning(
          'Deprecated value',
          `\`${value}\` is the older name of the subcategory \`${now}\`; write \`${now}\`.`,
          [attrStep(name)],
        );
    }
  }
}

/**
 * Attributes that are one field of the body as it is, by the field's path (wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'AlertRules',
  {
    id: attr.sdkId('The alert rule GUID (the same as `guid`).'),
    name: attr.string({
      required: true,
      validate: [validators.nonEmpty(), ...secRules('AlertRules.filters.name', { name: true })],
      description: 'The alert rule name.',
    }),
    description: attr.string({ optional: true, description: 'What the alert rule is for.' }),
    enabled: attr.bool({
      optional: true,
      default: true,
      description: 'Whether alerts are routed by this rule. Default `true`.',
    }),
    alert_channels: attr.stringSet({
      optional: true,
      refersTo: 'alert channels',
      validate: [notBlankEntries],
      equal: sameTrimmedSet,
      description: 'GUIDs (`intg_guid`) of the alert channels the alerts go to.',
    }),
    severities: attr.stringList({
      required: true,
      distinct: true,
      validate: SEVERITY_CHECKS,
      equal: sameIgnoringCase,
      unordered: true,
      description: `Severities of the alerts the rule routes: ${names(SEVERITIES)} (any case).`,
    }),
    resource_groups: attr.stringSet({
      optional: true,
      refersTo: 'resource groups',
      validate: [notBlankEntries],
      equal: sameTrimmedSet,
      description: 'GUIDs of the resource groups whose alerts the rule routes; all when not set.',
    }),
    alert_categories: attr.stringSet({
      optional: true,
      validate: secRules<string[]>('AlertRules.filters.category'),
      description: `Kinds of alert the rule routes: ${names(ALERT_RULE_CATEGORIES)}; all when not set.`,
    }),
    alert_sources: attr.stringSet({
      optional: true,
      validate: secRules<string[]>('AlertRules.filters.source'),
      description: `Where the alerts come from: ${names(ALERT_RULE_SOURCES)}; all when not set.`,
    }),
    sources: attr.stringSet({
      optional: true,
      deprecated: 'Use `alert_sources`, which takes the same values.',
      readAs: { field: 'alert_sources' },
      validate: secRules<string[]>('AlertRules.filters.source'),
      description: `Where the alerts come from: ${names(ALERT_RULE_SOURCES)}; all when not set.`,
    }),
    alert_subcategories: attr.stringSet({
      optional: true,
      validate: SUBCATEGORY_CHECKS,
      equal: sameSubcategories,
      description:
        `What the alerts are about: ${names(ALERT_RULE_SUBCATEGORIES)}; all when not set. ` +
        `The older names ${LEGACY_NAMES} are still accepted (deprecated) and stored as their current names.`,
    }),
    event_categories: attr.stringSet({
      optional: true,
      deprecated: 'Use `alert_subcategories`, which takes the same values (the current names, and the older ones).',
      // An older name is the same subcategory as its current one.
      readAs: { field: 'alert_subcategories', convert: currentSubcategory },
      validate: SUBCATEGORY_CHECKS,
      equal: sameSubcategories,
      description: 'What the alerts are about, with the same values as `alert_subcategories`.',
    }),
    guid: attr.string({ computed: true, description: 'The alert rule GUID.' }),
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
    type: attr.string({ computed: true, description: 'The platform type of the rule, always `Event`.' }),
  },
  {},
);

const schema = resourceSchema(wired.fields, {
  description:
    'An alert rule: which alerts (severities, sources, alert and event categories, resource groups) go ' +
    'to which alert channels.',
});
type Model = ModelOf<typeof schema.fields>;

const toApi = (m: Model): AlertRuleInput => ({
  intgGuidList: (m.alert_channels ?? []).map((g) => g.trim()),
  filters: {
    name: m.name,
    description: m.description ?? '',
    enabled: m.enabled !== false,
    severity: [...new Set(m.severities.map((s) => canonical(SEVERITIES, s)!))],
    resourceGroups: (m.resource_groups ?? []).map((g) => g.trim()),
    subCategory: [...new Set((m.alert_subcategories ?? m.event_categories ?? []).map(currentSubcategory))],
    source: m.alert_sources ?? m.sources ?? [],
    category: m.alert_categories ?? [],
  },
  declared: wired.declared(m),
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
    // Read into the argument the configuration uses; an import reads into the current one.
    ...(deprecatedInUse(prior.alert_sources, prior.sources)
      ? { sources: listOrNull(r.filters.source, prior.sources), alert_sources: null }
      : { alert_sources: listOrNull(r.filters.source, prior.alert_sources), sources: null }),
    ...(deprecatedInUse(prior.alert_subcategories, prior.event_categories)
      ? { event_categories: listOrNull(r.filters.subCategory, prior.event_categories), alert_subcategories: null }
      : { alert_subcategories: listOrNull(r.filters.subCategory, prior.alert_subcategories), event_categories: null }),
    created_or_updated_time: r.filters.createdOrUpdatedTime,
    created_or_updated_by: r.filters.createdOrUpdatedBy,
    type: r.type,
    ...(wired.read(r) as Partial<Model>),
  };
}

/** Whether a prior state (or plan) sets the deprecated argument of a pair rather than the current one. */
const deprecatedInUse = (
  current: readonly string[] | null | undefined,
  deprecated: readonly string[] | null | undefined,
) => (current === null || current === undefined) && deprecated !== null && deprecated !== undefined;

const guidOf = (m: Model) => m.guid ?? m.id ?? '';

const alertRule = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_alert_rule',
  schema,
  importIdDescription: 'the alert rule GUID',
  importState: async (id) => ({ id, guid: id }),
  identity: idIdentity('The alert rule GUID.'),
  list: {
    schema: noFilters('alert rule'),
    list: async (_filters, ctx) =>
      (await ctx.client.alertRules.list({ signal: ctx.signal })).map((r) => fromApi(r, {})),
    displayName: (m) => m.name,
  },
  validate: vocabularyProblems,
  create: async (plan, ctx) => fromApi(await ctx.client.alertRules.create(toApi(plan), { signal: ctx.signal }), plan),
  // An alert rule is known by its name; names are not unique on the platform.
  findCreated: {
    key: 'its name',
    uniqueKey: false,
    describe: (plan) => `the alert rule named ${JSON.stringify(plan.name)}`,
    list: async (plan, ctx) => (await ctx.client.alertRules.list({ signal: ctx.signal })).map((r) => fromApi(r, plan)),
    holdsKey: (plan, found) => found.name === plan.name,
    importId: (found) => found.guid ?? '',
    madeAt: madeAtFrom('created_or_updated_time'),
  },
  read: async (prior, ctx) => fromApi(await ctx.client.alertRules.get(guidOf(prior), { signal: ctx.signal }), prior),
  readsByListing: {
    pages: listedInOneCall((ctx) => ctx.client.alertRules.list({ signal: ctx.signal })),
    idOf: (rule) => rule.mcGuid,
    read: fromApi,
  },
  update: async (plan, prior, ctx) =>
    fromApi(await ctx.client.alertRules.update(guidOf(prior), toApi(plan), { signal: ctx.signal }), plan),
  delete: async (prior, ctx) => ctx.client.alertRules.delete(guidOf(prior), { signal: ctx.signal }),
});

export const alertRuleResources: ResourceDef<any, SecClient>[] = [alertRule];
