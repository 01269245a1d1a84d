/**
 * Every field the platform returns is read by the sec client: one object of every resource type is
 * made through the provider (test/resources/sec/one-of-each.ts), then every list and read of the
 * client is called, and each answer is held against the schema the client decodes it with. zod keeps
 * only the keys a schema declares, so a field the client does not declare would be dropped without a
 * word and read as "not set" ever after: drift on it would never show. A field the client leaves on
 * purpose is declared as such, with its reason (`leavesUnread` in src/clients/sec/wire.ts).
 */
import { expect } from 'chai';
import type { z } from 'zod';
import { SecHttp } from '../../src/clients/sec/http.js';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { secProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { TerraformClient, configValue } from '../../src/tfclient/terraform-client.js';
import type { Plain } from '../resources/identity-and-lists.js';
import { SEC_BIN, SEC_CASES, makeSecPrerequisites } from '../resources/sec/one-of-each.js';
import { secClientFor } from '../support/sec-provider.js';
import type { SecClient } from '../../src/clients/sec/index.js';
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
      const raw = await json.call(this, call, (await import('zod')).z.unknown(), options);
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
