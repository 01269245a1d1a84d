import { z } from 'zod';
import { REGISTRY_A_AUTH_TYPES } from '../../wire/sec-contract/container-registries.js';
import { segment, type CallOptions, type SecHttp } from './http.js';
import {
  integrationBody,
  integrationModelled,
  integrationSchema,
  readingDeclaredData,
  type Integration,
} from './integration.js';
import type { Declaring } from './declared.js';
import { replaceKeeping } from './replace.js';
import { envelope, keyedRecord, optionalTexts } from './wire.js';
import { ownEntry } from '@keel/provider-framework/client';

/**
 * Container registries and scanners (docs/api/sec.md, "Registry kinds"): one API object, ContainerRegistries,
 * whose `type` is always `ContVulnCfg`; the kind of registry is `data.registryType`. Secrets come
 * back blank or absent, so they are optional in the response schemas.
 */
export const CONTAINER_REGISTRY_API_TYPE = 'ContVulnCfg';

export { REGISTRY_B_DOMAINS, REGISTRY_C_DOMAINS, REGISTRY_D_DOMAIN, REGISTRY_F_DOMAIN } from './registry-domains.js';

export { REGISTRY_A_AUTH_TYPES };
export type RegistryAAuthType = (typeof REGISTRY_A_AUTH_TYPES)[number];

const secret = z.string().optional();
/** Labels and identifier tags: a list of single-entry maps `{<key>: <value>}`. */
const keyValues = z
  .array(keyedRecord(z.string()))
  .nullish()
  .transform((value) => value ?? []);

const limits = {
  limitByTag: optionalTexts,
  limitByLabel: keyValues,
  limitByRep: optionalTexts,
  limitNumImg: z.number().int().optional(),
};
const gcpStyleCredentials = z.object({
  clientId: z.string(),
  clientEmail: z.string(),
  privateKeyId: secret,
  privateKey: secret,
});
const userCredentials = z.object({ username: z.string(), password: secret });

export const CONTAINER_REGISTRY_DATA_SCHEMAS = readingDeclaredData('ContainerRegistries', {
  REGISTRY_A: z.object({
    registryType: z.literal('REGISTRY_A'),
    registryDomain: z.string(),
    authType: z.enum(REGISTRY_A_AUTH_TYPES),
    crossAccountCredentials: z.object({ roleArn: z.string(), externalId: z.string() }).optional(),
    accessKeyCredentials: z.object({ accessKeyId: z.string(), secretAccessKey: secret }).optional(),
    ...limits,
    nonOsPackageEval: z.boolean().optional(),
  }),
  REGISTRY_B: z.object({
    registryType: z.literal('REGISTRY_B'),
    registryDomain: z.string(),
    credentials: gcpStyleCredentials,
    ...limits,
    nonOsPackageEval: z.boolean().optional(),
  }),
  REGISTRY_C: z.object({
    registryType: z.literal('REGISTRY_C'),
    registryDomain: z.string(),
    credentials: gcpStyleCredentials,
    ...limits,
    nonOsPackageEval: z.boolean().optional(),
  }),
  REGISTRY_D: z.object({
    registryType: z.literal('REGISTRY_D'),
    registryDomain: z.string(),
    credentials: userCredentials,
    ...limits,
    nonOsPackageEval: z.boolean().optional(),
  }),
  REGISTRY_E: z.object({
    registryType: z.literal('REGISTRY_E'),
    registryDomain: z.string(),
    credentials: userCredentials.extend({ ssl: z.boolean().optional() }),
    registryNotifications: z.boolean().optional(),
    limitByTag: optionalTexts,
    limitByLabel: keyValues,
    nonOsPackageEval: z.boolean().optional(),
  }),
  REGISTRY_F: z.object({
    registryType: z.literal('REGISTRY_F'),
    registryDomain: z.string(),
    credentials: userCredentials.extend({ ssl: z.boolean().optional() }),
    registryNotifications: z.boolean().optional(),
    ...limits,
    nonOsPackageEval: z.boolean().optional(),
  }),
  PROXY_SCANNER: z.object({ registryType: z.literal('PROXY_SCANNER'), ...limits }),
  INLINE_SCANNER: z.object({
    registryType: z.literal('INLINE_SCANNER'),
    identifierTag: keyValues,
    /** The platform keeps this number as a string. */
    limitNumScan: z.string().optional(),
  }),
} as const);

export type RegistryType = keyof typeof CONTAINER_REGISTRY_DATA_SCHEMAS;
export const REGISTRY_TYPES = Object.keys(CONTAINER_REGISTRY_DATA_SCHEMAS) as RegistryType[];

export type ContainerRegistryData<T extends RegistryType> = z.output<(typeof CONTAINER_REGISTRY_DATA_SCHEMAS)[T]>;

