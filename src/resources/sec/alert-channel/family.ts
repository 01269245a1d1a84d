/**
 * What the alert channels share (sec.md §2.1, §6.4), written once: the common fields, the mapping of
 * the integration envelope, and test-after-write with roll-back on a failed create. A member module
 * declares only its API type and its own `data` fields.
 */
import { attr, resourceSchema, type Fields, type ModelOf } from '../../../schema/define.js';
import { resource, type OpContext, type ResourceDef } from '../../../engine/contracts.js';
import { DiagnosticError } from '../../../engine/diagnostics.js';
import type { SecClient, AlertChannel } from '../../../clients/sec/index.js';

const commonFields = {
  id: attr.sdkId('The integration GUID of the channel (the same as `intg_guid`).'),
  name: attr.string({ required: true, description: 'The alert channel integration name.' }),
  enabled: attr.bool({ optional: true, default: true, description: 'State of the integration: whether alerts are sent to it.' }),
  test_integration: attr.bool({
    optional: true,
    default: true,
    description: 'Whether to test the channel on creation and modification. A failed test on creation removes the new channel again.',
  }),
  intg_guid: attr.string({ computed: true, description: 'The unique identifier of the integration.' }),
  org_level: attr.bool({ computed: true, description: 'Whether the channel belongs to the organization rather than one account.' }),
  type_name: attr.string({ computed: true, description: 'The platform type of the integration.' }),
  created_or_updated_by: attr.string({ computed: true, volatile: true, description: 'Who last created or changed the channel.' }),
  created_or_updated_time: attr.string({ computed: true, volatile: true, description: 'When the channel was last created or changed.' }),
};

type CommonFields = typeof commonFields;
type ChannelModel<F extends Fields> = ModelOf<CommonFields & F>;

export interface AlertChannelSpec<F extends Fields> {
  /** Terraform type name, e.g. `sec_alert_channel_email`. */
  typeName: string;
  /** The platform's `type` discriminator, e.g. `EmailUser`. */
  apiType: string;
  description: string;
  fields: F;
  /** Model → the integration's `data` object. */
  toData(model: ChannelModel<F>): Record<string, unknown>;
  /** The integration's `data` → the member's own fields (secrets the API masks are declared `masked`). */
  fromData(data: Record<string, unknown>): Partial<ModelOf<F>>;
}

export function alertChannel<F extends Fields>(spec: AlertChannelSpec<F>): ResourceDef<CommonFields & F, SecClient> {
  const fields = { ...commonFields, ...spec.fields } as CommonFields & F;
  type Model = ChannelModel<F>;

  // The client types `data` per channel type; the member module owns that shape.
  const toApi = (m: Model) => ({ name: m.name, type: spec.apiType, enabled: m.enabled !== false, data: spec.toData(m) }) as never;
  const fromApi = (i: AlertChannel): Partial<Model> =>
    ({
      id: i.intgGuid,
      intg_guid: i.intgGuid,
      name: i.name,
      enabled: i.enabled,
      org_level: i.isOrg,
      type_name: i.type,
      created_or_updated_by: i.createdOrUpdatedBy ?? '',
      created_or_updated_time: i.createdOrUpdatedTime ?? '',
      ...spec.fromData((i.data ?? {}) as Record<string, unknown>),
    }) as Partial<Model>;

  // Common fields are typed through the generic F here; read them through the common model.
  const guidOf = (m: Model): string => {
    const c = m as unknown as ModelOf<CommonFields>;
    return c.intg_guid ?? c.id ?? '';
  };

  async function testChannel(guid: string, ctx: OpContext<SecClient>): Promise<void> {
    await ctx.client.alertChannels.test(guid, { signal: ctx.signal });
  }

  return resource<CommonFields & F, SecClient>({
    typeName: spec.typeName,
    schema: resourceSchema(fields, { description: spec.description }),
    importIdDescription: 'the integration GUID (`intg_guid`)',
    importState: async (id) => ({ id, intg_guid: id }) as Partial<Model>,
    async create(plan, ctx) {
      const created = await ctx.client.alertChannels.create(toApi(plan), { signal: ctx.signal });
      if ((plan as unknown as ModelOf<CommonFields>).test_integration !== false) {
        try {
          await testChannel(created.intgGuid, ctx);
        } catch (err) {
          // A channel that cannot deliver is removed again so nothing half-made is left (sec.md §6.4).
          await ctx.client.alertChannels.delete(created.intgGuid, { signal: ctx.signal }).catch((cleanup: unknown) => {
            ctx.partial(fromApi(created));
            ctx.log.warn('could not remove the channel after its failed test', { error: String(cleanup) });
          });
          throw new DiagnosticError('Alert channel test failed', `The platform could not deliver a test alert, so the new channel was removed: ${messageOf(err)}`);
        }
      }
      return fromApi(created);
    },
    async read(prior, ctx) {
      return fromApi(await ctx.client.alertChannels.get(guidOf(prior), { signal: ctx.signal }));
    },
    async update(plan, prior, ctx) {
      const updated = await ctx.client.alertChannels.update(guidOf(prior), toApi(plan), { signal: ctx.signal });
      if ((plan as unknown as ModelOf<CommonFields>).test_integration !== false) {
        try {
          await testChannel(updated.intgGuid, ctx);
        } catch (err) {
          // The platform already holds the new settings: keep them in state, report the failed test.
          ctx.partial(fromApi(updated));
          throw new DiagnosticError('Alert channel test failed', `The channel was updated, but the platform could not deliver a test alert: ${messageOf(err)}`);
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
