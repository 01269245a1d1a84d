/**
 * The emulator's container registry and scanner routes, over raw HTTP so these tests do not depend
 * on the client under test: per-type validation with precise messages, masking of secrets on every
 * read, server tokens for scanners, and the rules of updates.
 */
import { expect } from 'chai';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';

const BASE = '/api/v2/ContainerRegistries';
const COLLECTION = 'ContainerRegistries';

interface Answer {
  status: number;
  body: any;
}

async function call(
  emulator: SecEmulator,
  token: string,
  method: string,
  path: string,
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

const registry = (data: Record<string, unknown>, name = 'registry') => ({
  name,
  type: 'ContVulnCfg',
  enabled: 1,
  data,
});

/** A private key in PEM form, as the platform takes one; its body is what a leak would show. */
const PEM_SECRET = '-----BEGIN PRIVATE KEY-----\nUEVNU0VDUkVUa2V5Ym9keQ==\n-----END PRIVATE KEY-----\n';
const serviceAccount = {
  clientId: '123',
  clientEmail: 'scanner@project.example.com',
  privateKeyId: 'key-id-secret',
  privateKey: PEM_SECRET,
};

/** A valid body of every registry type, with the secret values a read must blank. */
const VALID: Record<string, { data: Record<string, unknown>; masked: Record<string, string> }> = {
  REGISTRY_A_ROLE: {
    data: {
      registryType: 'REGISTRY_A',
      registryDomain: 'r.example.com',
      authType: 'ROLE',
      crossAccountCredentials: { roleArn: 'arn', externalId: 'ext' },
      limitNumImg: 10,
    },
    masked: {},
  },
  REGISTRY_A_KEY: {
    data: {
      registryType: 'REGISTRY_A',
      registryDomain: 'r.example.com',
      authType: 'ACCESS_KEY',
      accessKeyCredentials: { accessKeyId: 'AK', secretAccessKey: 'SK-SECRET' },
    },
    masked: { 'accessKeyCredentials.secretAccessKey': 'SK-SECRET' },
  },
  REGISTRY_B: {
    data: {
      registryType: 'REGISTRY_B',
      registryDomain: 'us-east1-docker.pkg.dev',
      credentials: serviceAccount,
      limitByLabel: [{ team: 'a' }, { team: 'b' }],
    },
    masked: { 'credentials.privateKeyId': 'key-id-secret', 'credentials.privateKey': PEM_SECRET },
  },
  REGISTRY_C: {
    data: {
      registryType: 'REGISTRY_C',
      registryDomain: 'asia.gcr.io',
      credentials: serviceAccount,
      nonOsPackageEval: false,
    },
    masked: { 'credentials.privateKeyId': 'key-id-secret', 'credentials.privateKey': PEM_SECRET },
  },
  REGISTRY_D: {
    data: {
      registryType: 'REGISTRY_D',
      registryDomain: 'index.docker.io',
      credentials: { username: 'u', password: 'HUB-SECRET' },
      limitByRep: ['acme/api'],
    },
    masked: { 'credentials.password': 'HUB-SECRET' },
  },
  REGISTRY_E: {
    data: {
      registryType: 'REGISTRY_E',
      registryDomain: 'r.example.com:5000',
      credentials: { username: 'u', password: 'V2-SECRET', ssl: true },
      registryNotifications: true,
    },
    masked: { 'credentials.password': 'V2-SECRET' },
  },
  REGISTRY_F: {
    data: {
      registryType: 'REGISTRY_F',
      registryDomain: 'ghcr.io',
      credentials: { username: 'u', password: 'PAT-SECRET', ssl: true },
      registryNotifications: false,
    },
    masked: { 'credentials.password': 'PAT-SECRET' },
  },
  PROXY_SCANNER: {
    data: { registryType: 'PROXY_SCANNER', limitByTag: ['prod'], limitByLabel: [{ tier: '' }], limitNumImg: 15 },
    masked: {},
  },
  INLINE_SCANNER: {
    data: { registryType: 'INLINE_SCANNER', identifierTag: [{ pipeline: 'ci' }], limitNumScan: '60' },
    masked: {},
  },
};

function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );
}

