import {
  declaredFields,
  HttpError,
  invalid,
  json,
  noContent,
  quote,
  validate,
  type ObjectSpec,
  type Router,
} from '../core/index.js';
import { ownEntry } from '../../../packages/framework/src/wire/own-entry.js';
import { POLICY_BODIES } from '../../wire/sec-contract/policies.js';
import { ALERT_PROFILES, templateNames, type AlertProfileRecord } from './alert-profiles.js';
import { BUILT_IN_POLICY_CATALOGUE, type ConstraintDataType } from './catalogue/policies.js';
import { API_PREFIX, POLICIES, POLICY_EXCEPTIONS, QUERIES, type SecContext } from './context.js';

/** Ids of the platform's own policies start with this; they cannot be created or deleted. */
export const BUILT_IN_POLICY_PREFIX = 'platform-global';

const DEFAULT_LIMIT = 1000;

export interface ConstraintFieldRecord {
  fieldKey: string;
  /** `String`: plain values; `Number`: numeric ids; `KVTagPair`: `{key, value}` objects. */
  dataType: ConstraintDataType;
  multiValue: boolean;
}

export interface PolicyRecord {
  policyId: string;
  policyType: string;
  queryId: string;
  title: string;
  enabled: boolean;
  description: string;
  remediation: string;
  /** Lower-case. */
  severity: string;
  limit: number;
  evalFrequency: string;
  alertEnabled: boolean;
  alertProfile: string;
  tags: string[];
  owner: string;
  lastUpdateTime: string;
  lastUpdateUser: string;
  exceptionConfiguration: { constraintFields: ConstraintFieldRecord[] };
}

const BASE = `${API_PREFIX}/${POLICIES}`;

const createSpec = POLICY_BODIES.Policies!;
const updateSpec = POLICY_BODIES['Policies:update']!;
const bulkSpec = POLICY_BODIES['Policies:bulk']!;

/** What a change of a built-in policy may touch. */
const BUILT_IN_CHANGEABLE = new Set(['policyId', 'enabled', 'severity', 'alertEnabled', 'alertProfile']);

type PolicyBody = Partial<Omit<PolicyRecord, 'owner' | 'lastUpdateTime' | 'lastUpdateUser' | 'exceptionConfiguration'>>;

