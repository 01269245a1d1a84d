/**
 * Every field the platform returns is read by the sec client: one object of every resource type is
 * made through the provider (test/resources/sec/one-of-each.ts), then every list and read of the
 * client is called, and each answer is held against the schema the client decodes it with. zod keeps
 * only the keys a schema declares, so a field the client does not declare would be dropped without a
 * word and read as "not set" ever after: drift on it would never show. A field the client leaves on
 * purpose is declared as such, with its reason (`leavesUnread` in src/clients/sec/wire.ts).
 */
import { expect } from 'chai';
import { z } from 'zod';
import { SecHttp } from '../../src/clients/sec/http.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { TerraformClient, configValue } from '../../src/tfclient/terraform-client.js';
import type { Plain } from '../resources/identity-and-lists.js';
import { SEC_BIN, SEC_CASES, makeSecPrerequisites } from '../resources/sec/one-of-each.js';
import { secClientFor } from '../support/sec-provider.js';
import { ProviderHarness } from '../../packages/framework/src/testing/harness.js';
import type { ObjectValue } from '../../packages/framework/src/schema/value.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import type { SecClient } from '../../src/clients/sec/index.js';
import { shownNowhereProblems } from '../support/shown-nowhere.js';
import { unreadFields } from '../support/unread-fields.js';

interface Answer {
  readonly operation: string;
  readonly raw: unknown;
  readonly schema: z.ZodType;
}

describe('sec client: every field the platform returns is read', function () {
  this.timeout(300_000);
  let emulator: SecEmulator;
  let tf: TerraformClient;
  const answers: Answer[] = [];
  const json = SecHttp.prototype.json;

  before(async () => {
    emulator = await startSecEmulator();
    tf = await TerraformClient.start(SEC_BIN, secProviderEnv(emulator));
    await tf.configure({});
    const make = async (type: string, plain: Plain) => {
      const cfg = configValue(tf.resourceSchema(type).block, plain);
      return (await tf.apply(type, null, await tf.plan(type, null, cfg), cfg)).state!;
    };
    await makeSecPrerequisites(make);
    for (const row of SEC_CASES) await make(row.type, row.config());
    // Each answer is taken as it came, then decoded with the client's own schema, as json() does.
    SecHttp.prototype.json = async function (this: SecHttp, call, schema, options) {
      const raw = await json.call(this, call, z.unknown(), options);
      answers.push({ operation: call.operation, raw, schema });
      return schema.parse(raw);
    } as typeof json;
    const client = secClientFor(emulator);
    try {
      for (const read of Object.values(READ_ALL)) if (typeof read === 'function') await read(client);
    } finally {
      SecHttp.prototype.json = json;
      await client.close();
    }
  });

  after(async () => {
    await tf?.close();
    await emulator?.close();
  });

  it('reads through every API of the client, each list holding some', async () => {
    const client = secClientFor(emulator);
    await client.close();
    const apis = Object.keys(client).filter((key) => !NOT_APIS.includes(key));
    expect(apis.sort(), 'the APIs of the client, each in READ_ALL').to.deep.equal(Object.keys(READ_ALL).sort());
    const lists = answers.filter(({ raw }) => Array.isArray((raw as { data?: unknown }).data));
    // Each kind of list holds something; of the exceptions, only the policy the exception case is made on has some.
    const holding = new Set(
      lists.filter(({ raw }) => (raw as { data: unknown[] }).data.length > 0).map((a) => a.operation),
    );
    expect(
      [...new Set(lists.map(({ operation }) => operation))].filter((operation) => !holding.has(operation)),
      'lists with nothing in them (test/resources/sec/one-of-each.ts makes one of every type)',
    ).to.deep.equal([]);
    expect(lists.length, 'lists answered').to.be.greaterThan(12);
  });

  it('holds every answer of every list and read against the schema it is decoded with', () => {
    const unread = answers.flatMap(({ operation, raw, schema }) =>
      unreadFields(schema, raw).map((field) => `${operation}: ${field}`),
    );
    expect([...new Set(unread)], 'fields the platform returns that the client does not read').to.deep.equal([]);
  });
});

/** What of the client is not an API of the platform's objects. */
const NOT_APIS = ['account', 'organization', 'address', 'close', 'accessTokens'];

/** How the test reads everything each API of the client holds, or why it reads nothing there. */
const READ_ALL: Readonly<Record<string, ((client: SecClient) => Promise<unknown>) | string>> = {
  agentAccessTokens: (client) => client.agentAccessTokens.list(),
  alertChannels: (client) => client.alertChannels.list(),
  alertProfiles: (client) => client.alertProfiles.list(),
  alertRules: (client) => client.alertRules.list(),
  cloudAccounts: (client) => client.cloudAccounts.list(),
  containerRegistries: (client) => client.containerRegistries.list(),
  dataExportRules: (client) => client.dataExportRules.list(),
  policies: (client) => client.policies.list(),
  policyExceptions: async (client) => {
    for (const policy of await client.policies.list()) await client.policyExceptions.list(policy.policyId);
  },
  queries: (client) => client.queries.list(),
  reportRules: (client) => client.reportRules.list(),
  resourceGroups: (client) => client.resourceGroups.list(),
  teamMembers: (client) => client.teamMembers.list(),
  userProfile: (client) => client.userProfile.get(),
  vulnerabilityExceptions: (client) => client.vulnerabilityExceptions.list(),
  inventory: 'it starts scans and keeps no object',
  metrics: 'it sends usage events and keeps no object',
};

