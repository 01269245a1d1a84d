/**
 * Every alert channel through the real executable and the Terraform-side client, against the
 * in-process emulator, one table row per channel type: create, read, empty re-plan, update, import
 * by GUID, destroy, with the exact `data` the platform stored and the secrets it masks.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startSecEmulator, type SecEmulator } from '../../../src/emulators/sec/index.js';
import { TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import type { ObjectValue, Value } from '../../../packages/framework/src/schema/value.js';
import { encodeJsonDataUrl } from '../../../src/clients/sec/data-url.js';
import { secProviderEnv } from '../../../src/tfclient/terraform-cli.js';

const BIN = join(process.cwd(), 'bin', 'terraform-provider-sec');

/** A state path: attribute names and block indexes. */
type StatePath = (string | number)[];

interface Case {
  type: string;
  config: Record<string, unknown>;
  /** Exactly what the platform stores as `data` after create. */
  data: Record<string, unknown>;
  /** Secrets: state path → wire path (dotted, in `data`) the platform blanks on GET, or null when it returns them. */
  secrets?: { state: StatePath; wire: string | null }[];
  /** Attributes changed by the update step, and the top-level `data` fields expected afterwards. */
  update: { set: Record<string, unknown>; data: Record<string, unknown> };
  /** Bad values and the attribute path the diagnostic must name. */
  invalid?: { set: Record<string, unknown>; path: string }[];
}

const TRACKER_TEMPLATE = '{\n  "fields": { "labels": ["sec", "alert"] }\n}';
const TICKETING_TEMPLATE = '{ "impact": "2", "urgency": "1" }';
const PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n';

const pubSubCredentials = {
  client_email: 'alerts@sec-proj.iam.example',
  client_id: '109876543210',
  private_key: PRIVATE_KEY,
  private_key_id: 'key-id-1',
};

