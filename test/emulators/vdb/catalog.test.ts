/** The read-mostly catalog of the vdb emulator: booking packages, cloud providers and regions. */
import { expect } from 'chai';
import type { VdbClient } from '../../../src/clients/vdb/index.js';
import type { VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { failure, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  const { clusterInput } = useVdbEmulator((session) => ({ emulator, vdb, account } = session));

  describe('booking and platform', () => {
    it('lists packages per provider and region, hybrid without a region', async () => {
      const free = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'gcp',
        cloudProviderRegionId: 'europe-west3',
      });
      expect(free.map((pkg) => pkg.name)).to.deep.equal(['free', 'small', 'medium', 'large', 'xlarge']);
      expect(free[0]).to.deep.include({
        type: 'free',
        currency: 'USD',
        unitIntPricePerHour: 0,
        status: 'PACKAGE_STATUS_ACTIVE',
        resourceConfiguration: { cpu: '500m', ram: '1Gi', disk: '4Gi' },
      });
      expect(free[0]).not.to.have.property('offeredIn');
      const paidOnly = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-west-1',
        statuses: ['PACKAGE_STATUS_ACTIVE'],
      });
      expect(paidOnly.map((pkg) => pkg.name)).to.deep.equal(['small', 'medium', 'large', 'xlarge']);
      const retired = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-west-1',
        statuses: ['PACKAGE_STATUS_DEACTIVATED'],
      });
      expect(retired.map((pkg) => [pkg.name, pkg.status])).to.deep.equal([['legacy', 'PACKAGE_STATUS_DEACTIVATED']]);
      const both = await vdb.booking.listPackages({
        accountId: account,
        cloudProviderId: 'aws',
        cloudProviderRegionId: 'us-west-1',
        statuses: ['PACKAGE_STATUS_ACTIVE', 'PACKAGE_STATUS_DEACTIVATED'],
      });
      expect(both.map((pkg) => pkg.name)).to.deep.equal(['small', 'medium', 'large', 'xlarge', 'legacy']);
      const hybrid = await vdb.booking.listPackages({ accountId: account, cloudProviderId: 'hybrid' });
      expect(hybrid.map((pkg) => pkg.id)).to.include(emulator.packageId('hybrid', 'small'));
      expect(emulator.requests.at(-1)!.request).to.deep.include({ cloudProviderRegionId: '' });

      expect(
        await failure(vdb.booking.listPackages({ accountId: account, cloudProviderId: 'aws' }), 'invalid'),
      ).to.include('cloud_provider_region_id is required unless cloud_provider_id is hybrid [region_required]');
      expect(
        await failure(
          vdb.booking.listPackages({ accountId: account, cloudProviderId: 'aws', cloudProviderRegionId: 'xx' }),
          'invalid',
        ),
      ).to.include('unknown region "xx"');
      expect(
        await failure(
          vdb.booking.listPackages({ accountId: account, cloudProviderId: 'ibm', cloudProviderRegionId: 'xx' }),
          'invalid',
        ),
      ).to.include('unknown cloud provider "ibm"');
    });

    it("books the cheapest paid package of an unfiltered list in every region (upstream's tests pick so)", async () => {
      let booked = 0;
      for (const { id: cloudProviderId } of await vdb.platform.listCloudProviders({ accountId: account })) {
        for (const region of await vdb.platform.listCloudProviderRegions({ accountId: account, cloudProviderId })) {
          const where = { accountId: account, cloudProviderId, cloudProviderRegionId: region.id };
          const paid = (await vdb.booking.listPackages(where)).filter((pkg) => pkg.type === 'paid');
          const cheapest = paid.reduce((a, b) => (b.unitIntPricePerHour < a.unitIntPricePerHour ? b : a));
          const configuration = { numberOfNodes: 1, packageId: cheapest.id };
          const cluster = await vdb.clusters.create(clusterInput({ ...where, name: `cheap-${booked}`, configuration }));
          expect(cluster.configuration.packageId, `${cloudProviderId}/${region.id}`).to.equal(cheapest.id);
          booked++;
        }
      }
      expect(booked).to.equal(17);
    });

    it('lists providers and regions', async () => {
      const providers = await vdb.platform.listCloudProviders({ accountId: account });
      expect(providers.find((provider) => provider.id === 'azure')).to.deep.equal({
        id: 'azure',
        name: 'Azure',
        freeTier: true,
        available: true,
      });
      const regions = await vdb.platform.listCloudProviderRegions({ accountId: account, cloudProviderId: 'gcp' });
      expect(regions.map((region) => region.id)).to.deep.equal(['europe-west3', 'us-east4']);
      const region = await vdb.platform.getCloudProviderRegion({
        accountId: account,
        cloudProviderId: 'aws',
        regionId: 'eu-west-2',
      });
      expect(region).to.deep.include({ provider: 'aws', countryIsoCode: 'GB', freeTier: false });
      await failure(
        vdb.platform.getCloudProviderRegion({ accountId: account, cloudProviderId: 'aws', regionId: 'europe-west3' }),
        'not_found',
      );
    });
  });
});
