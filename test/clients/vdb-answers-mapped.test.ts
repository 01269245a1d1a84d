/**
 * Every field the vdb API answers with is looked at by the provider: the provider is served in this
 * process (the framework's harness) against the emulator, one object of every resource type is created
 * and read again (test/resources/vdb/one-of-each.ts), and what each decoded answer hands the client's
 * services and the resources is watched, field by field of each message. A field of a message that
 * nothing looks at is a value the platform holds that state never shows: drift on it would never show.
 * A field shown nowhere on purpose is listed with why (SHOWN_NOWHERE).
 */
import { expect } from 'chai';
import protobuf from 'protobufjs';
import { camelFields, ONE_VALUE_MESSAGES, type Plain } from '../../src/clients/vdb/codec.js';
import { VdbTransport } from '../../src/clients/vdb/transport.js';
import { startVdbEmulator } from '../../src/emulators/vdb/index.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { vdbMethod } from '../../src/wire/vdb-proto.js';
import { ProviderHarness } from '../../packages/framework/src/testing/harness.js';
import { shownNowhereProblems } from '../support/shown-nowhere.js';
import { VDB_CASES, VDB_DATA_SOURCES as DATA_SOURCES, prepareVdbPrerequisites } from '../resources/vdb/one-of-each.js';

describe('vdb: every field the API answers with is mapped', function () {
  this.timeout(300_000);
  const present = new Set<string>();
  const looked = new Set<string>();
  const dataSources: string[] = [];

  before(async () => {
    const emulator = await startVdbEmulator({ provisioningMs: 50 });
    const unary = VdbTransport.prototype.unary;
    VdbTransport.prototype.unary = async function (this: VdbTransport, call) {
      const answer = await unary.call(this, call);
      return watched(vdbMethod(call.service, call.method).response, answer, present, looked);
    };
    try {
      await prepareVdbPrerequisites(emulator);
      const definition = await loadProviderDef('vdb');
      dataSources.push(...definition.dataSources.map((source) => source.typeName));
      const harness = await ProviderHarness.start(definition, {
        env: { ...process.env, ...vdbProviderEnv(emulator) },
      });
      const made = new Map<string, Record<string, unknown>>();
      for (const row of [...VDB_CASES, ...MORE_CASES]) {
        const state = await harness.create(row.type, row.config());
        row.settle?.();
        made.set(row.type, (await harness.read(row.type, state)) ?? state);
      }
      for (const [type, config] of Object.entries(DATA_SOURCES)) await harness.readDataSource(type, config(made));
    } finally {
      VdbTransport.prototype.unary = unary;
      await emulator.close();
    }
  });

  it('reads every data source of the provider', () => {
    expect(Object.keys(DATA_SOURCES).sort(), 'the data sources, each in DATA_SOURCES').to.deep.equal(
      dataSources.sort(),
    );
  });

  it('looks at every field of every answer, but those shown nowhere on purpose', () => {
    const unmapped = [...present].filter((field) => !looked.has(field)).sort();
    expect(present.size, 'fields answered').to.be.greaterThan(50);
    const { unexplained, stale } = shownNowhereProblems(unmapped, SHOWN_NOWHERE);
    expect(
      unexplained,
      'fields of the answers that nothing looks at (map them, or add them to SHOWN_NOWHERE with why)',
    ).to.deep.equal([]);
    expect(stale, 'entries of SHOWN_NOWHERE that are looked at, or not answered').to.deep.equal([]);
  });
});

/** Objects whose answers hold what one of every type leaves out. */
const MORE_CASES = [
  {
    // JWT RBAC is shown in the service block, which the first cluster has none of.
    type: 'vdb_accounts_cluster',
    config: () => {
      const cluster = VDB_CASES.find((row) => row.type === 'vdb_accounts_cluster')!.config();
      const [configuration] = cluster.configuration as Record<string, unknown>[];
      return {
        ...cluster,
        name: 'q-cluster-rbac',
        configuration: [{ ...configuration, database_configuration: [{ service: [{ jwt_rbac: true }] }] }],
      };
    },
    settle: undefined,
  },
];

