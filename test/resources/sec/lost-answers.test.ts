/**
 * Creates whose answer is lost, for every sec resource type that can be looked up by a natural key,
 * through the real executable and the Terraform-side client against the emulator. The emulator
 * carries the create out and then closes the connection without answering (fault `ambiguous`): the
 * provider must find what it made and adopt it — exactly one object on the platform, its id in
 * state, an empty re-plan — and must never make a second one.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import {
  TerraformClient,
  configValue,
  ProviderCallError,
  type WireDiagnostic,
} from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { createSecClient } from '../../../src/clients/sec/index.js';

const BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');
type Plain = Record<string, unknown>;
type Stored = Record<string, unknown>;

interface Case {
  type: string;
  /** Where the create is POSTed (without the query). */
  path: string;
  /** The emulator collection the object is stored in, and the stored field that is the Terraform id. */
  collection: string;
  idKey: string;
  config: () => Plain;
  /** Checks that the steps after the create call ran for the adopted object too. */
  settled?: (stored: Stored, state: ObjectValue) => void;
}

const violation = {
  name: 'Violation',
  event_name: 'Bucket exposed',
  description: 'Bucket {{RESOURCE_ID}} is public',
  subject: '{{_OCCURRENCE}} in {{ACCOUNT_ID}}',
};

