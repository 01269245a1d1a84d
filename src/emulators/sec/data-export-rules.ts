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
import { DATA_EXPORT_RULE_BODIES } from '../../wire/sec-contract/data-export-rules.js';
import { API_PREFIX, SEC_COLLECTIONS, type SecContext } from './context.js';
import type { IntegrationRecord } from './integrations.js';

export const DATA_EXPORT_RULES_COLLECTION = 'DataExportRules';
const BASE = `${API_PREFIX}/${DATA_EXPORT_RULES_COLLECTION}`;
/** The alert channel type data is exported to. */
const OBJECT_STORE_CHANNEL = 'CloudAObjectStore';

export interface DataExportRuleRecord {
  mcGuid: string;
  type: 'Dataexport';
  intgGuidList: string[];
  filters: {
    name: string;
    description: string;
    enabled: 0 | 1;
    profileVersions: string[];
    createdOrUpdatedTime: string;
    createdOrUpdatedBy: string;
  };
}

const bodySpec = DATA_EXPORT_RULE_BODIES.DataExportRules!;

type RuleBody = {
  mcGuid?: string;
  intgGuidList: string[];
  filters: { name: string; description?: string | null; enabled: 0 | 1; profileVersions?: string[] | null };
};

export function registerDataExportRuleRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: bodySpec });
  router.document('PATCH', `${BASE}/:mcGuid`, { body: bodySpec });
  const parse = (body: unknown, mcGuid: string | undefined, held?: DataExportRuleRecord): RuleBody => {
    validate(bodySpec, body, 'body', held);
    const rule = body as RuleBody;
    if (mcGuid === undefined && rule.mcGuid !== undefined)
      throw invalid('body.mcGuid is assigned by the server and must not be sent on create');
    if (mcGuid !== undefined && rule.mcGuid !== undefined && rule.mcGuid !== mcGuid)
      throw invalid(`body.mcGuid (${quote(rule.mcGuid)}) does not match the path`);
    // Data is exported to object-store alert channels only.
    rule.intgGuidList.forEach((guid, index) => {
      const channel = ctx.store.get<IntegrationRecord>(SEC_COLLECTIONS.alertChannels, guid);
      if (!channel) throw invalid(`body.intgGuidList[${index}]: there is no alert channel ${quote(guid)}`);
      if (channel.type !== OBJECT_STORE_CHANNEL) {
        throw invalid(
          `body.intgGuidList[${index}]: alert channel ${quote(guid)} is of type ${channel.type}; data is exported to ` +
            `object-store channels (${OBJECT_STORE_CHANNEL}) only`,
        );
      }
    });
    return rule;
  };
  // An update replaces the rule: what it does not send is gone, what the console set and it sends back stays.
  const store = (mcGuid: string, rule: RuleBody, extra?: Record<string, unknown>): DataExportRuleRecord => {
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const sent = declaredFields(bodySpec, rule);
    return ctx.store.put(
      DATA_EXPORT_RULES_COLLECTION,
      mcGuid,
      withHeldFields<DataExportRuleRecord>(
        {
          ...sent,
          mcGuid,
          type: 'Dataexport',
          intgGuidList: [...new Set(rule.intgGuidList)],
          filters: {
            ...(sent.filters as object),
            name: rule.filters.name,
            description: rule.filters.description ?? '',
            enabled: rule.filters.enabled,
            profileVersions: [...(rule.filters.profileVersions ?? [])],
            createdOrUpdatedTime: ctx.clock.nowIso(),
            createdOrUpdatedBy: ctx.username,
          },
        },
        extra,
      ),
    );
  };

  router.add('POST', BASE, (request) =>
    json(201, {
      data: store(prefixedId(ctx.account.toUpperCase()), parse(request.body, undefined)),
      message: 'SUCCESS',
    }),
  );
  router.add('GET', BASE, () => json(200, { data: ctx.store.list(DATA_EXPORT_RULES_COLLECTION) }));
  router.add('GET', `${BASE}/:mcGuid`, (request) => json(200, { data: find(ctx, request.params.mcGuid!) }));
  router.add('PATCH', `${BASE}/:mcGuid`, (request) => {
    const existing = find(ctx, request.params.mcGuid!);
    const rule = parse(request.body, existing.mcGuid, existing);
    const data = store(existing.mcGuid, rule, heldFields(bodySpec, request.body));
    return json(200, { data, message: 'SUCCESS' });
  });
  router.add('DELETE', `${BASE}/:mcGuid`, (request) => {
    ctx.store.remove(DATA_EXPORT_RULES_COLLECTION, find(ctx, request.params.mcGuid!).mcGuid);
    return noContent();
  });
}

function find(ctx: SecContext, mcGuid: string): DataExportRuleRecord {
  const record = ctx.store.get<DataExportRuleRecord>(DATA_EXPORT_RULES_COLLECTION, mcGuid);
  if (!record) throw new HttpError(404, `data export rule ${quote(mcGuid)} not found`);
  return record;
}
