/**
 * What the alert channels share (docs/api/sec.md, "Alert channel attributes";
 * docs/api/sec.md, "Channel tests"), written once: the common fields, the mapping of the
 * integration envelope, and test-after-write with roll-back on a failed create. A member module
 * declares only its API type and its own `data` fields.
 */
import { secRules } from '../rules.js';
import { type Wiring, wireFields } from '../wired-fields.js';
import {
  attr,
  type BlockDef,
  DiagnosticError,
  type Fields,
  isApiError,
  type ModelOf,
  type OpContext,
  resource,
  type ResourceDef,
  resourceSchema,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';
import type { AlertChannelInput } from '../../../clients/sec/alert-channels.js';
import type { AlertChannelData, AlertChannelType } from '../../../clients/sec/alert-channel-data.js';
import type { Integration } from '../../../clients/sec/integration.js';
import { idIdentity, noFilters } from '../../shared/identity.js';
import { timeOf } from '../../shared/made-at.js';

const commonFields = {
  id: attr.sdkId('The integration GUID of the channel (the same as `intg_guid`).'),
  name: attr.string({
    required: true,
    validate: secRules('Integrations.name', { name: true }),
    description: 'The alert channel integration name.',
  }),
  enabled: attr.bool({
    optional: true,
    default: true,
    description: 'State of the integration: whether alerts are sent to it.',
  }),
  test_integration: attr.bool({
    optional: true,
    default: true,
    providerOnly: true,
    description:
      'Whether to test the channel on creation and modification. A failed test on creation removes the ' +
      'new channel again.',
  }),
  intg_guid: attr.string({ computed: true, description: 'The unique identifier of the integration.' }),
  org_level: attr.bool({
    computed: true,
    description: 'Whether the channel belongs to the organization rather than one account.',
  }),
  type_name: attr.string({ computed: true, description: 'The platform type of the integration.' }),
  created_or_updated_by: attr.string({
    computed: true,
    volatile: true,
    description: 'Who last created or changed the channel.',
  }),
  created_or_updated_time: attr.string({
    computed: true,
    volatile: true,
    description: 'When the channel was last created or changed.',
  }),
};

type CommonFields = typeof commonFields;
type ChannelModel<F extends Fields> = ModelOf<CommonFields & F>;

/** What a read reports for the member's fields: any may be absent or null (not returned, or blanked). */
export type ReadModel<F extends Fields> = {
  [K in keyof F]?: F[K] extends BlockDef<infer G> ? ReadModel<G>[] : ModelOf<F>[K] | null;
};

export interface AlertChannelSpec<F extends Fields, T extends AlertChannelType = AlertChannelType> {
  /** Terraform type name, e.g. `sec_alert_channel_email`. */
  typeName: string;
  /** The platform's `type` discriminator, e.g. `EmailUser`. */
  apiType: T;
  description: string;
  fields: F;
  /**
   * Attributes that are one field of `data` as it is, by its path there (`channelProps.subjectPrefix`):
   * checked by the contract's rules, sent when set and read back with nothing more written
   * (../wired-fields.ts). toData and fromData map the others.
   */
  wire?: Wiring<F>;
  /** Model → the integration's `data`, in the shape the contract declares for `apiType` (wired fields aside). */
  toData?(model: ChannelModel<F>): DeepPartial<AlertChannelData<T>>;
  /** The integration's `data` → the member's own fields (secrets the API masks are declared `masked`). */
  fromData?(data: AlertChannelData<T>): ReadModel<F>;
  /**
   * For types that share an API type (the tracker variants): why `data` belongs to another variant,
   * or undefined when it is this one. Importing the wrong variant then fails with that reason.
   */
  otherVariant?(data: AlertChannelData<T>): string | undefined;
}

/** Every field of an object may be left out, at any depth (lists are whole). */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

export function alertChannel<F extends Fields, T extends AlertChannelType>(
  spec: AlertChannelSpec<F, T>,
): ResourceDef<CommonFields & F, SecClient> {
  const wired = wireFields(`AlertChannels:${spec.apiType}`, spec.fields, spec.wire ?? {});
  const fields = { ...commonFields, ...wired.fields } as CommonFields & F;
  type Model = ChannelModel<F>;

  // Common fields are typed through the generic F here; read them through the common model.
  const common = (m: Model) => m as unknown as ModelOf<CommonFields>;
  const toApi = (m: Model): AlertChannelInput<T> => ({
    name: common(m).name,
    type: spec.apiType,
    enabled: common(m).enabled !== false,
    data: wired.send(m, { ...spec.toData?.(m) }) as AlertChannelData<T>,
  });
  const fromApi = (i: Integration<string, unknown>): Partial<Model> => {
    // Only reachable by importing the GUID of another kind of channel: say so instead of
    // misreading its settings.
    const problem =
      i.type !== spec.apiType
        ? `it is of type ${JSON.stringify(i.type)}`
        : spec.otherVariant?.(i.data as AlertChannelData<T>);
    if (problem) {
      throw new DiagnosticError(
        'Wrong alert channel type',
        `The alert channel ${i.intgGuid} cannot be managed as ${spec.typeName}: ${problem}. Use the ` +
          `resource type that matches the channel.`,
      );
    }
    return {
      id: i.intgGuid,
      intg_guid: i.intgGuid,
      name: i.name,
      enabled: i.enabled,
      org_level: i.isOrg,
      type_name: i.type,
      created_or_updated_by: i.createdOrUpdatedBy ?? '',
      created_or_updated_time: i.createdOrUpdatedTime ?? '',
      ...wired.read(i.data),
      ...spec.fromData?.(i.data as AlertChannelData<T>),
    } as Partial<Model>;
  };

  /** The API lists every channel; this type's are those of its API type (and variant). */
  async function channelsOfThisType(ctx: OpContext<SecClient>): Promise<Partial<Model>[]> {
    const channels = await ctx.client.alertChannels.list({ signal: ctx.signal });
    return channels
      .filter((c) => c.type === spec.apiType && !spec.otherVariant?.(c.data as AlertChannelData<T>))
      .map(fromApi);
  }

  const guidOf = (m: Model): string => common(m).intg_guid ?? common(m).id ?? '';

  async function testChannel(guid: string, ctx: OpContext<SecClient>): Promise<void> {
    await ctx.client.alertChannels.test(guid, { signal: ctx.signal });
  }

  /**
   * What a create does once the channel exists: test it, and remove it again when the test fails
   * (docs/api/sec.md, "Channel tests"), saying whether the removal happened.
   */
  async function settle(created: Partial<Model>, plan: Model, ctx: OpContext<SecClient>): Promise<Partial<Model>> {
    if (common(plan).test_integration === false) return created;
    const guid = common(created as Model).intg_guid ?? '';
    try {
      await testChannel(guid, ctx);
      return created;
    } catch (err) {
      // Never tested (Terraform asked the provider to stop): the channel stays, tainted, untested.
      if (isApiError(err, 'cancelled')) throw err;
      try {
        await ctx.client.alertChannels.delete(guid, { signal: ctx.signal });
      } catch (cleanup) {
        // Still there: the engine keeps it in the state (tainted), so it is neither lost nor orphaned.
        throw new DiagnosticError(
          'Alert channel test failed',
          `The platform could not deliver a test alert (${messageOf(err)}), and removing the new channel ` +
            `${guid} again failed too (${messageOf(cleanup)}).`,
        );
      }
      ctx.partial(undefined);
      throw new DiagnosticError(
        'Alert channel test failed',
        `The platform could not deliver a test alert, so the new channel ${guid} was removed again: ${messageOf(err)}`,
      );
    }
  }

  return resource<CommonFields & F, SecClient>({
    typeName: spec.typeName,
    schema: resourceSchema(fields, { description: spec.description }),
    importIdDescription: 'the integration GUID (`intg_guid`)',
    importState: async (id) => ({ id, intg_guid: id }) as Partial<Model>,
    identity: idIdentity('The integration GUID of the channel (`intg_guid`).'),
    list: {
      schema: noFilters(`alert channel of this type (\`${spec.apiType}\` on the platform)`),
      list: (_filters, ctx) => channelsOfThisType(ctx),
      displayName: (m) => common(m).name,
    },
    async create(plan, ctx) {
      return fromApi(await ctx.client.alertChannels.create(toApi(plan), { signal: ctx.signal }));
    },
    settle,
    // A channel is known by its type and name; names are not unique on the platform.
    findCreated: {
      key: 'its channel type and name',
      uniqueKey: false,
      describe: (plan) =>
        `the ${spec.typeName} alert channel (type ${spec.apiType}) named ${JSON.stringify(common(plan).name)}`,
      list: (_plan, ctx) => channelsOfThisType(ctx),
      holdsKey: (plan, found) => common(found as Model).name === common(plan).name,
      importId: (found) => common(found as Model).intg_guid ?? '',
      madeAt: (found) => timeOf(common(found as Model).created_or_updated_time),
    },
    async read(prior, ctx) {
      return fromApi(await ctx.client.alertChannels.get(guidOf(prior), { signal: ctx.signal }));
    },
    // The list answers every channel, as a read answers one (of another type: refused by fromApi alike).
    readsByListing: {
      pages: listedInOneCall((ctx) => ctx.client.alertChannels.list({ signal: ctx.signal })),
      idOf: (channel) => channel.intgGuid,
      read: (channel) => fromApi(channel),
    },
    async update(plan, prior, ctx) {
      const updated = await ctx.client.alertChannels.update(guidOf(prior), toApi(plan), { signal: ctx.signal });
      if (common(plan).test_integration !== false) {
        try {
          await testChannel(updated.intgGuid, ctx);
        } catch (err) {
          // The platform already holds the new settings: keep them in state, report the failed test.
          ctx.partial(fromApi(updated));
          throw new DiagnosticError(
            'Alert channel test failed',
            `The channel was updated, but the platform could not deliver a test alert: ${messageOf(err)}`,
          );
        }
      }
      return fromApi(updated);
    },
    async delete(prior, ctx) {
      await ctx.client.alertChannels.delete(guidOf(prior), { signal: ctx.signal });
    },
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
