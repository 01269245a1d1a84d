/**
 * The sec emulator's cloud-account integrations, over raw HTTP so these tests do not depend on the
 * client under test: one valid body per type, masking of secrets, server tokens, per-type lists,
 * and precise 400 answers.
 */
import { expect } from 'chai';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';

interface Answer {
  status: number;
  body: any;
}

async function call(
  emulator: SecEmulator,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const PEM =
  '-----BEGIN PRIVATE KEY-----\nMIIBVgIBADANBgkqhkiG9w0BAQEFAASCAUAwggE8AgEAAkEAq7BFUpkGp3+LQmlQ\n-----END PRIVATE KEY-----\n';
const role = { roleArn: 'arn:cloud-a:iam::123456789012:role/sec-audit', externalId: 'ext-123' };
const cloudBKey = (keyId = 'key-id-1') => ({
  clientId: '1234567890',
  clientEmail: 'sa@project-1.cloud-b.example',
  privateKeyId: keyId,
  privateKey: PEM,
});
const cloudCKey = { clientId: '00000000-1111-2222-3333-444444444444', clientSecret: 'cloud-c-client-secret' };
const scan = {
  scanFrequency: 24,
  scanContainers: true,
  scanHostVulnerabilities: true,
  scanMultiVolume: false,
  scanStoppedInstances: true,
};
const mappingFile = (document: unknown) =>
  `data:application/json;name=i.json;base64,${Buffer.from(JSON.stringify(document)).toString('base64')}`;
const goodMapping = mappingFile({
  defaultPlatformAccountCloudA: 'main',
  integration_mappings: { eu: { cloud_a_accounts: ['111111111111'] } },
});

/** One valid `data` of every type, and the dotted paths of `data` the platform must blank on reads. */
const VALID: Record<string, { data: Record<string, unknown>; secrets: string[] }> = {
  CloudACfg: { data: { crossAccountCredentials: role }, secrets: [] },
  CloudACtSqs: {
    data: {
      crossAccountCredentials: role,
      queueUrl: 'https://queue.cloud-a.example/123/trail',
      accountMappingFile: goodMapping,
    },
    secrets: [],
  },
  CloudAEksAudit: {
    data: { crossAccountCredentials: role, topicArn: 'arn:cloud-a:topic:eks', bucketArn: 'arn:cloud-a:bucket:eks' },
    secrets: [],
  },
  CloudAGovCfg: {
    data: {
      accessKeyCredentials: { accountId: '123456789012', accessKeyId: 'AKIDGOV', secretAccessKey: 'gov-secret' },
    },
    secrets: ['accessKeyCredentials.secretAccessKey'],
  },
  CloudAGovCtSqs: {
    data: {
      queueUrl: 'https://queue.cloud-a.example/gov',
      accessKeyCredentials: { accountId: '123456789012', accessKeyId: 'AKIDGOV', secretAccessKey: 'gov-secret' },
    },
    secrets: ['accessKeyCredentials.secretAccessKey'],
  },
  CloudAAgentless: {
    data: {
      ...scan,
      cloudAAccountId: '123456789012',
      bucketArn: 'arn:cloud-a:bucket:scan',
      crossAccountCredentials: role,
    },
    secrets: [],
  },
  CloudAAgentlessOrg: {
    data: {
      ...scan,
      scanningAccount: '222222222222',
      monitoredAccounts: '111111111111, ou-abcd',
      managementAccount: '333333333333',
      accountMappingFile: goodMapping,
    },
    secrets: [],
  },
  CloudADspm: {
    data: { bucketArn: 'arn:cloud-a:bucket:dspm', crossAccountCredentials: role, regions: ['region-1', 'region-2'] },
    secrets: [],
  },
  CloudBCfg: {
    data: { credentials: cloudBKey(), idType: 'PROJECT', id: 'project-1' },
    secrets: ['credentials.privateKey'],
  },
  CloudBAtSes: {
    data: { credentials: cloudBKey(), idType: 'ORGANIZATION', id: '1234', subscriptionName: 'audit-sub' },
    secrets: ['credentials.privateKey'],
  },
  CloudBAlPubSub: {
    data: {
      credentials: cloudBKey('hidden-key-id'),
      integrationType: 'PROJECT',
      projectId: 'project-1',
      subscriptionName: 'sub',
      topicId: 'topic',
    },
    secrets: ['credentials.privateKey', 'credentials.privateKeyId'],
  },
  CloudBGkeAudit: {
    data: {
      credentials: cloudBKey('hidden-key-id'),
      integrationType: 'ORGANIZATION',
      organizationId: '1234',
      projectId: 'project-1',
      subscriptionName: 'sub',
    },
    secrets: ['credentials.privateKey', 'credentials.privateKeyId'],
  },
  CloudBAgentless: {
    data: {
      ...scan,
      credentials: { ...cloudBKey(), tokenUri: 'https://oauth2.cloud-b.example/token' },
      idType: 'PROJECT',
      id: 'project-1',
      sharedBucketName: 'results',
      scanningProjectId: 'scanner',
      filterList: 'project-2, project-3',
      queryText: '',
    },
    secrets: ['credentials.privateKey'],
  },
  CloudCCfg: { data: { credentials: cloudCKey, tenantId: 'tenant-1' }, secrets: ['credentials.clientSecret'] },
  CloudCAlSeq: {
    data: { credentials: cloudCKey, tenantId: 'tenant-1', queueUrl: 'https://storage.cloud-c.example/queue' },
    secrets: ['credentials.clientSecret'],
  },
  CloudCAdAl: {
    data: { credentials: cloudCKey, tenantId: 'tenant-1', eventStreamNamespace: 'ns', eventStreamName: 'directory' },
    secrets: ['credentials.clientSecret'],
  },
  CloudCAgentless: {
    data: {
      ...scan,
      credentials: cloudCKey,
      integrationLevel: 'TENANT',
      scanningSubscriptionId: 'sub-1',
      tenantId: 'tenant-1',
      blobContainerName: 'results',
      scanningResourceGroupName: 'scanner-rg',
      storageAccountUrl: 'https://results.blob.cloud-c.example',
      subscriptionsList: 'sub-2',
    },
    secrets: ['credentials.clientSecret'],
  },
  CloudCDspm: {
    data: {
      storageAccountUrl: 'https://dspm.blob.cloud-c.example',
      blobContainerName: 'dspm',
      credentials: cloudCKey,
      regions: ['region-1'],
    },
    secrets: ['credentials.clientSecret'],
  },
  CloudDCfg: {
    data: {
      credentials: { fingerprint: '12:34:56:78:90:ab:cd:ef:12:34:56:78:90:ab:cd:ef', privateKey: PEM },
      homeRegion: 'region-1',
      tenantId: 'tenancy-1',
      tenantName: 'acme',
      userId: 'user-1',
    },
    secrets: ['credentials.privateKey'],
  },
};

const SCANNERS = [
  'CloudAAgentless',
  'CloudAAgentlessOrg',
  'CloudBAgentless',
  'CloudCAgentless',
  'CloudADspm',
  'CloudCDspm',
];

function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );
}