export function registerPolicyRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: createSpec });
  router.document('PATCH', `${BASE}/:id`, { body: updateSpec });
  router.document('PATCH', BASE, { body: bulkSpec });
  const tenant = ctx.account.toLowerCase();
  let nextNumber = 1;
  for (const policy of builtInPolicies(ctx)) ctx.store.put(POLICIES, policy.policyId, policy);

  router.add('POST', BASE, (request) => {
    validate(createSpec, request.body, 'body');
    const body = request.body as PolicyBody &
      Pick<PolicyRecord, 'policyType' | 'queryId' | 'title' | 'enabled' | 'description' | 'remediation' | 'severity'>;
    let policyId: string;
    if (body.policyId !== undefined && body.policyId !== null) {
      policyId = `${tenant}-${body.policyId}`;
      if (ctx.store.has(POLICIES, policyId))
        throw new HttpError(409, `a policy with id ${quote(policyId)} already exists`);
    } else {
      do policyId = `${tenant}-${nextNumber++}`;
      while (ctx.store.has(POLICIES, policyId));
    }
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const record: PolicyRecord = {
      ...declaredFields(createSpec, body),
      policyId,
      policyType: body.policyType,
      queryId: body.queryId,
      title: body.title,
      enabled: body.enabled,
      description: body.description,
      remediation: body.remediation,
      severity: body.severity.trim().toLowerCase(),
      limit: body.limit ?? DEFAULT_LIMIT,
      // Compliance is assessed daily.
      evalFrequency: body.evalFrequency ?? (body.policyType === 'Compliance' ? 'Daily' : 'Hourly'),
      alertEnabled: body.alertEnabled ?? false,
      alertProfile: body.alertProfile ?? '',
      tags: body.tags ?? [],
      owner: ctx.username,
      lastUpdateTime: ctx.clock.nowIso(),
      lastUpdateUser: ctx.username,
      exceptionConfiguration: { constraintFields: CUSTOM_CONSTRAINTS },
    };
    checkQuery(ctx, record);
    checkAlerting(ctx, record);
    ctx.store.put(POLICIES, policyId, record);
    return json(201, { data: record, message: 'SUCCESS' });
  });

  router.add('GET', BASE, () => json(200, { data: ctx.store.list<PolicyRecord>(POLICIES) }));

  router.add('GET', `${BASE}/Tags`, () => {
    const tags = new Set(ctx.store.list<PolicyRecord>(POLICIES).flatMap((p) => p.tags));
    return json(200, { data: [...tags].sort() });
  });

  router.add('GET', `${BASE}/:id`, (request) => json(200, { data: findPolicy(ctx, request.params.id!) }));

  router.add('PATCH', `${BASE}/:id`, (request) => {
    const existing = findPolicy(ctx, request.params.id!);
    validate(updateSpec, request.body, 'body');
    const body = request.body as PolicyBody;
    if (body.policyId !== undefined && body.policyId !== null && body.policyId !== existing.policyId) {
      throw invalid(`body.policyId: the id of an existing policy cannot be changed (${existing.policyId})`);
    }
    if (
      body.policyType !== undefined &&
      body.policyType !== null &&
      body.policyType !== existing.policyType &&
      !isBuiltIn(existing)
    ) {
      throw invalid(`body.policyType: the type of an existing policy cannot be changed (${existing.policyType})`);
    }
    if (isBuiltIn(existing)) {
      for (const [key, value] of Object.entries(body)) {
        if (value === undefined || value === null || BUILT_IN_CHANGEABLE.has(key)) continue;
        if (JSON.stringify(value) !== JSON.stringify(existing[key as keyof PolicyRecord])) {
          throw invalid(
            `body.${key}: ${existing.policyId} is a built-in policy; only enabled, severity, alertEnabled and ` +
              `alertProfile can be changed`,
          );
        }
      }
    }
    const updated: PolicyRecord = { ...existing, lastUpdateTime: ctx.clock.nowIso(), lastUpdateUser: ctx.username };
    for (const [key, value] of Object.entries(body)) {
      // A null clears a field a policy may lack; any other field keeps its value.
      if (value === null && ownEntry((createSpec as ObjectSpec).fields, key)?.optional)
        delete (updated as unknown as Record<string, unknown>)[key];
      if (value === undefined || value === null || key === 'policyId') continue;
      (updated as unknown as Record<string, unknown>)[key] =
        key === 'severity' ? (value as string).trim().toLowerCase() : value;
    }
    if (!isBuiltIn(existing)) checkQuery(ctx, updated);
    checkAlerting(ctx, updated);
    ctx.store.put(POLICIES, updated.policyId, updated);
    return json(200, { data: updated, message: 'SUCCESS' });
  });

  router.add('DELETE', `${BASE}/:id`, (request) => {
    const existing = findPolicy(ctx, request.params.id!);
    if (isBuiltIn(existing))
      throw invalid(`${existing.policyId} is a built-in policy and cannot be deleted; disable it instead`);
    ctx.store.remove(POLICIES, existing.policyId);
    for (const exception of ctx.store.list<{ exceptionId: string; policyId: string }>(POLICY_EXCEPTIONS)) {
      if (exception.policyId === existing.policyId) ctx.store.remove(POLICY_EXCEPTIONS, exception.exceptionId);
    }
    return noContent();
  });

  // Bulk change of enabled/severity, all or nothing (the managed-policies resource uses it).
  router.add('PATCH', BASE, (request) => {
    validate(bulkSpec, request.body, 'body');
    const items = request.body as { policyId: string; enabled?: boolean; severity?: string }[];
    const seen = new Set<string>();
    const targets = items.map((item, index) => {
      if (seen.has(item.policyId)) throw invalid(`body[${index}].policyId: ${quote(item.policyId)} is listed twice`);
      seen.add(item.policyId);
      return findPolicy(ctx, item.policyId);
    });
    const now = ctx.clock.nowIso();
    const updated = targets.map((policy, index) => {
      const item = items[index]!;
      const next: PolicyRecord = {
        ...policy,
        enabled: item.enabled ?? policy.enabled,
        severity:
          item.severity === undefined || item.severity === null ? policy.severity : item.severity.trim().toLowerCase(),
        lastUpdateTime: now,
        lastUpdateUser: ctx.username,
      };
      ctx.store.put(POLICIES, next.policyId, next);
      return next;
    });
    return json(200, { data: updated, message: 'SUCCESS' });
  });
}

