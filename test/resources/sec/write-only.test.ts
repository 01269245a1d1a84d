/**
 * Write-only twins (docs/decisions.md, "Write-only twins") through the real executable and the
 * Terraform-side client, against the emulator: every sensitive input `<name>` has `<name>_wo` and
 * `<name>_wo_version`; the write-only value is sent on create and when the version changes, never
 * kept in plan or state, and left out of other updates so the platform keeps the one it has.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import { TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { loadProviderDef } from '../../../src/providers/describe.js';
import type { Fields } from '../../../packages/framework/src/schema/define.js';

const BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
const CHAT = 'sec_alert_channel_chat';
const URL_ONE = 'https://chat.example.com/hooks/T000/B000/first-secret-part';
const URL_TWO = 'https://chat.example.com/hooks/T000/B000/second-secret-part';

interface StoredChannel {
  intgGuid: string;
  name: string;
  data: Record<string, unknown>;
}

describe('write-only twins of secret arguments', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;

  before(async () => {
    emulator = await startSecEmulator();
    tf = await TerraformClient.start(BIN, secProviderEnv(emulator));
    await tf.configure({});
  });
  after(async () => {
    await tf?.close();
    await emulator?.close();
  });

  const config = (type: string, plain: Record<string, unknown>) => configValue(tf.resourceSchema(type).block, plain);
  const same = (type: string, a: ObjectValue | null, b: ObjectValue | null) =>
    valueEquals(impliedType(tf.resourceSchema(type).block), a, b);
  const stored = (guid: string) => emulator.get<StoredChannel>('AlertChannels', guid)!;
  const patches = (guid: string) =>
    emulator.requests.filter((r) => r.method === 'PATCH' && r.path === `/api/v2/AlertChannels/${guid}`);

  async function apply(type: string, prior: ObjectValue | null, plain: Record<string, unknown>): Promise<ObjectValue> {
    const cfg = config(type, plain);
    await tf.validateResource(type, cfg);
    const change = await tf.plan(type, prior, cfg);
    return (await tf.apply(type, prior, change, cfg)).state!;
  }

  async function validationError(
    type: string,
    plain: Record<string, unknown>,
    options: { writeOnlyAllowed?: boolean } = {},
  ): Promise<ProviderCallError> {
    const err = await tf.validateResource(type, config(type, plain), options).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'validation must fail').to.be.instanceOf(ProviderCallError);
    return err as ProviderCallError;
  }

  it('gives every sensitive input of every resource a write-only twin and a version, and makes the input optional', async () => {
    const def = await loadProviderDef('sec');
    const missing: string[] = [];
    const walk = (
      fields: Fields,
      where: string,
      block: {
        attributes: Record<string, { required: boolean; optional: boolean; writeOnly: boolean; sensitive: boolean }>;
        blockTypes: Record<string, { block: never }>;
      },
    ) => {
      for (const [name, d] of Object.entries(fields)) {
        if (d.kind === 'block') {
          walk(d.fields, `${where}.${name}`, (block.blockTypes[name] as unknown as { block: typeof block }).block);
          continue;
        }
        const o = d.options;
        if (!o.sensitive || o.computed || o.writeOnly || !(o.required || o.optional)) continue;
        const twin = block.attributes[`${name}_wo`];
        const version = block.attributes[`${name}_wo_version`];
        if (!twin?.writeOnly || !twin.sensitive || !version || block.attributes[name]!.required)
          missing.push(`${where}.${name}`);
      }
    };
    for (const r of def.resources) walk(r.schema.fields, r.typeName, r.schema.block as never);
    expect(missing, 'sensitive inputs without a proper write-only twin').to.deep.equal([]);
    const attrs = tf.resourceSchema(CHAT).block.attributes;
    expect(attrs.webhook_url).to.deep.include({ optional: true, required: false, sensitive: true, writeOnly: false });
    expect(attrs.webhook_url_wo).to.deep.include({ optional: true, sensitive: true, writeOnly: true });
    expect(attrs.webhook_url_wo_version).to.deep.include({ optional: true, writeOnly: false });
  });

  it('requires exactly one of the argument and its twin, the version only with the twin, and Terraform 1.11 for the twin', async () => {
    const both = await validationError(CHAT, { name: 'wo-both', webhook_url: URL_ONE, webhook_url_wo: URL_ONE });
    expect(both.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
      ['Conflicting arguments', 'webhook_url_wo'],
    ]);
    const neither = await validationError(CHAT, { name: 'wo-neither' });
    expect(neither.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
      ['Missing configuration for required argument', 'webhook_url'],
    ]);
    const versionAlone = await validationError(CHAT, {
      name: 'wo-version',
      webhook_url: URL_ONE,
      webhook_url_wo_version: 1,
    });
    expect(versionAlone.diagnostics.map((d) => d.path)).to.deep.equal(['webhook_url_wo_version']);
    const oldTerraform = await validationError(
      CHAT,
      { name: 'wo-old', webhook_url_wo: URL_ONE },
      { writeOnlyAllowed: false },
    );
    expect(oldTerraform.diagnostics[0]).to.deep.include({
      summary: 'Write-only argument not supported',
      path: 'webhook_url_wo',
    });
    expect(oldTerraform.diagnostics[0]!.detail).to.include('Terraform 1.11').and.include('`webhook_url`');
    for (const err of [both, oldTerraform]) expect(err.message).to.not.include('secret-part');
  });

  it('sends the write-only value on create and on a version change only, keeping it out of plan and state', async () => {
    const plain = { name: 'wo-chat', webhook_url_wo: URL_ONE, webhook_url_wo_version: 1 };
    const cfg = config(CHAT, plain);
    await tf.validateResource(CHAT, cfg);
    const change = await tf.plan(CHAT, null, cfg);
    expect(change.planned!.webhook_url_wo, 'never planned').to.equal(null);
    let state = (await tf.apply(CHAT, null, change, cfg)).state!;
    const guid = state.intg_guid as string;
    expect(stored(guid).data).to.deep.equal({ webhookUrl: URL_ONE });
    expect(state).to.deep.include({ webhook_url: null, webhook_url_wo: null, webhook_url_wo_version: 1 });
    expect(JSON.stringify(state)).to.not.include('secret-part');

    // Reads never bring it into the state, although the platform shows it.
    expect((await tf.read(CHAT, state)).state).to.deep.equal(state);
    // A new write-only value alone changes nothing visible: the plan is empty, nothing is sent.
    const unchanged = await tf.plan(CHAT, state, config(CHAT, { ...plain, webhook_url_wo: URL_TWO }));
    expect(same(CHAT, unchanged.planned, state), 'no diff without a version change').to.equal(true);

    // Another argument changes: the update leaves the secret out, the platform keeps it.
    emulator.clearRequests();
    state = await apply(CHAT, state, { ...plain, name: 'wo-chat-renamed', webhook_url_wo: URL_TWO });
    expect(patches(guid)).to.have.length(1);
    expect(JSON.stringify(patches(guid)[0]!.body)).to.not.include('secret-part');
    expect(stored(guid)).to.deep.include({ name: 'wo-chat-renamed', data: { webhookUrl: URL_ONE } });

    // The version changes: the new value is sent.
    emulator.clearRequests();
    state = await apply(CHAT, state, {
      ...plain,
      name: 'wo-chat-renamed',
      webhook_url_wo: URL_TWO,
      webhook_url_wo_version: 2,
    });
    expect(patches(guid)).to.have.length(1);
    expect(stored(guid).data).to.deep.equal({ webhookUrl: URL_TWO });
    expect(state).to.deep.include({ webhook_url: null, webhook_url_wo: null, webhook_url_wo_version: 2 });
    const again = await tf.plan(
      CHAT,
      state,
      config(CHAT, { ...plain, name: 'wo-chat-renamed', webhook_url_wo: URL_TWO, webhook_url_wo_version: 2 }),
    );
    expect(same(CHAT, again.planned, state), 're-plan empty').to.equal(true);

    // Moving to the plain argument puts it in the state as before.
    state = await apply(CHAT, state, { name: 'wo-chat-renamed', webhook_url: URL_ONE });
    expect(stored(guid).data).to.deep.equal({ webhookUrl: URL_ONE });
    expect(state).to.deep.include({ webhook_url: URL_ONE, webhook_url_wo_version: null });
    await tf.apply(CHAT, state, await tf.plan(CHAT, state, null), null);
  });

  it('works inside a credentials block, and for a secret the platform never returns', async () => {
    const type = 'sec_integration_cloud_c_cfg';
    const credentials = (extra: Record<string, unknown>) => [{ client_id: 'client-1', ...extra }];
    const base = { name: 'wo-cloud-c', tenant_id: 'tenant-1' };
    let state = await apply(type, null, {
      ...base,
      credentials: credentials({ client_secret_wo: 'first-client-secret', client_secret_wo_version: 1 }),
    });
    const guid = state.intg_guid as string;
    const secretOf = () =>
      emulator.get<{ data: { credentials: { clientSecret: string } } }>('CloudAccounts', guid)!.data.credentials
        .clientSecret;
    expect(secretOf()).to.equal('first-client-secret');
    expect((state.credentials as ObjectValue[])[0]).to.deep.include({
      client_secret: null,
      client_secret_wo: null,
      client_secret_wo_version: 1,
    });
    state = await apply(type, state, {
      ...base,
      name: 'wo-cloud-c-2',
      credentials: credentials({ client_secret_wo: 'ignored-without-a-bump', client_secret_wo_version: 1 }),
    });
    expect(secretOf(), 'kept by the platform').to.equal('first-client-secret');
    state = await apply(type, state, {
      ...base,
      name: 'wo-cloud-c-2',
      credentials: credentials({ client_secret_wo: 'second-client-secret', client_secret_wo_version: 2 }),
    });
    expect(secretOf()).to.equal('second-client-secret');
    expect(JSON.stringify(state)).to.not.include('client-secret');
    await tf.apply(type, state, await tf.plan(type, state, null), null);
  });
});