describe('sec emulator: cloud accounts', () => {
  let emulator: SecEmulator;
  let token: string;

  beforeEach(async () => {
    emulator = await startSecEmulator({ account: 'acme' });
    token = emulator.issueToken();
  });
  afterEach(() => emulator.close());

  const create = (type: string, data: unknown, name = `${type} integration`) =>
    call(emulator, 'POST', '/api/v2/CloudAccounts', token, { name, type, enabled: 1, data });

  it('accepts one valid body of every one of the 19 types, blanks its secrets on reads and keeps them stored', async () => {
    expect(Object.keys(VALID)).to.have.length(19);
    for (const [type, { data, secrets }] of Object.entries(VALID)) {
      const created = await create(type, data);
      expect(created.status, `${type}: ${JSON.stringify(created.body)}`).to.equal(201);
      const guid = created.body.data.intgGuid as string;
      expect(guid).to.match(/^ACME_[0-9A-F]+$/);
      const read = await call(emulator, 'GET', `/api/v2/CloudAccounts/${guid}`, token);
      expect(read.status).to.equal(200);
      expect(read.body.data).to.deep.include({ name: `${type} integration`, type, enabled: 1, isOrg: 0 });
      const stored = emulator.get<{ data: unknown }>('CloudAccounts', guid)!;
      expect(stored.data, `${type}: stored as sent`).to.deep.equal(data);
      for (const path of secrets) {
        expect(at(created.body.data.data, path), `${type}: ${path} blank in the create answer`).to.equal('');
        expect(at(read.body.data.data, path), `${type}: ${path} blank on read`).to.equal('');
      }
      // Everything that is not a secret comes back as sent.
      const unmasked = structuredClone(read.body.data.data);
      const sent = structuredClone(data);
      for (const path of secrets) {
        const parent = path.split('.').slice(0, -1).join('.');
        const leaf = path.split('.').at(-1)!;
        delete (at(unmasked, parent) as Record<string, unknown>)[leaf];
        delete (at(sent, parent) as Record<string, unknown>)[leaf];
      }
      expect(unmasked, `${type}: non-secret data`).to.deep.equal(sent);
    }
    expect(emulator.list('CloudAccounts')).to.have.length(19);
    const list = await call(emulator, 'GET', '/api/v2/CloudAccounts', token);
    expect(list.body.data).to.have.length(19);
    for (const secret of ['gov-secret', 'cloud-c-client-secret', 'PRIVATE KEY', 'hidden-key-id'])
      expect(JSON.stringify(list.body)).not.to.include(secret);
  });

  it('issues a server token to scanners only, and keeps it across updates', async () => {
    for (const [type, { data }] of Object.entries(VALID)) {
      const created = (await create(type, data)).body.data;
      if (!SCANNERS.includes(type)) {
        expect(created.serverToken, type).to.equal(undefined);
        continue;
      }
      expect(created.serverToken.serverToken, type).to.match(/^[0-9a-f]{48}$/);
      expect(created.serverToken.uri, type).to.equal('https://acme.sec-platform.example');
      const updated = await call(emulator, 'PATCH', `/api/v2/CloudAccounts/${created.intgGuid}`, token, {
        intgGuid: created.intgGuid,
        name: 'renamed',
        type,
        enabled: 0,
        data,
      });
      expect(updated.status).to.equal(200);
      expect(updated.body.data.serverToken, type).to.deep.equal(created.serverToken);
      expect(updated.body.data).to.deep.include({ name: 'renamed', enabled: 0 });
    }
  });

  it('lists one type at /CloudAccounts/{type}, without mistaking the type for a GUID', async () => {
    await create('CloudACfg', VALID.CloudACfg!.data, 'one');
    await create('CloudACfg', VALID.CloudACfg!.data, 'two');
    await create('CloudCCfg', VALID.CloudCCfg!.data, 'three');
    const cfg = await call(emulator, 'GET', '/api/v2/CloudAccounts/CloudACfg', token);
    expect(cfg.status).to.equal(200);
    expect(cfg.body.data.map((a: { name: string }) => a.name)).to.deep.equal(['one', 'two']);
    const cloudC = await call(emulator, 'GET', '/api/v2/CloudAccounts/CloudCCfg', token);
    expect(cloudC.body.data[0].data.credentials.clientSecret).to.equal('');
    expect((await call(emulator, 'GET', '/api/v2/CloudAccounts/CloudDCfg', token)).body.data).to.deep.equal([]);
    expect((await call(emulator, 'GET', '/api/v2/CloudAccounts/ACME_0000', token)).status).to.equal(404);
  });

  it('replaces the whole object on PATCH, refuses a type change, deletes, then answers 404', async () => {
    const created = (await create('CloudBCfg', VALID.CloudBCfg!.data)).body.data;
    const path = `/api/v2/CloudAccounts/${created.intgGuid}`;
    const changed = { credentials: cloudBKey('key-id-2'), idType: 'ORGANIZATION', id: '9876' };
    const patched = await call(emulator, 'PATCH', path, token, {
      intgGuid: created.intgGuid,
      name: 'org',
      type: 'CloudBCfg',
      enabled: 1,
      data: changed,
    });
    expect(patched.status).to.equal(200);
    expect(emulator.get<{ data: unknown }>('CloudAccounts', created.intgGuid)!.data).to.deep.equal(changed);
    const retype = await call(emulator, 'PATCH', path, token, {
      name: 'org',
      type: 'CloudCCfg',
      enabled: 1,
      data: VALID.CloudCCfg!.data,
    });
    expect(retype.status).to.equal(400);
    expect(retype.body.message).to.equal('type cannot be changed (the cloud account is of type "CloudBCfg")');
    expect((await call(emulator, 'DELETE', path, token)).status).to.equal(204);
    const gone = await call(emulator, 'GET', path, token);
    expect(gone.status).to.equal(404);
    expect(gone.body.message).to.equal(`cloud account "${created.intgGuid}" not found`);
  });

  const invalid: Array<[string, string, unknown, string]> = [
    [
      'an unknown type',
      'CloudZCfg',
      {},
      'type "CloudZCfg" is not a supported cloud account type; supported: CloudACfg, CloudACtSqs,',
    ],
    ['missing role credentials', 'CloudACfg', {}, 'data.crossAccountCredentials is required'],
    [
      'a blank external id',
      'CloudACfg',
      { crossAccountCredentials: { roleArn: 'r', externalId: '' } },
      'data.crossAccountCredentials.externalId must not be empty',
    ],
    [
      'a queue that is not a URL',
      'CloudACtSqs',
      { crossAccountCredentials: role, queueUrl: 'trail-queue' },
      'data.queueUrl must be an http(s) URL (got "trail-queue")',
    ],
    [
      'a mapping file that is not a data URL',
      'CloudACtSqs',
      { crossAccountCredentials: role, queueUrl: 'https://q.example', accountMappingFile: '{}' },
      'data.accountMappingFile must be a data URL',
    ],
    [
      'a mapping without a default account',
      'CloudACtSqs',
      {
        crossAccountCredentials: role,
        queueUrl: 'https://q.example',
        accountMappingFile: mappingFile({ integration_mappings: {} }),
      },
      'data.accountMappingFile: defaultPlatformAccountCloudA is required',
    ],
    [
      'a mapping with no accounts',
      'CloudAAgentlessOrg',
      {
        ...scan,
        scanningAccount: '2',
        monitoredAccounts: '1',
        accountMappingFile: mappingFile({
          defaultPlatformAccountCloudA: 'main',
          integration_mappings: { eu: { cloud_a_accounts: [] } },
        }),
      },
      'data.accountMappingFile: integration_mappings.eu.cloud_a_accounts must be a non-empty array of account ids',
    ],
    [
      'an account mapped twice',
      'CloudAAgentlessOrg',
      {
        ...scan,
        scanningAccount: '2',
        monitoredAccounts: '1',
        accountMappingFile: mappingFile({
          defaultPlatformAccountCloudA: 'main',
          integration_mappings: { eu: { cloud_a_accounts: ['1'] }, us: { cloud_a_accounts: ['1'] } },
        }),
      },
      'data.accountMappingFile: account 1 is mapped to both eu and us',
    ],
    [
      'a scan frequency of 0',
      'CloudAAgentless',
      { ...scan, scanFrequency: 0 },
      'data.scanFrequency must be between 1 and 8760 (got 0)',
    ],
    [
      'a scan flag that is not a boolean',
      'CloudAAgentless',
      { ...scan, scanContainers: 1 },
      'data.scanContainers must be true or false (got number)',
    ],
    [
      'no regions',
      'CloudADspm',
      { bucketArn: 'b', crossAccountCredentials: role, regions: [] },
      'data.regions must contain at least 1 item',
    ],
    [
      'a bad CloudB scope',
      'CloudBCfg',
      { credentials: cloudBKey(), idType: 'FOLDER', id: 'x' },
      'data.idType must be one of "PROJECT", "ORGANIZATION" (got "FOLDER")',
    ],
    [
      'a bad client e-mail',
      'CloudBCfg',
      { credentials: { ...cloudBKey(), clientEmail: 'sa' }, idType: 'PROJECT', id: 'x' },
      'data.credentials.clientEmail must be a valid email address (got "sa")',
    ],
    [
      'an organisation scope without organisation',
      'CloudBAlPubSub',
      {
        credentials: cloudBKey(),
        integrationType: 'ORGANIZATION',
        projectId: 'p',
        subscriptionName: 's',
        topicId: 't',
      },
      'data.organizationId is required when integrationType is ORGANIZATION',
    ],
    [
      'a bad integration level',
      'CloudCAgentless',
      { ...VALID.CloudCAgentless!.data, integrationLevel: 'GROUP' },
      'data.integrationLevel must be one of "SUBSCRIPTION", "TENANT" (got "GROUP")',
    ],
    [
      'an unknown data field',
      'CloudCCfg',
      { ...VALID.CloudCCfg!.data, eventHubName: 'x' },
      'data.eventHubName is not a recognised field',
    ],
  ];
  for (const [what, type, data, message] of invalid) {
    it(`answers 400 for ${what}`, async () => {
      const answer = await create(type, data);
      expect(answer.status).to.equal(400);
      expect(answer.body.message).to.include(message);
    });
  }

  it('accepts an organisation scanner whose scanning and monitored accounts are still blank, and stores them blank', async () => {
    const created = await create('CloudAAgentlessOrg', { ...scan, scanningAccount: '', monitoredAccounts: '' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(
      emulator.get<{ data: Record<string, unknown> }>('CloudAccounts', created.body.data.intgGuid)!.data,
    ).to.deep.include({ scanningAccount: '', monitoredAccounts: '' });
    // Blank is a value; leaving the field out is not.
    const { scanningAccount: _omitted, ...withoutScanningAccount } = VALID.CloudAAgentlessOrg!.data as Record<
      string,
      unknown
    >;
    const missing = await create('CloudAAgentlessOrg', withoutScanningAccount);
    expect(missing.status).to.equal(400);
    expect(missing.body.message).to.equal('data.scanningAccount is required');
  });

  it('never echoes a secret in a validation message', async () => {
    const answer = await create('CloudCCfg', {
      credentials: { clientId: 'c', clientSecret: 'top-secret-value' },
      tenantId: 'tenant-1',
      queueUrl: 'x',
    });
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.equal('data.queueUrl is not a recognised field');
    const typeError = await create('CloudDCfg', {
      ...VALID.CloudDCfg!.data,
      credentials: { fingerprint: '12:34:56:78:90:ab:cd:ef:12:34:56:78:90:ab:cd:ef', privateKey: 42 },
    });
    expect(typeError.body.message).to.equal('data.credentials.privateKey must be a string (got number)');
  });
});