export function findPolicy(ctx: SecContext, id: string): PolicyRecord {
  const record = ctx.store.get<PolicyRecord>(POLICIES, id);
  if (!record) throw new HttpError(404, `policy ${quote(id)} not found`);
  return record;
}

const isBuiltIn = (policy: PolicyRecord) => policy.policyId.startsWith(BUILT_IN_POLICY_PREFIX);

/** A custom policy evaluates an existing query: one of the account's, or a built-in one. */
function checkQuery(ctx: SecContext, policy: PolicyRecord): void {
  if (!ctx.store.has(QUERIES, policy.queryId))
    throw invalid(`body.queryId: there is no query ${quote(policy.queryId)}; create the query first`);
}

/**
 * `alertProfile` names an existing profile, with one of its templates (`<profile>.<template>`) or
 * alone (`<profile>`: the platform then alerts with the profile's default template, so the profile
 * must have templates). Alerting needs a profile.
 */
function checkAlerting(ctx: SecContext, policy: PolicyRecord): void {
  const ref = policy.alertProfile;
  if (ref === '') {
    // Compliance policies alert without a profile of their own.
    if (policy.alertEnabled && policy.policyType !== 'Compliance')
      throw invalid('body.alertProfile is required when alertEnabled is true');
    return;
  }
  // The contract's pattern holds the reference to `<profile>` or `<profile>.<template>`, neither empty.
  const dot = ref.indexOf('.');
  const profileId = dot < 0 ? ref : ref.slice(0, dot);
  const templateName = dot < 0 ? undefined : ref.slice(dot + 1);
  const profile = ctx.store.get<AlertProfileRecord>(ALERT_PROFILES, profileId);
  if (!profile) throw invalid(`body.alertProfile: there is no alert profile ${quote(profileId)}`);
  const templates = templateNames(ctx, profile);
  if (templateName === undefined) {
    if (templates.size === 0)
      throw invalid(
        `body.alertProfile: alert profile ${profileId} has no template to alert with; name a profile that has ` +
          `templates`,
      );
    return;
  }
  if (!templates.has(templateName)) {
    throw invalid(
      `body.alertProfile: alert profile ${profileId} has no template ${quote(templateName)}; its ` +
        `templates: ${[...templates].join(', ')}`,
    );
  }
}

/** What exceptions of a custom policy may constrain. */
const CUSTOM_CONSTRAINTS: ConstraintFieldRecord[] = [
  { fieldKey: 'accountIds', dataType: 'String', multiValue: true },
  { fieldKey: 'regionNames', dataType: 'String', multiValue: true },
  { fieldKey: 'resourceNames', dataType: 'String', multiValue: true },
  { fieldKey: 'resourceTags', dataType: 'KVTagPair', multiValue: true },
];

/** The platform's own policies, present in every account (the managed-policies resource tunes them). */
function builtInPolicies(ctx: SecContext): PolicyRecord[] {
  const now = ctx.clock.nowIso();
  return BUILT_IN_POLICY_CATALOGUE.map((entry) => ({
    policyId: `${BUILT_IN_POLICY_PREFIX}-${entry.number}`,
    policyType: entry.policyType,
    queryId: entry.queryId,
    title: entry.title,
    enabled: entry.enabled,
    description: entry.description,
    remediation: entry.remediation,
    severity: entry.severity,
    limit: DEFAULT_LIMIT,
    evalFrequency: entry.evalFrequency,
    alertEnabled: entry.alertEnabled,
    alertProfile: entry.alertProfile,
    tags: [...entry.tags],
    owner: 'Platform',
    lastUpdateTime: now,
    lastUpdateUser: 'Platform',
    exceptionConfiguration: { constraintFields: entry.constraints.map((c) => ({ ...c })) },
  }));
}
