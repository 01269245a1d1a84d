/**
 * What the cloud-account integrations share (docs/api/sec.md, "Cloud account attributes"), written
 * once: the common fields, the mapping of the integration envelope and the operations. A member
 * module declares its API type, which status fields it shows (upstream's types differ there, and
 * the Pulumi shapes follow them) and its own `data` fields.
 */
import { secRules } from '../../rules.js';
import {
  attr,
  type BlockDef,
  type ConfigModelOf,
  DiagnosticError,
  type Diagnostics,
  type Fields,
  type ModelOf,
  type OpContext,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../../../clients/sec/index.js';
import type { Integration } from '../../../../clients/sec/integration.js';
import { idIdentity } from '../../../shared/identity.js';
import type { CloudAccountData, CloudAccountInput, CloudAccountType } from '../../../../clients/sec/cloud-accounts.js';
import { madeAtFrom } from '../../../shared/made-at.js';
import { type Wiring, wireFields } from '../../wired-fields.js';

const baseFields = {
  id: attr.sdkId('The integration GUID the platform assigned.'),
  name: attr.string({
    required: true,
    validate: secRules('Integrations.name', { name: true }),
    description: 'The integration name.',
  }),
  retries: attr.number({
    optional: true,
    default: 5,
    providerOnly: true,
    // Each attempt may wait up to 10 s before the next; 20 bounds an apply to a few minutes.
    validate: [validators.intBetween(0, 20)],
    description:
      'How many times the create request may be sent (0 and 1 both mean once). It is repeated when the ' +
      'platform declines it as busy or rate-limited (HTTP 429 or 503, honouring `Retry-After`). A ' +
      'create whose answer is lost is never repeated blindly: the provider first looks for an ' +
      'integration of this type and name and adopts it. Not sent to the platform.',
  }),
};

const statusFields = {
  enabled: attr.bool({ optional: true, default: true, description: 'Whether the integration is active.' }),
  intg_guid: attr.string({ computed: true, description: 'The integration GUID (the same as `id`).' }),
  integration_guid: attr.string({ computed: true, description: 'The integration GUID (the same as `id`).' }),
  created_or_updated_time: attr.string({
    computed: true,
    volatile: true,
    description: 'When the integration was last created or changed.',
  }),
  created_or_updated_by: attr.string({
    computed: true,
    volatile: true,
    description: 'Who last created or changed the integration.',
  }),
  type_name: attr.string({ computed: true, description: 'The platform type of the integration.' }),
  org_level: attr.bool({
    computed: true,
    description: 'Whether the integration belongs to the organisation rather than one account.',
  }),
  is_org: attr.bool({
    computed: true,
    description: 'Whether the integration belongs to the organisation rather than one account.',
  }),
};
type StatusFields = typeof statusFields;

function pick<K extends keyof StatusFields>(...names: K[]): Pick<StatusFields, K> {
  return Object.fromEntries(names.map((name) => [name, statusFields[name]])) as Pick<StatusFields, K>;
}

const tracked = ['enabled', 'intg_guid', 'created_or_updated_time', 'created_or_updated_by'] as const;

/**
 * The status fields each upstream type declares: most have all of them; the cluster audit logs
 * say `is_org` instead of `org_level` (and the two CloudB ones have no `type_name`); CloudC
 * agentless scanning has neither; DSPM has only `integration_guid`, and `enabled`, which upstream
 * left out although the platform's console can switch a DSPM integration off: without it the
 * provider could neither show that nor switch it on again.
 */
const SHAPES = {
  standard: pick(...tracked, 'type_name', 'org_level'),
  isOrg: pick(...tracked, 'type_name', 'is_org'),
  isOrgUntyped: pick(...tracked, 'is_org'),
  untyped: pick(...tracked),
  dspm: pick('enabled', 'integration_guid'),
};
type Shapes = typeof SHAPES;
export type StatusShape = keyof Shapes;

type BaseFields = typeof baseFields;
type AllFields<S extends StatusShape, F extends Fields> = BaseFields & Shapes[S] & F;

/** What a read reports for the member's fields: any may be null (not returned or blanked). */
export type ReadModel<F extends Fields> = {
  [K in keyof F]?: F[K] extends BlockDef<infer G> ? ReadModel<G>[] : ModelOf<F>[K] | null;
};

export interface CloudAccountSpec<F extends Fields, T extends CloudAccountType, S extends StatusShape> {
  /** Terraform type name, e.g. `sec_integration_cloud_a_cfg`. */
  typeName: string;
  /** The platform's `type` discriminator, e.g. `CloudACfg`. */
  apiType: T;
  description: string;
  status: S;
  fields: F;
  /**
   * Fields sent and read back as they are: attribute name → its path in `data` (`queueUrl`), checked by
   * the contract's rules for it (../../wired-fields.ts). toData and fromData map the others.
   */
  wire?: Wiring<F>;
  /** The member's fields → the integration's `data`, in the shape the client declares for `apiType`. */
  toData(model: ModelOf<F>): CloudAccountData<T>;
  /**
   * The integration's `data` → the member's fields. `own` is what Terraform holds (the plan after a
   * write, the prior state on a read; null after an import): it supplies what the platform blanks.
   */
  fromData(data: CloudAccountData<T>, own: ModelOf<F> | null): ReadModel<F>;
  /** Rules across fields; values not known yet are `undefined` (the engine runs it again when they are). */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
}

export function cloudAccount<F extends Fields, T extends CloudAccountType, S extends StatusShape>(
  spec: CloudAccountSpec<F, T, S>,
): ResourceDef<AllFields<S, F>, SecClient> {
  const shape: Fields = SHAPES[spec.status];
  const wired = wireFields(`CloudAccounts:${spec.apiType}`, spec.fields, spec.wire ?? {});
  const fields = { ...baseFields, ...shape, ...wired.fields } as AllFields<S, F>;
  type Model = ModelOf<AllFields<S, F>>;
  type Common = ModelOf<BaseFields & StatusFields>;

  // Common fields are typed through the generics here; read them through the common model.
  const common = (m: Model) => m as unknown as Partial<Common>;
  const own = (m: Model | null) => m as unknown as ModelOf<F> | null;
  const hasField = (name: string) => name in spec.fields;

  const toApi = (m: Model): CloudAccountInput<T> => ({
    name: common(m).name!,
    type: spec.apiType,
    enabled: common(m).enabled !== false,
    data: spec.toData(m as unknown as ModelOf<F>),
    declared: wired.declared(m),
  });

  const fromApi = (i: Integration<string, unknown>, m: Model | null): Partial<Model> => {
    // Only reachable by importing the GUID of another kind of integration: say so instead of
    // misreading its settings.
    if (i.type !== spec.apiType) {
      throw new DiagnosticError(
        'Wrong integration type',
        `The cloud account integration ${i.intgGuid} is of type ${JSON.stringify(i.type)} and cannot be ` +
          `managed as ${spec.typeName}. Use the resource type that matches it.`,
      );
    }
    const status: Record<keyof StatusFields, unknown> = {
      enabled: i.enabled,
      intg_guid: i.intgGuid,
      integration_guid: i.intgGuid,
      created_or_updated_time: i.createdOrUpdatedTime,
      created_or_updated_by: i.createdOrUpdatedBy,
      type_name: i.type,
      org_level: i.isOrg,
      is_org: i.isOrg,
    };
    const out: Record<string, unknown> = { id: i.intgGuid, name: i.name };
    for (const name of Object.keys(shape)) out[name] = status[name as keyof StatusFields];
    // Scanners: a platform that leaves the token out of a read keeps the one Terraform holds
    // (undefined keeps the current value).
    if (hasField('server_token')) out.server_token = i.serverToken?.serverToken || undefined;
    if (hasField('uri')) out.uri = i.serverToken?.uri || undefined;
    return { ...out, ...spec.fromData(i.data as CloudAccountData<T>, own(m)), ...wired.read(i.data) } as Partial<Model>;
  };

  const guidOf = (m: Model): string => common(m).id ?? common(m).intg_guid ?? common(m).integration_guid ?? '';
  const calls = (signal: AbortSignal) => ({ signal });

  /** The API lists the integrations of one type. */
  async function integrationsOfThisType(plan: Model | null, ctx: OpContext<SecClient>): Promise<Partial<Model>[]> {
    return (await ctx.client.cloudAccounts.listOfType(spec.apiType, calls(ctx.signal))).map((a) => fromApi(a, plan));
  }

  return resource<AllFields<S, F>, SecClient>({
    typeName: spec.typeName,
    schema: resourceSchema(fields, { description: spec.description }),
    importIdDescription: 'the integration GUID',
    importState: async (id) => ({ id }) as Partial<Model>,
    identity: idIdentity('The integration GUID.'),
    // The API lists the integrations of one type.
    list: {
      schema: resourceSchema(
        {},
        {
          description:
            `Lists every integration of this type (\`${spec.apiType}\`); the API lists one ` +
            `type at a time and offers no other filter.`,
        },
      ),
      list: (_filters, ctx) => integrationsOfThisType(null, ctx),
      displayName: (m) => common(m).name!,
    },
    async create(plan, ctx) {
      const attempts = Math.max(1, common(plan).retries ?? 1);
      return fromApi(await ctx.client.cloudAccounts.create(toApi(plan), { ...calls(ctx.signal), attempts }), plan);
    },
    // An integration is known by its type and name.
    findCreated: {
      key: 'its integration type and name',
      uniqueKey: false,
      describe: (plan) =>
        `the ${spec.typeName} integration (type ${spec.apiType}) named ${JSON.stringify(common(plan).name)}`,
      list: (plan, ctx) => integrationsOfThisType(plan, ctx),
      holdsKey: (plan, found) => common(found as Model).name === common(plan).name,
      importId: (found) => guidOf(found as Model),
      madeAt: madeAtFrom('created_or_updated_time'),
    },
    async read(prior, ctx) {
      return fromApi(await ctx.client.cloudAccounts.get(guidOf(prior), calls(ctx.signal)), prior);
    },
    // The listing of this type's integrations: one of another type is read on its own, and refused there.
    readsByListing: {
      pages: listedInOneCall((ctx) => ctx.client.cloudAccounts.listOfType(spec.apiType, calls(ctx.signal))),
      idOf: (account) => account.intgGuid,
      read: fromApi,
    },
    async update(plan, prior, ctx) {
      return fromApi(await ctx.client.cloudAccounts.update(guidOf(prior), toApi(plan), calls(ctx.signal)), plan);
    },
    async delete(prior, ctx) {
      await ctx.client.cloudAccounts.delete(guidOf(prior), calls(ctx.signal));
    },
    ...(spec.validate
      ? {
          validate: (config: ConfigModelOf<AllFields<S, F>>, diags: Diagnostics) =>
            spec.validate!(config as unknown as ConfigModelOf<F>, diags),
        }
      : {}),
  });
}
