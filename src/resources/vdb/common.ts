/**
 * What every vdb resource shares: the provider context, the account id rule
 * (docs/api/vdb.md, "Account ids on resources": a resource's own `account_id` wins over the
 * provider's), composite import ids, and the nested shapes several resources use (key/value pairs,
 * tolerations, Kubernetes secret references).
 */
import {
  attr,
  type AttrDef,
  type AttributePath,
  attrStep,
  block,
  type ConfigModelOf,
  DiagnosticError,
  type Diagnostics,
  durationToNanos,
  type Fields,
  type IdentityAttributeDef,
  type IdentityDef,
  isApiError,
  type ModelOf,
  nanosToDuration,
  t,
  type Typed,
  validators,
} from '@keel/provider-framework';
import type {
  KeyValue,
  ProtoDuration,
  Toleration,
  TolerationEffect,
  TolerationOperator,
  VdbClient,
} from '../../clients/vdb/api.js';
import { formatGoDuration, parseGoDuration } from './formats.js';
import { apiFieldsNamed, apiItems, apiRules, sharedApiRules } from './rules.js';
import { heldInCode, combinations } from './rules-held.js';

/** What the provider's configure returns: the API client and the provider-level default account. */
export interface VdbContext {
  readonly api: VdbClient;
  /** The management API's address as configured (`api_url`), never a credential. */
  readonly address: string;
  readonly defaultAccountId: string | null;
  /** Why there is no default account where the provider block gives `account_id` empty (for messages). */
  readonly noDefaultAccount?: string;
}

/** Every request's and object's `account_id`: one value, one rule. */
export const ACCOUNT_ID = sharedApiRules(apiFieldsNamed('account_id'));

/** The `account_id` attribute of a resource: its own value wins over the provider's. */
export const accountIdField = () =>
  attr.string({
    optional: true,
    computed: true,
    replace: true,
    validate: ACCOUNT_ID,
    refersTo: 'an account',
    description:
      "The account the object belongs to. Defaults to the provider's `account_id`; after a read it holds the account " +
      'the platform reports. An object cannot move to another account, so a change creates a new one.',
  });

/** The `account_id` filter of a list resource: the account to list, the provider's by default. */
export const accountFilter = (what: string) =>
  attr.string({
    optional: true,
    validate: ACCOUNT_ID,
    description: `The account whose ${what} are listed. Defaults to the provider's \`account_id\`.`,
  });

/**
 * The `account_id` of an identity: optional in an `import` block, and, where the resource leaves
 * it empty, the provider's account, which is where the object lives.
 */
export function accountIdentityAttribute(description: string): IdentityAttributeDef<VdbContext> {
  return { description, forImport: 'optional', providerDefault: (client) => client.defaultAccountId };
}

/** An object of a vdb account: the account (as above) and the object's own ids, each required. */
export function accountScopedIdentity<F extends Fields>(own: Record<string, string>): IdentityDef<F, VdbContext> {
  return {
    attributes: {
      account_id: accountIdentityAttribute(
        "The account of the object. An `import` block may leave it out: the provider's `account_id` is used then.",
      ),
      ...Object.fromEntries(
        Object.entries(own).map(([name, description]) => [name, { description, forImport: 'required' as const }]),
      ),
    },
  };
}

/** The account id of an operation: the resource's own, else the provider's; a clear error when neither is set. */
/**
 * The attributes of a resource a data source shows of each object and does not declare itself: each
 * computed, with the resource's type, description and sensitivity, so that a field the resource gains
 * is shown by the data source too. The shape of a listed object takes them all (`shownShape`).
 */
export function shownAsComputed(resourceFields: Fields, declared: Fields): Fields {
  const shown: Record<string, AttrDef<unknown>> = {};
  for (const [name, def] of Object.entries(resourceFields)) {
    if (def.kind !== 'attr' || name in declared || def.options.writeOnly || def.options.twinOf !== undefined) continue;
    shown[name] = attr.of(def.type)({
      computed: true,
      description: def.options.description,
      ...(def.options.sensitive ? { sensitive: true } : {}),
    }) as AttrDef<unknown>;
  }
  return shown;
}

