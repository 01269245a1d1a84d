import { z } from 'zod';
import { type Declaring, modelledWithDeclared, placeDeclared, readingDeclared } from './declared.js';
import { modelledBy, withField, type Modelled } from './replace.js';
import { flag, keyedRecord, toFlag } from './wire.js';

/**
 * The platform's generic integration object, shared by alert channels, cloud accounts and
 * container registries. Families differ only in `type` strings and the shape of `data`.
 */
export interface Integration<TType extends string = string, TData = Record<string, unknown>> {
  /** Server-assigned id (the Terraform id). */
  readonly intgGuid: string;
  readonly name: string;
  /** Discriminator, e.g. "EmailUser". */
  readonly type: TType;
  readonly enabled: boolean;
  /** Organisation-level object (wire isOrg == 1). */
  readonly isOrg: boolean;
  readonly createdOrUpdatedTime: string;
  readonly createdOrUpdatedBy: string;
  readonly state?: IntegrationState | undefined;
  readonly props: Record<string, unknown>;
  /** Agentless, DSPM and scanner integrations only. */
  readonly serverToken?: { readonly serverToken: string; readonly uri: string } | undefined;
  /** Type-specific settings; secrets come back blank or absent. */
  readonly data: TData;
}

export interface IntegrationState {
  readonly ok: boolean;
  readonly lastUpdatedTime?: number | string | undefined;
  readonly lastSuccessfulTime?: number | string | undefined;
  readonly details?: Record<string, unknown> | undefined;
}

/**
 * What create and update send (update replaces name, enabled and data as a whole); `declared` holds the
 * resource's wired fields by their path in `data`.
 */
export interface IntegrationInput<TType extends string = string, TData = Record<string, unknown>> extends Declaring {
  readonly name: string;
  readonly type: TType;
  readonly enabled: boolean;
  readonly data: TData;
}

const timestamp = z.union([z.number(), z.string()]);

/** Response shape with `data` left generic; families narrow it by `type`. */
export const integrationSchema = z.object({
  intgGuid: z.string().min(1),
  name: z.string(),
  type: z.string().min(1),
  enabled: flag,
  isOrg: flag.optional().transform((value) => value ?? false),
  createdOrUpdatedTime: z.string(),
  createdOrUpdatedBy: z.string(),
  state: z
    .object({
      ok: z.boolean(),
      lastUpdatedTime: timestamp.optional(),
      lastSuccessfulTime: timestamp.optional(),
      details: keyedRecord(z.unknown()).optional(),
    })
    .optional(),
  props: keyedRecord(z.unknown())
    .nullish()
    .transform((value) => value ?? {}),
  serverToken: z.object({ serverToken: z.string(), uri: z.string() }).optional(),
  data: keyedRecord(z.unknown()),
});

/**
 * What the provider models of an integration whose `data` has this schema (see replace.ts), with the
 * fields a resource wires (`declared`, by their path in `data`).
 */
export function integrationModelled(dataSchema: z.ZodType, declared?: Declaring['declared']): Modelled {
  return withField(modelledBy(integrationSchema), 'data', modelledWithDeclared(modelledBy(dataSchema), declared));
}

/**
 * A family's schemas of `data` by type, each also reading every field the contract declares for it
 * (`<family>:<type>`, ./declared.ts): a field the platform gains is the contract's line and its wiring.
 */
export function readingDeclaredData<S extends Readonly<Record<string, z.ZodObject>>>(family: string, schemas: S): S {
  return Object.fromEntries(
    Object.entries(schemas).map(([type, schema]) => [type, readingDeclared(schema, `${family}:${type}`)]),
  ) as unknown as S;
}

/** Wire body of a create (no guid) or an update (guid included, as the platform expects). */
export function integrationBody(input: IntegrationInput<string, unknown>, intgGuid?: string): Record<string, unknown> {
  return {
    ...(intgGuid === undefined ? {} : { intgGuid }),
    name: input.name,
    type: input.type,
    enabled: toFlag(input.enabled),
    data: placeDeclared(input.data as object, input.declared),
  };
}
