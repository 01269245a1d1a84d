/**
 * Drift gaps on the sec provider, each through the real provider executable and
 * the Terraform-side client (which applies Terraform's own plan, apply and read checks) against the
 * in-process emulator, asserting what the emulator received and what it holds:
 * - an update never erases what the platform holds and the configuration does not speak of;
 * - a DSPM integration switched off in the console shows in the plan, and the apply switches it on;
 * - after an import, a configuration in a deprecated form sends nothing;
 * - a list whose order carries no meaning is compared as a set: at plan, after a read, after an import.
 * The property tests over every type are test/props/lifecycle.test.ts (extra platform fields, deprecated
 * forms) and test/engine/unordered-lists.test.ts.
 */
import { expect } from 'chai';
import type { SecEmulator } from '../../../src/emulators/sec/index.js';
import { startSecProvider, type SecProvider } from '../../support/sec-provider.js';
import { type TerraformClient, configValue } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';

type Plain = Record<string, unknown>;
type Stored = Record<string, any>;

const role = { role_arn: 'arn:cloud-a:iam::123456789012:role/gaps', external_id: 'ext-1' };

describe('drift gaps (sec), through the provider executable', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let sec: SecProvider;

  const cfg = (type: string, plain: Plain) => configValue(tf.resourceSchema(type).block, plain);
  const same = (type: string, a: ObjectValue | null, b: ObjectValue | null) =>
    valueEquals(impliedType(tf.resourceSchema(type).block), a, b);
  async function apply(type: string, prior: ObjectValue | null, plain: Plain): Promise<ObjectValue> {
    const config = cfg(type, plain);
    await tf.validateResource(type, config);
    return (await tf.apply(type, prior, await tf.plan(type, prior, config), config)).state!;
  }
  async function planIsEmpty(type: string, state: ObjectValue, plain: Plain): Promise<void> {
    const again = await tf.plan(type, state, cfg(type, plain));
    expect(again.requiresReplace, `${type}: no replacement`).to.deep.equal([]);
    expect(same(type, again.planned, state), `${type}: the re-plan must be empty`).to.equal(true);
  }
  const destroy = async (type: string, state: ObjectValue) =>
    tf.apply(type, state, await tf.plan(type, state, null), null);
  /** The requests that change something, received after `from` (reads and the token exchange left out). */
  const writesSince = (from: number) =>
    emulator.requests
      .slice(from)
      .filter((r) => r.method !== 'GET' && !r.path.startsWith('/api/v2/access/tokens'))
      .map((r) => `${r.method} ${r.path}`);
  const patchesSince = (from: number) => emulator.requests.slice(from).filter((r) => r.method === 'PATCH');

  before(async () => {
    sec = await startSecProvider({ account: 'acme' });
    ({ emulator, tf } = sec);
  });
  after(() => sec?.close());

  describe('an update never erases what the platform holds and the configuration does not speak of', () => {
    it("sec_data_export_rule: the platform's filters.profileVersions survive an update of the description", async () => {
      const store = (
        await apply('sec_alert_channel_cloud_a_object_store', null, {
          name: 'gaps-exports',
          bucket_arn: 'arn:cloud-a:s3:::gaps-exports',
          credentials: [role],
        })
      ).intg_guid as string;
      const rule = { name: 'gaps-lake', integration_ids: [store] };
      let state = await apply('sec_data_export_rule', null, rule);
      const guid = state.id as string;
      // The console sets what the provider does not model.
      const held = emulator.get<Stored>('DataExportRules', guid)!;
      emulator.put('DataExportRules', guid, {
        ...held,
        filters: { ...held.filters, profileVersions: ['v2', 'v3'] },
      });
      state = (await tf.read('sec_data_export_rule', state)).state!;
      await planIsEmpty('sec_data_export_rule', state, rule);

      const from = emulator.requests.length;
      state = await apply('sec_data_export_rule', state, { ...rule, description: 'nightly' });
      const [patch] = patchesSince(from);
      expect(patch?.body, 'the PATCH').to.have.nested.property('filters.description', 'nightly');
      expect((patch!.body as Stored).filters.profileVersions, 'the PATCH body kept profileVersions').to.deep.equal([
        'v2',
        'v3',
      ]);
      expect(emulator.get<Stored>('DataExportRules', guid)!.filters).to.deep.include({
        description: 'nightly',
        profileVersions: ['v2', 'v3'],
      });
      await planIsEmpty('sec_data_export_rule', state, { ...rule, description: 'nightly' });
      await destroy('sec_data_export_rule', state);
    });

    it('sec_integration_cloud_a_cfg: the account id the console set (data.cloudAAccountId) survives switching it off', async () => {
      const plain = { name: 'gaps-cfg', credentials: [role] };
      let state = await apply('sec_integration_cloud_a_cfg', null, plain);
      const guid = state.id as string;
      const held = emulator.get<Stored>('CloudAccounts', guid)!;
      emulator.put('CloudAccounts', guid, { ...held, data: { ...held.data, cloudAAccountId: '123456789012' } });

      const from = emulator.requests.length;
      state = await apply('sec_integration_cloud_a_cfg', state, { ...plain, enabled: false });
      const [patch] = patchesSince(from);
      expect(patch?.body).to.deep.include({ enabled: 0 });
      expect(patch!.body, 'the PATCH body kept the account id').to.have.nested.property(
        'data.cloudAAccountId',
        '123456789012',
      );
      expect(emulator.get<Stored>('CloudAccounts', guid)).to.deep.include({ enabled: 0 });
      expect(emulator.get<Stored>('CloudAccounts', guid)!.data.cloudAAccountId).to.equal('123456789012');
      await destroy('sec_integration_cloud_a_cfg', state);
    });

    it('a console setting at every level of an alert rule comes back in the PATCH and stays', async () => {
      const hook = await apply('sec_alert_channel_webhook', null, {
        name: 'gaps-hook',
        webhook_url: 'https://hooks.acme.example/g',
      });
      const channel = hook.intg_guid as string;
      const plain = { name: 'gaps-rule', severities: ['High'], alert_channels: [channel] };
      let state = await apply('sec_alert_rule', null, plain);
      const guid = state.id as string;
      const held = emulator.get<Stored>('AlertRules', guid)!;
      emulator.put('AlertRules', guid, {
        ...held,
        consoleNote: 'set in the console',
        filters: { ...held.filters, consoleNote: 'set in the console' },
      });
      const from = emulator.requests.length;
      state = await apply('sec_alert_rule', state, { ...plain, description: 'changed' });
      expect(patchesSince(from)).to.have.length(1);
      const now = emulator.get<Stored>('AlertRules', guid)!;
      expect(now.consoleNote).to.equal('set in the console');
      expect(now.filters).to.deep.include({ consoleNote: 'set in the console', description: 'changed' });
      await destroy('sec_alert_rule', state);
      await destroy('sec_alert_channel_webhook', hook);
    });
  });

  describe('a DSPM integration switched off in the console shows in the plan, and the apply switches it on', () => {
    const cases: Array<[string, Plain]> = [
      [
        'sec_integration_cloud_a_dspm',
        { name: 'gaps-dspm-a', storage_bucket_arn: 'arn:cloud-a:bucket:dspm', credentials: [role], regions: ['r1'] },
      ],
      [
        'sec_integration_cloud_c_dspm',
        {
          name: 'gaps-dspm-c',
          storage_account_url: 'https://dspm.blob.cloud-c.example',
          blob_container_name: 'dspm',
          regions: ['r1'],
          credentials: [{ client_id: 'client-1', client_secret: 'cloud-c-secret-1' }],
        },
      ],
    ];
    for (const [type, plain] of cases) {
      it(`${type}: enabled is shown, its drift planned, and sent back as 1`, async () => {
        let state = await apply(type, null, plain);
        const guid = state.id as string;
        expect(state.enabled).to.equal(true);
        expect(emulator.get<Stored>('CloudAccounts', guid)).to.deep.include({ enabled: 1 });

        emulator.put('CloudAccounts', guid, { ...emulator.get<Stored>('CloudAccounts', guid)!, enabled: 0 });
        state = (await tf.read(type, state)).state!;
        expect(state.enabled, 'the refresh shows it off').to.equal(false);
        const plan = await tf.plan(type, state, cfg(type, plain));
        expect(plan.planned!.enabled, 'the plan switches it on').to.equal(true);

        const from = emulator.requests.length;
        state = (await tf.apply(type, state, plan, cfg(type, plain))).state!;
        expect(patchesSince(from).map((r) => (r.body as Stored).enabled)).to.deep.equal([1]);
        expect(emulator.get<Stored>('CloudAccounts', guid)).to.deep.include({ enabled: 1 });
        await planIsEmpty(type, (await tf.read(type, state)).state!, plain);

        // Switched off in the configuration, it stays off.
        state = await apply(type, state, { ...plain, enabled: false });
        expect(emulator.get<Stored>('CloudAccounts', guid)).to.deep.include({ enabled: 0 });
        await planIsEmpty(type, (await tf.read(type, state)).state!, { ...plain, enabled: false });
        await destroy(type, state);
      });
    }
  });

  describe('after an import, a configuration in a deprecated form sends nothing', () => {
    /** Create in `plain`, import into an empty state, plan `plain`: the apply sends nothing, the re-plan is empty. */
    async function importedSendsNothing(type: string, plain: Plain, importId: (s: ObjectValue) => string) {
      const created = await apply(type, null, plain);
      const imported = await tf.importState(type, importId(created));
      const plan = await tf.plan(type, imported, cfg(type, plain));
      expect(plan.requiresReplace).to.deep.equal([]);
      const from = emulator.requests.length;
      const applied = (await tf.apply(type, imported, plan, cfg(type, plain))).state!;
      expect(writesSince(from), 'a change of form alone sends nothing').to.deep.equal([]);
      await planIsEmpty(type, (await tf.read(type, applied)).state!, plain);
      await destroy(type, applied);
    }

    it('sec_alert_rule with sources and event_categories (an older subcategory name among them)', async () => {
      const channel = (
        await apply('sec_alert_channel_webhook', null, {
          name: 'gaps-hook-2',
          webhook_url: 'https://hooks.acme.example/h',
        })
      ).intg_guid as string;
      await importedSendsNothing(
        'sec_alert_rule',
        {
          name: 'gaps-deprecated',
          severities: ['High'],
          alert_channels: [channel],
          sources: ['CloudA', 'Agent'],
          event_categories: ['Compliance', 'Cloud'],
        },
        (s) => s.id as string,
      );
    });

    it('sec_policy_exception with field_value_map', async () => {
      await apply('sec_policy', null, {
        title: 'Gaps',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'Low',
        type: 'Violation',
        policy_id_suffix: 'gaps',
      });
      await importedSendsNothing(
        'sec_policy_exception',
        {
          policy_id: 'acme-gaps',
          description: 'Tagged sandbox',
          constraint: [{ field_key: 'resourceTags', field_value_map: [{ key: 'env', value: 'sandbox' }] }],
        },
        (s) => `${s.policy_id}:${s.id}`,
      );
    });
  });

  describe('a configuration moved to a deprecated form the platform does not keep sends nothing and settles', () => {
    it('sec_policy_exception made with field_values_map, then written with field_value_map', async () => {
      await apply('sec_policy', null, {
        title: 'Gaps back',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'Low',
        type: 'Violation',
        policy_id_suffix: 'back',
      });
      const current = {
        policy_id: 'acme-back',
        description: 'Tagged sandbox',
        constraint: [{ field_key: 'resourceTags', field_values_map: [{ key: 'env', value: ['sandbox'] }] }],
      };
      const deprecated = {
        ...current,
        constraint: [{ field_key: 'resourceTags', field_value_map: [{ key: 'env', value: 'sandbox' }] }],
      };
      let state = await apply('sec_policy_exception', null, current);
      const held = emulator.get<Stored>('Exceptions', state.id as string)!.constraints;
      const from = emulator.requests.length;
      state = await apply('sec_policy_exception', state, deprecated);
      expect(writesSince(from), 'a change of form alone sends nothing').to.deep.equal([]);
      expect(emulator.get<Stored>('Exceptions', state.id as string)!.constraints).to.deep.equal(held);
      // The platform keeps its list form; the read keeps the configuration's.
      await planIsEmpty('sec_policy_exception', (await tf.read('sec_policy_exception', state)).state!, deprecated);
      await destroy('sec_policy_exception', state);
    });
  });

  describe('a list whose order carries no meaning is compared as a set', () => {
    /**
     * Reordered in the configuration: no change planned, nothing sent. Reordered by the platform: no
     * drift, the state keeps its order. Imported in the platform's order: the configuration's plans empty.
     */
    async function orderMeansNothing(
      type: string,
      plain: (values: string[]) => Plain,
      values: string[],
      held: (stored: Stored) => string[],
      reorder: (stored: Stored, values: string[]) => Stored,
      importId: (s: ObjectValue) => string,
      collection: string,
    ) {
      const state = await apply(type, null, plain(values));
      const key = state.id as string;
      const reversed = [...values].reverse();

      const plan = await tf.plan(type, state, cfg(type, plain(reversed)));
      expect(same(type, plan.planned, state), 'a reordered configuration plans no change').to.equal(true);
      const from = emulator.requests.length;
      await tf.apply(type, state, plan, cfg(type, plain(reversed)));
      expect(writesSince(from), 'and sends nothing').to.deep.equal([]);

      const stored = emulator.get<Stored>(collection, key)!;
      emulator.put(collection, key, reorder(stored, reversed));
      expect(held(emulator.get<Stored>(collection, key)!)).to.deep.equal(reversed.map((v) => v.trim()));
      const refreshed = (await tf.read(type, state)).state!;
      expect(same(type, refreshed, state), 'a reordered platform answer shows no drift').to.equal(true);

      const imported = await tf.importState(type, importId(state));
      await planIsEmpty(type, imported, plain(values));
      await destroy(type, state);
    }

    it('sec_alert_channel_email: recipients', async () => {
      await orderMeansNothing(
        'sec_alert_channel_email',
        (recipients) => ({ name: 'gaps-mail', recipients }),
        ['a@example.com', 'b@example.com', ' c@example.com'],
        (s) => s.data.channelProps.recipients,
        (s, v) => ({ ...s, data: { ...s.data, channelProps: { recipients: v.map((x) => x.trim()) } } }),
        (s) => s.id as string,
        'AlertChannels',
      );
    });

    it('sec_integration_cloud_a_dspm: regions', async () => {
      await orderMeansNothing(
        'sec_integration_cloud_a_dspm',
        (regions) => ({
          name: 'gaps-regions',
          storage_bucket_arn: 'arn:cloud-a:bucket:r',
          credentials: [role],
          regions,
        }),
        ['eu-west-1', 'us-east-1', 'ap-south-1'],
        (s) => s.data.regions,
        (s, v) => ({ ...s, data: { ...s.data, regions: v } }),
        (s) => s.id as string,
        'CloudAccounts',
      );
    });

    it('sec_policy_exception: field_values', async () => {
      await apply('sec_policy', null, {
        title: 'Gaps order',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'Low',
        type: 'Violation',
        policy_id_suffix: 'order',
      });
      await orderMeansNothing(
        'sec_policy_exception',
        (accounts) => ({
          policy_id: 'acme-order',
          description: 'Sandbox accounts',
          constraint: [{ field_key: 'accountIds', field_values: accounts }],
        }),
        ['111111111111', '222222222222', '333333333333'],
        (s) => s.constraints[0].fieldValues,
        (s, v) => ({ ...s, constraints: [{ ...s.constraints[0], fieldValues: v }] }),
        (s) => `${s.policy_id}:${s.id}`,
        'Exceptions',
      );
    });
  });
});
