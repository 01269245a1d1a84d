import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, modelledWithDeclared, placeDeclared, readingDeclared } from './declared.js';
import { modelledBy, replaceKeeping } from './replace.js';
import { envelope, optionalText } from './wire.js';

/**
 * One value of a constraint: a plain string (e.g. an account id), a key with a list of values
 * (e.g. a resource tag and the tag values it may have), or — the older form — a key with one value.
 */
export type ConstraintValue = string | { readonly key: string; readonly value: readonly string[] | string };

export interface PolicyExceptionConstraint {
  /** A constraint the policy's exception configuration defines, e.g. `accountIds`, `resourceTags`. */
  readonly fieldKey: string;
  readonly fieldValues: readonly ConstraintValue[];
}

export interface PolicyException {
  readonly exceptionId: string;
  readonly description: string;
  readonly constraints: readonly PolicyExceptionConstraint[];
  readonly lastUpdateTime: string;
  readonly lastUpdateUser: string;
}

export interface PolicyExceptionInput extends Declaring {
  readonly description: string;
  readonly constraints: readonly PolicyExceptionConstraint[];
}

/** Every call names the policy the exception belongs to. */
export interface PolicyExceptionsApi {
  /** ApiError 'not_found' when the policy does not exist; 'invalid' for a constraint the policy does not define. */
  create(policyId: string, input: PolicyExceptionInput, options?: CallOptions): Promise<PolicyException>;
  get(policyId: string, exceptionId: string, options?: CallOptions): Promise<PolicyException>;
  list(policyId: string, options?: CallOptions): Promise<PolicyException[]>;
  update(
    policyId: string,
    exceptionId: string,
    input: PolicyExceptionInput,
    options?: CallOptions,
  ): Promise<PolicyException>;
  delete(policyId: string, exceptionId: string, options?: CallOptions): Promise<void>;
}

const BASE = '/api/v2/Exceptions';

const valueSchema = z.union([
  z.string(),
  z.object({ key: z.string(), value: z.union([z.array(z.string()), z.string()]) }),
]);

const exceptionSchema = readingDeclared(
  z.object({
    exceptionId: z.string().min(1),
    description: optionalText,
    constraints: z
      .array(
        z.object({
          fieldKey: z.string(),
          fieldValues: z
            .array(valueSchema)
            .nullish()
            .transform((values) => values ?? []),
        }),
      )
      .nullish()
      .transform((constraints) => constraints ?? []),
    lastUpdateTime: optionalText,
    lastUpdateUser: optionalText,
  }),
  'Exceptions',
);

const one = envelope(exceptionSchema);
const many = envelope(z.array(exceptionSchema));

const query = (policyId: string) => `?policyId=${encodeURIComponent(policyId)}`;

const body = (input: PolicyExceptionInput) =>
  placeDeclared(
    {
      description: input.description,
      constraints: input.constraints.map((c) => ({ fieldKey: c.fieldKey, fieldValues: c.fieldValues })),
    },
    input.declared,
  );

export function policyExceptionsApi(http: SecHttp): PolicyExceptionsApi {
  const itemCall = (method: 'GET' | 'PATCH' | 'DELETE', policyId: string, exceptionId: string) =>
    ({
      method,
      path: `${BASE}/${segment(exceptionId)}${query(policyId)}`,
      operation: `${method} ${BASE}/{exceptionId}?policyId={policyId}`,
    }) as const;
  return {
    async create(policyId, input, options) {
      const call = {
        method: 'POST',
        path: `${BASE}${query(policyId)}`,
        operation: `POST ${BASE}?policyId={policyId}`,
        body: body(input),
      } as const;
      return (await http.json(call, one, options)).data;
    },
    async get(policyId, exceptionId, options) {
      return (await http.json(itemCall('GET', policyId, exceptionId), one, options)).data;
    },
    async list(policyId, options) {
      const call = {
        method: 'GET',
        path: `${BASE}${query(policyId)}`,
        operation: `GET ${BASE}?policyId={policyId}`,
      } as const;
      return (await http.json(call, many, options)).data;
    },
    async update(policyId, exceptionId, input, options) {
      const call = { ...itemCall('PATCH', policyId, exceptionId), body: body(input) };
      const modelled = modelledWithDeclared(modelledBy(exceptionSchema), input.declared);
      return (await replaceKeeping(http, call, modelled, one, options)).data;
    },
    async delete(policyId, exceptionId, options) {
      await http.empty(itemCall('DELETE', policyId, exceptionId), options);
    },
  };
}
