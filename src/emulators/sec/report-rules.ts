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
import type { IntegrationRecord } from './integrations.js';
import { RESOURCE_GROUPS_COLLECTION } from './resource-groups.js';

export const REPORT_RULES_COLLECTION = 'ReportRules';
const BASE = `${API_PREFIX}/${REPORT_RULES_COLLECTION}`;

/** The notification flags every rule carries (neutral keys, docs/api/sec.md, "Report notification keys"). */
export const REPORT_NOTIFICATION_KEYS = [
  'pci',
  'cloudACisS3',
  'soc',
  'cloudASocRev2',
  'hipaa',
  'iso2700',
  'nist800-171Rev2',
  'nist800-53Rev4',
  'cloudBPci',
  'cloudBPciRev2',
  'cloudBCis',
  'cloudBCis12',
  'cloudBSoc',
  'cloudBSocRev2',
  'cloudBHipaa',
  'cloudBHipaaRev2',
  'cloudBIso27001',
  'cloudBK8s',
  'cloudCPci',
  'cloudCCis',
  'cloudCSoc',
  'cloudCCis131',
  'cloudATrailEvents',
  'cloudAComplianceEvents',
  'cloudCActivityLogEvents',
  'cloudCComplianceEvents',
  'cloudBAuditTrailEvents',
  'cloudBComplianceEvents',
  'clusterDistroCompliance',
  'clusterDistroComplianceEvents',
  'platformEvents',
  'agentEvents',
  'trendReport',
] as const;

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

const bodySpec = field.object({
  mcGuid: field.string({ optional: true }),
  type: field.string({ oneOf: ['Report'] }),
  intgGuidList: field.array(field.string(), { minItems: 1 }),
  filters: field.object({
    name: field.string(),
    description: field.string({ optional: true, allowEmpty: true }),
    enabled: field.flag(),
    severity: field.array(field.integer({ min: 1, max: 5 }), { minItems: 1 }),
    resourceGroups: field.array(field.string(), { optional: true }),
    // Read-only fields a client may send back; ignored.
    createdOrUpdatedTime: field.string({ optional: true, allowEmpty: true }),
    createdOrUpdatedBy: field.string({ optional: true, allowEmpty: true }),
  }),
  // The platform keeps the complete set, so every flag must be given.
  reportNotificationTypes: field.object(
    Object.fromEntries(REPORT_NOTIFICATION_KEYS.map((key) => [key, field.boolean()])),
  ),
});

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
    const record: ReportRuleRecord = {
      mcGuid,
      type: 'Report',
      intgGuidList: [...new Set(rule.intgGuidList)],
      filters: {
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