/** The configuration of each data source, from the objects made of each resource type. */

const LISTING_COUNT = "a listing's count: the provider reads every page until none is left";
const ENDPOINT_PORTS = "the endpoint's ports: the seed's cluster shows its url alone";
const MEMBERS =
  'vdb_accounts_user_roles looks a member up by email and shows the roles it granted; the seed has no user type';
const CATALOGUE =
  "the catalogue is read at plan to check a configuration's provider and region by id " +
  '(src/resources/vdb/catalogue.ts); no type of the seed shows it';

/** Fields of the answers nothing shows, on purpose, by `<message>.<field>` (camelCase, `*` any text), with why. */
const SHOWN_NOWHERE: Readonly<Record<string, string>> = {
  'vdb.cloud.booking.v1.Package.availableStorageTierConfigurations':
    "the storage tiers a package offers: the seed's booking package has none, and no argument chooses a tier",
  'vdb.cloud.cluster.auth.v1.DatabaseApiKey.accountId':
    "a legacy key has no account of its own: the provider's account is always the one asked",
  'vdb.cloud.cluster.backup.v1.ListBackupSchedulesResponse.totalSize': LISTING_COUNT,
  'vdb.cloud.cluster.backup.v1.ListBackupsResponse.totalSize': LISTING_COUNT,
  'vdb.cloud.cluster.v1.ListClustersResponse.totalSize': LISTING_COUNT,
  'vdb.cloud.cluster.v1.ClusterEndpoint.grpcPort': ENDPOINT_PORTS,
  'vdb.cloud.cluster.v1.ClusterEndpoint.restPort': ENDPOINT_PORTS,
  'vdb.cloud.cluster.v1.ClusterState.nodes':
    "each node's own state, which changes on its own: the cluster shows how many are up (nodes_up)",
  'vdb.cloud.iam.v1.User.createdAt': MEMBERS,
  'vdb.cloud.iam.v1.User.defaultAccountId': MEMBERS,
  'vdb.cloud.iam.v1.User.lastModifiedAt': MEMBERS,
  'vdb.cloud.iam.v1.User.status': MEMBERS,
  'vdb.cloud.platform.v1.CloudProvider.available': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProvider.freeTier': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProvider.name': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.available': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.capabilities': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.countryIsoCode': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.freeTier': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.geographicalSubRegion': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.name': CATALOGUE,
  'vdb.cloud.platform.v1.CloudProviderRegion.provider': CATALOGUE,
};

/**
 * `plain`, a decoded `type`, with the fields it holds added to `present` and every read of one of them,
 * at any depth, added to `looked`.
 */
function watched(type: protobuf.Type, plain: Plain, present: Set<string>, looked: Set<string>): Plain {
  const fields = camelFields(type);
  const name = type.fullName.replace(/^\./, '');
  for (const key of Object.keys(plain)) present.add(`${name}.${key}`);
  const wrapped = new Map<string, unknown>();
  return new Proxy(plain, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      // A read of a field this answer leaves out counts too: the mapping looks at it where it is set.
      const field = typeof key === 'string' ? fields.get(key) : undefined;
      if (!field) return value;
      looked.add(`${name}.${key as string}`);
      const resolved = field.resolve().resolvedType;
      if (value === undefined || !(resolved instanceof protobuf.Type) || ONE_VALUE_MESSAGES.has(resolved.fullName))
        return value;
      if (!wrapped.has(key as string))
        wrapped.set(
          key as string,
          Array.isArray(value)
            ? value.map((item: Plain) => watched(resolved, item, present, looked))
            : watched(resolved, value as Plain, present, looked),
        );
      return wrapped.get(key as string);
    },
  });
}
