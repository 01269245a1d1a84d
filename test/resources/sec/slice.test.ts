/**
 * The sec slice through the real executable and our Terraform-side client (which applies
 * Terraform's plan and apply checks), against the in-process emulator.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import type { SecEmulator } from '../../../src/emulators/sec/index.js';
import { startSecProvider, type SecProvider } from '../../support/sec-provider.js';
import { type TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';

describe('sec slice through the Terraform-side client', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let sec: SecProvider;

  before(async () => {
    sec = await startSecProvider();
    ({ emulator, tf } = sec);
  });
  after(() => sec?.close());

  async function converge(
    type: string,
    prior: ObjectValue | null,
    plain: Record<string, unknown>,
  ): Promise<ObjectValue> {
    const block = tf.resourceSchema(type).block;
    const config = configValue(block, plain);
    await tf.validateResource(type, config);
    const change = await tf.plan(type, prior, config);
    const { state } = await tf.apply(type, prior, change, config);
    const again = await tf.plan(type, state, config);
    expect(valueEquals(impliedType(block), again.planned, state), 're-plan must be empty').to.equal(true);
    return state!;
  }

  it('e-mail channel: create, no-op plan, update, import, read drift, delete', async () => {
    const type = 'sec_alert_channel_email';
    let state = await converge(type, null, { name: 'ops', recipients: [' ops@example.com'] });
    const guid = state.id as string;
    expect(
      emulator.get<{ data: { channelProps: { recipients: string[] } } }>('AlertChannels', guid)!.data.channelProps
        .recipients,
    ).to.deep.equal(['ops@example.com']);
    // Terraform keeps the configured form (with the space) although the platform trimmed it.
    expect(state.recipients).to.deep.equal([' ops@example.com']);
    expect((await tf.read(type, state)).state).to.deep.equal(state);

    state = await converge(type, state, { name: 'ops-renamed', recipients: ['ops@example.com'], enabled: false });
    expect(emulator.get('AlertChannels', guid)).to.deep.include({ name: 'ops-renamed', enabled: 0 });

    const imported = await tf.importState(type, guid);
    expect(imported).to.deep.include({ id: guid, name: 'ops-renamed', enabled: false, test_integration: true });

    emulator.put('AlertChannels', guid, {
      ...emulator.get<Record<string, unknown>>('AlertChannels', guid)!,
      name: 'changed-in-ui',
    });
    expect((await tf.read(type, state)).state!.name).to.equal('changed-in-ui');

    const block = tf.resourceSchema(type).block;
    const destroy = await tf.plan(type, state, null);
    await tf.apply(type, state, destroy, null);
    expect(emulator.get('AlertChannels', guid)).to.equal(undefined);
    expect((await tf.read(type, state)).state).to.equal(null);
    void block;
  });

  it('e-mail channel: a failed test on create removes the channel and says why', async () => {
    const type = 'sec_alert_channel_email';
    const config = configValue(tf.resourceSchema(type).block, {
      name: 'broken',
      recipients: ['fail-test@example.com'],
    });
    const change = await tf.plan(type, null, config);
    const before = emulator.list('AlertChannels').length;
    const err = await tf.apply(type, null, change, config).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProviderCallError);
    expect((err as ProviderCallError).diagnostics[0]!.summary).to.equal('Alert channel test failed');
    expect(emulator.list('AlertChannels').length).to.equal(before);
  });

  it('agent access token: create disabled, rename, import by name and by token, destroy disables and renames', async () => {
    const type = 'sec_agent_access_token';
    let state = await converge(type, null, { name: 'fleet', description: 'first', enabled: false });
    const token = state.token as string;
    expect(emulator.get('AgentAccessTokens', token)).to.deep.include({ tokenAlias: 'fleet', tokenEnabled: 0 });
    state = await converge(type, state, { name: 'fleet-2', description: 'second' });
    expect(state).to.deep.include({ id: 'fleet-2', enabled: true, os: 'linux' });
    expect(emulator.get('AgentAccessTokens', token)).to.deep.include({ tokenAlias: 'fleet-2', tokenEnabled: 1 });
    // By its name (the id, as the docs show it) and by the token value: the same state.
    const byName = await tf.importState(type, 'fleet-2');
    expect(byName).to.deep.include({ id: 'fleet-2', name: 'fleet-2', token, description: 'second' });
    expect(await tf.importState(type, token)).to.deep.equal(byName);
    expect((await tf.read(type, byName)).state).to.deep.equal(byName);
    // os cannot change in place: the plan asks for a replacement.
    const changeOs = await tf.plan(
      type,
      state,
      configValue(tf.resourceSchema(type).block, { name: 'fleet-2', description: 'second', os: 'windows' }),
    );
    expect(changeOs.requiresReplace).to.deep.equal([[{ attr: 'os' }]]);
    await tf.apply(type, state, await tf.plan(type, state, null), null);
    expect(emulator.get<{ tokenAlias: string; tokenEnabled: number }>('AgentAccessTokens', token)).to.deep.include({
      tokenEnabled: 0,
    });
    expect(emulator.get<{ tokenAlias: string }>('AgentAccessTokens', token)!.tokenAlias).to.match(
      /^fleet-2-[a-z0-9]{5}-deleted$/,
    );
  });

  it('agent access token: an import id that is neither a name nor a token value is not found, and not quoted', async () => {
    const type = 'sec_agent_access_token';
    const existing = await converge(type, null, { name: 'fleet-known' });
    // A token value with one character changed: it may be a secret, so the message must not show it.
    const mistyped = `${(existing.token as string).slice(0, -1)}${(existing.token as string).endsWith('0') ? '1' : '0'}`;
    for (const id of [mistyped, 'fleet-unknown', '']) {
      const err = (await tf.importState(type, id).then(
        () => null,
        (e: unknown) => e,
      )) as ProviderCallError;
      expect(err, JSON.stringify(id)).to.be.instanceOf(ProviderCallError);
      expect(err.diagnostics.map((d) => d.summary)).to.deep.equal([
        id === '' ? 'Missing Resource Import Identifier' : 'Cannot import non-existent remote object',
      ]);
      if (id !== '') expect(err.message).to.not.include(id);
    }
    await tf.apply(type, existing, await tf.plan(type, existing, null), null);
  });

  it('agent access token: imported by the fingerprint of its value in either hex case; a token pasted there instead is refused and never repeated', async () => {
    const type = 'sec_agent_access_token';
    const existing = await converge(type, null, { name: 'fleet-fingerprint' });
    const token = existing.token as string;
    const fingerprint = createHash('sha256').update(token).digest('hex');
    for (const given of [fingerprint, fingerprint.toUpperCase()]) {
      expect((await tf.importByIdentity(type, { token_sha256: given })).name, given).to.equal('fleet-fingerprint');
    }
    const err = (await tf.importByIdentity(type, { token_sha256: token }).then(
      () => null,
      (e: unknown) => e,
    )) as ProviderCallError;
    expect(err).to.be.instanceOf(ProviderCallError);
    expect(err.diagnostics.map((d) => d.summary)).to.deep.equal(['Invalid agent access token fingerprint']);
    expect(err.diagnostics[0]!.detail).to.include('64 hexadecimal digits');
    expect(JSON.stringify(tf.received)).to.not.include(token);
    const unknown = 'ab'.repeat(32);
    const missing = (await tf.importByIdentity(type, { token_sha256: unknown }).then(
      () => null,
      (e: unknown) => e,
    )) as ProviderCallError;
    expect(missing.diagnostics[0]!.detail).to.equal(`No agent access token has the fingerprint ${unknown}.`);
    await tf.apply(type, existing, await tf.plan(type, existing, null), null);
  });

  it('rejects bad values at validation and a configured id on create at plan, with attribute paths', async () => {
    const type = 'sec_alert_channel_email';
    const block = tf.resourceSchema(type).block;
    const fails = (call: Promise<unknown>) =>
      call.then(
        () => null,
        (e: unknown) => e,
      ) as Promise<ProviderCallError>;
    const bad = configValue(block, { id: 'x', name: 'n', recipients: ['nope'] });
    expect((await fails(tf.validateResource(type, bad))).diagnostics.map((d) => d.path)).to.deep.equal(['recipients']);
    const withId = configValue(block, { id: 'x', name: 'n', recipients: ['ops@example.com'] });
    expect((await fails(tf.plan(type, null, withId))).diagnostics.map((d) => d.path)).to.deep.equal(['id']);
  });

  it('user profile data source', async () => {
    const s = await tf.readData('sec_user_profile', configValue(tf.dataSourceSchema('sec_user_profile').block, {}));
    expect(s.username).to.be.a('string').and.not.empty;
    expect(s.id).to.equal(s.username);
    expect(s.accounts).to.be.an('array').with.length.greaterThan(0);
  });
});
