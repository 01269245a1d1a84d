import { randomUUID } from 'node:crypto';
import {
  DEFAULT_BODY_LIMITS,
  HttpError,
  checkItemCount,
  checkLength,
  holds,
  invalid,
  json,
  noContent,
  quote,
  quoteKey,
  type EmulatorRequest,
  type Router,
} from '../core/index.js';
import { API_PREFIX, POLICY_EXCEPTIONS, type SecContext } from './context.js';
import { findPolicy, type PolicyRecord } from './policies.js';

/** A value of a constraint: a plain string, or a key with a list of values (or, the older form, one value). */
export type ConstraintValueRecord = string | { key: string; value: string[] | string };

export interface PolicyExceptionRecord {
  exceptionId: string;
  /** Kept with the record so the policy's deletion can remove it; not part of the API's answers. */
  policyId: string;
  description: string;
  constraints: { fieldKey: string; fieldValues: ConstraintValueRecord[] }[];
  lastUpdateTime: string;
  lastUpdateUser: string;
}

const BASE = `${API_PREFIX}/${POLICY_EXCEPTIONS}`;

export function registerPolicyExceptionRoutes(router: Router, ctx: SecContext): void {
  router.add('POST', BASE, (request) => {
    const policy = policyOf(ctx, request);
    const body = parseBody(request.body, policy);
    const record: PolicyExceptionRecord = {
      exceptionId: randomUUID(),
      policyId: policy.policyId,
      ...body,
      lastUpdateTime: ctx.clock.nowIso(),
      lastUpdateUser: ctx.username,
    };
    ctx.store.put(POLICY_EXCEPTIONS, record.exceptionId, record);
    return json(201, { data: view(record) });
  });

  router.add('GET', BASE, (request) => {
    const policy = policyOf(ctx, request);
    const records = ctx.store
      .list<PolicyExceptionRecord>(POLICY_EXCEPTIONS)
      .filter((r) => r.policyId === policy.policyId);
    return json(200, { data: records.map(view) });
  });

  router.add('GET', `${BASE}/:id`, (request) => json(200, { data: view(findException(ctx, request)) }));

  router.add('PATCH', `${BASE}/:id`, (request) => {
    const existing = findException(ctx, request);
    const body = parseBody(request.body, findPolicy(ctx, existing.policyId), existing);
    const updated: PolicyExceptionRecord = {
      ...existing,
      ...body,
      lastUpdateTime: ctx.clock.nowIso(),
      lastUpdateUser: ctx.username,
    };
    ctx.store.put(POLICY_EXCEPTIONS, updated.exceptionId, updated);
    return json(200, { data: view(updated) });
  });

  router.add('DELETE', `${BASE}/:id`, (request) => {
    ctx.store.remove(POLICY_EXCEPTIONS, findException(ctx, request).exceptionId);
    return noContent();
  });
}

function view(record: PolicyExceptionRecord): Omit<PolicyExceptionRecord, 'policyId'> {
  const { policyId: _policyId, ...rest } = record;
  return rest;
}

/** Every call names the policy in `?policyId=`; it must exist. */
function policyOf(ctx: SecContext, request: EmulatorRequest): PolicyRecord {
  const policyId = request.query.get('policyId');
  if (!policyId) throw invalid('the query parameter policyId is required');
  return findPolicy(ctx, policyId);
}