describe('sec resources: creates whose answer is lost', function () {
  this.timeout(120_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let channel: string;
  let policyId: string;
  let objectStore: string;

  const cfg = (type: string, plain: Plain) => configValue(tf.resourceSchema(type).block, plain);
  const requestsTo = (method: string, path: string) =>
    emulator.requests.filter((r) => r.method === method && r.path.split('?')[0] === path);

  async function apply(type: string, prior: ObjectValue | null, plain: Plain | null): Promise<ObjectValue | null> {
    const config = plain === null ? null : cfg(type, plain);
    if (config) await tf.validateResource(type, config);
    const change = await tf.plan(type, prior, config);
    return (await tf.apply(type, prior, change, config)).state;
  }

  async function applyFailure(type: string, plain: Plain): Promise<WireDiagnostic[]> {
    const err = await apply(type, null, plain).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'apply must fail').to.be.instanceOf(ProviderCallError);
    return (err as ProviderCallError).diagnostics;
  }

  /** ApplyResourceChange answered as is: the state returned alongside the error diagnostics (Terraform keeps it). */
  async function applyRaw(
    type: string,
    prior: ObjectValue | null,
    plain: Plain,
  ): Promise<{ state: ObjectValue | null; errors: { summary: string; detail: string }[] }> {
    const config = cfg(type, plain);
    const { state, errors } = await tf.applyKeepingState(type, prior, await tf.plan(type, prior, config), config);
    return { state, errors: errors.map((d) => ({ summary: d.summary, detail: d.detail })) };
  }

  async function expectEmptyPlan(type: string, state: ObjectValue, plain: Plain): Promise<void> {
    const again = await tf.plan(type, state, cfg(type, plain));
    expect(again.requiresReplace).to.deep.equal([]);
    expect(
      valueEquals(impliedType(tf.resourceSchema(type).block), again.planned, state),
      're-plan must be empty',
    ).to.equal(true);
  }

  before(async () => {
    emulator = await startSecEmulator();
    tf = await TerraformClient.start(BIN, secProviderEnv(emulator));
    await tf.configure({});
    channel = (await apply('sec_alert_channel_email', null, { name: 'reports', recipients: ['reports@example.com'] }))!
      .id as string;
    policyId = (await apply('sec_policy', null, {
      title: 'For exceptions',
      query_id: 'SEC_Global_CloudA_Trail_TrailChange',
      description: 'd',
      remediation: 'r',
      severity: 'Low',
      type: 'Violation',
      policy_id_suffix: 'exc',
    }))!.id as string;
    objectStore = (await apply('sec_alert_channel_cloud_a_object_store', null, {
      name: 'exports',
      bucket_arn: 'arn:cloud-a:s3:::exports',
      credentials: [{ external_id: 'e', role_arn: 'arn:cloud-a:iam::123456789012:role/e' }],
    }))!.id as string;
  });
  after(async () => {
    await tf?.close();
    await emulator?.close();
  });
  afterEach(() => emulator.clearFaults());

  const CASES: Case[] = [
    {
      type: 'sec_alert_channel_email',
      path: '/api/v2/AlertChannels',
      collection: 'AlertChannels',
      idKey: 'intgGuid',
      config: () => ({ name: 'lost-email', recipients: ['ops@example.com'] }),
      // The channel was tested, as a create tests it.
      settled: (stored) =>
        expect(requestsTo('POST', `/api/v2/AlertChannels/${String(stored.intgGuid)}/test`)).to.have.length(1),
    },
    {
      type: 'sec_integration_cloud_a_cfg',
      path: '/api/v2/CloudAccounts',
      collection: 'CloudAccounts',
      idKey: 'intgGuid',
      config: () => ({
        name: 'lost-cfg',
        credentials: [{ role_arn: 'arn:cloud-a:iam::123456789012:role/sec-audit', external_id: 'ext-1' }],
      }),
    },
    {
      type: 'sec_integration_registry_d',
      path: '/api/v2/ContainerRegistries',
      collection: 'ContainerRegistries',
      idKey: 'intgGuid',
      config: () => ({ name: 'lost-registry', username: 'scanner', password: 'hub-pass-1' }),
    },
    {
      type: 'sec_alert_profile',
      path: '/api/v2/AlertProfiles',
      collection: 'AlertProfiles',
      idKey: 'alertProfileId',
      config: () => ({ name: 'CUSTOM_LOST', extends: 'SEC_CFG_CLOUD_A_DEFAULT_PROFILE', alert: [violation] }),
    },
    {
      type: 'sec_policy',
      path: '/api/v2/Policies',
      collection: 'Policies',
      idKey: 'policyId',
      config: () => ({
        title: 'Lost with suffix',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'High',
        type: 'Violation',
        policy_id_suffix: 'lost',
      }),
    },
    {
      type: 'sec_policy',
      path: '/api/v2/Policies',
      collection: 'Policies',
      idKey: 'policyId',
      // No suffix: known by title and query.
      config: () => ({
        title: 'Lost and numbered',
        query_id: 'SEC_Global_CloudA_Trail_VPCChange',
        description: 'd',
        remediation: 'r',
        severity: 'High',
        type: 'Violation',
      }),
    },
    {
      type: 'sec_policy_exception',
      path: '/api/v2/Exceptions',
      collection: 'Exceptions',
      idKey: 'exceptionId',
      config: () => ({
        policy_id: policyId,
        description: 'Sandbox accounts',
        constraint: [
          { field_key: 'accountIds', field_values: ['222222222222', ' 111111111111'] },
          { field_key: 'resourceTags', field_values_map: [{ key: 'env', value: ['sandbox', 'dev'] }] },
        ],
      }),
    },
    {
      type: 'sec_report_rule',
      path: '/api/v2/ReportRules',
      collection: 'ReportRules',
      idKey: 'mcGuid',
      config: () => ({ name: 'lost-rule', severities: ['High'], email_alert_channels: [channel] }),
    },
    {
      type: 'sec_query',
      path: '/api/v2/Queries',
      collection: 'Queries',
      idKey: 'queryId',
      config: () => ({
        query_id: 'TF_Lost',
        query: '{ source { CloudATrailRawEvents } filter { ERROR_CODE is null } return { EVENT } }',
      }),
    },
    {
      type: 'sec_policy_compliance',
      path: '/api/v2/Policies',
      collection: 'Policies',
      idKey: 'policyId',
      config: () => ({
        title: 'Lost compliance',
        query_id: 'SEC_Global_CloudA_Trail_TrailChange',
        description: 'd',
        remediation: 'r',
        severity: 'High',
      }),
    },
    {
      type: 'sec_alert_rule',
      path: '/api/v2/AlertRules',
      collection: 'AlertRules',
      idKey: 'mcGuid',
      config: () => ({ name: 'lost-alert-rule', severities: ['High'], alert_channels: [channel] }),
    },
    {
      type: 'sec_data_export_rule',
      path: '/api/v2/DataExportRules',
      collection: 'DataExportRules',
      idKey: 'mcGuid',
      config: () => ({ name: 'lost-export', integration_ids: [objectStore] }),
    },
    {
      type: 'sec_resource_group',
      path: '/api/v2/ResourceGroups',
      collection: 'ResourceGroups',
      idKey: 'resourceGroupGuid',
      config: () => ({
        name: 'lost-group',
        type: 'CLOUD_A',
        group: [
          {
            operator: 'AND',
            filter: [{ filter_name: 'accounts', field: 'Account', operation: 'EQUALS', value: ['123456789012'] }],
          },
        ],
      }),
    },
    {
      type: 'sec_team_member',
      path: '/api/v2/TeamMembers',
      collection: 'TeamMembers',
      idKey: 'userGuid',
      config: () => ({ email: 'lost@example.com', first_name: 'Lo', last_name: 'St', company: 'Found' }),
    },
    {
      type: 'sec_vulnerability_exception_container',
      path: '/api/v2/VulnerabilityExceptions',
      collection: 'VulnerabilityExceptions',
      idKey: 'exceptionGuid',
      config: () => ({ name: 'lost-exception', vulnerability_criteria: [{ cves: ['CVE-2024-0001'] }] }),
    },
    {
      type: 'sec_agent_access_token',
      path: '/api/v2/AgentAccessTokens',
      collection: 'AgentAccessTokens',
      idKey: 'tokenAlias',
      config: () => ({ name: 'lost-token', enabled: false }),
      // Tokens are created enabled; the second call that disables one ran for the adopted token.
      settled: (stored, state) => {
        expect(stored.tokenEnabled).to.equal(0);
        expect(state.enabled).to.equal(false);
      },
    },
  ];

  for (const c of CASES) {
    it(`${c.type}${c.type === 'sec_policy' ? ` (${c.config().policy_id_suffix ? 'suffix' : 'no suffix'})` : ''}: adopts the one object the lost create made`, async () => {
      const before = emulator.list<Stored>(c.collection).map((s) => s[c.idKey]);
      emulator.clearRequests();
      emulator.injectFault({ method: 'POST', path: c.path, ambiguous: true });
      const state = (await apply(c.type, null, c.config()))!;

      const added = emulator.list<Stored>(c.collection).filter((s) => !before.includes(s[c.idKey]));
      expect(added, 'exactly one new object').to.have.length(1);
      expect(state.id).to.equal(added[0]![c.idKey]);
      expect(requestsTo('POST', c.path), 'the create was sent once').to.have.length(1);
      c.settled?.(added[0]!, state);
      await expectEmptyPlan(c.type, state, c.config());
      await apply(c.type, state, null);
    });
  }

  it('creates again when the connection dropped before the request was handled, still one object', async () => {
    const before = emulator.list('AlertChannels').length;
    emulator.clearRequests();
    emulator.injectFault({ method: 'POST', path: '/api/v2/AlertChannels', dropConnection: true });
    const state = (await apply('sec_alert_channel_email', null, { name: 'dropped', recipients: ['ops@example.com'] }))!;
    expect(requestsTo('POST', '/api/v2/AlertChannels')).to.have.length(2);
    expect(emulator.list('AlertChannels')).to.have.length(before + 1);
    expect(emulator.get('AlertChannels', state.id as string)).to.deep.include({ name: 'dropped' });
    await apply('sec_alert_channel_email', state, null);
  });

  it('adopts the object its create made, never an older one of the same name', async () => {
    const config = { name: 'twice', recipients: ['ops@example.com'] };
    const existing = (await apply('sec_alert_channel_email', null, config))!;
    const before = emulator.list('AlertChannels').length;
    emulator.clearRequests();
    emulator.injectFault({ method: 'POST', path: '/api/v2/AlertChannels', ambiguous: true });
    const state = (await apply('sec_alert_channel_email', null, config))!;
    expect(state.id).to.not.equal(existing.id);
    expect(
      emulator
        .list<Stored>('AlertChannels')
        .filter((s) => s.name === 'twice')
        .map((s) => s.intgGuid)
        .sort(),
    ).to.deep.equal([existing.id, state.id].sort());
    expect(emulator.list('AlertChannels')).to.have.length(before + 1);
    expect(requestsTo('POST', '/api/v2/AlertChannels')).to.have.length(1);
    await apply('sec_alert_channel_email', state, null);
    await apply('sec_alert_channel_email', existing, null);
  });

  it('adopts nothing and sends nothing more when another object with the name appears while its request is out', async () => {
    const config = { name: 'raced', recipients: ['ops@example.com'] };
    const before = emulator.list('AlertChannels').length;
    emulator.clearRequests();
    // The request waits before the platform acts; meanwhile someone else makes a channel of the same name.
    emulator.injectFault({ method: 'POST', path: '/api/v2/AlertChannels', ambiguous: true, delayMs: 400 });
    const applying = applyFailure('sec_alert_channel_email', config);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const other = createSecClient({
      baseUrl: emulator.url,
      account: emulator.account,
      apiKey: emulator.apiKey,
      apiSecret: emulator.apiSecret,
      userAgent: 'another workspace',
    });
    const theirs = await other.alertChannels.create({
      name: 'raced',
      type: 'EmailUser',
      enabled: true,
      data: { channelProps: { recipients: ['ops@example.com'] } },
    } as never);
    await other.close();
    const [d] = await applying;
    expect(d).to.deep.include({ severity: 'error', summary: 'Create outcome unknown' });
    const twins = emulator.list<Stored>('AlertChannels').filter((s) => s.name === 'raced');
    expect(twins).to.have.length(2);
    expect(emulator.list('AlertChannels')).to.have.length(before + 2);
    expect(requestsTo('POST', '/api/v2/AlertChannels')).to.have.length(2);
    expect(requestsTo('DELETE', `/api/v2/AlertChannels/${theirs.intgGuid}`)).to.deep.equal([]);
    expect(d!.detail).to.include('2 objects holding its key were not among the objects listed before the request');
    for (const t of twins)
      expect(d!.detail).to.include(`${String(t.intgGuid)} (not among the objects listed before the request)`);
    expect(d!.detail).to.include(
      "import the right one: `terraform import <address> '<the integration GUID (`intg_guid`)>'`",
    );
    for (const t of twins) emulator.remove('AlertChannels', String(t.intgGuid));
  });

  it('repeats a cloud-account create the platform declines, `retries` times at most', async () => {
    emulator.clearRequests();
    emulator.injectFault({
      method: 'POST',
      path: '/api/v2/CloudAccounts',
      status: 503,
      body: { message: 'busy' },
      times: Infinity,
    });
    const config = {
      name: 'busy-cfg',
      retries: 2,
      credentials: [{ role_arn: 'arn:cloud-a:iam::123456789012:role/sec-audit', external_id: 'ext-1' }],
    };
    const [d] = await applyFailure('sec_integration_cloud_a_cfg', config);
    expect(d!.detail).to.include('busy');
    expect(requestsTo('POST', '/api/v2/CloudAccounts')).to.have.length(2);
    emulator.clearFaults();
    emulator.injectFault({
      method: 'POST',
      path: '/api/v2/CloudAccounts',
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 2,
    });
    const state = (await apply('sec_integration_cloud_a_cfg', null, { ...config, retries: 3 }))!;
    expect(requestsTo('POST', '/api/v2/CloudAccounts')).to.have.length(2 + 3);
    expect(
      emulator
        .list<Stored>('CloudAccounts')
        .filter((s) => s.name === 'busy-cfg')
        .map((s) => s.intgGuid),
    ).to.deep.equal([state.id]);
    await apply('sec_integration_cloud_a_cfg', state, null);
  });

  it('ends the wait before repeating a declined create promptly when Terraform calls StopProvider', async () => {
    // The test before had the API decline calls, so this provider process paces its calls to it for a
    // second or two (src/clients/host-gate.ts), as it should; once that is over, the create goes out at once.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    emulator.clearRequests();
    emulator.injectFault({
      method: 'POST',
      path: '/api/v2/AlertChannels',
      status: 429,
      headers: { 'Retry-After': '3' },
    });
    const applying = applyRaw('sec_alert_channel_email', null, { name: 'stopped', recipients: ['ops@example.com'] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopAt = Date.now();
    expect(await tf.stop()).to.equal('');
    const { state, errors } = await applying;
    expect(Date.now() - stopAt, 'the wait ends promptly').to.be.below(1_000);
    expect(state).to.equal(null);
    // The API declined the first request and the second was never sent: nothing was created, and the message says so.
    expect(errors[0]!.summary).to.equal('Create of sec_alert_channel_email cancelled');
    expect(errors[0]!.detail).to.equal(
      'POST /api/v2/AlertChannels: Terraform asked the provider to stop before the request was sent, so it changed nothing: the sec_alert_channel_email alert channel (type EmailUser) named "stopped" was not created.',
    );
    expect(requestsTo('POST', '/api/v2/AlertChannels')).to.have.length(1);
    expect(emulator.list<Stored>('AlertChannels').filter((s) => s.name === 'stopped')).to.have.length(0);
  });

  describe('a failed apply keeps what exists', () => {
    it('keeps a token that was created but could not be disabled in state (Terraform taints it)', async () => {
      emulator.injectFault({
        method: 'PATCH',
        path: /^\/api\/v2\/AgentAccessTokens\//,
        status: 500,
        body: { message: 'token store unavailable' },
      });
      const { state, errors } = await applyRaw('sec_agent_access_token', null, { name: 'half-made', enabled: false });
      expect(errors).to.have.length(1);
      expect(errors[0]!.detail).to.include('token store unavailable');
      const stored = emulator.list<Stored>('AgentAccessTokens').filter((t) => t.tokenAlias === 'half-made');
      expect(stored).to.have.length(1);
      expect(stored[0]!.tokenEnabled, 'the second call failed').to.equal(1);
      expect(state).to.deep.include({ id: 'half-made', name: 'half-made', token: stored[0]!.accessToken });
      await apply('sec_agent_access_token', state, null);
    });

    it('keeps the prior state when an update fails, and repeats an update whose connection dropped', async () => {
      const type = 'sec_alert_channel_email';
      const prior = (await apply(type, null, { name: 'steady', recipients: ['ops@example.com'] }))!;
      const path = `/api/v2/AlertChannels/${String(prior.id)}`;
      emulator.injectFault({ method: 'PATCH', path, status: 400, body: { message: 'recipients refused' } });
      const failed = await applyRaw(type, prior, { name: 'steady', recipients: ['new@example.com'] });
      expect(failed.errors[0]!.detail).to.include('recipients refused');
      expect(failed.state).to.deep.equal(prior);
      expect(emulator.get<Stored>('AlertChannels', prior.id as string)!.data).to.deep.equal({
        channelProps: { recipients: ['ops@example.com'] },
      });

      emulator.clearRequests();
      emulator.injectFault({ method: 'PATCH', path, dropConnection: true });
      const updated = (await apply(type, prior, { name: 'steady', recipients: ['new@example.com'] }))!;
      expect(updated.recipients).to.deep.equal(['new@example.com']);
      expect(requestsTo('PATCH', path)).to.have.length(2);
      await apply(type, updated, null);
    });
  });
});
