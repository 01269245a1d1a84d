/**
 * Container registry and scanner integrations through the real executable and the Terraform-side
 * client (which applies Terraform's plan and apply checks), against the in-process emulator.
 * One table drives the common lifecycle; the rules particular to one type follow it.
 */
import { expect } from 'chai';
import type { SecEmulator } from '../../../src/emulators/sec/index.js';
import { startSecProvider, type SecProvider } from '../../support/sec-provider.js';
import { type TerraformClient, configValue, ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { valueEquals } from '../../../packages/framework/src/schema/value-ops.js';
import { impliedType } from '../../../packages/framework/src/schema/block.js';
import { UNKNOWN, type ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { describeProvider } from '../../pulumi-model/description.js';
import { buildPulumiSchemaWithReport } from '../../pulumi-model/schema.js';
import { parseSeed } from '../../golden/seed-parser.js';
import { readFixture } from '../../support/fixtures.js';
import { compareWithSeed, allDifferences, writeOnlyTwinAllowances } from '../../golden/seed-compare.js';

const COLLECTION = 'ContainerRegistries';

const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEexample\n-----END PRIVATE KEY-----\n';

/** Order-insensitive expectation for a stored list (set blocks have no order). */
const members = (values: unknown[]) => ({ members: values });
type Expected = Record<string, unknown>;

interface Case {
  type: string;
  create: Record<string, unknown>;
  /** Dotted paths into the stored object right after create. */
  created: Expected;
  update: Record<string, unknown>;
  updated: Expected;
  /** State attributes holding secrets the platform never returns (null after import). */
  secrets: (state: ObjectValue) => unknown[];
  /** A bad value and the attribute path its diagnostic must name. */
  invalid: { config: Record<string, unknown>; path: string };
}

const cases: Case[] = [
  {
    type: 'sec_integration_registry_a',
    create: {
      name: 'registry-a',
      registry_domain: '123456789012.registry-a.us-west-2.example.com',
      credentials: [{ role_arn: 'arn:cloud-a:iam::123456789012:role/reader', external_id: 'ext-1' }],
      limit_by_tags: [' prod ', 'stable'],
      limit_by_label: [
        { key: 'team', value: 'payments' },
        { key: 'team', value: 'search' },
      ],
      limit_num_imgs: 10,
    },
    created: {
      type: 'ContVulnCfg',
      enabled: 1,
      'data.registryType': 'REGISTRY_A',
      'data.registryDomain': '123456789012.registry-a.us-west-2.example.com',
      'data.authType': 'ROLE',
      'data.crossAccountCredentials': { roleArn: 'arn:cloud-a:iam::123456789012:role/reader', externalId: 'ext-1' },
      'data.accessKeyCredentials': undefined,
      'data.limitByTag': ['prod', 'stable'],
      'data.limitByLabel': members([{ team: 'payments' }, { team: 'search' }]),
      'data.limitNumImg': 10,
      'data.nonOsPackageEval': true,
    },
    update: {
      name: 'registry-a-renamed',
      enabled: false,
      registry_domain: '123456789012.registry-a.us-west-2.example.com',
      credentials: [{ role_arn: 'arn:cloud-a:iam::123456789012:role/reader', external_id: 'ext-2' }],
      limit_num_imgs: 15,
    },
    updated: {
      name: 'registry-a-renamed',
      enabled: 0,
      'data.crossAccountCredentials.externalId': 'ext-2',
      'data.limitNumImg': 15,
      'data.limitByTag': undefined,
      'data.limitByLabel': [],
    },
    secrets: () => [],
    invalid: {
      config: {
        name: 'r',
        registry_domain: 'x.example.com',
        credentials: [{ role_arn: 'a', external_id: 'b' }],
        limit_num_imgs: 7,
      },
      path: 'limit_num_imgs',
    },
  },
  {
    type: 'sec_integration_registry_b',
    create: {
      name: 'registry-b',
      registry_domain: 'us-docker.pkg.dev',
      credentials: [
        {
          client_id: '1234567890',
          client_email: 'scanner@project.example.com',
          private_key_id: 'key-1',
          private_key: PEM,
        },
      ],
    },
    created: {
      'data.registryType': 'REGISTRY_B',
      'data.registryDomain': 'us-docker.pkg.dev',
      'data.credentials': {
        clientId: '1234567890',
        clientEmail: 'scanner@project.example.com',
        privateKeyId: 'key-1',
        privateKey: PEM,
      },
      'data.limitNumImg': 5,
      'data.nonOsPackageEval': true,
    },
    update: {
      name: 'registry-b',
      registry_domain: 'europe-west1-docker.pkg.dev',
      credentials: [
        {
          client_id: '1234567890',
          client_email: 'scanner@project.example.com',
          private_key_id: 'key-2',
          private_key: PEM,
        },
      ],
      limit_by_repositories: ['team/app'],
    },
    updated: {
      'data.registryDomain': 'europe-west1-docker.pkg.dev',
      'data.credentials.privateKeyId': 'key-2',
      'data.limitByRep': ['team/app'],
    },
    secrets: (s) => [cred(s, 'private_key_id'), cred(s, 'private_key')],
    invalid: {
      config: {
        name: 'r',
        registry_domain: 'docker.pkg.dev',
        credentials: [{ client_id: 'a', client_email: 'a@b.example', private_key_id: 'k', private_key: PEM }],
      },
      path: 'registry_domain',
    },
  },
  {
    type: 'sec_integration_registry_c',
    create: {
      name: 'registry-c',
      registry_domain: 'gcr.io',
      credentials: [
        {
          client_id: '1234567890',
          client_email: 'scanner@project.example.com',
          private_key_id: 'key-1',
          private_key: PEM,
        },
      ],
      non_os_package_support: false,
    },
    created: {
      'data.registryType': 'REGISTRY_C',
      'data.registryDomain': 'gcr.io',
      'data.credentials.privateKeyId': 'key-1',
      'data.nonOsPackageEval': false,
    },
    update: {
      name: 'registry-c',
      registry_domain: 'eu.gcr.io',
      credentials: [
        {
          client_id: '1234567890',
          client_email: 'scanner@project.example.com',
          private_key_id: 'key-1',
          private_key: PEM,
        },
      ],
    },
    updated: { 'data.registryDomain': 'eu.gcr.io', 'data.nonOsPackageEval': true },
    secrets: (s) => [cred(s, 'private_key_id'), cred(s, 'private_key')],
    // The platform checks the service account's e-mail address: so does the plan.
    invalid: {
      config: {
        name: 'r',
        registry_domain: 'gcr.io',
        credentials: [{ client_id: 'a', client_email: 'scanner', private_key_id: 'k', private_key: PEM }],
      },
      path: 'credentials[0].client_email',
    },
  },
  {
    type: 'sec_integration_registry_d',
    create: { name: 'registry-d', username: 'scanner', password: 'hub-pass-1', limit_by_repositories: ['acme/api'] },
    created: {
      'data.registryType': 'REGISTRY_D',
      'data.registryDomain': 'index.docker.io',
      'data.credentials': { username: 'scanner', password: 'hub-pass-1' },
      'data.limitByRep': ['acme/api'],
    },
    update: {
      name: 'registry-d',
      username: 'scanner',
      password: 'hub-pass-2',
      limit_by_repositories: ['acme/api', 'acme/web'],
    },
    updated: { 'data.credentials.password': 'hub-pass-2', 'data.limitByRep': ['acme/api', 'acme/web'] },
    secrets: (s) => [s.password],
    invalid: { config: { name: 'r', username: 'u', password: 'p', limit_num_imgs: 20 }, path: 'limit_num_imgs' },
  },
  {
    type: 'sec_integration_registry_e',
    create: {
      name: 'registry-e',
      registry_domain: 'registry.example.com:5000',
      username: 'puller',
      password: 'pw-1',
      ssl: true,
    },
    created: {
      'data.registryType': 'REGISTRY_E',
      'data.registryDomain': 'registry.example.com:5000',
      'data.credentials': { username: 'puller', password: 'pw-1', ssl: true },
      'data.registryNotifications': false,
      'data.limitByRep': undefined,
      'data.limitNumImg': undefined,
    },
    update: {
      name: 'registry-e',
      registry_domain: 'registry.example.com:5000',
      username: 'puller',
      password: 'pw-1',
      ssl: true,
      notifications: true,
      limit_by_tags: ['v*'],
    },
    updated: { 'data.registryNotifications': true, 'data.limitByTag': ['v*'] },
    secrets: (s) => [s.password],
    invalid: {
      config: {
        name: 'r',
        registry_domain: 'r.example.com',
        username: 'u',
        password: 'p',
        limit_by_tags: ['ok', '  '],
      },
      path: 'limit_by_tags',
    },
  },
  {
    type: 'sec_integration_registry_f',
    create: {
      name: 'registry-f',
      username: 'octo',
      password: 'token-1',
      limit_by_label: [{ key: 'org.opencontainers.image.vendor', value: 'acme' }],
    },
    created: {
      'data.registryType': 'REGISTRY_F',
      'data.registryDomain': 'ghcr.io',
      'data.credentials': { username: 'octo', password: 'token-1', ssl: true },
      'data.registryNotifications': false,
      'data.limitByLabel': [{ 'org.opencontainers.image.vendor': 'acme' }],
    },
    update: { name: 'registry-f', username: 'octo', password: 'token-1', ssl: false, registry_notifications: true },
    updated: { 'data.credentials.ssl': false, 'data.registryNotifications': true, 'data.limitByLabel': [] },
    secrets: (s) => [s.password],
    invalid: { config: { name: 'r', username: 'u', password: 'p', limit_num_imgs: 0 }, path: 'limit_num_imgs' },
  },
  {
    type: 'sec_integration_proxy_scanner',
    create: { name: 'proxy-scanner', limit_by_label: [{ key: 'env', value: 'prod' }, { key: 'tier' }] },
    created: {
      'data.registryType': 'PROXY_SCANNER',
      'data.limitNumImg': 5,
      'data.limitByLabel': members([{ env: 'prod' }, { tier: '' }]),
    },
    update: {
      name: 'proxy-scanner',
      limit_by_label: [{ key: 'env', value: 'prod' }, { key: 'tier' }],
      limit_num_imgs: 15,
      limit_by_repositories: ['a/b'],
    },
    updated: { 'data.limitNumImg': 15, 'data.limitByRep': ['a/b'] },
    secrets: () => [],
    invalid: { config: { name: 'r', limit_num_imgs: 3 }, path: 'limit_num_imgs' },
  },
  {
    type: 'sec_integration_inline_scanner',
    create: { name: 'inline-scanner', identifier_tag: [{ key: 'pipeline', value: 'ci' }] },
    created: {
      'data.registryType': 'INLINE_SCANNER',
      'data.identifierTag': [{ pipeline: 'ci' }],
      'data.limitNumScan': '60',
    },
    update: { name: 'inline-scanner', identifier_tag: [{ key: 'pipeline', value: 'release' }], limit_num_scan: 120 },
    updated: { 'data.identifierTag': [{ pipeline: 'release' }], 'data.limitNumScan': '120' },
    secrets: () => [],
    invalid: { config: { name: 'r', limit_num_scan: 0 }, path: 'limit_num_scan' },
  },
];

function cred(state: ObjectValue, name: string): unknown {
  return ((state.credentials as ObjectValue[])[0] as ObjectValue)[name];
}

function at(obj: unknown, dotted: string): unknown {
  return dotted
    .split('.')
    .reduce<unknown>(
      (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
      obj,
    );
}

function expectStored(stored: unknown, expected: Expected, what: string): void {
  expect(stored, `${what}: the emulator holds the object`).to.not.equal(undefined);
  for (const [path, value] of Object.entries(expected)) {
    const actual = at(stored, path);
    if (value !== null && typeof value === 'object' && 'members' in value)
      expect(actual, `${what}: ${path}`).to.have.deep.members((value as { members: unknown[] }).members);
    else expect(actual, `${what}: ${path}`).to.deep.equal(value);
  }
}

async function failure(promise: Promise<unknown>): Promise<ProviderCallError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the call must fail').to.be.instanceOf(ProviderCallError);
  return err as ProviderCallError;
}

describe('sec container registries and scanners through the Terraform-side client', function () {
  this.timeout(60_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  let sec: SecProvider;

  before(async () => {
    sec = await startSecProvider();
    ({ emulator, tf } = sec);
  });
  after(() => sec?.close());

  const config = (type: string, plain: Record<string, unknown>) => configValue(tf.resourceSchema(type).block, plain);
  const same = (type: string, a: ObjectValue | null, b: ObjectValue | null) =>
    valueEquals(impliedType(tf.resourceSchema(type).block), a, b);

  /** validate → plan → apply → the next plan is empty; returns the new state. */
  async function converge(
    type: string,
    prior: ObjectValue | null,
    plain: Record<string, unknown>,
  ): Promise<ObjectValue> {
    const cfg = config(type, plain);
    await tf.validateResource(type, cfg);
    const change = await tf.plan(type, prior, cfg);
    expect(change.requiresReplace, 'an in-place change').to.deep.equal([]);
    const { state } = await tf.apply(type, prior, change, cfg);
    const again = await tf.plan(type, state, cfg);
    expect(same(type, again.planned, state), 're-plan must be empty').to.equal(true);
    return state!;
  }

  async function destroy(type: string, state: ObjectValue): Promise<void> {
    await tf.apply(type, state, await tf.plan(type, state, null), null);
  }

  for (const c of cases) {
    it(`${c.type}: create, empty re-plan, read with masked secrets, update, import, destroy`, async () => {
      let state = await converge(c.type, null, c.create);
      const guid = state.intg_guid as string;
      expect(guid).to.be.a('string').and.not.equal('');
      expect(state.id).to.equal(guid);
      expect(state).to.deep.include({ type_name: 'ContVulnCfg', org_level: false });
      expectStored(emulator.get(COLLECTION, guid), c.created, `${c.type} after create`);

      // The platform blanks secrets on reads; the refreshed state keeps them, so plans stay empty.
      const refreshed = (await tf.read(c.type, state)).state!;
      expect(same(c.type, refreshed, state), 'refresh changes nothing').to.equal(true);
      const afterRefresh = await tf.plan(c.type, refreshed, config(c.type, c.create));
      expect(same(c.type, afterRefresh.planned, refreshed), 'plan after refresh is empty').to.equal(true);

      state = await converge(c.type, state, c.update);
      expect(state.intg_guid, 'updated in place').to.equal(guid);
      expectStored(emulator.get(COLLECTION, guid), c.updated, `${c.type} after update`);

      const imported = await tf.importState(c.type, guid);
      expect(imported.id).to.equal(guid);
      expect(imported.name).to.equal(state.name);
      for (const secret of c.secrets(imported)) expect(secret, 'the platform never returns secrets').to.equal(null);
      const afterImport = await tf.plan(c.type, imported, config(c.type, c.update));
      expect(afterImport.requiresReplace).to.deep.equal([]);
      if (c.secrets(state).length === 0) {
        expect(same(c.type, afterImport.planned, imported), 'plan after import is empty').to.equal(true);
      } else {
        // Only the secrets are re-sent; afterwards the plan is empty.
        const { state: applied } = await tf.apply(c.type, imported, afterImport, config(c.type, c.update));
        expect(c.secrets(applied!)).to.deep.equal(c.secrets(state));
        const again = await tf.plan(c.type, applied, config(c.type, c.update));
        expect(same(c.type, again.planned, applied), 'plan after the post-import apply is empty').to.equal(true);
      }

      await destroy(c.type, state);
      expect(emulator.get(COLLECTION, guid), 'gone from the emulator').to.equal(undefined);
      expect((await tf.read(c.type, state)).state, 'a deleted integration leaves the state').to.equal(null);
    });

    it(`${c.type}: a bad value is reported at its attribute path, before any API call`, async () => {
      emulator.clearRequests();
      const err = await failure(tf.validateResource(c.type, config(c.type, c.invalid.config)));
      expect(err.diagnostics.map((d) => d.path)).to.deep.equal([c.invalid.path]);
      expect(err.diagnostics[0]!.summary).to.equal(`Invalid value for "${c.invalid.path.split('.').at(-1)}"`);
      // An id the platform has not assigned: validation cannot know, the plan of the create refuses it.
      const withId = config(c.type, { ...c.create, id: 'chosen' });
      await tf.validateResource(c.type, withId);
      const configuredId = await failure(tf.plan(c.type, null, withId));
      expect(configuredId.diagnostics.map((d) => d.path)).to.deep.equal(['id']);
      expect(emulator.requests.filter((r) => r.path.includes(COLLECTION))).to.deep.equal([]);
    });
  }

  describe('RegistryA credentials', () => {
    const type = 'sec_integration_registry_a';
    const base = { name: 'registry-a-auth', registry_domain: '123456789012.registry-a.eu-west-1.example.com' };
    const role = (externalId = 'ext-1') => ({
      ...base,
      credentials: [{ role_arn: 'arn:cloud-a:iam::123456789012:role/reader', external_id: externalId }],
    });
    const key = (secret = 'secret-1') => ({
      ...base,
      credentials: [{ access_key_id: 'AKEXAMPLE', secret_access_key: secret }],
    });

    it('switching between role and access-key authentication plans a replacement, both ways', async () => {
      let state = await converge(type, null, role());
      const roleGuid = state.intg_guid as string;
      expect(state.auth_type).to.equal('ROLE');

      const toKey = await tf.plan(type, state, config(type, key()));
      expect(toKey.requiresReplace).to.deep.equal([[{ attr: 'credentials' }]]);
      // Terraform replaces by destroying, then creating.
      await destroy(type, state);
      state = await converge(type, null, key());
      const keyGuid = state.intg_guid as string;
      expect(keyGuid).to.not.equal(roleGuid);
      expect(emulator.get(COLLECTION, roleGuid)).to.equal(undefined);
      expectStored(
        emulator.get(COLLECTION, keyGuid),
        {
          'data.authType': 'ACCESS_KEY',
          'data.accessKeyCredentials': { accessKeyId: 'AKEXAMPLE', secretAccessKey: 'secret-1' },
          'data.crossAccountCredentials': undefined,
        },
        'after the switch',
      );
      expect(state.auth_type).to.equal('ACCESS_KEY');
      // The secret key is masked on reads and kept from the state.
      expect(cred((await tf.read(type, state)).state!, 'secret_access_key')).to.equal('secret-1');

      const toRole = await tf.plan(type, state, config(type, role()));
      expect(toRole.requiresReplace).to.deep.equal([[{ attr: 'credentials' }]]);
      await destroy(type, state);
    });

    it('rotating the access key secret or the external id updates in place', async () => {
      let state = await converge(type, null, key('secret-1'));
      const guid = state.intg_guid as string;
      state = await converge(type, state, key('secret-2'));
      expect(state.intg_guid).to.equal(guid);
      expect(emulator.get(COLLECTION, guid)).to.have.nested.property(
        'data.accessKeyCredentials.secretAccessKey',
        'secret-2',
      );
      await destroy(type, state);

      state = await converge(type, null, role('ext-1'));
      state = await converge(type, state, role('ext-2'));
      expect(emulator.get(COLLECTION, state.intg_guid as string)).to.have.nested.property(
        'data.crossAccountCredentials.externalId',
        'ext-2',
      );
      // Another role is still role authentication: an in-place update, not a new integration.
      const otherRole = {
        ...base,
        credentials: [{ role_arn: 'arn:cloud-a:iam::123456789012:role/other-reader', external_id: 'ext-2' }],
      };
      expect((await tf.plan(type, state, config(type, otherRole))).requiresReplace).to.deep.equal([]);
      const roleGuid = state.intg_guid as string;
      state = await converge(type, state, otherRole);
      expect(state.intg_guid).to.equal(roleGuid);
      expect(emulator.get(COLLECTION, roleGuid)).to.have.nested.property(
        'data.crossAccountCredentials.roleArn',
        'arn:cloud-a:iam::123456789012:role/other-reader',
      );
      await destroy(type, state);
    });

    it('refuses both credential pairs at once, at the credentials block', async () => {
      const both = { ...base, credentials: [{ role_arn: 'arn', external_id: 'x', access_key_id: 'AK' }] };
      const err = await failure(tf.validateResource(type, config(type, both)));
      expect(err.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Invalid credentials block', 'credentials[0]'],
      ]);
    });

    it('refuses an incomplete pair at validation, naming the missing attribute; with the other half unknown, at plan', async () => {
      const half = config(type, { ...base, credentials: [{ access_key_id: 'AK' }] });
      const err = await failure(tf.validateResource(type, half));
      expect(err.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Invalid credentials block', 'credentials[0].secret_access_key'],
      ]);
      // The secret not known yet (e.g. from another resource): not judged at validation, judged at plan.
      const pending = config(type, { ...base, credentials: [{ access_key_id: 'AK' }] });
      (pending.credentials as ObjectValue[])[0]!.secret_access_key = UNKNOWN;
      await tf.validateResource(type, pending);
      const before = emulator.list(COLLECTION).length;
      const planErr = await failure(tf.plan(type, null, half));
      expect(planErr.rpc).to.equal('PlanResourceChange');
      expect(planErr.diagnostics.map((d) => [d.summary, d.path])).to.deep.equal([
        ['Invalid credentials block', 'credentials[0].secret_access_key'],
      ]);
      expect(emulator.list(COLLECTION).length).to.equal(before);
    });

    it('import sets the authentication kind from the platform', async () => {
      const state = await converge(type, null, key());
      const imported = await tf.importState(type, state.intg_guid as string);
      expect(imported.auth_type).to.equal('ACCESS_KEY');
      expect(cred(imported, 'access_key_id')).to.equal('AKEXAMPLE');
      expect(cred(imported, 'role_arn')).to.equal(null);
      await destroy(type, state);
    });
  });

  describe('scanners', () => {
    for (const type of ['sec_integration_proxy_scanner', 'sec_integration_inline_scanner']) {
      it(`${type}: the server token is issued on create, sensitive, and survives updates`, async () => {
        expect(tf.resourceSchema(type).block.attributes.server_token!.sensitive).to.equal(true);
        let state = await converge(type, null, { name: `${type}-token` });
        const stored = emulator.get<{ serverToken: { serverToken: string; uri: string } }>(
          COLLECTION,
          state.intg_guid as string,
        )!;
        expect(state.server_token)
          .to.equal(stored.serverToken.serverToken)
          .and.to.match(/^[0-9a-f]{48}$/);
        expect(state.server_uri).to.equal(stored.serverToken.uri);
        state = await converge(type, state, { name: `${type}-token`, enabled: false });
        expect(state.server_token).to.equal(stored.serverToken.serverToken);
        // A token rotated on the platform is picked up by the next refresh.
        emulator.put(COLLECTION, state.intg_guid as string, {
          ...stored,
          enabled: 0,
          serverToken: { ...stored.serverToken, serverToken: 'rotated' },
        });
        expect((await tf.read(type, state)).state!.server_token).to.equal('rotated');
        await destroy(type, state);
      });
    }

    it('a proxy scanner label without a key is refused at validation, at the block; an unknown key waits for the plan', async () => {
      const type = 'sec_integration_proxy_scanner';
      const cfg = config(type, { name: 'keyless', limit_by_label: [{ value: 'x' }] });
      const err = await failure(tf.validateResource(type, cfg));
      expect(err.diagnostics.map((d) => `${d.summary} at ${d.path}`)).to.deep.equal([
        'Invalid limit_by_label block at limit_by_label',
      ]);
      await tf.validateResource(type, { ...cfg, limit_by_label: [{ key: UNKNOWN, value: 'x' }] });
    });

    it("a blank label or tag key is refused at its path, as the contract's check of each item refuses it", async () => {
      emulator.clearRequests();
      const cases = [
        ['sec_integration_registry_d', { name: 'hub', username: 'u', password: 'p' }, 'limit_by_label'],
        [
          'sec_integration_registry_e',
          { name: 'e', registry_domain: 'r.example.com', username: 'u', password: 'p' },
          'limit_by_label',
        ],
        ['sec_integration_inline_scanner', { name: 'inline' }, 'identifier_tag'],
      ] as const;
      for (const [type, base, list] of cases) {
        const err = await failure(
          tf.validateResource(type, config(type, { ...base, [list]: [{ key: ' ', value: 'x' }] })),
        );
        expect(
          err.diagnostics.map((d) => `${d.path}: ${d.detail}`),
          type,
        ).to.deep.equal([
          `${list}: In the \`${list}\` block with key = " ", value = "x": The value must not be empty or only whitespace.`,
        ]);
      }
      expect(
        emulator.requests.filter((r) => r.path.includes(COLLECTION)),
        'nothing sent',
      ).to.deep.equal([]);
    });
  });

  it('importing the GUID of another registry type fails and says which type it is', async () => {
    const state = await converge('sec_integration_registry_d', null, { name: 'hub', username: 'u', password: 'p' });
    const err = await failure(tf.importState('sec_integration_registry_f', state.intg_guid as string));
    expect(err.diagnostics[0]!.summary).to.equal('Wrong container registry type');
    expect(err.diagnostics[0]!.detail).to.include('"REGISTRY_D"');
    await destroy('sec_integration_registry_d', state);
  });

  it("an integration deleted behind Terraform's back leaves the state on refresh", async () => {
    const type = 'sec_integration_registry_e';
    const state = await converge(type, null, {
      name: 'gone',
      registry_domain: 'r.example.com',
      username: 'u',
      password: 'p',
    });
    expect(emulator.remove(COLLECTION, state.intg_guid as string)).to.equal(true);
    expect((await tf.read(type, state)).state).to.equal(null);
  });

  it('an explicitly empty list stays empty and a trimmed tag keeps its configured form', async () => {
    const type = 'sec_integration_registry_d';
    const state = await converge(type, null, {
      name: 'lists',
      username: 'u',
      password: 'p',
      limit_by_tags: ['  latest'],
      limit_by_repositories: [],
    });
    expect(state.limit_by_tags).to.deep.equal(['  latest']);
    expect(emulator.get(COLLECTION, state.intg_guid as string)).to.have.deep.nested.property('data.limitByTag', [
      'latest',
    ]);
    const refreshed = (await tf.read(type, state)).state!;
    expect(refreshed.limit_by_repositories).to.deep.equal([]);
    expect(refreshed.limit_by_tags).to.deep.equal(['  latest']);
    await destroy(type, state);
  });

  it('secrets are sensitive in the schema exactly as the seed flags them', () => {
    const attrs = (type: string) => tf.resourceSchema(type).block.blockTypes.credentials!.block.attributes;
    expect(attrs('sec_integration_registry_a').secret_access_key!.sensitive).to.equal(true);
    expect(attrs('sec_integration_registry_b').private_key_id!.sensitive).to.equal(true);
    expect(attrs('sec_integration_registry_c').private_key_id!.sensitive).to.equal(false);
    expect(attrs('sec_integration_registry_c').private_key!.sensitive).to.equal(true);
    for (const type of ['sec_integration_registry_d', 'sec_integration_registry_e', 'sec_integration_registry_f']) {
      expect(tf.resourceSchema(type).block.attributes.password!.sensitive, type).to.equal(true);
    }
  });
});

describe('Pulumi mapping: registry and scanner nested types against the sec seed', () => {
  const NESTED = [
    'IntegrationRegistryACredentials',
    'IntegrationRegistryBCredentials',
    'IntegrationRegistryCCredentials',
    ...['A', 'B', 'C', 'D', 'E', 'F'].map((letter) => `IntegrationRegistry${letter}LimitByLabel`),
    'IntegrationProxyScannerLimitByLabel',
    'IntegrationInlineScannerIdentifierTag',
  ];

  it("has each type with the seed's field names, required and secret flags", async () => {
    const seed = parseSeed(readFixture('secSeed'));
    const built = buildPulumiSchemaWithReport(await describeProvider('sec'));
    const types = built.schema.types;
    for (const name of NESTED) expect(types, name).to.have.property(`sec:index/${name}:${name}`);
    const allowedDifferences = writeOnlyTwinAllowances(['privateKey', 'privateKeyId']);
    expect(
      compareWithSeed(built.schema, seed, { only: NESTED, allowedDifferences, reportUnusedAllowances: true }),
    ).to.deep.equal([]);
    // The comparison is not vacuous: flipping a secret flag is noticed.
    const broken = JSON.parse(JSON.stringify(built.schema)) as typeof built.schema;
    delete broken.types['sec:index/IntegrationRegistryBCredentials:IntegrationRegistryBCredentials']!.properties!
      .privateKeyId!.secret;
    expect(allDifferences(broken, seed, NESTED)).to.include(
      'IntegrationRegistryBCredentials.privateKeyId: is not secret, the seed flags it secret',
    );
    // Resources expose the label blocks pluralised.
    const registryA = built.schema.resources['sec:index/integrationRegistryA:IntegrationRegistryA']!;
    expect(registryA.inputProperties).to.have.property('limitByLabels');
    expect(registryA.inputProperties!.limitByLabels).to.deep.include({
      type: 'array',
      items: { $ref: '#/types/sec:index/IntegrationRegistryALimitByLabel:IntegrationRegistryALimitByLabel' },
    });
  });
});
