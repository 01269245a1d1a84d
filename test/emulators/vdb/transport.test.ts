/** How the vdb emulator authenticates calls and what every answer carries (trace ids, metadata). */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import type { VdbClient } from '../../../src/clients/vdb/index.js';
import type { Plain } from '../../../src/clients/vdb/codec.js';
import { VDB_SERVICES, vdbMethod } from '../../../src/wire/vdb-proto.js';
import type { VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { failure, rawCall, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  useVdbEmulator((session) => ({ emulator, vdb, account } = session));

  describe('authentication and transport', () => {
    it('refuses calls without the right `authorization: apikey` metadata', async () => {
      const request = { accountId: account };
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'apikey wrong' },
        { authorization: `Bearer ${emulator.apiKey}` },
        { authorization: emulator.apiKey },
      ];
      for (const metadata of attempts) {
        const answer = await rawCall(emulator, VDB_SERVICES.cluster, 'ListClusters', request, metadata);
        expect(answer.error?.code, JSON.stringify(metadata)).to.equal(grpc.status.UNAUTHENTICATED);
        expect(answer.error?.details).to.include('authorization: apikey <key>');
      }
      const ok = await rawCall(emulator, VDB_SERVICES.cluster, 'ListClusters', request, {
        authorization: `apikey ${emulator.apiKey}`,
      });
      expect(ok.error).to.equal(undefined);
      expect(emulator.requests.at(-1)!.metadata.authorization).to.equal('apikey ***');
      expect(JSON.stringify(emulator.requests)).not.to.include(emulator.apiKey);
    });

    it('serves the global platform lists without a key', async () => {
      const answer = await rawCall(emulator, VDB_SERVICES.platform, 'ListGlobalCloudProviders', {});
      expect((answer.response!.items as Plain[]).map((item) => item.id)).to.deep.equal([
        'aws',
        'gcp',
        'azure',
        'private',
        'hybrid',
      ]);
    });

    it('sends a vdb-trace-id in headers and trailers, on success and on failure', async () => {
      const auth = { authorization: `apikey ${emulator.apiKey}` };
      const ok = await rawCall(emulator, VDB_SERVICES.iam, 'ListRoles', { accountId: account }, auth);
      const failed = await rawCall(emulator, VDB_SERVICES.iam, 'GetRole', { accountId: account, roleId: 'nope' }, auth);
      const [okLog, failedLog] = emulator.requests;
      expect(ok.headers?.get('vdb-trace-id')).to.deep.equal([okLog!.traceId]);
      expect(ok.trailers?.get('vdb-trace-id')).to.deep.equal([okLog!.traceId]);
      expect(failed.error?.code).to.equal(grpc.status.NOT_FOUND);
      expect(failed.trailers?.get('vdb-trace-id')).to.deep.equal([failedLog!.traceId]);
      expect(okLog!.traceId).not.to.equal(failedLog!.traceId);
      expect(failedLog!.code).to.equal(grpc.status.NOT_FOUND);
    });

    it('rejects enum numbers the API does not define', async () => {
      const { request } = vdbMethod(VDB_SERVICES.booking, 'ListPackages');
      const bytes = request
        .encode(
          request.fromObject({
            account_id: account,
            cloud_provider_id: 'aws',
            cloud_provider_region_id: 'us-east-1',
            statuses: [7],
          }),
        )
        .finish();
      const answer = await rawCall(
        emulator,
        VDB_SERVICES.booking,
        'ListPackages',
        Buffer.from(bytes) as unknown as Plain,
        {
          authorization: `apikey ${emulator.apiKey}`,
        },
      );
      expect(answer.error?.code).to.equal(grpc.status.INVALID_ARGUMENT);
      expect(answer.error?.details).to.include('statuses[0]: must be one of the defined enum values (got 7)');
    });

    it('refuses another account with PERMISSION_DENIED and a malformed account id with INVALID_ARGUMENT', async () => {
      expect(await failure(vdb.clusters.list({ accountId: crypto.randomUUID() }), 'forbidden')).to.include(
        'has no access to account',
      );
      expect(await failure(vdb.clusters.list({ accountId: 'acme' }), 'invalid')).to.include(
        'account_id: must be a valid UUID [string.uuid]',
      );
      expect(await failure(vdb.clusters.list({ accountId: '' }), 'invalid')).to.include('account_id: value is empty');
    });

    it('answers injected faults, with a delay when asked', async () => {
      emulator.injectFault({
        method: 'ClusterService/ListClusters',
        code: grpc.status.UNAVAILABLE,
        message: 'maintenance',
      });
      expect(await failure(vdb.clusters.list({ accountId: account }), 'unavailable')).to.include(
        'UNAVAILABLE: maintenance',
      );
      emulator.injectFault({ method: /ListRoles$/, delayMs: 300 });
      const started = Date.now();
      await vdb.iam.listRoles({ accountId: account });
      expect(Date.now() - started).to.be.at.least(280);
      await vdb.clusters.list({ accountId: account });
    });
  });
});
