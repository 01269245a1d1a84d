/**
 * What the platform's catalogue decides is refused at plan, at the argument, naming what the platform
 * offers (src/resources/vdb/catalogue.ts, engine/catalogue/catalogue-checks.ts): a region of another cloud, a
 * package not offered where the cluster goes, a deactivated one, two
 * nodes on the free package, a permission the platform does not have. Nothing is created. An environment
 * that does not exist (yet: another configuration may make it) is named at plan and refused at apply. The listings
 * are read once per process; a catalogue that cannot be read is a warning and the plan goes on; a
 * destroy reads nothing.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import { TerraformClient, type ProviderCallError } from '../../../src/tfclient/terraform-client.js';
import { vdbProviderEnv } from '../../../src/tfclient/terraform-cli.js';
import { VDB_BIN, startHarness, type Harness } from './harness.js';
import { missingAtPlanRefusedAtApply } from '../../support/missing-objects.js';

const CLUSTER = 'vdb_accounts_cluster';
const ROLE = 'vdb_accounts_role';

describe('vdb: the catalogue is checked at plan', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  const cluster = (over: Record<string, unknown>, configuration: Record<string, unknown> = {}) => ({
    name: 'tf-catalogue',
    cloud_provider: 'aws',
    cloud_region: 'eu-central-1',
    configuration: [
      {
        number_of_nodes: 1,
        node_configuration: [{ package_id: h.emulator.packageId('aws', 'small') }],
        ...configuration,
      },
    ],
    ...over,
  });

  /** The plan's errors as [path, summary, detail], and that nothing was created. */
  async function refused(type: string, plain: Record<string, unknown>): Promise<string[][]> {
    const creates = () => h.emulator.requests.filter((r) => r.method.startsWith('Create')).length;
    const before = creates();
    const err = await h.failure(h.plan(type, null, plain));
    expect(creates(), 'nothing is created').to.equal(before);
    return err.diagnostics.map((d) => [d.path ?? '', d.summary, d.detail]);
  }

  it('refuses a region of another cloud and an unknown provider; names an environment that does not exist, refused at apply', async () => {
    const [[path, summary, detail]] = (await refused(CLUSTER, cluster({ cloud_region: 'us-east4' }))) as [string[]];
    expect([path, summary]).to.deep.equal(['cloud_region', 'Unknown region']);
    expect(detail).to.match(
      /^The cloud provider aws offers the regions `[a-z0-9-]+`(, `[a-z0-9-]+`)*.*; not "us-east4"\.$/,
    );
    expect(detail).to.include('`eu-central-1`');

    const [[providerPath, providerSummary]] = (await refused(CLUSTER, cluster({ cloud_provider: 'moon' }))) as [
      string[],
    ];
    expect([providerPath, providerSummary]).to.deep.equal(['cloud_provider', 'Unknown cloud provider']);

    const missing = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    const hybrid = cluster(
      { cloud_provider: 'hybrid', cloud_region: missing },
      { node_configuration: [{ package_id: h.emulator.packageId('hybrid', 'small') }] },
    );
    // An environment is an object another configuration may make first: named at plan, refused at apply.
    const creates = h.emulator.requests.filter((r) => r.method.startsWith('Create')).length;
    const [environment] = await missingAtPlanRefusedAtApply(h.tf, CLUSTER, h.config(CLUSTER, hybrid));
    expect([environment!.path, environment!.summary]).to.deep.equal([
      'cloud_region',
      'Unknown hybrid cloud environment',
    ]);
    expect(environment!.detail).to.include(`not "${missing}"`);
    expect(h.emulator.requests.filter((r) => r.method.startsWith('Create')).length, 'nothing is created').to.equal(
      creates,
    );
  });

  it('refuses a package not offered there, a deactivated one, and two nodes on the free package', async () => {
    const elsewhere = await refused(
      CLUSTER,
      cluster({}, { node_configuration: [{ package_id: h.emulator.packageId('hybrid', 'small') }] }),
    );
    expect(elsewhere.map(([path, summary]) => [path, summary])).to.deep.equal([
      ['configuration[0].node_configuration[0].package_id', 'Package not offered here'],
    ]);
    expect(elsewhere[0]![2])
      .to.include('is not offered in aws/eu-central-1')
      .and.include(`${h.emulator.packageId('aws', 'small')} (small)`);

    const deactivated = await refused(
      CLUSTER,
      cluster({}, { node_configuration: [{ package_id: h.emulator.packageId('aws', 'legacy') }] }),
    );
    expect(deactivated.map(([, summary]) => summary)).to.deep.equal(['Deactivated package']);

    const free = h.emulator.packageId('aws', 'free');
    const freeRegion = h.emulator
      .list<{ id: string; provider: string; freeTier: boolean }>(VDB_COLLECTIONS.cloudProviderRegions)
      .find((r) => r.provider === 'aws' && r.freeTier)!.id;
    const twoFree = await refused(
      CLUSTER,
      cluster({ cloud_region: freeRegion }, { number_of_nodes: 2, node_configuration: [{ package_id: free }] }),
    );
    expect(twoFree).to.deep.equal([
      [
        'configuration[0].number_of_nodes',
        'Too many nodes for the free package',
        `The free package ${free} (free) allows 1 node; the configuration asks for 2. Choose a paid package for more.`,
      ],
    ]);
  });

  it('refuses a permission the platform does not have', async () => {
    const errors = await refused(ROLE, {
      name: 'tf-catalogue',
      permissions: [{ value: 'read:backups' }, { value: 'fly:rockets' }],
    });
    expect(errors.map(([path, summary]) => [path, summary])).to.deep.equal([['permissions', 'Unknown permission']]);
    expect(errors[0]![2]).to.match(
      /^"fly:rockets" is no permission of the platform\. It offers `delete:account`, .* and \d+ more\.$/,
    );
    const [[, , near]] = (await refused(ROLE, { name: 'tf-catalogue', permissions: [{ value: 'write:cluster' }] })) as [
      string[],
    ];
    expect(near).to.match(
      /^"write:cluster" is no permission of the platform\. Permissions like it: `write:.*`write:clusters`/,
    );
  });

  it('reads each listing once per process, plans on with a warning when the catalogue cannot be read; a no-op plan and a destroy read nothing', async () => {
    const fresh = await startHarness();
    try {
      const listings = () =>
        fresh.emulator.requests.filter((r) =>
          ['ListCloudProviders', 'ListCloudProviderRegions', 'ListPackages'].includes(r.method),
        ).length;
      const plain = {
        ...cluster({}),
        configuration: [
          { number_of_nodes: 1, node_configuration: [{ package_id: fresh.emulator.packageId('aws', 'small') }] },
        ],
      };
      await fresh.plan(CLUSTER, null, plain);
      expect(listings(), 'providers, regions, packages').to.equal(3);
      await fresh.plan(CLUSTER, null, { ...plain, name: 'tf-catalogue-2' });
      expect(listings(), 'kept for the process').to.equal(3);

      fresh.emulator.injectFault({
        method: 'ListCloudProviderRegions',
        code: grpc.status.PERMISSION_DENIED,
        times: Infinity,
      });
      // A region the kept listing lacks is looked up again before it is called unknown: that read fails.
      const elsewhere = { ...plain, cloud_region: 'nowhere-1' };
      const seen = fresh.tf.received.length;
      const planned = await fresh.plan(CLUSTER, null, elsewhere);
      expect(planned.planned, 'planned all the same').to.not.equal(null);
      expect(fresh.tf.received.slice(seen).map((d) => [d.severity, d.summary])).to.deep.include([
        'warning',
        "Could not check vdb_accounts_cluster against the platform's catalogue",
      ]);
      fresh.emulator.clearFaults();

      const state = await fresh.converge(CLUSTER, null, plain);
      // The platform stops offering the cluster's package; a new provider process reads the catalogue anew.
      const packageId = fresh.emulator.packageId('aws', 'small');
      const stored = fresh.emulator.get<Record<string, unknown>>(VDB_COLLECTIONS.packages, packageId)!;
      fresh.emulator.put(VDB_COLLECTIONS.packages, packageId, { ...stored, status: 'PACKAGE_STATUS_DEACTIVATED' });
      const again = await TerraformClient.start(VDB_BIN, vdbProviderEnv(fresh.emulator));
      try {
        await again.configure({});
        const before = listings();
        // What the platform holds already is not judged again: a plan that changes nothing reads nothing
        // and passes, though the package is no longer offered; a change is refused, as the platform would.
        const same = await again.plan(CLUSTER, state, fresh.config(CLUSTER, plain));
        expect(same.planned, 'the no-op plan').to.not.equal(null);
        expect(listings(), 'a plan that changes nothing reads no catalogue').to.equal(before);
        const renamed = await again.plan(CLUSTER, state, fresh.config(CLUSTER, { ...plain, name: 'tf-renamed' })).then(
          () => null,
          (e: unknown) => e as ProviderCallError,
        );
        expect(renamed?.diagnostics.map((d) => d.summary)).to.deep.equal(['Deactivated package']);
        const afterChange = listings();
        await fresh.destroy(CLUSTER, state);
        expect(listings(), 'a destroy reads no catalogue').to.equal(afterChange);
      } finally {
        await again.close();
      }
    } finally {
      await fresh.close();
    }
  });
});