/**
 * And every field the client reads is looked at by the resources: the provider is served in this
 * process (the framework's harness) against the emulator, and what each decoded answer hands the
 * resources is watched, field by field, while one object of every type is created and read again. A
 * field no resource's create or read ever looks at is a value the platform holds that state never
 * shows.
 */
describe('sec resources: every field the client reads is mapped', function () {
  this.timeout(300_000);
  const present = new Map<string, Set<string>>();
  const looked = new Map<string, Set<string>>();
  const dataSources: string[] = [];

  before(async () => {
    const emulator = await startSecEmulator();
    const json = SecHttp.prototype.json;
    SecHttp.prototype.json = async function (this: SecHttp, call, schema, options) {
      const decoded = await json.call(this, call, schema, options);
      const family = familyOf(call.operation);
      const fields = present.get(family) ?? new Set<string>();
      present.set(family, fields);
      const seen = looked.get(family) ?? new Set<string>();
      looked.set(family, seen);
      for (const field of leaves(decoded, '')) fields.add(field);
      return watched(decoded, '', seen);
    } as typeof json;
    try {
      const definition = await loadProviderDef('sec');
      dataSources.push(...definition.dataSources.map((source) => source.typeName));
      const harness = await ProviderHarness.start(definition, {
        env: { ...process.env, ...secProviderEnv(emulator) },
      });
      await makeSecPrerequisites(async (type, config) => (await harness.create(type, config)) as ObjectValue);
      const made = new Map<string, Record<string, unknown>>();
      for (const row of SEC_CASES) {
        const state = await harness.create(row.type, row.config());
        made.set(row.type, (await harness.read(row.type, state)) ?? state);
      }
      for (const [type, config] of Object.entries(SEC_DATA_SOURCES)) await harness.readDataSource(type, config(made));
    } finally {
      SecHttp.prototype.json = json;
      await emulator.close();
    }
  });

  it('reads every data source of the provider', () => {
    expect(Object.keys(SEC_DATA_SOURCES).sort(), 'the data sources, each in SEC_DATA_SOURCES').to.deep.equal(
      dataSources.sort(),
    );
  });

  it('looks at every field of every answer it decodes, but those shown nowhere on purpose', () => {
    const unmapped = [...present].flatMap(([family, fields]) =>
      [...fields].filter((field) => !looked.get(family)!.has(field)).map((field) => `${family}: ${field}`),
    );
    const { unexplained, stale } = shownNowhereProblems(unmapped, SHOWN_NOWHERE);
    expect(
      unexplained,
      'fields the client reads that no resource looks at (map them, or add them to SHOWN_NOWHERE with why)',
    ).to.deep.equal([]);
    expect(stale, 'entries of SHOWN_NOWHERE that match no unmapped field').to.deep.equal([]);
  });
});

/** The configuration of each data source, from the objects made of each resource type. */
const SEC_DATA_SOURCES: Readonly<
  Record<string, (made: ReadonlyMap<string, Record<string, unknown>>) => Record<string, unknown>>
> = {
  sec_agent_access_token: (made) => ({ name: made.get('sec_agent_access_token')!.name }),
  sec_api_token: () => ({}),
  sec_metric_module: () => ({ name: 'terraform-sec-cloud-a-config', version: '1.4.0' }),
  sec_user_profile: () => ({}),
};

/** Fields the client reads that no resource shows, on purpose, by `family: field` (`*` for any text). */
const SHOWN_NOWHERE: Readonly<Record<string, string>> = {
  '/api/v2/*: state.*':
    "an integration's health as the platform last checked it: it changes on its own and no argument sets it, " +
    'so as an attribute it would be drift on every refresh',
  '/api/v2/AlertProfiles: descriptionKeys.*':
    "the keys the platform derives for a profile's descriptions: no argument sets them",
  '/api/v2/Queries/validate: *': 'a check of a query: its answer says only whether the text compiles, and that it did',
};

/** `GET /api/v2/ResourceGroups/{guid}` → `/api/v2/ResourceGroups`: the answers of one kind of object. */
const familyOf = (operation: string) => operation.replace(/^\w+ /, '').replace(/\/\{[^}]+\}.*$|\?.*$/, '');

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype);

/** The leaf fields of a decoded answer, `data` and list positions left out (`props.createdTime`). */
function leaves(value: unknown, path: string): string[] {
  if (!isPlain(value)) return path ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item) => leaves(item, path));
  return Object.entries(value).flatMap(([key, item]) => leaves(item, join(path, key)));
}

const join = (path: string, key: string) => (path === '' && key === 'data' ? '' : path ? `${path}.${key}` : key);

/** `value`, with every read of one of its fields (at any depth) added to `seen`. */
function watched(value: unknown, path: string, seen: Set<string>): unknown {
  if (!isPlain(value)) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const item = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return item;
      // A read of a field this answer leaves out counts too: the mapping looks at it where it is set.
      if (!Object.hasOwn(target, key)) {
        if (!Array.isArray(target)) seen.add(join(path, key));
        return item;
      }
      const at = Array.isArray(target) ? path : join(path, key);
      if (!isPlain(item)) seen.add(at);
      return watched(item, at, seen);
    },
  });
}
