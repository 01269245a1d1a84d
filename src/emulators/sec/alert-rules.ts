import {
  declaredFields,
  HttpError,
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
import { ALERT_RULE_BODIES } from '../../wire/sec-contract/alert-rules.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';
import { RESOURCE_GROUPS_COLLECTION } from './resource-groups.js';

export const ALERT_RULES_COLLECTION = 'AlertRules';
const BASE = `${API_PREFIX}/${ALERT_RULES_COLLECTION}`;

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

const bodySpec = ALERT_RULE_BODIES.AlertRules!;

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
  const store = (mcGuid: string, rule: RuleBody, extra?: Record<string, unknown>): AlertRuleRecord => {
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const sent = declaredFields(bodySpec, rule);
    return ctx.store.put(
      ALERT_RULES_COLLECTION,
      mcGuid,
      withHeldFields<AlertRuleRecord>(
        {
          ...sent,
          mcGuid,
          type: 'Event',
          intgGuidList: once(rule.intgGuidList),
          filters: {
            ...(sent.filters as object),
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
  };

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
