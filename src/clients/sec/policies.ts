import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, partialUpdate, placeDeclared, readingDeclared } from './declared.js';
import { envelope, keyedRecord, optionalText, optionalTexts } from './wire.js';

export {
  POLICY_SEVERITIES,
  EVALUATION_FREQUENCIES,
  BUILT_IN_POLICY_PREFIX,
  type PolicySeverity,
  type EvaluationFrequency,
} from './policy-values.js';

/** One constraint an exception of the policy may set, e.g. `accountIds` of data type `String`. */
export interface ExceptionConstraintField {
  readonly fieldKey: string;
  /** `String` (plain values) or `KVTagPair` (key/value objects). */
  readonly dataType: string;
  readonly multiValue: boolean;
}

export interface Policy {
  readonly policyId: string;
  readonly policyType: string;
  readonly queryId: string;
  readonly title: string;
  readonly enabled: boolean;
  readonly description: string;
  readonly remediation: string;
  /** Lower-case, as the platform stores it. */
  readonly severity: string;
  readonly limit: number;
  readonly evalFrequency: string;
  readonly alertEnabled: boolean;
  /** `<profile>.<template>`, or "" when the policy has none. */
  readonly alertProfile: string;
  readonly tags: readonly string[];
  readonly owner: string;
  readonly lastUpdateTime: string;
  readonly lastUpdateUser: string;
  /** Constraint groups (e.g. `constraintFields`) → the constraints exceptions may use. */
  readonly exceptionConfiguration: Readonly<Record<string, readonly ExceptionConstraintField[]>>;
}

/** What a create sends. Severity is sent lower-case whatever the caller's form; an empty alertProfile clears it. */
export interface PolicyInput
  extends Pick<
      Policy,
      | 'policyType'
      | 'queryId'
      | 'title'
      | 'enabled'
      | 'description'
      | 'remediation'
      | 'severity'
      | 'limit'
      | 'evalFrequency'
      | 'alertEnabled'
      | 'alertProfile'
      | 'tags'
    >,
    Declaring {
  /** Appended to the tenant name to form the id (`<tenant>-<suffix>`); the platform picks one when absent. */
  readonly policyIdSuffix?: string | undefined;
}

/** An update sends the whole configuration; the id cannot change. */
export type PolicyUpdate = Omit<PolicyInput, 'policyIdSuffix'>;

/** One element of a bulk update (built-in policies): only `enabled` and `severity` change. */
export interface PolicySettings {
  readonly policyId: string;
  readonly enabled: boolean;
  readonly severity: string;
}

export interface PoliciesApi {
  /** ApiError 'invalid' for bad values or an unknown alert profile; 'conflict' when the id is taken. */
  create(input: PolicyInput, options?: CallOptions): Promise<Policy>;
  get(policyId: string, options?: CallOptions): Promise<Policy>;
  list(options?: CallOptions): Promise<Policy[]>;
  update(policyId: string, update: PolicyUpdate, options?: CallOptions): Promise<Policy>;
  delete(policyId: string, options?: CallOptions): Promise<void>;
  /** Changes several policies in one call (all or nothing); returns them as changed. */
  bulkUpdate(settings: readonly PolicySettings[], options?: CallOptions): Promise<Policy[]>;
}

const BASE = '/api/v2/Policies';

const constraintFieldSchema = z.object({ fieldKey: z.string(), dataType: z.string(), multiValue: z.boolean() });

const policySchema = readingDeclared(
  z.object({
    policyId: z.string().min(1),
    policyType: z.string(),
    queryId: z.string(),
    title: z.string(),
    enabled: z.boolean(),
    description: optionalText,
    remediation: optionalText,
    severity: z.string(),
    limit: z.number().int(),
    evalFrequency: z.string(),
    alertEnabled: z
      .boolean()
      .nullish()
      .transform((value) => value ?? false),
    alertProfile: optionalText,
    tags: optionalTexts,
    owner: optionalText,
    lastUpdateTime: optionalText,
    lastUpdateUser: optionalText,
    exceptionConfiguration: keyedRecord(z.array(constraintFieldSchema))
      .nullish()
      .transform((config) => config ?? {}),
  }),
  'Policies',
);

const one = envelope(policySchema);
const many = envelope(z.array(policySchema));

/** A create's body, or with `update` (its body's name) an update's. */
function policyBody(input: PolicyUpdate, update?: string): Record<string, unknown> {
  const body = {
    policyType: input.policyType,
    queryId: input.queryId,
    title: input.title,
    enabled: input.enabled,
    description: input.description,
    remediation: input.remediation,
    severity: input.severity.trim().toLowerCase(),
    limit: input.limit,
    evalFrequency: input.evalFrequency,
    alertEnabled: input.alertEnabled,
    alertProfile: input.alertProfile,
    tags: [...input.tags],
  };
  return placeDeclared(body, input.declared, update === undefined ? {} : partialUpdate(update));
}

export function policiesApi(http: SecHttp): PoliciesApi {
  // Policy ids are query-escaped in paths (they may carry characters such as spaces in old tenants).
  const itemCall = (method: 'GET' | 'PATCH' | 'DELETE', id: string) =>
    ({ method, path: `${BASE}/${segment(id)}`, operation: `${method} ${BASE}/{policyId}` }) as const;
  return {
    async create(input, options) {
      const body = { ...(input.policyIdSuffix ? { policyId: input.policyIdSuffix } : {}), ...policyBody(input) };
      return (await http.json({ method: 'POST', path: BASE, operation: `POST ${BASE}`, body }, one, options)).data;
    },
    async get(policyId, options) {
      return (await http.json(itemCall('GET', policyId), one, options)).data;
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
    async update(policyId, update, options) {
      return (
        await http.json({ ...itemCall('PATCH', policyId), body: policyBody(update, 'Policies:update') }, one, options)
      ).data;
    },
    async delete(policyId, options) {
      await http.empty(itemCall('DELETE', policyId), options);
    },
    async bulkUpdate(settings, options) {
      const body = settings.map((s) => ({
        policyId: s.policyId,
        enabled: s.enabled,
        severity: s.severity.trim().toLowerCase(),
      }));
      // Setting the same values twice has the same effect: safe to retry.
      const call = { method: 'PATCH', path: BASE, operation: `PATCH ${BASE}`, body, idempotent: true } as const;
      return (await http.json(call, many, options)).data;
    },
  };
}
