import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { SEC_COLLECTIONS, startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { ALERT_CHANNEL_DATA_SPECS } from '../../src/emulators/sec/alert-channel-types.js';

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** Raw HTTP against the emulator, so these tests do not depend on the client under test. */
async function call(
  emulator: SecEmulator,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; token?: string | null; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] ??= 'application/json';
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text), headers: response.headers };
}

async function login(emulator: SecEmulator): Promise<string> {
  const answer = await call(emulator, 'POST', '/api/v2/access/tokens', {
    body: { keyId: emulator.apiKey, expiryTime: 3600 },
    headers: { 'X-SEC-UAKS': emulator.apiSecret },
  });
  expect(answer.status).to.equal(201);
  return answer.body.token;
}

const emailChannel = (recipients: unknown = ['ops@example.com']) => ({
  name: 'ops email',
  type: 'EmailUser',
  enabled: 1,
  data: { channelProps: { recipients } },
});

describe('sec emulator', () => {
  let emulator: SecEmulator;
  let token: string;

  beforeEach(async () => {
    emulator = await startSecEmulator({
      account: 'acme',
      apiKey: 'ACME_KEY_0123456789abcdef0123456789',
      apiSecret: '_secret_0123456789abcdef0123',
    });
    token = await login(emulator);
  });
  afterEach(() => emulator.close());

  describe('authentication', () => {
    it('issues a token that is not enveloped', async () => {
      const answer = await call(emulator, 'POST', '/api/v2/access/tokens', {
        body: { keyId: emulator.apiKey },
        headers: { 'X-SEC-UAKS': emulator.apiSecret },
      });
      expect(answer.status).to.equal(201);
      expect(answer.body).to.have.keys('token', 'expiresAt');
      expect(Date.parse(answer.body.expiresAt)).to.be.closeTo(Date.now() + 3600_000, 5_000);
    });

    it('refuses a wrong secret, a wrong key and a missing secret header with 401 and a message', async () => {
      for (const [keyId, secret] of [
        [emulator.apiKey, 'wrong'],
        ['WRONG_KEY', emulator.apiSecret],
      ] as const) {
        const answer = await call(emulator, 'POST', '/api/v2/access/tokens', {
          body: { keyId, expiryTime: 3600 },
          headers: { 'X-SEC-UAKS': secret },
        });
        expect(answer.status).to.equal(401);
        expect(answer.body.message).to.equal('invalid API key or secret');
      }
      const missing = await call(emulator, 'POST', '/api/v2/access/tokens', { body: { keyId: emulator.apiKey } });
      expect(missing.status).to.equal(401);
      expect(missing.body.message).to.match(/X-SEC-UAKS/);
    });

    it('refuses an expiryTime out of range', async () => {
      const answer = await call(emulator, 'POST', '/api/v2/access/tokens', {
        body: { keyId: emulator.apiKey, expiryTime: 90000 },
        headers: { 'X-SEC-UAKS': emulator.apiSecret },
      });
      expect(answer.status).to.equal(400);
      expect(answer.body.message).to.match(/body\.expiryTime must be between 1 and 86400/);
    });

    it('answers 401 without a token or with an unknown one', async () => {
      const none = await call(emulator, 'GET', '/api/v2/AlertChannels');
      expect(none.status).to.equal(401);
      expect(none.body.message).to.match(/Authorization/);
      const bogus = await call(emulator, 'GET', '/api/v2/AlertChannels', { token: 'not-a-token' });
      expect(bogus.status).to.equal(401);
      expect(bogus.body.message).to.equal('invalid or expired access token');
      // Authentication comes before routing: unknown paths are not revealed.
      expect((await call(emulator, 'GET', '/api/v2/Nothing')).status).to.equal(401);
    });

    it('accepts a bare token as well as Bearer', async () => {
      const bare = await call(emulator, 'GET', '/api/v2/AlertChannels', { headers: { Authorization: token } });
      expect(bare.status).to.equal(200);
      const bearer = await call(emulator, 'GET', '/api/v2/AlertChannels', { token });
      expect(bearer.status).to.equal(200);
    });

    it('expires tokens on its clock, on demand, and with a lifetime override', async () => {
      emulator.clock.advance(3601_000);
      expect((await call(emulator, 'GET', '/api/v2/AlertChannels', { token })).status).to.equal(401);

      const fresh = await login(emulator);
      emulator.expireTokens();
      expect((await call(emulator, 'GET', '/api/v2/AlertChannels', { token: fresh })).status).to.equal(401);

      emulator.setTokenLifetime(5);
      const short = await login(emulator);
      expect((await call(emulator, 'GET', '/api/v2/AlertChannels', { token: short })).status).to.equal(200);
      emulator.clock.advance(6_000);
      expect((await call(emulator, 'GET', '/api/v2/AlertChannels', { token: short })).status).to.equal(401);
    });

    it('answers 403 for an Account-Name it does not know, and accepts its own', async () => {
      const other = await call(emulator, 'GET', '/api/v2/AlertChannels', {
        token,
        headers: { 'Account-Name': 'other' },
      });
      expect(other.status).to.equal(403);
      const own = await call(emulator, 'GET', '/api/v2/AlertChannels', { token, headers: { 'Account-Name': 'ACME' } });
      expect(own.status).to.equal(200);
    });

    it('masks secrets in the request log', async () => {
      const tokenRequest = emulator.requests.find((request) => request.path === '/api/v2/access/tokens');
      expect(tokenRequest?.headers['x-sec-uaks']).to.equal('***');
      await call(emulator, 'GET', '/api/v2/AlertChannels', { token });
      const last = emulator.requests.at(-1)!;
      expect(last.headers.authorization).to.equal('Bearer ***');
      expect(JSON.stringify(emulator.requests)).not.to.include(token);
      expect(JSON.stringify(emulator.requests)).not.to.include(emulator.apiSecret);
    });
  });

  describe('routing and bodies', () => {
    it('answers 404 for unknown paths and 405 with Allow for unsupported methods', async () => {
      const unknown = await call(emulator, 'GET', '/api/v2/Nothing', { token });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.message).to.be.a('string');
      const wrongMethod = await call(emulator, 'PUT', '/api/v2/AlertChannels', { token, body: {} });
      expect(wrongMethod.status).to.equal(405);
      expect(wrongMethod.headers.get('allow')).to.equal('POST, GET');
    });

    it('refuses non-JSON bodies, non-JSON content types and oversized bodies', async () => {
      const broken = await call(emulator, 'POST', '/api/v2/AlertChannels', { token, rawBody: '{nope' });
      expect(broken.status).to.equal(400);
      expect(broken.body.message).to.equal('request body is not valid JSON');
      const text = await call(emulator, 'POST', '/api/v2/AlertChannels', {
        token,
        rawBody: '{}',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(text.status).to.equal(415);
      const huge = await call(emulator, 'POST', '/api/v2/AlertChannels', {
        token,
        body: emailChannel(['x'.repeat(2 * 1024 * 1024)]),
      });
      expect(huge.status).to.equal(413);
    });

    it('sends a request id with every answer', async () => {
      const answer = await call(emulator, 'GET', '/api/v2/AlertChannels', { token });
      expect(answer.headers.get('x-request-id')).to.match(/^[0-9A-F]{16}$/);
    });

    it('serves injected faults, including raw malformed bodies, then recovers', async () => {
      emulator.injectFault({ method: 'GET', path: '/api/v2/AlertChannels', rawBody: 'not json', status: 200 });
      const response = await fetch(`${emulator.url}/api/v2/AlertChannels`, { headers: { Authorization: token } });
      expect(await response.text()).to.equal('not json');
      expect((await call(emulator, 'GET', '/api/v2/AlertChannels', { token })).status).to.equal(200);
    });
  });

  describe('bounds: absurd bodies get 400 naming the field and the bound, and the emulator keeps answering', () => {
    /** The 400 message, which must stay short whatever was sent (a string body is sent as it is). */
    async function refused(method: string, path: string, body: unknown): Promise<string> {
      const answer = await call(
        emulator,
        method,
        path,
        typeof body === 'string' ? { token, rawBody: body } : { token, body },
      );
      expect(answer.status, JSON.stringify(answer.body)?.slice(0, 300)).to.equal(400);
      expect(answer.body.message.length, 'the answer does not echo the request').to.be.below(1_024);
      return answer.body.message;
    }

    async function stillAnswering(): Promise<void> {
      const list = await call(emulator, 'GET', '/api/v2/AlertChannels', { token });
      expect(list.status).to.equal(200);
      expect(list.body.data).to.deep.equal([]);
    }

    it('bounds every list and string of a spec-checked body', async () => {
      const recipients = Array.from({ length: 60_000 }, (_, i) => `u${i}@x.io`);
      expect(await refused('POST', '/api/v2/AlertChannels', emailChannel(recipients))).to.equal(
        'data.channelProps.recipients must contain at most 1000 items (got 60000)',
      );
      expect(
        await refused('POST', '/api/v2/AlertChannels', emailChannel([`${'a'.repeat(500_000)}@example.com`])),
      ).to.equal('data.channelProps.recipients[0] must be at most 8192 characters long (got 500012)');
      expect(await refused('POST', '/api/v2/AlertChannels', { ...emailChannel(), name: 'n'.repeat(100_000) })).to.equal(
        'name must be at most 8192 characters long (got 100000)',
      );
      const unknownType = await refused('POST', '/api/v2/AlertChannels', {
        ...emailChannel(),
        type: 'T'.repeat(500_000),
      });
      expect(unknownType).to.include('(500000 characters)').and.include('is not a supported alert channel type');
      const unknownField = await refused('POST', '/api/v2/AlertChannels', {
        ...emailChannel(),
        data: { channelProps: { recipients: ['a@b.io'] }, ['k'.repeat(100_000)]: 1 },
      });
      expect(unknownField).to.include('(100000 characters)').and.include('is not a recognised field');
      await stillAnswering();
    });

    it('bounds the hand-checked bodies: searches, resource-group queries, policy exceptions', async () => {
      const manyFilters = Array.from({ length: 5_000 }, () => ({ field: 'tokenAlias', expression: 'eq', value: 'x' }));
      expect(await refused('POST', '/api/v2/AgentAccessTokens/search', { filters: manyFilters })).to.equal(
        'body.filters must contain at most 1000 items (got 5000)',
      );
      expect(
        await refused('POST', '/api/v2/AgentAccessTokens/search', {
          filters: [{ field: 'tokenAlias', expression: 'eq', value: [['x']] }],
        }),
      ).to.equal('body.filters[0].value must be a string, number or boolean');
      // Nesting past the emulator's bound is refused before any walk of the body (core/http-limits.ts).
      const deep = `${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`;
      expect(
        await refused(
          'POST',
          '/api/v2/AgentAccessTokens/search',
          `{"filters":[{"field":"tokenAlias","expression":"eq","value":${deep}}]}`,
        ),
      ).to.equal('request body nests arrays and objects deeper than 100 levels');
      expect(
        await refused('POST', '/api/v2/TeamMembers/search', {
          filters: [{ field: 'userName', expression: 'eq', value: 'u'.repeat(10_000) }],
        }),
      ).to.equal('body.filters[0].value must be at most 8192 characters long (got 10000)');

      const filters = Object.fromEntries(
        Array.from({ length: 5_000 }, (_, i) => [`f${i}`, { field: 'Account', operation: 'EQUALS', values: ['x'] }]),
      );
      const group = {
        name: 'g',
        resourceType: 'CLOUD_A',
        enabled: 1,
        query: { filters, expression: { operator: 'AND', children: [{ filterName: 'f0' }] } },
      };
      expect(await refused('POST', '/api/v2/ResourceGroups', group)).to.equal(
        'body.query.filters must contain at most 1000 filters (got 5000)',
      );
      const wide = {
        ...group,
        query: {
          filters: { f0: filters.f0 },
          expression: { operator: 'AND', children: Array.from({ length: 2_000 }, () => ({ filterName: 'f0' })) },
        },
      };
      expect(await refused('POST', '/api/v2/ResourceGroups', wide)).to.equal(
        'body.query.expression.children must contain at most 1000 items (got 2000)',
      );

      const values = Array.from({ length: 20_000 }, (_, i) => `${i}`);
      expect(
        await refused('POST', '/api/v2/Exceptions?policyId=platform-global-39', {
          description: 'd',
          constraints: [{ fieldKey: 'accountIds', fieldValues: values }],
        }),
      ).to.equal('body.constraints[0].fieldValues must contain at most 1000 items (got 20000)');
      expect(
        (await call(emulator, 'GET', '/api/v2/Exceptions?policyId=platform-global-39', { token })).body.data,
      ).to.deep.equal([]);
      await stillAnswering();
    });

    it('refuses a body over 1 MiB with 413 and answers the next request', async () => {
      const huge = await call(emulator, 'POST', '/api/v2/AlertChannels', {
        token,
        rawBody: `{"name":"${'x'.repeat(1024 * 1024)}"}`,
      });
      expect(huge.status).to.equal(413);
      expect(huge.body.message).to.equal('request body exceeds 1048576 bytes');
      await stillAnswering();
    });
  });

  describe('alert channels', () => {
    it('creates an email channel and reads it back in the envelope', async () => {
      const created = await call(emulator, 'POST', '/api/v2/AlertChannels', { token, body: emailChannel() });
      expect(created.status).to.equal(201);
      const channel = created.body.data;
      expect(channel.intgGuid).to.match(/^ACME_[0-9A-F]+$/);
      expect(channel).to.include({ name: 'ops email', type: 'EmailUser', enabled: 1, isOrg: 0 });
      expect(channel.createdOrUpdatedBy).to.equal('api-user@acme.example');
      expect(Date.parse(channel.createdOrUpdatedTime)).to.be.a('number').and.not.NaN;
      expect(channel.state.ok).to.equal(true);
      expect(channel.props).to.deep.equal({});
      expect(channel.data).to.deep.equal({ channelProps: { recipients: ['ops@example.com'] } });

      const read = await call(emulator, 'GET', `/api/v2/AlertChannels/${channel.intgGuid}`, { token });
      expect(read.status).to.equal(200);
      expect(read.body.data).to.deep.equal(channel);
      const list = await call(emulator, 'GET', '/api/v2/AlertChannels', { token });
      expect(list.body.data).to.deep.equal([channel]);
    });

    it('replaces name, enabled and data on PATCH, keeps the type, deletes, then 404s', async () => {
      const { intgGuid } = (await call(emulator, 'POST', '/api/v2/AlertChannels', { token, body: emailChannel() })).body
        .data;
      emulator.clock.advance(1000);
      const patched = await call(emulator, 'PATCH', `/api/v2/AlertChannels/${intgGuid}`, {
        token,
        body: {
          intgGuid,
          name: 'renamed',
          type: 'EmailUser',
          enabled: 0,
          data: { channelProps: { recipients: ['a@b.io', 'c@d.io'] } },
        },
      });
      expect(patched.status).to.equal(200);
      expect(patched.body.data).to.include({ intgGuid, name: 'renamed', enabled: 0 });
      expect(patched.body.data.data.channelProps.recipients).to.deep.equal(['a@b.io', 'c@d.io']);

      const retype = await call(emulator, 'PATCH', `/api/v2/AlertChannels/${intgGuid}`, {
        token,
        body: { name: 'x', type: 'Webhook', enabled: 1, data: { webhookUrl: 'https://hooks.example/1' } },
      });
      expect(retype.status).to.equal(400);
      expect(retype.body.message).to.equal('type cannot be changed (the alert channel is of type "EmailUser")');

      const deleted = await call(emulator, 'DELETE', `/api/v2/AlertChannels/${intgGuid}`, { token });
      expect(deleted.status).to.equal(204);
      const gone = await call(emulator, 'GET', `/api/v2/AlertChannels/${intgGuid}`, { token });
      expect(gone.status).to.equal(404);
      expect(gone.body.message).to.equal(`alert channel "${intgGuid}" not found`);
      expect((await call(emulator, 'DELETE', `/api/v2/AlertChannels/${intgGuid}`, { token })).status).to.equal(404);
      expect(
        (await call(emulator, 'PATCH', `/api/v2/AlertChannels/${intgGuid}`, { token, body: emailChannel() })).status,
      ).to.equal(404);
    });

    const invalidBodies: Array<[string, unknown, string]> = [
      ['a missing name', { type: 'EmailUser', enabled: 1, data: emailChannel().data }, 'name is required'],
      ['an empty name', { ...emailChannel(), name: '  ' }, 'name must be a non-empty string'],
      ['a missing type', { name: 'n', enabled: 1, data: {} }, 'type is required'],
      ['enabled = 2', { ...emailChannel(), enabled: 2 }, 'enabled must be 0 or 1 (got 2)'],
      ['enabled = true', { ...emailChannel(), enabled: true }, 'enabled must be 0 or 1 (got true)'],
      [
        'a missing enabled',
        { name: 'n', type: 'EmailUser', data: emailChannel().data },
        'enabled is required (0 or 1)',
      ],
      ['missing data', { name: 'n', type: 'EmailUser', enabled: 1 }, 'data is required'],
      [
        'an invalid email',
        emailChannel(['ok@example.com', 'not-an-email']),
        'data.channelProps.recipients[1] must be a valid email address (got "not-an-email")',
      ],
      ['no recipients', emailChannel([]), 'data.channelProps.recipients must contain at least 1 item'],
      ['recipients as a number', emailChannel(5), 'data.channelProps.recipients must be an array (got number)'],
      [
        'an unknown data field',
        { ...emailChannel(), data: { channelProps: { recipients: ['a@b.io'] }, extra: 1 } },
        'data.extra is not a recognised field',
      ],
      ['an unknown top-level field', { ...emailChannel(), colour: 'red' }, 'colour is not a recognised field'],
      [
        'a guid on create',
        { ...emailChannel(), intgGuid: 'X' },
        'intgGuid is assigned by the server and must not be sent on create',
      ],
      [
        'a bad enum value',
        { name: 'n', type: 'Metrics', enabled: 1, data: { apiKey: 'k', metricsSite: 'us' } },
        'data.metricsSite must be one of "com", "eu" (got "us")',
      ],
      [
        'a tracker cloud without apiToken',
        {
          name: 'n',
          type: 'Tracker',
          enabled: 1,
          data: {
            trackerType: 'TRACKER_CLOUD',
            trackerUrl: 't.example',
            issueType: 'Bug',
            projectId: 'P',
            username: 'u',
          },
        },
        'data.apiToken is required when trackerType is TRACKER_CLOUD',
      ],
      [
        'a template that is not a JSON data URL',
        {
          name: 'n',
          type: 'Ticketing',
          enabled: 1,
          data: { instanceUrl: 'https://t.example', userName: 'u', password: 'p', customTemplateFile: 'plain' },
        },
        'data.customTemplateFile must be a data URL',
      ],
      [
        'a port out of range',
        { name: 'n', type: 'Siem', enabled: 1, data: { hostUrl: 'siem.example', hostPort: 65536 } },
        'data.hostPort must be between 1 and 65535 (got 65536)',
      ],
      [
        'a webhook that is not a URL',
        { name: 'n', type: 'Webhook', enabled: 1, data: { webhookUrl: 'nope' } },
        'data.webhookUrl must be an http(s) URL (got "nope")',
      ],
    ];
    for (const [what, body, message] of invalidBodies) {
      it(`answers 400 for ${what}`, async () => {
        const answer = await call(emulator, 'POST', '/api/v2/AlertChannels', { token, body });
        expect(answer.status).to.equal(400);
        expect(answer.body.message).to.include(message);
      });
    }

    it('names the supported types when the type is unknown', async () => {
      const answer = await call(emulator, 'POST', '/api/v2/AlertChannels', {
        token,
        body: { ...emailChannel(), type: 'Pigeon' },
      });
      expect(answer.status).to.equal(400);
      expect(answer.body.message).to.match(
        /^type "Pigeon" is not a supported alert channel type; supported: EmailUser, /,
      );
    });

    it('never echoes a secret in a validation message', async () => {
      const answer = await call(emulator, 'POST', '/api/v2/AlertChannels', {
        token,
        body: { name: 'n', type: 'Metrics', enabled: 1, data: { apiKey: 12345 } },
      });
      expect(answer.status).to.equal(400);
      expect(answer.body.message).to.equal('data.apiKey must be a string (got number)');
    });

    it('accepts one valid body of every type', async () => {
      const bodies: Record<string, unknown> = {
        EmailUser: emailChannel().data,
        CloudAEventBus: { eventBusArn: 'bus:1', issueGrouping: 'Resources' },
        CloudAObjectStore: { objectStoreCredentials: { bucketArn: 'bucket:1', externalId: 'ext', roleArn: 'role:1' } },
        TeamsA: { webhook: 'https://teams-a.example/hook' },
        TeamsB: { webhookUrl: 'https://teams-b.example/hook' },
        Chat: { webhookUrl: 'https://chat.example/hook' },
        Webhook: { webhookUrl: 'https://hooks.example/x' },
        OnCall: { intgUrl: 'https://oncall.example/x' },
        Metrics: { apiKey: 'metrics-key', metricsSite: 'eu', metricsType: 'Events Summary' },
        CloudBPubSub: {
          projectId: 'p',
          topicId: 't',
          credentials: {
            clientId: 'c',
            clientEmail: 'sa@p.example',
            privateKey: '-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkq\n-----END PRIVATE KEY-----\n',
            privateKeyId: 'pkid',
          },
        },
        Tracker: {
          trackerType: 'TRACKER_SERVER',
          trackerUrl: 't.example',
          issueType: 'Bug',
          projectId: 'P',
          username: 'u',
          password: 'pw',
          bidirectionalConfig: 'Bidirectional',
          customTemplateFile: `data:application/json;name=i.json;base64,${Buffer.from('{"a":1}').toString('base64')}`,
        },
        Observ: { accountId: 42, insertKey: 'ik' },
        Pager: { apiIntgKey: 'pager-key' },
        Siem: { hostUrl: 'siem.example', hostPort: 443, commType: 'HTTPS Self Signed Cert' },
        Ticketing: { instanceUrl: 'https://t.example', userName: 'u', password: 'pw', issueGrouping: 'Events' },
        LogSink: {
          ingestToken: 'it',
          host: 'logs.example',
          port: 8088,
          ssl: true,
          eventData: { index: 'i', source: 's' },
        },
      };
      for (const [type, data] of Object.entries(bodies)) {
        const answer = await call(emulator, 'POST', '/api/v2/AlertChannels', {
          token,
          body: { name: type, type, enabled: 1, data },
        });
        expect(answer.status, `${type}: ${JSON.stringify(answer.body)}`).to.equal(201);
      }
      // One body for each type the emulator takes, and one channel made of each.
      expect(Object.keys(bodies).sort()).to.deep.equal(Object.keys(ALERT_CHANNEL_DATA_SPECS).sort());
      expect(emulator.list(SEC_COLLECTIONS.alertChannels)).to.have.length(Object.keys(bodies).length);
    });

    it('blanks secrets on reads but keeps them stored; leaves read-back fields alone', async () => {
      const metrics = (
        await call(emulator, 'POST', '/api/v2/AlertChannels', {
          token,
          body: { name: 'm', type: 'Metrics', enabled: 1, data: { apiKey: 'metrics-secret-key', metricsSite: 'com' } },
        })
      ).body.data;
      expect(metrics.data).to.deep.equal({ apiKey: '', metricsSite: 'com' });
      const read = await call(emulator, 'GET', `/api/v2/AlertChannels/${metrics.intgGuid}`, { token });
      expect(read.body.data.data.apiKey).to.equal('');
      const stored = emulator.get<{ data: { apiKey: string } }>(SEC_COLLECTIONS.alertChannels, metrics.intgGuid);
      expect(stored?.data.apiKey).to.equal('metrics-secret-key');

      const pubsub = (
        await call(emulator, 'POST', '/api/v2/AlertChannels', {
          token,
          body: {
            name: 'p',
            type: 'CloudBPubSub',
            enabled: 1,
            data: {
              projectId: 'p',
              topicId: 't',
              credentials: {
                clientId: 'c',
                clientEmail: 'sa@p.example',
                privateKey: '-----BEGIN PRIVATE KEY-----\nUEs=\n-----END PRIVATE KEY-----\n',
                privateKeyId: 'PKID',
              },
            },
          },
        })
      ).body.data;
      expect(pubsub.data.credentials).to.deep.equal({
        clientId: 'c',
        clientEmail: 'sa@p.example',
        privateKey: '',
        privateKeyId: '',
      });

      const logSink = (
        await call(emulator, 'POST', '/api/v2/AlertChannels', {
          token,
          body: {
            name: 'l',
            type: 'LogSink',
            enabled: 1,
            data: { ingestToken: 'readable', host: 'h', port: 1, eventData: { index: 'i', source: 's' } },
          },
        })
      ).body.data;
      expect(logSink.data.ingestToken).to.equal('readable');
      const list = await call(emulator, 'GET', '/api/v2/AlertChannels', { token });
      expect(JSON.stringify(list.body)).not.to.include('metrics-secret-key');
      expect(JSON.stringify(list.body)).not.to.include('PKID');
    });

    it('tests a channel: 204 on success, 400 with an explanation for the failure marker or an injected failure', async () => {
      const ok = (await call(emulator, 'POST', '/api/v2/AlertChannels', { token, body: emailChannel() })).body.data;
      const passed = await call(emulator, 'POST', `/api/v2/AlertChannels/${ok.intgGuid}/test`, { token });
      expect(passed.status).to.equal(204);
      expect(passed.body).to.equal(undefined);

      const bad = (
        await call(emulator, 'POST', '/api/v2/AlertChannels', {
          token,
          body: emailChannel(['ok@example.com', 'fail-test@example.com']),
        })
      ).body.data;
      const failed = await call(emulator, 'POST', `/api/v2/AlertChannels/${bad.intgGuid}/test`, { token });
      expect(failed.status).to.equal(400);
      expect(failed.body.message).to.equal(
        'test notification failed: the destination in data.channelProps.recipients[1] rejected the request',
      );
      const afterFailure = await call(emulator, 'GET', `/api/v2/AlertChannels/${bad.intgGuid}`, { token });
      expect(afterFailure.body.data.state).to.include({ ok: false });

      emulator.failChannelTest(ok.intgGuid, 'destination unreachable');
      const injected = await call(emulator, 'POST', `/api/v2/AlertChannels/${ok.intgGuid}/test`, { token });
      expect(injected.status).to.equal(400);
      expect(injected.body.message).to.equal('destination unreachable');
      emulator.failChannelTest(ok.intgGuid);
      expect((await call(emulator, 'POST', `/api/v2/AlertChannels/${ok.intgGuid}/test`, { token })).status).to.equal(
        204,
      );

      expect((await call(emulator, 'POST', '/api/v2/AlertChannels/NOPE/test', { token })).status).to.equal(404);
    });

    it('lets tests change and delete objects behind the API', async () => {
      const channel = (await call(emulator, 'POST', '/api/v2/AlertChannels', { token, body: emailChannel() })).body
        .data;
      const stored = emulator.get<Record<string, unknown>>(SEC_COLLECTIONS.alertChannels, channel.intgGuid)!;
      emulator.put(SEC_COLLECTIONS.alertChannels, channel.intgGuid, { ...stored, name: 'drifted' });
      expect(
        (await call(emulator, 'GET', `/api/v2/AlertChannels/${channel.intgGuid}`, { token })).body.data.name,
      ).to.equal('drifted');
      expect(emulator.remove(SEC_COLLECTIONS.alertChannels, channel.intgGuid)).to.equal(true);
      expect((await call(emulator, 'GET', `/api/v2/AlertChannels/${channel.intgGuid}`, { token })).status).to.equal(
        404,
      );
    });
  });

  describe('agent access tokens', () => {
    const create = (alias: string, extra: object = {}) =>
      call(emulator, 'POST', '/api/v2/AgentAccessTokens', {
        token,
        body: { tokenAlias: alias, tokenEnabled: 1, props: { description: 'for hosts', os: 'linux' }, ...extra },
      });

    it('creates a token with a server-generated secret, version and times', async () => {
      const answer = await create('hosts');
      expect(answer.status).to.equal(201);
      const data = answer.body.data;
      expect(data.accessToken).to.match(/^[0-9a-f]{48}$/);
      expect(data).to.include({ tokenAlias: 'hosts', tokenEnabled: 1, version: '0.1' });
      expect(data.props).to.include({ description: 'for hosts', os: 'linux' });
      expect(data.props.createdTime).to.equal(data.createdTime);
      const read = await call(emulator, 'GET', `/api/v2/AgentAccessTokens/${data.accessToken}`, { token });
      expect(read.body.data).to.deep.equal(data);
      expect((await call(emulator, 'GET', '/api/v2/AgentAccessTokens', { token })).body.data).to.deep.equal([data]);
    });

    it('refuses a duplicate alias with 409, on create and on rename', async () => {
      await create('hosts');
      const duplicate = await create('hosts');
      expect(duplicate.status).to.equal(409);
      expect(duplicate.body.message).to.equal('an agent access token with alias "hosts" already exists');
      const other = (await create('other')).body.data;
      const rename = await call(emulator, 'PATCH', `/api/v2/AgentAccessTokens/${other.accessToken}`, {
        token,
        body: { tokenAlias: 'hosts' },
      });
      expect(rename.status).to.equal(409);
    });

    it('updates alias, enabled and description; keeps the creation time', async () => {
      const created = (await create('hosts')).body.data;
      emulator.clock.advance(60_000);
      const answer = await call(emulator, 'PATCH', `/api/v2/AgentAccessTokens/${created.accessToken}`, {
        token,
        body: { tokenAlias: 'hosts-2', tokenEnabled: 0, props: { description: 'changed' } },
      });
      expect(answer.status).to.equal(200);
      expect(answer.body.data).to.include({ tokenAlias: 'hosts-2', tokenEnabled: 0, accessToken: created.accessToken });
      expect(answer.body.data.props).to.include({
        description: 'changed',
        os: 'linux',
        createdTime: created.props.createdTime,
      });
      expect(Date.parse(answer.body.data.createdTime)).to.be.greaterThan(Date.parse(created.createdTime));
    });

    it('validates bodies, answers 404 without echoing the token and 405 on DELETE', async () => {
      const noAlias = await call(emulator, 'POST', '/api/v2/AgentAccessTokens', { token, body: { tokenEnabled: 1 } });
      expect(noAlias.status).to.equal(400);
      expect(noAlias.body.message).to.equal('body.tokenAlias is required');
      const badFlag = await create('x', { tokenEnabled: 2 });
      expect(badFlag.body.message).to.equal('body.tokenEnabled must be 0 or 1 (got 2)');
      const missing = await call(emulator, 'GET', '/api/v2/AgentAccessTokens/secret-value-123', { token });
      expect(missing.status).to.equal(404);
      expect(missing.body.message).not.to.include('secret-value-123');
      const created = (await create('hosts')).body.data;
      const deleted = await call(emulator, 'DELETE', `/api/v2/AgentAccessTokens/${created.accessToken}`, { token });
      expect(deleted.status).to.equal(405);
      expect(deleted.body.message).to.match(/cannot be deleted/);
    });

    it('searches by alias', async () => {
      await create('one');
      await create('two');
      const found = await call(emulator, 'POST', '/api/v2/AgentAccessTokens/search', {
        token,
        body: { filters: [{ field: 'tokenAlias', expression: 'eq', value: 'two' }] },
      });
      expect(found.status).to.equal(200);
      expect(found.body.data.map((row: { tokenAlias: string }) => row.tokenAlias)).to.deep.equal(['two']);
      const several = await call(emulator, 'POST', '/api/v2/AgentAccessTokens/search', {
        token,
        body: { filters: [{ field: 'tokenAlias', expression: 'in', values: ['one', 'two', 'three'] }] },
      });
      expect(several.body.data).to.have.length(2);
      const bad = await call(emulator, 'POST', '/api/v2/AgentAccessTokens/search', {
        token,
        body: { filters: [{ field: 'tokenAlias', expression: 'like', value: 'x' }] },
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.message).to.equal('body.filters[0].expression must be one of eq, ne, in, not_in');
    });

    it('both searches read their filters alike: every operator, one error per mistake with its body path', async () => {
      const member = await call(emulator, 'POST', '/api/v2/TeamMembers', {
        token,
        body: {
          userName: 'Search.One@example.com',
          userEnabled: 1,
          props: { firstName: 'S', lastName: 'O', company: 'Search', accountAdmin: false },
        },
      });
      expect(member.status, JSON.stringify(member.body)).to.be.oneOf([200, 201]);
      const search = (filters: unknown[]) =>
        call(emulator, 'POST', '/api/v2/TeamMembers/search', { token, body: { filters } });
      const names = async (filters: unknown[]) =>
        (await search(filters)).body.data.map((m: { userName: string }) => m.userName);
      // Several values of one field: one `in` filter; user names match in any case.
      expect(
        await names([{ field: 'userName', expression: 'in', values: ['nobody', 'search.one@EXAMPLE.com'] }]),
      ).to.deep.equal(['Search.One@example.com']);
      expect(await names([{ field: 'userName', expression: 'ne', value: 'search.one@example.com' }])).to.not.include(
        'Search.One@example.com',
      );
      expect(
        await names([{ field: 'userName', expression: 'not_in', values: ['SEARCH.ONE@example.com'] }]),
      ).to.not.include('Search.One@example.com');
      for (const [path, filters, message] of [
        [
          '/api/v2/TeamMembers/search',
          [{ field: 'userName', expression: 'like', value: 'x' }],
          'body.filters[0].expression must be one of eq, ne, in, not_in',
        ],
        [
          '/api/v2/AgentAccessTokens/search',
          [{ field: 'nope', expression: 'eq', value: 'x' }],
          'body.filters[0].field must be one of tokenAlias, tokenEnabled, accessToken, version',
        ],
        [
          '/api/v2/TeamMembers/search',
          [{ field: 'userGuid', expression: 'in', value: 'x' }],
          'body.filters[0].values must be an array for expression in',
        ],
        [
          '/api/v2/AgentAccessTokens/search',
          [{ field: 'tokenAlias', expression: 'in', values: [{}] }],
          'body.filters[0].values[0] must be a string, number or boolean',
        ],
      ] as const) {
        const answer = await call(emulator, 'POST', path, { token, body: { filters } });
        expect(answer.status, path).to.equal(400);
        expect(answer.body.message, path).to.equal(message);
      }
    });
  });

  it('serves the user profile', async () => {
    const answer = await call(emulator, 'GET', '/api/v2/UserProfile', { token });
    expect(answer.status).to.equal(200);
    const [profile] = answer.body.data;
    expect(profile).to.include({
      username: 'api-user@acme.example',
      orgAccount: false,
      orgAdmin: false,
      orgUser: false,
      url: 'acme.sec-platform.example',
    });
    expect(profile.accounts).to.have.length(1);
    expect(profile.accounts[0]).to.include({ admin: true, accountName: 'ACME', userEnabled: 1 });
    expect(profile.accounts[0].custGuid).to.be.a('string');
    expect(profile.accounts[0].userGuid).to.be.a('string');
  });
});

describe('emulator CLI', () => {
  const main = fileURLToPath(new URL('../../src/emulators/main.js', import.meta.url));

  it('prints exactly one JSON line, serves the API, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [main, 'sec', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      const first = await lines.next();
      const ready = JSON.parse(first.value as string);
      expect(ready).to.have.keys('url', 'account', 'api_key', 'api_secret');
      expect(ready.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);

      const tokenAnswer = await fetch(`${ready.url}/api/v2/access/tokens`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-SEC-UAKS': ready.api_secret },
        body: JSON.stringify({ keyId: ready.api_key, expiryTime: 3600 }),
      });
      const { token } = (await tokenAnswer.json()) as { token: string };
      const profile = await fetch(`${ready.url}/api/v2/UserProfile`, { headers: { Authorization: `Bearer ${token}` } });
      expect(profile.status).to.equal(200);

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).to.equal(0);
      const rest = await lines.next();
      expect(rest.done, 'nothing else on stdout').to.equal(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('exits 2 with usage for an unknown emulator name', async () => {
    const child = spawn(process.execPath, [main, 'nope'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).to.equal(2);
    expect(stderr).to.match(/unknown emulator: nope/);
    expect(stderr).to.match(/usage: main\.js <sec\|vdb>/);
  });
});
