import { randomUUID } from 'node:crypto';
import {
  declaredFields,
  heldFields,
  HttpError,
  invalid,
  json,
  noContent,
  quote,
  validate,
  withHeldFields,
  type EmulatorRequest,
  type Router,
} from '../core/index.js';
import { POLICY_EXCEPTION } from '../../wire/sec-contract/policy-exceptions.js';
import { API_PREFIX, POLICY_EXCEPTIONS, type SecContext } from './context.js';
import { findPolicy, type PolicyRecord } from './policies.js';

/** A value of a constraint: a plain string, or a key with a list of values (or, the older form, one value). */
export type ConstraintValueRecord = string | { key: string; value: string[] | string };

/** What a client sends, as the contract takes it. */
type ExceptionBody = Pick<PolicyExceptionRecord, 'description' | 'constraints'>;

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
  router.document('POST', BASE, { body: POLICY_EXCEPTION });
  router.document('PATCH', `${BASE}/:id`, { body: POLICY_EXCEPTION });
  router.add('POST', BASE, (request) => {
    const policy = policyOf(ctx, request);
    const body = parseBody(request.body, policy);
    const record: PolicyExceptionRecord = {
      // Every field the contract declares is kept as sent; then what the server sets.
      ...(declaredFields(POLICY_EXCEPTION, body) as ExceptionBody),
      exceptionId: randomUUID(),
      policyId: policy.policyId,
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
    // An update replaces the exception: what it does not send is gone, what the console set and it sends back stays.
    const updated: PolicyExceptionRecord = {
      ...withHeldFields(
        declaredFields(POLICY_EXCEPTION, body) as ExceptionBody,
        heldFields(POLICY_EXCEPTION, request.body),
      ),
      exceptionId: existing.exceptionId,
      policyId: existing.policyId,
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

/**
 * The body's shape is the contract's (src/wire/sec-contract/policy-exceptions.ts); then each key must be one
 * the policy's exception configuration defines, used once, with values of its data type.
 */
function parseBody(body: unknown, policy: PolicyRecord, held?: PolicyExceptionRecord): ExceptionBody {
  validate(POLICY_EXCEPTION, body, 'body', held && view(held));
  const sent = body as ExceptionBody;
  const defined = new Map(policy.exceptionConfiguration.constraintFields.map((f) => [f.fieldKey, f]));
  // Activity and manual policies define no constraints: nothing can be exempted from them.
  if (defined.size === 0)
    throw invalid(`policy ${policy.policyId} takes no exceptions: its exception configuration defines no constraints`);
  const used = new Set<string>();
  sent.constraints.forEach(({ fieldKey, fieldValues }, i) => {
    const path = `body.constraints[${i}]`;
    const definition = defined.get(fieldKey);
    if (!definition) {
      throw invalid(
        `${path}.fieldKey: policy ${policy.policyId} has no exception constraint ${quote(fieldKey)}; its ` +
          `constraints: ${[...defined.keys()].join(', ')}`,
      );
    }
    if (used.has(fieldKey)) throw invalid(`${path}.fieldKey: ${fieldKey} is constrained twice`);
    used.add(fieldKey);
    if (!definition.multiValue && fieldValues.length > 1)
      throw invalid(`${path}.fieldValues: ${fieldKey} takes a single value`);
    fieldValues.forEach((value, j) => checkValue(value, definition.dataType, fieldKey, `${path}.fieldValues[${j}]`));
  });
  return sent;
}

/** Numeric ids, or a pattern of them with `*` wildcards (every plain value accepts wildcards). */
const NUMERIC_ID = /^[0-9*]+$/;

/** Whether a value is of the constraint's data type: plain values (ids), or key/value pairs (tags). */
function checkValue(value: ConstraintValueRecord, dataType: string, fieldKey: string, path: string): void {
  if (dataType === 'String' || dataType === 'Number') {
    if (typeof value !== 'string' || value.trim() === '')
      throw invalid(`${path} must be a non-empty string (${fieldKey} holds plain values)`);
    if (dataType === 'Number' && !NUMERIC_ID.test(value))
      throw invalid(
        `${path} must be a numeric id, or a pattern of digits and "*" (${fieldKey} holds numeric ids; ` +
          `got ${quote(value)})`,
      );
    return;
  }
  // KVTagPair: a tag key and the value(s) it may have.
  if (!isObject(value)) throw invalid(`${path} must be an object {key, value} (${fieldKey} holds key/value pairs)`);
}