function findException(ctx: SecContext, request: EmulatorRequest): PolicyExceptionRecord {
  const policy = policyOf(ctx, request);
  const id = request.params.id!;
  const record = ctx.store.get<PolicyExceptionRecord>(POLICY_EXCEPTIONS, id);
  if (!record || record.policyId !== policy.policyId)
    throw new HttpError(404, `exception ${quote(id)} of policy ${policy.policyId} not found`);
  return record;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Refuses a field that is neither allowed nor one the exception holds with that value (set in the console). */
function onlyKeys(value: Record<string, unknown>, allowed: string[], path: string, held?: unknown): void {
  for (const [key, item] of Object.entries(value))
    if (!allowed.includes(key) && !holds(held, key, item))
      throw invalid(`${path}.${quoteKey(key)} is not a recognised field`);
}

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * `{description, constraints[{fieldKey, fieldValues[]}]}`: each key must be one the policy's exception
 * configuration defines, used once, with values of its data type.
 */
function parseBody(
  body: unknown,
  policy: PolicyRecord,
  held?: PolicyExceptionRecord,
): Pick<PolicyExceptionRecord, 'description' | 'constraints'> {
  if (!isObject(body)) throw invalid('the request body must be a JSON object');
  onlyKeys(body, ['description', 'constraints'], 'body', held && view(held));
  if (body.description === undefined || body.description === null) throw invalid('body.description is required');
  if (!nonEmptyString(body.description)) throw invalid('body.description must be a non-empty string');
  checkLength(body.description, DEFAULT_BODY_LIMITS.characters, 'body.description');
  const constraints = body.constraints;
  if (!Array.isArray(constraints) || constraints.length === 0)
    throw invalid('body.constraints must be an array with at least 1 item');
  checkItemCount(constraints, DEFAULT_BODY_LIMITS.items, 'body.constraints');
  const defined = new Map(policy.exceptionConfiguration.constraintFields.map((f) => [f.fieldKey, f]));
  // Activity and manual policies define no constraints: nothing can be exempted from them.
  if (defined.size === 0)
    throw invalid(`policy ${policy.policyId} takes no exceptions: its exception configuration defines no constraints`);
  const used = new Set<string>();
  const parsed = constraints.map((constraint, i) => {
    const path = `body.constraints[${i}]`;
    if (!isObject(constraint)) throw invalid(`${path} must be an object`);
    onlyKeys(constraint, ['fieldKey', 'fieldValues'], path);
    const fieldKey = constraint.fieldKey;
    if (!nonEmptyString(fieldKey)) throw invalid(`${path}.fieldKey must be a non-empty string`);
    checkLength(fieldKey, DEFAULT_BODY_LIMITS.characters, `${path}.fieldKey`);
    const definition = defined.get(fieldKey);
    if (!definition) {
      throw invalid(
        `${path}.fieldKey: policy ${policy.policyId} has no exception constraint ${quote(fieldKey)}; its ` +
          `constraints: ${[...defined.keys()].join(', ')}`,
      );
    }
    if (used.has(fieldKey)) throw invalid(`${path}.fieldKey: ${fieldKey} is constrained twice`);
    used.add(fieldKey);
    const values = constraint.fieldValues;
    if (!Array.isArray(values) || values.length === 0)
      throw invalid(`${path}.fieldValues must be an array with at least 1 item`);
    checkItemCount(values, DEFAULT_BODY_LIMITS.items, `${path}.fieldValues`);
    if (!definition.multiValue && values.length > 1)
      throw invalid(`${path}.fieldValues: ${fieldKey} takes a single value`);
    values.forEach((value, j) => checkValue(value, definition.dataType, fieldKey, `${path}.fieldValues[${j}]`));
    return { fieldKey, fieldValues: values as ConstraintValueRecord[] };
  });
  return { description: body.description, constraints: parsed };
}

/** Numeric ids, or a pattern of them with `*` wildcards (every plain value accepts wildcards). */
const NUMERIC_ID = /^[0-9*]+$/;

function checkValue(value: unknown, dataType: string, fieldKey: string, path: string): void {
  if (dataType === 'String' || dataType === 'Number') {
    if (!nonEmptyString(value)) throw invalid(`${path} must be a non-empty string (${fieldKey} holds plain values)`);
    checkLength(value, DEFAULT_BODY_LIMITS.characters, path);
    if (dataType === 'Number' && !NUMERIC_ID.test(value))
      throw invalid(
        `${path} must be a numeric id, or a pattern of digits and "*" (${fieldKey} holds numeric ids; ` +
          `got ${quote(value)})`,
      );
    return;
  }
  // KVTagPair: a tag key and the value(s) it may have.
  if (!isObject(value)) throw invalid(`${path} must be an object {key, value} (${fieldKey} holds key/value pairs)`);
  onlyKeys(value, ['key', 'value'], path);
  if (!nonEmptyString(value.key)) throw invalid(`${path}.key must be a non-empty string`);
  checkLength(value.key, DEFAULT_BODY_LIMITS.characters, `${path}.key`);
  const tagValue = value.value;
  const ok =
    typeof tagValue === 'string' ||
    (Array.isArray(tagValue) && tagValue.length > 0 && tagValue.every((v) => typeof v === 'string'));
  if (!ok) throw invalid(`${path}.value must be a string or a non-empty array of strings`);
  const tagValues = typeof tagValue === 'string' ? [tagValue] : (tagValue as string[]);
  checkItemCount(tagValues, DEFAULT_BODY_LIMITS.items, `${path}.value`);
  tagValues.forEach((v, i) =>
    checkLength(
      v,
      DEFAULT_BODY_LIMITS.characters,
      typeof tagValue === 'string' ? `${path}.value` : `${path}.value[${i}]`,
    ),
  );
}
