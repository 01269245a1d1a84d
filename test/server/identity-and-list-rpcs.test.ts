/**
 * The identity and list-resource RPCs at the wire: what GetMetadata, GetProviderSchema and
 * GetResourceIdentitySchemas declare (and the capabilities, honestly), bad identities and list
 * requests answered with a diagnostic naming the problem (in process, through the protobuf codec
 * as grpc-js does), and the ListResource stream of the real executable: it sends at most `limit`
 * events and keeps serving after Terraform cancels it.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import secDef from '../../src/resources/sec/index.js';
import vdbDef from '../../src/resources/vdb/index.js';
import { ProviderEngine } from '../../packages/framework/src/engine/entry/index.js';
import { providerStreamService } from '../../packages/framework/src/server/provider-service.js';
import { decodeMessage, encodeMessage, rpcTypes, SERVICE_NAMES } from '../../packages/framework/src/server/proto.js';
import { encodeMsgpack } from '../../packages/framework/src/schema/msgpack.js';
import { impliedType } from '../../packages/framework/src/schema/block.js';
import { objectOf, STRING, NUMBER } from '../../packages/framework/src/schema/cty-type.js';
import { configValue } from '../../src/tfclient/terraform-client.js';
import { schemaFromProto } from '../../packages/framework/src/schema/schema-from-proto.js';
import { inProcessProvider, silentLogger } from '../fuzz/answers.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { createVdbClient } from '../../src/clients/vdb/index.js';
import { launchProvider, type LaunchedProvider } from '../../src/tfclient/launch.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { identityType } from '../../packages/framework/src/engine/resources/identity.js';

type Msg = Record<string, any>;
const errors = (res: Msg) =>
  (res.diagnostics ?? []).filter((d: Msg) => d.severity === 1).map((d: Msg) => `${d.summary}: ${d.detail}`);
const dyn = (type: Parameters<typeof encodeMsgpack>[0], v: Parameters<typeof encodeMsgpack>[1]) => ({
  msgpack: encodeMsgpack(type, v),
});

describe('wire: identity and list-resource declarations', () => {
  for (const def of [secDef, vdbDef]) {
    it(`${def.name}: GetMetadata and GetProviderSchema list the same list resources; every resource has an identity schema; capabilities are what the provider does`, async () => {
      const p = inProcessProvider(def);
      const metadata = await p.call('GetMetadata', {});
      const schema = await p.call('GetProviderSchema', {});
      const identities = await p.call('GetResourceIdentitySchemas', {});
      const listed = def.resources
        .filter((r) => r.list)
        .map((r) => r.typeName)
        .sort();
      expect(metadata.list_resources.map((l: Msg) => l.type_name).sort()).to.deep.equal(listed);
      expect(Object.keys(schema.list_resource_schemas).sort()).to.deep.equal(listed);
      for (const [type, s] of Object.entries(schema.list_resource_schemas as Record<string, Msg>))
        schemaFromProto(s, `list resource ${type}`);
      expect(Object.keys(identities.identity_schemas).sort()).to.deep.equal(
        def.resources.map((r) => r.typeName).sort(),
      );
      for (const [type, s] of Object.entries(identities.identity_schemas as Record<string, Msg>)) {
        for (const a of s.identity_attributes) {
          expect(Buffer.from(a.type).toString(), `${type}.${a.name}`).to.equal('"string"');
          expect(
            a.required_for_import !== a.optional_for_import,
            `${type}.${a.name}: required or optional for import`,
          ).to.equal(true);
          expect(a.description, `${type}.${a.name}`).to.not.equal('');
        }
      }
      const honest = {
        plan_destroy: false,
        get_provider_schema_optional: true,
        move_resource_state: false,
        generate_resource_config: true,
      };
      expect(metadata.server_capabilities).to.deep.equal(honest);
      expect(schema.server_capabilities).to.deep.equal(honest);
    });
  }
});

describe('wire: bad identities and list requests get a diagnostic', () => {
  const p = inProcessProvider(vdbDef);
  const type = 'vdb_accounts_database_api_key_v2';
  const r = vdbDef.resources.find((x) => x.typeName === type)!;
  const T = impliedType(r.schema.block);
  const I = identityType(r.identity!);
  const state = configValue(r.schema.block, { id: 'k', cluster_id: 'c' });

  it('an identity that is not an identity object', async () => {
    const notObject = await p.call('ReadResource', {
      type_name: type,
      current_state: dyn(T, state),
      current_identity: { identity_data: dyn(STRING, 'k') },
    });
    expect(errors(notObject)).to.deep.equal([
      'Invalid request from Terraform: The current identity sent by Terraform could not be decoded: an object is required',
    ]);
    const wrongShape = await p.call('PlanResourceChange', {
      type_name: type,
      prior_state: dyn(T, state),
      proposed_new_state: dyn(T, state),
      config: dyn(T, state),
      prior_identity: { identity_data: dyn(objectOf({ id: NUMBER }), { id: 1 }) },
    });
    expect(errors(wrongShape)[0]).to.match(
      /^Invalid request from Terraform: The prior identity sent by Terraform could not be decoded/,
    );
    const garbage = await p.call('ApplyResourceChange', {
      type_name: type,
      prior_state: dyn(T, state),
      planned_state: dyn(T, state),
      planned_identity: { identity_data: { msgpack: Buffer.from([0xc1]) } },
    });
    expect(errors(garbage)[0]).to.match(
      /^Invalid request from Terraform: The planned identity sent by Terraform could not be decoded/,
    );
  });

  it('an import gives an id or an identity, not both; an identity import needs the required attributes', async () => {
    const both = await p.call('ImportResourceState', {
      type_name: type,
      id: 'c/k',
      identity: { identity_data: dyn(I, { account_id: null, cluster_id: 'c', id: 'k' }) },
    });
    expect(errors(both)).to.deep.equal([
      'Invalid request from Terraform: The import request gives both an id and an identity; an import names the object by one of them.',
    ]);
    const missing = await p.call('ImportResourceState', {
      type_name: type,
      identity: { identity_data: dyn(I, { account_id: 'a', cluster_id: null, id: 'k' }) },
    });
    expect(errors(missing)).to.deep.equal([
      'Incomplete identity: Importing vdb_accounts_database_api_key_v2 by identity needs `cluster_id` in the `identity` of the `import` block.',
    ]);
    expect(missing.imported_resources).to.deep.equal([]);
    const notImportable = await p.call('ImportResourceState', {
      type_name: 'vdb_accounts_user_roles',
      identity: {
        identity_data: dyn(
          identityType(vdbDef.resources.find((x) => x.typeName === 'vdb_accounts_user_roles')!.identity!),
          { account_id: null, user_email: 'a@b.c' },
        ),
      },
    });
    expect(errors(notImportable)).to.deep.equal([
      'Import not supported: The resource type vdb_accounts_user_roles cannot be imported.',
    ]);
  });

  it('UpgradeResourceIdentity reads version 0 and refuses anything else', async () => {
    const ok = await p.call('UpgradeResourceIdentity', {
      type_name: type,
      version: 0,
      raw_identity: { json: Buffer.from('{"account_id":"a","cluster_id":"c","id":"k"}') },
    });
    expect(errors(ok)).to.deep.equal([]);
    expect(
      ok.upgraded_identity.identity_data.msgpack.equals(dyn(I, { account_id: 'a', cluster_id: 'c', id: 'k' }).msgpack),
    ).to.equal(true);
    const cases: [Msg, RegExp][] = [
      [
        { version: 1, raw_identity: { json: Buffer.from('{}') } },
        /^Unknown identity version: The stored identity of vdb_accounts_database_api_key_v2 has version 1/,
      ],
      [
        { version: -1, raw_identity: { json: Buffer.from('{}') } },
        /^Invalid request from Terraform: The stored identity has version -1/,
      ],
      [{ version: 0 }, /^Invalid request from Terraform: The stored identity to upgrade is empty/],
      [
        { version: 0, raw_identity: { json: Buffer.from('{"id":') } },
        /^Cannot read the stored identity: The identity stored for vdb_accounts_database_api_key_v2 is not valid/,
      ],
      [
        { version: 0, raw_identity: { json: Buffer.from('{"id":"k","cluster_id":"c","account_id":"a","extra":"x"}') } },
        /^Cannot read the stored identity/,
      ],
    ];
    for (const [request, expected] of cases) {
      const res = await p.call('UpgradeResourceIdentity', { type_name: type, ...request });
      expect(errors(res), JSON.stringify(request)).to.have.length(1);
      expect(errors(res)[0]).to.match(expected);
      expect(res.upgraded_identity).to.equal(null);
    }
  });

  it('ValidateListResourceConfig judges the filters at their paths, and a limit when given', async () => {
    const filters = r.list!.schema.block;
    const bad = await p.call('ValidateListResourceConfig', {
      type_name: type,
      config: dyn(impliedType(filters), configValue(filters, { cluster_id: 'not-a-uuid' })),
    });
    expect(bad.diagnostics.map((d: Msg) => [d.severity, d.attribute?.steps?.[0]?.attribute_name])).to.deep.equal([
      [1, 'cluster_id'],
    ]);
    const negative = await p.call('ValidateListResourceConfig', {
      type_name: type,
      config: dyn(impliedType(filters), configValue(filters, {})),
      limit: dyn(NUMBER, -1),
    });
    expect(errors(negative)).to.deep.equal([
      'Invalid limit argument: The given "limit" argument value is unsuitable: must be a whole number greater than or equal to zero.',
    ]);
    const unknown = await p.call('ValidateListResourceConfig', {
      type_name: 'vdb_accounts_user_roles',
      config: dyn(STRING, null),
    });
    expect(errors(unknown)).to.deep.equal([
      'Invalid request from Terraform: The provider vdb has no list resource "vdb_accounts_user_roles".',
    ]);
  });

  it('ListResource answers a bad request with one error event, never an exception', async () => {
    const engine = new ProviderEngine(vdbDef, silentLogger, { HOME: '/nonexistent' });
    const stream = providerStreamService(engine, silentLogger).ListResource!;
    const { request, response } = rpcTypes(SERVICE_NAMES.provider, 'ListResource');
    const run = async (req: Msg): Promise<Msg[]> => {
      const out: Msg[] = [];
      // Through the codec both ways, as grpc-js passes it.
      for await (const e of stream(decodeMessage(request, encodeMessage(request, req)), {
        signal: new AbortController().signal,
      }))
        out.push(decodeMessage(response, encodeMessage(response, e)));
      return out;
    };
    const filters = r.list!.schema.block;
    const summaries = (events: Msg[]) => events.map((e) => e.diagnostic.map((d: Msg) => [d.severity, d.summary]));
    expect(summaries(await run({ type_name: 'nope', limit: 10 }))).to.deep.equal([
      [[1, 'Invalid request from Terraform']],
    ]);
    expect(
      summaries(await run({ type_name: type, config: { msgpack: Buffer.from([0x92, 0x01]) }, limit: 10 })),
    ).to.deep.equal([[[1, 'Invalid request from Terraform']]]);
    // Unconfigured: the error says so, once.
    expect(
      summaries(await run({ type_name: type, config: dyn(impliedType(filters), configValue(filters, {})), limit: 10 })),
    ).to.deep.equal([[[1, 'Provider not configured']]]);
    expect(
      await run({ type_name: type, config: dyn(impliedType(filters), configValue(filters, {})), limit: 0 }),
    ).to.deep.equal([]);
  });
});

describe('wire: the ListResource stream of the real executable', function () {
  this.timeout(60_000);
  let emulator: VdbEmulator;
  let plugin: LaunchedProvider;
  const type = 'vdb_accounts_database_api_key_v2';
  const KEYS = 40;
  let config: Msg;

  before(async () => {
    emulator = await startVdbEmulator({ provisioningMs: 10 });
    const api = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test' });
    try {
      const cluster = await api.clusters.create({
        accountId: emulator.accountId,
        name: 'stream',
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'eu-central-1',
        configuration: { numberOfNodes: 1, packageId: emulator.packageId('aws', 'small') },
      });
      for (let i = 0; i < KEYS; i++)
        await api.databaseApiKeys.create({
          accountId: emulator.accountId,
          clusterId: cluster.id,
          name: `key ${String(i).padStart(2, '0')}`,
          accessRules: [{ globalAccess: { accessType: 'GLOBAL_ACCESS_RULE_ACCESS_TYPE_READ_ONLY' } }],
        });
    } finally {
      api.close();
    }
    plugin = await launchProvider(join(process.cwd(), 'bin', 'terraform-provider-vdb'), {
      env: vdbProviderEnv(emulator),
    });
    await plugin.call('GetProviderSchema', {});
    await plugin.call('ConfigureProvider', {
      terraform_version: '1.14.0',
      config: dyn(impliedType(vdbDef.schema.block), configValue(vdbDef.schema.block, {})),
    });
    const filters = vdbDef.resources.find((x) => x.typeName === type)!.list!.schema.block;
    config = dyn(impliedType(filters), configValue(filters, {}));
  });
  after(async () => {
    await plugin?.shutdown();
    await emulator?.close();
  });

  const collect = async (request: Msg, stopAfter = Infinity): Promise<Msg[]> => {
    const stream = plugin.serverStream('ListResource', request);
    const events: Msg[] = [];
    for await (const e of stream) {
      events.push(e);
      if (events.length >= stopAfter) {
        stream.cancel();
        break;
      }
    }
    return events;
  };

  it('sends every result, each with an identity and a display name, and no more than `limit`', async () => {
    const all = await collect({ type_name: type, config, include_resource_object: false, limit: 100 });
    expect(all).to.have.length(KEYS);
    expect(
      all.every(
        (e) => e.identity.identity_data.msgpack.length > 0 && e.display_name.startsWith('key ') && !e.resource_object,
      ),
    ).to.equal(true);
    expect(await collect({ type_name: type, config, include_resource_object: true, limit: 7 })).to.have.length(7);
  });

  it('keeps serving after Terraform cancels a stream it has read enough of', async () => {
    const first = await collect({ type_name: type, config, include_resource_object: true, limit: 100 }, 1);
    expect(first).to.have.length(1);
    const again = await collect({ type_name: type, config, include_resource_object: false, limit: 100 });
    expect(again).to.have.length(KEYS);
    expect((await plugin.call('GetMetadata', {})).list_resources.length).to.be.greaterThan(0);
    expect(plugin.stderrLines.filter((l) => /panic|RPC handler failed/.test(l))).to.deep.equal([]);
  });
});
