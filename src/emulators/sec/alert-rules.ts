import {
  HttpError,
  field,
  heldFields,
  invalid,
  json,
  noContent,
  prefixedId,
  quote,
  validate,
  withHeldFields,
  type Router,
} from '../core/index.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';
import { RESOURCE_GROUPS_COLLECTION } from './resource-groups.js';

export const ALERT_RULES_COLLECTION = 'AlertRules';
const BASE = `${API_PREFIX}/${ALERT_RULES_COLLECTION}`;

/** Where alerts come from (neutral names: the clouds are CloudA, CloudB, CloudC, CloudD). */
export const ALERT_RULE_SOURCES = ['Agent', 'CloudA', 'CloudB', 'CloudC', 'CloudD', 'K8s'];
/** What kind of alert. */
export const ALERT_RULE_CATEGORIES = ['Anomaly', 'Policy', 'Composite'];
/** What the alert is about, as the platform names it since its event categories became subcategories. */
export const ALERT_RULE_SUBCATEGORIES = [
  'Compliance',
  'Application',
  'Cloud Activity',
  'File',
  'Machine',
  'User',
  'Platform',
  'Kubernetes Activity',
  'Registry',
  'SystemCall',
  'Host Vulnerability',
  'Container Vulnerability',
  'Threat Intel',
];

export interface AlertRuleRecord {
  mcGuid: string;
  type: 'Event';
  intgGuidList: string[];
  filters: {
    name: string;
    description: string;
    enabled: 0 | 1;
    /** 1 = Critical … 5 = Info, once each, ascending. */
    severity: number[];
    resourceGroups: string[];
    subCategory: string[];
    source: string[];
    category: string[];
    createdOrUpdatedTime: string;
    createdOrUpdatedBy: string;
  };
}

const bodySpec = field.object({
  mcGuid: field.string({ optional: true }),
  type: field.string({ oneOf: ['Event'] }),
  // A rule may have no channel yet (it then routes nothing).
  intgGuidList: field.array(field.string()),
  filters: field.object({
    name: field.string(),
    description: field.string({ optional: true, allowEmpty: true }),
    enabled: field.flag(),
    severity: field.array(field.integer({ min: 1, max: 5 }), { minItems: 1 }),
    resourceGroups: field.array(field.string(), { optional: true }),
    subCategory: field.array(field.string({ oneOf: ALERT_RULE_SUBCATEGORIES }), { optional: true }),
    source: field.array(field.string({ oneOf: ALERT_RULE_SOURCES }), { optional: true }),
    category: field.array(field.string({ oneOf: ALERT_RULE_CATEGORIES }), { optional: true }),
    // Read-only fields a client may send back; ignored.
    createdOrUpdatedTime: field.string({ optional: true, allowEmpty: true }),
    createdOrUpdatedBy: field.string({ optional: true, allowEmpty: true }),
  }),
});

type RuleBody = Omit<AlertRuleRecord, 'mcGuid' | 'filters'> & {
  mcGuid?: string;
  filters: Omit<
    AlertRuleRecord['filters'],
    | 'createdOrUpdatedTime'
    | 'createdOrUpdatedBy'
    | 'resourceGroups'
    | 'subCategory'
    | 'source'
    | 'category'
    | 'description'
  > &
    Partial<Pick<AlertRuleRecord['filters'], 'resourceGroups' | 'subCategory' | 'source' | 'category' | 'description'>>;
};

const once = (values: readonly string[] | undefined) => [...new Set(values ?? [])];

export function registerAlertRuleRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: bodySpec });
  router.document('PATCH', `${BASE}/:mcGuid`, { body: bodySpec });
  const parse = (body: unknown, mcGuid: string | undefined, held?: AlertRuleRecord): RuleBody => {
    validate(bodySpec, body, 'body', held);
    const rule = body as RuleBody;
    if (mcGuid === undefined && rule.mcGuid !== undefined)
      throw invalid('body.mcGuid is assigned by the server and must not be sent on create');
    if (mcGuid !== undefined && rule.mcGuid !== undefined && rule.mcGuid !== mcGuid)
      throw invalid(`body.mcGuid (${quote(rule.mcGuid)}) does not match the path`);
    rule.intgGuidList.forEach((guid, index) => {
      if (!ctx.store.has(SEC_COLLECTIONS.alertChannels, guid))
        throw invalid(`body.intgGuidList[${index}]: there is no alert channel ${quote(guid)}`);
    });
    (rule.filters.resourceGroups ?? []).forEach((guid, index) => {
      if (!ctx.store.has(RESOURCE_GROUPS_COLLECTION, guid))
        throw invalid(`body.filters.resourceGroups[${index}]: there is no resource group ${quote(guid)}`);
    });
    return rule;
  };
  // An update replaces the rule: what it does not send is gone, what the console set and it sends back stays.
  const store = (mcGuid: string, rule: RuleBody, extra?: Record<string, unknown>): AlertRuleRecord =>
    ctx.store.put(
      ALERT_RULES_COLLECTION,
      mcGuid,
      withHeldFields<AlertRuleRecord>(
        {
          mcGuid,
          type: 'Event',
          intgGuidList: once(rule.intgGuidList),
          filters: {
            name: rule.filters.name,
            description: rule.filters.description ?? '',
            enabled: rule.filters.enabled,
            severity: [...new Set(rule.filters.severity)].sort((a, b) => a - b),
            resourceGroups: once(rule.filters.resourceGroups),
            subCategory: once(rule.filters.subCategory),
            source: once(rule.filters.source),
            category: once(rule.filters.category),
            createdOrUpdatedTime: ctx.clock.nowIso(),
            createdOrUpdatedBy: ctx.username,
          },
        },
        extra,
      ),
    );

  router.add('POST', BASE, (request) =>
    json(201, { data: store(prefixedId(ctx.account.toUpperCase()), parse(request.body, undefined)) }),
  );
  router.add('GET', BASE, () => json(200, { data: ctx.store.list(ALERT_RULES_COLLECTION) }));
  router.add('GET', `${BASE}/:mcGuid`, (request) => json(200, { data: find(ctx, request.params.mcGuid!) }));
  router.add('PATCH', `${BASE}/:mcGuid`, (request) => {
    const existing = find(ctx, request.params.mcGuid!);
    const rule = parse(request.body, existing.mcGuid, existing);
    return json(200, { data: store(existing.mcGuid, rule, heldFields(bodySpec, request.body)) });
  });
  router.add('DELETE', `${BASE}/:mcGuid`, (request) => {
    ctx.store.remove(ALERT_RULES_COLLECTION, find(ctx, request.params.mcGuid!).mcGuid);
    return noContent();
  });
}

function find(ctx: SecContext, mcGuid: string): AlertRuleRecord {
  const record = ctx.store.get<AlertRuleRecord>(ALERT_RULES_COLLECTION, mcGuid);
  if (!record) throw new HttpError(404, `alert rule ${quote(mcGuid)} not found`);
  return record;
}