const CASES: Case[] = [
  {
    type: 'sec_alert_channel_cloud_a_event_bus',
    config: { name: 'ut-event-bus', event_bus_arn: 'arn:cloud-a:events:eu-west-1:123456789012:event-bus/default' },
    data: { eventBusArn: 'arn:cloud-a:events:eu-west-1:123456789012:event-bus/default', issueGrouping: 'Events' },
    update: { set: { group_issues_by: 'Resources' }, data: { issueGrouping: 'Resources' } },
    invalid: [
      { set: { group_issues_by: 'events' }, path: 'group_issues_by' },
      { set: { event_bus_arn: '' }, path: 'event_bus_arn' },
    ],
  },
  {
    type: 'sec_alert_channel_cloud_a_object_store',
    config: {
      name: 'ut-object-store',
      bucket_arn: 'arn:cloud-a:s3:::sec-alerts',
      credentials: [{ external_id: 'ext-1', role_arn: 'arn:cloud-a:iam::123456789012:role/sec-export' }],
    },
    data: {
      objectStoreCredentials: {
        bucketArn: 'arn:cloud-a:s3:::sec-alerts',
        externalId: 'ext-1',
        roleArn: 'arn:cloud-a:iam::123456789012:role/sec-export',
      },
    },
    update: {
      set: { credentials: [{ external_id: 'ext-2', role_arn: 'arn:cloud-a:iam::123456789012:role/sec-export' }] },
      data: {
        objectStoreCredentials: {
          bucketArn: 'arn:cloud-a:s3:::sec-alerts',
          externalId: 'ext-2',
          roleArn: 'arn:cloud-a:iam::123456789012:role/sec-export',
        },
      },
    },
  },
  {
    type: 'sec_alert_channel_teams_a',
    config: { name: 'ut-teams-a', webhook_url: 'https://teams-a.example/hooks/one' },
    data: { webhook: 'https://teams-a.example/hooks/one' },
    // The webhook URLs carry the channel's secret (docs/decisions.md, "Credentials are sensitive"); the platform returns them.
    secrets: [{ state: ['webhook_url'], wire: null }],
    update: {
      set: { webhook_url: 'https://teams-a.example/hooks/two' },
      data: { webhook: 'https://teams-a.example/hooks/two' },
    },
    invalid: [{ set: { webhook_url: 'teams-a.example/hooks/one' }, path: 'webhook_url' }],
  },
  {
    type: 'sec_alert_channel_teams_b',
    config: { name: 'ut-teams-b', webhook_url: 'https://teams-b.example/webhook/one' },
    data: { webhookUrl: 'https://teams-b.example/webhook/one' },
    secrets: [{ state: ['webhook_url'], wire: null }],
    update: { set: { enabled: false }, data: { webhookUrl: 'https://teams-b.example/webhook/one' } },
  },
  {
    type: 'sec_alert_channel_metrics',
    config: { name: 'ut-metrics', api_key: 'metrics-key-1' },
    data: { apiKey: 'metrics-key-1', metricsSite: 'com', metricsType: 'Logs Detail' },
    secrets: [{ state: ['api_key'], wire: 'apiKey' }],
    update: {
      set: { metrics_site: 'eu', metrics_service: 'Events Summary' },
      data: { metricsSite: 'eu', metricsType: 'Events Summary', apiKey: 'metrics-key-1' },
    },
    invalid: [
      { set: { metrics_site: 'org' }, path: 'metrics_site' },
      { set: { metrics_service: 'Logs' }, path: 'metrics_service' },
    ],
  },
  {
    type: 'sec_alert_channel_email',
    config: { name: 'ut-email', recipients: ['a@example.com'] },
    data: { channelProps: { recipients: ['a@example.com'] } },
    update: {
      set: { recipients: ['a@example.com', 'b@example.com'] },
      data: { channelProps: { recipients: ['a@example.com', 'b@example.com'] } },
    },
    invalid: [{ set: { recipients: ['nope'] }, path: 'recipients' }],
  },
  {
    type: 'sec_alert_channel_cloud_b_pub_sub',
    config: { name: 'ut-pub-sub', project_id: 'sec-proj', topic_id: 'alerts', credentials: [pubSubCredentials] },
    data: {
      projectId: 'sec-proj',
      topicId: 'alerts',
      issueGrouping: 'Events',
      credentials: {
        clientId: '109876543210',
        clientEmail: 'alerts@sec-proj.iam.example',
        privateKey: PRIVATE_KEY,
        privateKeyId: 'key-id-1',
      },
    },
    secrets: [
      { state: ['credentials', 0, 'private_key'], wire: 'credentials.privateKey' },
      { state: ['credentials', 0, 'private_key_id'], wire: 'credentials.privateKeyId' },
    ],
    // A new key is a real change although the platform never shows the old one.
    update: {
      set: { credentials: [{ ...pubSubCredentials, private_key_id: 'key-id-2' }] },
      data: {
        credentials: {
          clientId: '109876543210',
          clientEmail: 'alerts@sec-proj.iam.example',
          privateKey: PRIVATE_KEY,
          privateKeyId: 'key-id-2',
        },
      },
    },
    invalid: [
      { set: { issue_grouping: 'All' }, path: 'issue_grouping' },
      { set: { credentials: [{ ...pubSubCredentials, client_email: 'alerts' }] }, path: 'credentials[0].client_email' },
    ],
  },
  {
    type: 'sec_alert_channel_tracker_cloud',
    config: {
      name: 'ut-tracker-cloud',
      tracker_url: 'acme.tracker.example',
      issue_type: 'Bug',
      project_key: 'SEC',
      username: 'bot@acme.example',
      api_token: 'tracker-token-1',
      custom_template_file: TRACKER_TEMPLATE,
    },
    data: {
      trackerType: 'TRACKER_CLOUD',
      trackerUrl: 'acme.tracker.example',
      issueType: 'Bug',
      projectId: 'SEC',
      username: 'bot@acme.example',
      apiToken: 'tracker-token-1',
      customTemplateFile: encodeJsonDataUrl(TRACKER_TEMPLATE),
      bidirectionalConfig: 'Unidirectional',
      issueGrouping: 'Events',
    },
    secrets: [{ state: ['api_token'], wire: 'apiToken' }],
    update: {
      set: { configuration: 'Bidirectional' },
      data: { bidirectionalConfig: 'Bidirectional', apiToken: 'tracker-token-1' },
    },
    invalid: [
      { set: { configuration: 'Both' }, path: 'configuration' },
      { set: { group_issues_by: 'Issues' }, path: 'group_issues_by' },
      { set: { custom_template_file: '{"fields": ' }, path: 'custom_template_file' },
    ],
  },
  {
    type: 'sec_alert_channel_tracker_server',
    config: {
      name: 'ut-tracker-server',
      tracker_url: 'tracker.acme.example',
      issue_type: 'Task',
      project_key: 'OPS',
      username: 'bot',
      password: 'tracker-pw-1',
    },
    data: {
      trackerType: 'TRACKER_SERVER',
      trackerUrl: 'tracker.acme.example',
      issueType: 'Task',
      projectId: 'OPS',
      username: 'bot',
      password: 'tracker-pw-1',
      bidirectionalConfig: 'Unidirectional',
      issueGrouping: 'Events',
    },
    secrets: [{ state: ['password'], wire: 'password' }],
    update: {
      set: { group_issues_by: 'Resources', project_key: 'SECOPS' },
      data: { issueGrouping: 'Resources', projectId: 'SECOPS' },
    },
    invalid: [{ set: { tracker_url: 'https://tracker.acme.example' }, path: 'tracker_url' }],
  },
  {
    type: 'sec_alert_channel_observ',
    config: { name: 'ut-observ', account_id: 2345678, insert_key: 'insert-key-1' },
    data: { accountId: 2345678, insertKey: 'insert-key-1' },
    // A credential (docs/decisions.md, "Credentials are sensitive"), which the platform returns.
    secrets: [{ state: ['insert_key'], wire: null }],
    update: { set: { account_id: 2345679 }, data: { accountId: 2345679 } },
    invalid: [{ set: { account_id: 0 }, path: 'account_id' }],
  },
  {
    type: 'sec_alert_channel_pager',
    config: { name: 'ut-pager', integration_key: 'pager-key-1' },
    data: { apiIntgKey: 'pager-key-1' },
    secrets: [{ state: ['integration_key'], wire: 'apiIntgKey' }],
    update: { set: { integration_key: 'pager-key-2' }, data: { apiIntgKey: 'pager-key-2' } },
    invalid: [{ set: { integration_key: '' }, path: 'integration_key' }],
  },
  {
    type: 'sec_alert_channel_siem',
    config: { name: 'ut-siem', host_url: 'siem.acme.example', host_port: 8443 },
    data: { hostUrl: 'siem.acme.example', hostPort: 8443, commType: 'HTTPS' },
    update: {
      set: { communication_type: 'HTTPS Self Signed Cert', host_port: null },
      data: { hostUrl: 'siem.acme.example', commType: 'HTTPS Self Signed Cert' },
    },
    invalid: [
      { set: { communication_type: 'HTTP' }, path: 'communication_type' },
      { set: { host_port: 65536 }, path: 'host_port' },
    ],
  },
  {
    type: 'sec_alert_channel_ticketing',
    config: {
      name: 'ut-ticketing',
      instance_url: 'https://acme.ticketing.example',
      username: 'sec-bot',
      password: 'ticket-pw-1',
      custom_template_file: TICKETING_TEMPLATE,
    },
    data: {
      instanceUrl: 'https://acme.ticketing.example',
      userName: 'sec-bot',
      password: 'ticket-pw-1',
      customTemplateFile: encodeJsonDataUrl(TICKETING_TEMPLATE),
      issueGrouping: 'Events',
    },
    secrets: [{ state: ['password'], wire: 'password' }],
    update: {
      set: { issue_grouping: 'Resources', custom_template_file: null },
      data: { issueGrouping: 'Resources', password: 'ticket-pw-1' },
    },
    invalid: [
      { set: { issue_grouping: 'events' }, path: 'issue_grouping' },
      { set: { custom_template_file: 'impact=2' }, path: 'custom_template_file' },
    ],
  },
  {
    type: 'sec_alert_channel_chat',
    config: { name: 'ut-chat', webhook_url: 'https://chat.example/services/T0/B0/x' },
    data: { webhookUrl: 'https://chat.example/services/T0/B0/x' },
    secrets: [{ state: ['webhook_url'], wire: null }],
    update: { set: { name: 'ut-chat-renamed' }, data: { webhookUrl: 'https://chat.example/services/T0/B0/x' } },
    invalid: [{ set: { webhook_url: 'chat.example' }, path: 'webhook_url' }],
  },
  {
    type: 'sec_alert_channel_log_sink',
    config: {
      name: 'ut-log-sink',
      ingest_token: 'ingest-token-1',
      host: 'logs.acme.example',
      port: 8088,
      event_data: [{ index: 'sec', source: 'platform' }],
    },
    data: {
      ingestToken: 'ingest-token-1',
      host: 'logs.acme.example',
      port: 8088,
      ssl: false,
      eventData: { index: 'sec', source: 'platform' },
    },
    // Returned by the platform, but still a credential: sensitive.
    secrets: [{ state: ['ingest_token'], wire: null }],
    update: { set: { channel: 'alerts', ssl: true }, data: { channel: 'alerts', ssl: true } },
    invalid: [{ set: { port: 0 }, path: 'port' }],
  },
  {
    type: 'sec_alert_channel_on_call',
    config: { name: 'ut-on-call', webhook_url: 'https://on-call.example/integrations/generic/alert/key/routing-1' },
    data: { intgUrl: 'https://on-call.example/integrations/generic/alert/key/routing-1' },
    secrets: [{ state: ['webhook_url'], wire: null }],
    update: {
      set: { webhook_url: 'https://on-call.example/integrations/generic/alert/key/routing-2' },
      data: { intgUrl: 'https://on-call.example/integrations/generic/alert/key/routing-2' },
    },
    invalid: [{ set: { webhook_url: 'ftp://on-call.example' }, path: 'webhook_url' }],
  },
  {
    type: 'sec_alert_channel_webhook',
    config: { name: 'ut-webhook', webhook_url: 'https://hooks.acme.example/sec' },
    data: { webhookUrl: 'https://hooks.acme.example/sec' },
    secrets: [{ state: ['webhook_url'], wire: null }],
    update: {
      set: { webhook_url: 'https://hooks.acme.example/sec/v2' },
      data: { webhookUrl: 'https://hooks.acme.example/sec/v2' },
    },
    invalid: [{ set: { webhook_url: 'not a url' }, path: 'webhook_url' }],
  },
];

