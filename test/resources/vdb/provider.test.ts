/**
 * The vdb provider configuration (docs/api/vdb.md, "Provider configuration";
 * docs/decisions.md, "The API key"): the API key rule, VDB_INSECURE's spellings, the default URL
 * warning, plaintext only to loopback, and the account id precedence (resource → provider → error).
 */
import { expect } from 'chai';
import { startVdbEmulator, VDB_COLLECTIONS, type VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { TerraformClient, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { VDB_BIN } from './harness.js';

describe('vdb provider configuration', function () {
  this.timeout(60_000);
  let emulator: VdbEmulator;
  const clients: TerraformClient[] = [];

  before(async () => {
    emulator = await startVdbEmulator({ provisioningMs: 50 });
  });
  after(async () => {
    for (const c of clients) await c.close();
    await emulator?.close();
  });

  async function start(env: Record<string, string>): Promise<TerraformClient> {
    // Blank the variables the test process might have, then set the test's own.
    const tf = await TerraformClient.start(VDB_BIN, {
      VDB_API_KEY: '',
      VDB_API_URL: '',
      VDB_ACCOUNT_ID: '',
      VDB_INSECURE: '',
      ...env,
    });
    clients.push(tf);
    return tf;
  }
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProviderCallError);
    return err as ProviderCallError;
  };

  it('serves one schema whatever the environment; without api_key or VDB_API_KEY, configure names both', async () => {
    const bare = await start({ VDB_API_URL: emulator.url });
    const fromEnv = await start({ VDB_API_URL: emulator.url, VDB_API_KEY: emulator.apiKey });
    expect(bare.providerSchema.block.attributes.api_key).to.deep.include({
      required: false,
      optional: true,
      sensitive: true,
    });
    expect(fromEnv.providerSchema).to.deep.equal(bare.providerSchema);

    const missing = await failure(bare.configure({}));
    expect(missing.diagnostics).to.have.length(1);
    expect(missing.diagnostics[0]).to.deep.include({ summary: 'Missing API key', path: 'api_key' });
    expect(missing.diagnostics[0]!.detail).to.equal(
      'Set `api_key` in the provider block or the VDB_API_KEY environment variable.',
    );
    // A blank variable is no key either.
    const blankVariable = await start({ VDB_API_URL: emulator.url, VDB_API_KEY: '  ' });
    expect((await failure(blankVariable.configure({}))).diagnostics[0]).to.deep.include({
      summary: 'Missing API key',
      path: 'api_key',
    });

    const blank = await failure(bare.configure({ api_key: '   ' }));
    expect(blank.diagnostics[0]).to.deep.include({ summary: 'Empty API key', path: 'api_key' });
    expect(blank.diagnostics[0]!.detail).to.match(/`api_key` is set but empty/);

    await fromEnv.configure({});
    await bare.configure({ api_key: emulator.apiKey });
  });

  it('VDB_INSECURE takes true, false, 1 or 0 in any case and refuses anything else on insecure', async () => {
    for (const value of ['maybe', 'yes', 't', '2']) {
      const tf = await start({ VDB_API_URL: emulator.url, VDB_API_KEY: emulator.apiKey, VDB_INSECURE: value });
      const refused = await failure(tf.configure({}));
      expect(refused.diagnostics).to.have.length(1);
      expect(refused.diagnostics[0]).to.deep.include({ summary: 'Invalid VDB_INSECURE', path: 'insecure' });
      expect(refused.diagnostics[0]!.detail).to.equal(
        `The VDB_INSECURE environment variable, which sets \`insecure\`, must be true, false, 1 or 0 (in any case), got ${JSON.stringify(value)}.`,
      );
      // The provider block wins: the variable is not consulted.
      await tf.configure({ insecure: false });
    }
    for (const value of ['TRUE', 'false', '1', '0', '']) {
      const tf = await start({ VDB_API_URL: emulator.url, VDB_API_KEY: emulator.apiKey, VDB_INSECURE: value });
      await tf.configure({});
    }
  });

  it('an empty api_url falls back to the default with a warning; plaintext only to loopback', async () => {
    const tf = await start({ VDB_API_KEY: emulator.apiKey });
    await tf.configure({ api_url: '' });
    expect(tf.received.filter((d) => d.severity === 'warning').map((d) => d.summary)).to.include('Using default URL');

    const remote = await failure(tf.configure({ api_url: 'http://vdb.example.com:8080' }));
    expect(remote.diagnostics[0]!.detail).to.match(/refusing plaintext http:\/\/ to vdb\.example\.com/);
    expect(remote.diagnostics[0]!.detail).to.not.include(emulator.apiKey);
  });

  it('an empty api_url or account_id in the provider block is named so, and the variable it hides', async () => {
    const role = { name: 'tf-empty-account-role', permissions: [{ value: 'read:clusters' }] };
    const hides = (name: string, variable: string) =>
      `A value there, even an empty one, wins over the ${variable} environment variable, which is set: ` +
      `remove \`${name}\` from the provider block to use the variable.`;
    const defaultUrl = '`api_url` is empty in the provider block, so the provider uses grpc.vdb-cloud.example:443.';
    const env = { VDB_API_KEY: emulator.apiKey, VDB_API_URL: emulator.url, VDB_ACCOUNT_ID: emulator.accountId };
    const hidden = await start(env);
    await hidden.configure({ api_url: '', account_id: '' });
    const warning = hidden.received.find((d) => d.severity === 'warning' && d.summary === 'Using default URL')!;
    expect(warning).to.deep.include({ path: 'api_url' });
    expect(warning.detail).to.equal(`${defaultUrl} ${hides('api_url', 'VDB_API_URL')}`);
    const config = hidden.config(hidden.resourceSchema('vdb_accounts_role').block, role);
    const plan = await hidden.plan('vdb_accounts_role', null, config);
    const refused = await failure(hidden.apply('vdb_accounts_role', null, plan, config));
    expect(refused.diagnostics[0]).to.deep.include({ summary: 'Account ID not specified', path: 'account_id' });
    expect(refused.diagnostics[0]!.detail).to.equal(
      'Set `account_id` on this resource or in the provider configuration: ' +
        '`account_id` is empty in the provider block. ' +
        hides('account_id', 'VDB_ACCOUNT_ID'),
    );

    // Without the variables, the same block says only what it gives.
    const alone = await start({ VDB_API_KEY: emulator.apiKey });
    await alone.configure({ api_url: '', account_id: '' });
    expect(alone.received.find((d) => d.summary === 'Using default URL')!.detail).to.equal(defaultUrl);
    const where = { cloud_provider: 'aws', cloud_region: 'eu-central-1' };
    const packages = alone.config(alone.dataSourceSchema('vdb_booking_packages').block, where);
    expect((await failure(alone.readData('vdb_booking_packages', packages))).diagnostics[0]!.detail).to.equal(
      'Set `account_id` in the provider configuration: `account_id` is empty in the provider block.',
    );
  });

  it('says in one sentence, at once, that a plaintext API behind a TLS URL did not answer TLS', async () => {
    const target = `localhost:${emulator.port}`;
    const tf = await start({
      VDB_API_URL: `https://${target}`,
      VDB_API_KEY: emulator.apiKey,
      VDB_ACCOUNT_ID: emulator.accountId,
    });
    await tf.configure({});
    const started = Date.now();
    const err = await failure(
      tf.readData('vdb_accounts_clusters', tf.config(tf.dataSourceSchema('vdb_accounts_clusters').block, {})),
    );
    // Retried as a passing failure, it took the whole retry budget (about 15 s).
    expect(Date.now() - started).to.be.below(5_000);
    expect(err.diagnostics).to.have.length(1);
    expect(err.diagnostics[0]!.detail).to.equal(
      `ClusterService/ListClusters: the server at ${target} did not answer TLS, so it may be a plaintext endpoint: check the API URL (plain http:// is accepted for loopback hosts only)`,
    );
  });

  it("a resource's own account_id wins over the provider's; without either, a clear error on account_id", async () => {
    const tf = await start({ VDB_API_URL: emulator.url, VDB_API_KEY: emulator.apiKey });
    await tf.configure({ account_id: '00000000-0000-4000-8000-000000000000' });
    const config = (plain: Record<string, unknown>) => tf.config(tf.resourceSchema('vdb_accounts_role').block, plain);
    const role = { name: 'tf-account-role', permissions: [{ value: 'read:clusters' }] };

    // The resource names the emulator's account: it wins over the provider's (another account).
    const own = config({ ...role, account_id: emulator.accountId });
    const { state } = await tf.apply('vdb_accounts_role', null, await tf.plan('vdb_accounts_role', null, own), own);
    expect(state!.account_id).to.equal(emulator.accountId);
    expect(emulator.get(VDB_COLLECTIONS.roles, state!.id as string)).to.deep.include({ accountId: emulator.accountId });

    // Without its own, the provider's account is used (the emulator's key has no access to it).
    const inherited = config(role);
    const denied = await failure(
      tf.apply('vdb_accounts_role', null, await tf.plan('vdb_accounts_role', null, inherited), inherited),
    );
    expect(denied.diagnostics[0]!.detail).to.match(/no access to account 00000000-0000-4000-8000-000000000000/);
    await tf.apply('vdb_accounts_role', state, await tf.plan('vdb_accounts_role', state, null), null);

    const none = await start({ VDB_API_URL: emulator.url, VDB_API_KEY: emulator.apiKey });
    await none.configure({});
    const missing = await failure(
      none.apply('vdb_accounts_role', null, await none.plan('vdb_accounts_role', null, inherited), inherited),
    );
    expect(missing.diagnostics[0]).to.deep.include({ summary: 'Account ID not specified', path: 'account_id' });
    expect(missing.diagnostics[0]!.detail).to.equal(
      'Set `account_id` on this resource or in the provider configuration (or the VDB_ACCOUNT_ID environment variable).',
    );
    // A type with no account_id of its own (the provider's is always used) names the provider's.
    const packages = none.config(none.dataSourceSchema('vdb_booking_packages').block, {
      cloud_provider: 'aws',
      cloud_region: 'eu-central-1',
    });
    const noAccount = await failure(none.readData('vdb_booking_packages', packages));
    expect(noAccount.diagnostics[0]).to.deep.include({
      summary: 'Account ID not specified',
      detail: 'Set `account_id` in the provider configuration (or the VDB_ACCOUNT_ID environment variable).',
    });
  });
});