/**
 * The object type of a listed object: every attribute and block of the resource, by its type (a list or
 * set block as a list or set of its objects, a single one as its object), so a field the resource gains is
 * shown by the data sources that list its objects.
 */
export function shownShape(resourceFields: Fields): Typed<Record<string, unknown>> {
  const shape: Record<string, Typed<unknown>> = {};
  for (const [name, def] of Object.entries(resourceFields)) {
    if (def.kind === 'attr') {
      if (!def.options.writeOnly && def.options.twinOf === undefined) shape[name] = def.type;
      continue;
    }
    const object = shownShape(def.fields);
    if (def.nesting === 'map') throw new Error(`${name}: a map block is not shown in a listing`);
    shape[name] = def.nesting === 'list' ? t.list(object) : def.nesting === 'set' ? t.set(object) : object;
  }
  return t.object(shape);
}

export function accountIdOf(own: string | null | undefined, ctx: { client: VdbContext }): string {
  if (own) return own;
  const fallback = ctx.client.defaultAccountId;
  if (fallback) return fallback;
  const detail = `Set \`account_id\` on this resource or ${providerAccountSources(ctx.client)}`;
  throw new DiagnosticError('Account ID not specified', detail, [attrStep('account_id')]);
}

/** The provider's account id, for objects that have no `account_id` of their own. */
export function providerAccountId(ctx: { client: VdbContext }): string {
  const id = ctx.client.defaultAccountId;
  if (id) return id;
  throw new DiagnosticError('Account ID not specified', `Set \`account_id\` ${providerAccountSources(ctx.client)}`);
}

/** Where the provider's account can be given, and, where the provider block gives it empty, that it does. */
const providerAccountSources = (client: VdbContext): string =>
  client.noDefaultAccount === undefined
    ? 'in the provider configuration (or the VDB_ACCOUNT_ID environment variable).'
    : `in the provider configuration: ${client.noDefaultAccount}`;

/** Splits a composite import id `<first>/<second>`, naming the parts in the error. */
export function splitImportId(id: string, first: string, second: string): [string, string] {
  const parts = id.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new DiagnosticError('Invalid import ID', `Expected "<${first}>/<${second}>", got ${JSON.stringify(id)}.`);
  }
  return [parts[0], parts[1]];
}

/** Whether an error means the object does not exist (for deletes that find nothing to delete). */
export const isNotFound = (err: unknown): boolean => isApiError(err, 'not_found');