describe('sec emulator: container registries and scanners', () => {
  let emulator: SecEmulator;
  let token: string;

  beforeEach(async () => {
    emulator = await startSecEmulator({ account: 'acme' });
    token = emulator.issueToken();
  });
  afterEach(() => emulator.close());

  const post = (body: unknown) => call(emulator, token, 'POST', BASE, body);

  for (const [name, { data, masked }] of Object.entries(VALID)) {
    it(`${name}: created, stored as sent, secrets blanked on every answer`, async () => {
      const created = await post(registry(data, name));
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const guid = created.body.data.intgGuid as string;
      expect(created.body.data).to.include({ type: 'ContVulnCfg', name, enabled: 1, isOrg: 0 });
      expect(emulator.get(COLLECTION, guid)).to.have.deep.property('data', data);

      const read = await call(emulator, token, 'GET', `${BASE}/${guid}`);
      const listed = (await call(emulator, token, 'GET', BASE)).body.data.find(
        (r: { intgGuid: string }) => r.intgGuid === guid,
      );
      for (const answer of [created.body.data, read.body.data, listed]) {
        for (const [path, secret] of Object.entries(masked)) {
          expect(at(answer.data, path), `${path} is blanked`).to.equal('');
          expect(JSON.stringify(answer)).to.not.include(secret);
        }
        // Everything that is not a secret comes back as sent.
        const unmasked = JSON.parse(JSON.stringify(data));
        for (const path of Object.keys(masked)) {
          const keys = path.split('.');
          (at(unmasked, keys.slice(0, -1).join('.')) as Record<string, unknown>)[keys.at(-1)!] = '';
        }
        expect(answer.data).to.deep.equal(unmasked);
      }
    });
  }

  it('issues a server token to scanners only, and keeps it across updates', async () => {
    const proxy = (await post(registry(VALID.PROXY_SCANNER!.data))).body.data;
    const inline = (await post(registry(VALID.INLINE_SCANNER!.data))).body.data;
    const hub = (await post(registry(VALID.REGISTRY_D!.data))).body.data;
    for (const scanner of [proxy, inline]) {
      expect(scanner.serverToken.serverToken).to.match(/^[0-9a-f]{48}$/);
      expect(scanner.serverToken.uri).to.equal('https://acme.sec-platform.example');
    }
    expect(proxy.serverToken.serverToken).to.not.equal(inline.serverToken.serverToken);
    expect(hub).to.not.have.property('serverToken');

    const patched = await call(emulator, token, 'PATCH', `${BASE}/${proxy.intgGuid}`, {
      ...registry({ ...VALID.PROXY_SCANNER!.data, limitNumImg: 5 }),
      intgGuid: proxy.intgGuid,
      serverToken: { serverToken: 'ignored', uri: 'x' },
    });
    expect(patched.status).to.equal(200);
    expect(patched.body.data.serverToken).to.deep.equal(proxy.serverToken);
    expect(patched.body.data.data.limitNumImg).to.equal(5);
  });

  it('refuses bodies that do not fit their registry type, naming the field', async () => {
    const a = VALID.REGISTRY_A_ROLE!.data;
    const refused: Array<[string, Record<string, unknown>, string]> = [
      ['no registry type', { registryDomain: 'r.example.com' }, 'data.registryType is required'],
      [
        'unknown registry type',
        { registryType: 'REGISTRY_Z' },
        'data.registryType "REGISTRY_Z" is not supported; supported: REGISTRY_A, REGISTRY_B, REGISTRY_C, REGISTRY_D, REGISTRY_E, REGISTRY_F, PROXY_SCANNER, INLINE_SCANNER',
      ],
      ['image count outside 5, 10, 15', { ...a, limitNumImg: 7 }, 'data.limitNumImg must be one of 5, 10, 15 (got 7)'],
      [
        'role auth without role credentials',
        { ...a, crossAccountCredentials: undefined },
        'data.crossAccountCredentials is required when authType is ROLE',
      ],
      [
        'both credential kinds',
        { ...a, accessKeyCredentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } },
        'data.accessKeyCredentials must not be sent when authType is ROLE',
      ],
      ['unknown auth type', { ...a, authType: 'IAM' }, 'data.authType must be one of "ROLE", "ACCESS_KEY" (got "IAM")'],
      [
        'a registry host outside the list',
        { ...VALID.REGISTRY_B!.data, registryDomain: 'docker.pkg.dev' },
        'data.registryDomain must be one of',
      ],
      [
        'another registry host',
        { ...VALID.REGISTRY_C!.data, registryDomain: 'gcr.example' },
        'data.registryDomain must be one of "gcr.io", "us.gcr.io", "eu.gcr.io", "asia.gcr.io" (got "gcr.example")',
      ],
      [
        'a label map with two entries',
        { ...VALID.REGISTRY_B!.data, limitByLabel: [{ a: '1', b: '2' }] },
        'data.limitByLabel[0] must hold exactly one label as {"<key>": "<value>"} (got 2 entries)',
      ],
      [
        'a label with a blank key',
        { ...VALID.PROXY_SCANNER!.data, limitByLabel: [{ ' ': 'x' }] },
        'data.limitByLabel[0] must have a non-empty label key',
      ],
      [
        'labels that are not a list',
        { ...VALID.PROXY_SCANNER!.data, limitByLabel: { a: 'b' } },
        'data.limitByLabel must be an array (got object)',
      ],
      [
        'image limits on a generic registry',
        { ...VALID.REGISTRY_E!.data, limitNumImg: 5 },
        'data.limitNumImg is not a recognised field',
      ],
      [
        'a scan limit that is not a number',
        { ...VALID.INLINE_SCANNER!.data, limitNumScan: 'many' },
        'data.limitNumScan must be a positive whole number written as a string (got "many")',
      ],
      [
        'a malformed service account e-mail',
        { ...VALID.REGISTRY_B!.data, credentials: { ...serviceAccount, clientEmail: 'nope' } },
        'data.credentials.clientEmail must be a valid email address (got "nope")',
      ],
    ];
    for (const [why, data, message] of refused) {
      const answer = await post(registry(data));
      expect(answer.status, why).to.equal(400);
      expect(answer.body.message, why).to.include(message);
    }
    const wrongType = await post({ ...registry(VALID.REGISTRY_D!.data), type: 'EmailUser' });
    expect(wrongType.status).to.equal(400);
    expect(wrongType.body.message).to.equal(
      'type "EmailUser" is not a supported container registry type; supported: ContVulnCfg',
    );
    expect(emulator.list(COLLECTION)).to.deep.equal([]);
  });

  it('never quotes a secret in an error message', async () => {
    const answer = await post(registry({ ...VALID.REGISTRY_D!.data, credentials: { username: 'u', password: 12345 } }));
    expect(answer.status).to.equal(400);
    expect(answer.body.message).to.equal('data.credentials.password must be a string (got number)');
  });

  it('updates replace the data but cannot change the registry type or the authentication kind', async () => {
    const created = (await post(registry(VALID.REGISTRY_A_ROLE!.data))).body.data;
    const path = `${BASE}/${created.intgGuid}`;
    const renamed = await call(emulator, token, 'PATCH', path, {
      ...registry({ ...VALID.REGISTRY_A_ROLE!.data, limitNumImg: 15 }, 'renamed'),
      intgGuid: created.intgGuid,
      enabled: 0,
    });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.include({ name: 'renamed', enabled: 0 });
    expect(emulator.get(COLLECTION, created.intgGuid)).to.have.nested.property('data.limitNumImg', 15);

    const toKey = await call(emulator, token, 'PATCH', path, registry(VALID.REGISTRY_A_KEY!.data));
    expect(toKey.status).to.equal(400);
    expect(toKey.body.message).to.equal(
      'data.authType cannot be changed (the integration uses "ROLE"); create a new integration instead',
    );

    const toHub = await call(emulator, token, 'PATCH', path, registry(VALID.REGISTRY_D!.data));
    expect(toHub.status).to.equal(400);
    expect(toHub.body.message).to.equal(
      'data.registryType cannot be changed (the integration is of type "REGISTRY_A")',
    );
    expect(emulator.get(COLLECTION, created.intgGuid)).to.have.nested.property('data.authType', 'ROLE');
  });

  it('answers 404 for an unknown or deleted integration', async () => {
    const created = (await post(registry(VALID.REGISTRY_F!.data))).body.data;
    expect((await call(emulator, token, 'DELETE', `${BASE}/${created.intgGuid}`)).status).to.equal(204);
    const gone = await call(emulator, token, 'GET', `${BASE}/${created.intgGuid}`);
    expect(gone.status).to.equal(404);
    expect(gone.body.message).to.equal(`container registry "${created.intgGuid}" not found`);
    expect(
      (await call(emulator, token, 'PATCH', `${BASE}/${created.intgGuid}`, registry(VALID.REGISTRY_F!.data))).status,
    ).to.equal(404);
    expect((await call(emulator, token, 'DELETE', `${BASE}/${created.intgGuid}`)).status).to.equal(404);
  });
});
