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
import { REPORT_RULE_BODIES } from '../../wire/sec-contract/report-rules.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';
import type { IntegrationRecord } from './integrations.js';
import { RESOURCE_GROUPS_COLLECTION } from './resource-groups.js';

export const REPORT_RULES_COLLECTION = 'ReportRules';
const BASE = `${API_PREFIX}/${REPORT_RULES_COLLECTION}`;

export interface ReportRuleRecord {
  mcGuid: string;
  type: 'Report';
  intgGuidList: string[];
  filters: {
    name: string;
    description: string;
    enabled: 0 | 1;
    severity: number[];
    resourceGroups: string[];
    createdOrUpdatedTime: string;
    createdOrUpdatedBy: string;
  };
  reportNotificationTypes: Record<string, boolean>;
}

const bodySpec = REPORT_RULE_BODIES.ReportRules!;

type RuleBody = Omit<ReportRuleRecord, 'mcGuid' | 'filters'> & {
  mcGuid?: string;
  filters: Omit<ReportRuleRecord['filters'], 'createdOrUpdatedTime' | 'createdOrUpdatedBy'>;
};

export function registerReportRuleRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: bodySpec });
  router.document('PATCH', `${BASE}/:mcGuid`, { body: bodySpec });
  const parse = (body: unknown, mcGuid: string | undefined, held?: ReportRuleRecord): RuleBody => {
    validate(bodySpec, body, 'body', held);
    const rule = body as RuleBody;
    if (mcGuid === undefined && rule.mcGuid !== undefined)
      throw invalid('body.mcGuid is assigned by the server and must not be sent on create');
    if (mcGuid !== undefined && rule.mcGuid !== undefined && rule.mcGuid !== mcGuid) {
      throw invalid(`body.mcGuid (${quote(rule.mcGuid)}) does not match the path`);
    }
    checkReferences(ctx, rule);
    return rule;
  };
  // An update replaces the rule: what it does not send is gone, what the console set and it sends back stays.
  const store = (mcGuid: string, rule: RuleBody, extra?: Record<string, unknown>): ReportRuleRecord => {
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const sent = declaredFields(bodySpec, rule) as Partial<ReportRuleRecord>;
    const record: ReportRuleRecord = {
      ...sent,
      mcGuid,
      type: 'Report',
      intgGuidList: [...new Set(rule.intgGuidList)],
      filters: {
        ...sent.filters!,
        name: rule.filters.name,
        description: rule.filters.description ?? '',
        enabled: rule.filters.enabled,
        // The platform keeps severities once each, in ascending order.
        severity: [...new Set(rule.filters.severity)].sort((a, b) => a - b),
        resourceGroups: [...new Set(rule.filters.resourceGroups ?? [])],
        createdOrUpdatedTime: ctx.clock.nowIso(),
        createdOrUpdatedBy: ctx.username,
      },
      reportNotificationTypes: { ...rule.reportNotificationTypes },
    };
    return ctx.store.put(REPORT_RULES_COLLECTION, mcGuid, withHeldFields(record, extra));
  };

  router.add('POST', BASE, (request) => {
    const rule = parse(request.body, undefined);
    return json(201, { data: store(prefixedId(ctx.account.toUpperCase()), rule) });
  });
  router.add('GET', BASE, () => json(200, { data: ctx.store.list(REPORT_RULES_COLLECTION) }));
  router.add('GET', `${BASE}/:mcGuid`, (request) => json(200, { data: find(ctx, request.params.mcGuid!) }));
  router.add('PATCH', `${BASE}/:mcGuid`, (request) => {
    const existing = find(ctx, request.params.mcGuid!);
    const rule = parse(request.body, existing.mcGuid, existing);
    return json(200, { data: store(existing.mcGuid, rule, heldFields(bodySpec, request.body)) });
  });
  router.add('DELETE', `${BASE}/:mcGuid`, (request) => {
    ctx.store.remove(REPORT_RULES_COLLECTION, find(ctx, request.params.mcGuid!).mcGuid);
    return noContent();
  });
}

function find(ctx: SecContext, mcGuid: string): ReportRuleRecord {
  const record = ctx.store.get<ReportRuleRecord>(REPORT_RULES_COLLECTION, mcGuid);
  if (!record) throw new HttpError(404, `report rule ${quote(mcGuid)} not found`);
  return record;
}

/** Reports go to existing e-mail channels and cover existing resource groups. */
function checkReferences(ctx: SecContext, rule: RuleBody): void {
  rule.intgGuidList.forEach((guid, index) => {
    const channel = ctx.store.get<IntegrationRecord>(SEC_COLLECTIONS.alertChannels, guid);
    if (!channel) throw invalid(`body.intgGuidList[${index}]: there is no alert channel ${quote(guid)}`);
    if (channel.type !== 'EmailUser') {
      throw invalid(
        `body.intgGuidList[${index}]: alert channel ${quote(guid)} is of type ${channel.type}; reports go to e-mail ` +
          `channels (EmailUser) only`,
      );
    }
  });
  (rule.filters.resourceGroups ?? []).forEach((guid, index) => {
    if (!ctx.store.has(RESOURCE_GROUPS_COLLECTION, guid))
      throw invalid(`body.filters.resourceGroups[${index}]: there is no resource group ${quote(guid)}`);
  });
}