/** A delete that treats "already gone" as success. */
export async function deleteIgnoringNotFound(op: () => Promise<void>): Promise<void> {
  try {
    await op();
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

// ---------------------------------------------------------------------------------------------------
// Durations on the wire

/**
 * A Go duration string → the wire form; undefined when unset or unparsable (validators reject those at plan time).
 */
export function goDurationToProto(value: string | null | undefined): ProtoDuration | undefined {
  if (!value) return undefined;
  const ns = parseGoDuration(value);
  return ns === undefined ? undefined : nanosToDuration(ns);
}

export const protoToGoDuration = (d: ProtoDuration | undefined): string | null =>
  d ? formatGoDuration(durationToNanos(d)) : null;

// ---------------------------------------------------------------------------------------------------
// Shared nested shapes

/** `{ key, value }` pairs written as repeated blocks. */
export function keyValueFields(what: string) {
  return {
    key: attr.string({
      required: true,
      description: `The ${what} key.`,
      validate: apiRules('common.v1.KeyValue.key', { samples: ['team', 'example.com/team'] }),
    }),
    value: attr.string({
      required: true,
      description: `The ${what} value.`,
      validate: apiRules('common.v1.KeyValue.value'),
    }),
  };
}

/**
 * How the description of every collection that version 1.19.2 declared as a list ends. These
 * collections are sets (docs/decisions.md, "Unordered collections are sets"): the platform may return
 * their entries in another order, which a list shows as a change
 * (docs/api/vdb.md, "Order the platform does not keep", the later upstream fix); the schema adds
 * that order does not matter (ORDER_NOTE). The note says how a configuration that indexed one picks
 * entries now. `address` is how a configuration refers to the attribute; `select` is a `for` (or
 * function) form that picks entries by their content.
 */
export function setNote(address: string, select: string): string {
  return (
    'A set, it cannot be indexed: ' +
    `configurations written for version 1.19.2, where it was a list, replace \`${address}[0]\` with ` +
    `\`tolist(${address})[0]\` ` +
    `(an entry in the set's sorted order), or select entries by content: \`${select}\`.`
  );
}

/** A `for` expression that turns a key/value set into a map, to look an entry up by key. */
const byKey = (address: string, key: string) => `{ for e in ${address} : e.key => e.value }["${key}"]`;

/**
 * A set of key/value blocks (see {@link setNote}) sent as the API's repeated `field`; `address` as a
 * configuration refers to it, e.g. `vdb_accounts_cluster.example.labels`.
 */
export function keyValueSet(description: string, what: string, field: string, address: string) {
  const { max } = apiItems(field);
  return block.set(keyValueFields(what), {
    description: `${description} ${setNote(address, byKey(address, 'team'))}`,
    max,
  });
}

export type KeyValueModel = { key: string; value: string };

export const keyValuesToApi = (kvs: readonly KeyValueModel[]): KeyValue[] =>
  kvs.map((kv) => ({ key: kv.key, value: kv.value }));
export const keyValuesFromApi = (kvs: readonly KeyValue[] | undefined): KeyValueModel[] =>
  (kvs ?? []).map((kv) => ({ key: kv.key, value: kv.value }));

export const tolerationFields = {
  key: attr.string({
    optional: true,
    validate: apiRules('cluster.v1.Toleration.key', { samples: ['dedicated', 'example.com/gpu'] }),
    description:
      'The taint key the toleration applies to; empty matches every key (with operator `TOLERATION_OPERATOR_EXISTS`).',
  }),
  operator: attr.string({
    optional: true,
    validate: apiRules('cluster.v1.Toleration.operator'),
    description:
      'How the key relates to the value: `TOLERATION_OPERATOR_EXISTS` or `TOLERATION_OPERATOR_EQUAL` (the default ' +
      'when unset).',
  }),
  value: attr.string({
    optional: true,
    validate: apiRules('cluster.v1.Toleration.value'),
    description: 'The taint value the toleration matches (not with `TOLERATION_OPERATOR_EXISTS`).',
  }),
  effect: attr.string({
    optional: true,
    validate: apiRules('cluster.v1.Toleration.effect'),
    description:
      'The taint effect to match: `TOLERATION_EFFECT_NO_SCHEDULE`, `TOLERATION_EFFECT_PREFER_NO_SCHEDULE` or ' +
      '`TOLERATION_EFFECT_NO_EXECUTE`; unset matches all effects.',
  }),
  toleration_seconds: attr.number({
    optional: true,
    validate: [validators.intBetween(0, Number.MAX_SAFE_INTEGER)],
    description: 'How long a pod stays bound after a `TOLERATION_EFFECT_NO_EXECUTE` taint appears, in seconds.',
  }),
};

/**
 * A set of tolerations (see {@link setNote}) sent as the API's repeated `field`; `address` as a
 * configuration refers to it.
 */
export function tolerationSet(description: string, field: string, address: string) {
  const { max } = apiItems(field);
  return block.set(tolerationFields, {
    description: `${description} ` + `${setNote(address, `[for t in ${address} : t if t.key == "dedicated"]`)}`,
    max,
  });
}

export type TolerationModel = ModelOf<typeof tolerationFields>;

export function tolerationToApi(t: TolerationModel): Toleration {
  // Empty key/value are left out: the platform rejects an empty value with operator Exists
  // (docs/api/vdb.md, "Tolerations").
  return {
    ...(t.key ? { key: t.key } : {}),
    ...(t.operator ? { operator: t.operator as TolerationOperator } : {}),
    ...(t.value ? { value: t.value } : {}),
    ...(t.effect ? { effect: t.effect as TolerationEffect } : {}),
    // 0 is a value (evict at once), not unset (stay bound): the field is optional, so it is sent as set.
    ...(t.toleration_seconds !== null && t.toleration_seconds !== undefined
      ? { tolerationSeconds: t.toleration_seconds }
      : {}),
  };
}

export function tolerationFromApi(t: Toleration): TolerationModel {
  return {
    key: t.key || null,
    operator: t.operator && !t.operator.endsWith('_UNSPECIFIED') ? t.operator : null,
    value: t.value || null,
    effect: t.effect && !t.effect.endsWith('_UNSPECIFIED') ? t.effect : null,
    toleration_seconds: t.tolerationSeconds ?? null,
  };
}

/**
 * The rules of a toleration that span its fields (docs/api/vdb.md, "Tolerations"), judged where the
 * fields are known.
 */
export function checkTolerations(
  tolerations: readonly ConfigModelOf<typeof tolerationFields>[] | undefined,
  at: AttributePath,
  diags: Diagnostics,
): void {
  for (const t of tolerations ?? []) {
    const label = t.key ? `The toleration for key ${JSON.stringify(t.key)}` : 'A toleration without a key';
    const exists = t.operator === 'TOLERATION_OPERATOR_EXISTS';
    const matchesByValue = t.operator !== undefined && !exists;
    const problems: string[] = [];
    if (exists && t.value) problems.push('has a value, which operator TOLERATION_OPERATOR_EXISTS does not allow');
    if (t.toleration_seconds != null && t.effect !== undefined && t.effect !== 'TOLERATION_EFFECT_NO_EXECUTE') {
      problems.push('sets toleration_seconds, which only applies with effect TOLERATION_EFFECT_NO_EXECUTE');
    }
    if (matchesByValue && t.key !== undefined && !t.key)
      problems.push('needs operator TOLERATION_OPERATOR_EXISTS (only it matches every key)');
    if (matchesByValue && t.key && t.value !== undefined && !t.value)
      problems.push('needs a value (or operator TOLERATION_OPERATOR_EXISTS)');
    for (const p of problems) diags.error('Invalid toleration', `${label} ${p}.`, at);
  }
}

heldInCode({
  message: 'cluster.v1.Toleration',
  rules: [
    'toleration.exists_no_value',
    'toleration.equal_value',
    'toleration.empty_key_exists',
    'toleration.seconds_no_execute',
  ],
  where: 'common.ts: checkTolerations',
  samples: () =>
    combinations({
      key: [null, '', 'dedicated'],
      operator: [null, 'TOLERATION_OPERATOR_EXISTS', 'TOLERATION_OPERATOR_EQUAL'],
      value: [null, '', 'gpu'],
      effect: [null, 'TOLERATION_EFFECT_NO_SCHEDULE', 'TOLERATION_EFFECT_NO_EXECUTE'],
      toleration_seconds: [null, 0, 30],
    }),
  planReports: (toleration, diags) => checkTolerations([toleration], [], diags),
  sent: tolerationToApi,
});

/** A reference to one key of a Kubernetes secret. */
export function secretRefBlock(description: string) {
  return block.one(
    {
      secret_name: attr.string({
        required: true,
        description: 'The name of the Kubernetes secret.',
        validate: apiRules('common.v1.SecretKeyRef.name', { samples: ['qdrant-tls', 'certs.example'] }),
      }),
      secret_key: attr.string({
        required: true,
        description: 'The key inside the secret.',
        validate: apiRules('common.v1.SecretKeyRef.key'),
      }),
    },
    { description },
  );
}