/** A registry or scanner; narrow on `data.registryType`. */
export type ContainerRegistry<T extends RegistryType = RegistryType> = {
  [K in T]: Integration<typeof CONTAINER_REGISTRY_API_TYPE, ContainerRegistryData<K>>;
}[T];

/** What create and update send; `type` is implied. Lists may be left out. */
export interface ContainerRegistryInput<T extends RegistryType> extends Declaring {
  readonly name: string;
  readonly enabled: boolean;
  readonly data: z.input<(typeof CONTAINER_REGISTRY_DATA_SCHEMAS)[T]>;
}

export interface ContainerRegistriesApi {
  create<T extends RegistryType>(
    input: ContainerRegistryInput<T>,
    options?: CallOptions,
  ): Promise<ContainerRegistry<T>>;
  /** ApiError 'not_found' when it does not exist. */
  get(intgGuid: string, options?: CallOptions): Promise<ContainerRegistry>;
  /** Replaces name, enabled and data; the registry type cannot change. */
  update<T extends RegistryType>(
    intgGuid: string,
    input: ContainerRegistryInput<T>,
    options?: CallOptions,
  ): Promise<ContainerRegistry<T>>;
  delete(intgGuid: string, options?: CallOptions): Promise<void>;
  list(options?: CallOptions): Promise<ContainerRegistry[]>;
}

const BASE = '/api/v2/ContainerRegistries';

/** The generic integration, with `data` checked against the schema of its registry type. */
const containerRegistrySchema = integrationSchema.transform((integration, ctx) => {
  if (integration.type !== CONTAINER_REGISTRY_API_TYPE) {
    ctx.addIssue({
      code: 'custom',
      path: ['type'],
      message: `expected ${JSON.stringify(CONTAINER_REGISTRY_API_TYPE)}, got ${JSON.stringify(integration.type)}`,
    });
    return z.NEVER;
  }
  const registryType = integration.data.registryType;
  const dataSchema =
    typeof registryType === 'string'
      ? (ownEntry(CONTAINER_REGISTRY_DATA_SCHEMAS, registryType) as z.ZodType | undefined)
      : undefined;
  if (!dataSchema) {
    ctx.addIssue({
      code: 'custom',
      path: ['data', 'registryType'],
      message: `unsupported registry type ${JSON.stringify(registryType)}`,
    });
    return z.NEVER;
  }
  const data = dataSchema.safeParse(integration.data);
  if (!data.success) {
    for (const issue of data.error.issues)
      ctx.addIssue({ code: 'custom', path: ['data', ...issue.path], message: issue.message });
    return z.NEVER;
  }
  return { ...integration, type: CONTAINER_REGISTRY_API_TYPE, data: data.data } as ContainerRegistry;
});

const one = envelope(containerRegistrySchema);
const many = envelope(z.array(containerRegistrySchema));

const body = <T extends RegistryType>(input: ContainerRegistryInput<T>, intgGuid?: string) =>
  integrationBody(
    {
      name: input.name,
      type: CONTAINER_REGISTRY_API_TYPE,
      enabled: input.enabled,
      data: input.data,
      declared: input.declared,
    },
    intgGuid,
  );

export function containerRegistriesApi(http: SecHttp): ContainerRegistriesApi {
  return {
    async create<T extends RegistryType>(input: ContainerRegistryInput<T>, options?: CallOptions) {
      const call = { method: 'POST', path: BASE, operation: `POST ${BASE}`, body: body(input) } as const;
      // The platform answers with the type it was sent (checked by the schema).
      return (await http.json(call, one, options)).data as unknown as ContainerRegistry<T>;
    },
    async get(intgGuid, options) {
      const call = {
        method: 'GET',
        path: `${BASE}/${segment(intgGuid)}`,
        operation: `GET ${BASE}/{intgGuid}`,
      } as const;
      return (await http.json(call, one, options)).data;
    },
    async update<T extends RegistryType>(intgGuid: string, input: ContainerRegistryInput<T>, options?: CallOptions) {
      const call = {
        method: 'PATCH',
        path: `${BASE}/${segment(intgGuid)}`,
        operation: `PATCH ${BASE}/{intgGuid}`,
        body: body(input, intgGuid),
      } as const;
      const schema = CONTAINER_REGISTRY_DATA_SCHEMAS[input.data.registryType as T];
      const modelled = integrationModelled(schema, input.declared);
      return (await replaceKeeping(http, call, modelled, one, options)).data as unknown as ContainerRegistry<T>;
    },
    async delete(intgGuid, options) {
      await http.empty(
        { method: 'DELETE', path: `${BASE}/${segment(intgGuid)}`, operation: `DELETE ${BASE}/{intgGuid}` },
        options,
      );
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
  };
}