interface StoredChannel {
  intgGuid: string;
  name: string;
  type: string;
  enabled: number;
  data: Record<string, unknown>;
}

function at(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, step) => (v as Record<string | number, unknown> | null | undefined)?.[step], value);
}

/** A copy of a state with the values at `paths` set to null. */
function withNulls(state: ObjectValue, paths: StatePath[]): ObjectValue {
  const copy = structuredClone(state) as Record<string | number, unknown>;
  for (const path of paths) {
    const parent = at(copy, path.slice(0, -1)) as Record<string | number, unknown>;
    parent[path[path.length - 1]!] = null;
  }
  return copy as ObjectValue;
}

describe('sec alert channels through the Terraform-side client', function () {
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

  const stored = (guid: string) => emulator.get<StoredChannel>('AlertChannels', guid);
  const config = (type: string, plain: Record<string, unknown>) => configValue(tf.resourceSchema(type).block, plain);
  const same = (type: string, a: Value, b: Value) => valueEquals(impliedType(tf.resourceSchema(type).block), a, b);

  /** What a client of the API sees (secrets blanked), straight from the emulator. */
  async function fetchChannel(guid: string): Promise<StoredChannel> {
    const response = await fetch(`${emulator.url}/api/v2/AlertChannels/${guid}`, {
      headers: { authorization: `Bearer ${emulator.issueToken()}` },
    });
    expect(response.status).to.equal(200);
    return ((await response.json()) as { data: StoredChannel }).data;
  }

  /** Plan and apply, then require an empty re-plan. */
  async function converge(
    type: string,
    prior: ObjectValue | null,
    plain: Record<string, unknown>,
  ): Promise<ObjectValue> {
    const cfg = config(type, plain);
    await tf.validateResource(type, cfg);
    const change = await tf.plan(type, prior, cfg);
    expect(change.requiresReplace, 'no replacement').to.deep.equal([]);
    const { state } = await tf.apply(type, prior, change, cfg);
    const again = await tf.plan(type, state, cfg);
    expect(same(type, again.planned, state), 're-plan must be empty').to.equal(true);
    return state!;
  }

  it('takes an optional argument set empty as unset: validators pass it, nothing is sent, the plan stays empty', async () => {
    const type = 'sec_alert_channel_log_sink';
    const c = CASES.find((x) => x.type === type)!;
    const state = await converge(type, null, { ...c.config, channel: '' });
    const guid = state.intg_guid as string;
    expect(stored(guid)!.data).to.deep.equal(c.data);
    expect(state.channel).to.equal('');
    await tf.apply(type, state, await tf.plan(type, state, null), null);
  });

  for (const c of CASES) {
    it(`${c.type}: create, read, re-plan, update, import, destroy`, async () => {
      const secretPaths = (c.secrets ?? []).map((s) => s.state);

      // Secrets are sensitive in the schema, wherever they are nested.
      for (const path of secretPaths) {
        const names = path.filter((step): step is string => typeof step === 'string');
        let block = tf.resourceSchema(c.type).block;
        for (const name of names.slice(0, -1)) block = block.blockTypes[name]!.block;
        expect(block.attributes[names[names.length - 1]!]!.sensitive, `${names.join('.')} sensitive`).to.equal(true);
      }

      // Create: the platform holds exactly the documented wire shape, and the channel was tested.
      let state = await converge(c.type, null, c.config);
      const guid = state.intg_guid as string;
      expect(state.id).to.equal(guid);
      expect(stored(guid)).to.deep.include({ name: c.config.name, enabled: 1 });
      expect(stored(guid)!.data).to.deep.equal(c.data);
      expect(state.type_name).to.equal(stored(guid)!.type);
      expect(state).to.deep.include({ enabled: true, test_integration: true, org_level: false });
      expect(
        emulator.requests.some((r) => r.method === 'POST' && r.path === `/api/v2/AlertChannels/${guid}/test`),
      ).to.equal(true);

      // Read: the platform blanks secrets, Terraform keeps them.
      const seen = await fetchChannel(guid);
      for (const s of c.secrets ?? []) {
        if (s.wire !== null) expect(at(seen.data, s.wire.split('.')), `${s.wire} masked on GET`).to.equal('');
        expect(at(state, s.state), `${s.state.join('.')} in state`).to.equal(at(c.config, s.state));
      }
      const read = (await tf.read(c.type, state)).state!;
      expect(read).to.deep.equal(state);

      // Update one argument in place.
      const updatedConfig = { ...c.config, ...c.update.set };
      state = await converge(c.type, state, updatedConfig);
      expect(state.intg_guid).to.equal(guid);
      expect(stored(guid)!.data).to.deep.include(c.update.data);
      expect(stored(guid)!.enabled).to.equal(updatedConfig.enabled === false ? 0 : 1);
      expect((await tf.read(c.type, state)).state).to.deep.equal(state);

      // Import by GUID: everything the platform shows but the secrets, which a read never puts in
      // the state (they may be given write-only): they stay null until the next apply sends them.
      const imported = await tf.importState(c.type, guid);
      expect(imported).to.deep.equal(withNulls(state, secretPaths));
      const afterImport = await tf.plan(c.type, imported, config(c.type, updatedConfig));
      if (secretPaths.length === 0) {
        expect(same(c.type, afterImport.planned, imported), 'plan after import must be empty').to.equal(true);
      } else {
        expect(same(c.type, afterImport.planned, imported)).to.equal(false);
        const requests = emulator.requests.length;
        state = (await tf.apply(c.type, imported, afterImport, config(c.type, updatedConfig))).state!;
        expect(emulator.requests.slice(requests).some((r) => r.method === 'PATCH')).to.equal(true);
        for (const path of secretPaths) expect(at(state, path)).to.equal(at(updatedConfig, path));
        const again = await tf.plan(c.type, state, config(c.type, updatedConfig));
        expect(same(c.type, again.planned, state), 're-plan after import must be empty').to.equal(true);
      }
      expect(stored(guid)!.data).to.deep.include(c.update.data);

      // Destroy.
      await tf.apply(c.type, state, await tf.plan(c.type, state, null), null);
      expect(stored(guid)).to.equal(undefined);
      expect((await tf.read(c.type, state)).state).to.equal(null);
    });

    for (const bad of c.invalid ?? []) {
      it(`${c.type}: rejects ${JSON.stringify(bad.set)} at ${bad.path}`, async () => {
        const err = await tf.validateResource(c.type, config(c.type, { ...c.config, ...bad.set })).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err, 'validation must fail').to.be.instanceOf(ProviderCallError);
        const diagnostics = (err as ProviderCallError).diagnostics;
        expect(diagnostics.map((d) => d.path)).to.deep.equal([bad.path]);
        expect(diagnostics[0]!.summary).to.equal(`Invalid value for "${bad.path.split('.').pop()}"`);
        // A refused secret is not quoted back (top-level attributes: the paths of these cases).
        const refused = String(bad.set[bad.path]);
        if (tf.resourceSchema(c.type).block.attributes[bad.path]?.sensitive && refused !== '')
          expect(diagnostics[0]!.detail).to.not.include(refused);
      });
    }
  }

  it('never quotes a secret in a message, even when the platform refuses the request', async () => {
    const type = 'sec_alert_channel_metrics';
    const cfg = config(type, { name: 'ut-refused', api_key: 'metrics-key-fail-test' });
    const err = await tf.apply(type, null, await tf.plan(type, null, cfg), cfg).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ProviderCallError);
    expect((err as ProviderCallError).diagnostics[0]!.summary).to.equal('Alert channel test failed');
    expect((err as Error).message).to.not.include('metrics-key');
    expect(emulator.list<StoredChannel>('AlertChannels').some((ch) => ch.name === 'ut-refused')).to.equal(false);
  });

  it('removes a new channel whose test fails, and keeps one it could not remove in the state (tainted), saying which happened', async () => {
    const type = 'sec_alert_channel_metrics';
    const failing = config(type, { name: 'ut-untestable', api_key: 'metrics-key-fail-test' });
    const removed = await tf.applyKeepingState(type, null, await tf.plan(type, null, failing), failing);
    expect(removed.state).to.equal(null);
    expect(removed.errors.map((d) => d.summary)).to.deep.equal(['Alert channel test failed']);
    expect(removed.errors[0]!.detail).to.match(
      /^The platform could not deliver a test alert, so the new channel \S+ was removed again: /,
    );
    expect(emulator.list<StoredChannel>('AlertChannels').some((ch) => ch.name === 'ut-untestable')).to.equal(false);

    emulator.injectFault({
      method: 'DELETE',
      path: /^\/api\/v2\/AlertChannels\//,
      status: 400,
      body: { message: 'channel is locked' },
    });
    const kept = await tf.applyKeepingState(type, null, await tf.plan(type, null, failing), failing);
    const left = emulator.list<StoredChannel>('AlertChannels').filter((ch) => ch.name === 'ut-untestable');
    expect(left).to.have.length(1);
    expect(kept.state).to.deep.include({ intg_guid: left[0]!.intgGuid, name: 'ut-untestable' });
    expect(kept.errors).to.have.length(1);
    expect(kept.errors[0]!.detail)
      .to.include('and removing the new channel')
      .and.include('failed too')
      .and.include('channel is locked');
    expect(kept.errors[0]!.detail).to.include(
      `sec_alert_channel_metrics ${left[0]!.intgGuid} exists and is kept in the state, marked tainted, so the next apply replaces it`,
    );
    expect(kept.errors[0]!.detail).to.not.include('metrics-key');
    await tf.apply(type, kept.state, await tf.plan(type, kept.state, null), null);
  });

  it('keeps the configured template text while the platform holds the same document, and shows a changed one', async () => {
    const type = 'sec_alert_channel_tracker_cloud';
    const base = CASES.find((c) => c.type === type)!.config;
    const state = await converge(type, null, { ...base, name: 'ut-template' });
    const guid = state.intg_guid as string;
    const rewrite = (template: string) => {
      const channel = stored(guid)!;
      emulator.put('AlertChannels', guid, {
        ...channel,
        data: { ...channel.data, customTemplateFile: encodeJsonDataUrl(template) },
      });
    };
    // Same document, other formatting and key order: no drift.
    rewrite('{"fields":{"labels":["sec","alert"]}}');
    expect((await tf.read(type, state)).state!.custom_template_file).to.equal(TRACKER_TEMPLATE);
    // Another document: the read reports it, so the next plan puts the configured one back.
    rewrite('{"fields":{"labels":["other"]}}');
    const drifted = (await tf.read(type, state)).state!;
    expect(drifted.custom_template_file).to.equal('{"fields":{"labels":["other"]}}');
    const plan = await tf.plan(type, drifted, config(type, { ...base, name: 'ut-template' }));
    expect(plan.planned!.custom_template_file).to.equal(TRACKER_TEMPLATE);
    await tf.apply(type, state, await tf.plan(type, state, null), null);
  });

  it('refuses to import a channel of another type or tracker variant, naming the right one', async () => {
    const tracker = await converge('sec_alert_channel_tracker_cloud', null, {
      ...CASES.find((c) => c.type === 'sec_alert_channel_tracker_cloud')!.config,
      name: 'ut-variant',
    });
    const guid = tracker.intg_guid as string;
    const importError = (type: string) =>
      tf.importState(type, guid).then(
        () => null,
        (e: unknown) => e as ProviderCallError,
      );
    const asServer = await importError('sec_alert_channel_tracker_server');
    expect(asServer!.diagnostics[0]!.summary).to.equal('Wrong alert channel type');
    expect(asServer!.diagnostics[0]!.detail)
      .to.include('sec_alert_channel_tracker_server')
      .and.include('cloud tracker channel');
    const asPager = await importError('sec_alert_channel_pager');
    expect(asPager!.diagnostics[0]!.detail).to.include('"Tracker"');
    const plan = await tf.plan('sec_alert_channel_tracker_cloud', tracker, null);
    await tf.apply('sec_alert_channel_tracker_cloud', tracker, plan, null);
  });
});
