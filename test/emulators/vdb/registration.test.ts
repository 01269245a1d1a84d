/**
 * The emulator's services are put together from one registration per service (src/emulators/vdb/services.ts);
 * a mistake in putting them together is refused when the emulator starts, with a message that says
 * what to change, instead of a method that silently answers UNIMPLEMENTED.
 */
import { expect } from 'chai';
import { GrpcServer } from '../../../packages/framework/src/wire/grpc-server.js';
import { VDB_SERVICES } from '../../../src/wire/vdb-proto.js';
import { BoundedLog } from '../../../src/emulators/core/index.js';
import {
  FaultQueue,
  startGrpcServer,
  type ServiceRegistration,
  type VdbLoggedRequest,
} from '../../../src/emulators/vdb/server.js';

async function startError(services: ServiceRegistration[]): Promise<string> {
  try {
    const server = await startGrpcServer({
      port: 0,
      apiKey: 'key',
      managementKeyOwner: 'owner@vdb-emulator.example',
      services,
      log: new BoundedLog<VdbLoggedRequest>(),
      faults: new FaultQueue(),
    });
    await server.close();
  } catch (error) {
    return (error as Error).message;
  }
  return expect.fail('the emulator started');
}

const answer = () => ({});

describe('vdb emulator: putting the services together', () => {
  it('refuses a second registration of a service, naming the methods it would answer twice', async () => {
    const message = await startError([
      { service: VDB_SERVICES.cluster, handlers: { GetCluster: answer, ListClusters: answer } },
      { service: VDB_SERVICES.cluster, handlers: { GetCluster: answer } },
    ]);
    expect(message).to.equal(
      `vdb emulator: ${VDB_SERVICES.cluster} is registered twice; methods answered twice: GetCluster. One ` +
        "registration answers all of a service's methods: add the new handlers to the module that already " +
        'registers it',
    );
  });

  it('refuses a second registration of a service even when its methods are new ones', async () => {
    const message = await startError([
      { service: VDB_SERVICES.cluster, handlers: { GetCluster: answer } },
      { service: VDB_SERVICES.cluster, handlers: { ListClusters: answer } },
    ]);
    expect(message).to.match(/ClusterService is registered twice\. One registration answers all/);
  });

  it('refuses a handler, or a public method, that the service does not have', async () => {
    expect(
      await startError([{ service: VDB_SERVICES.cluster, handlers: { GetCluster: answer, GetClusterz: answer } }]),
    ).to.equal(
      `vdb emulator: ${VDB_SERVICES.cluster} has no method GetClusterz in the vdb protos; add it to the .proto ` +
        '(proto/vdb) first',
    );
    expect(
      await startError([
        { service: VDB_SERVICES.cluster, handlers: { GetCluster: answer }, public: new Set(['ListThings']) },
      ]),
    ).to.match(/has no method ListThings in the vdb protos/);
  });

  it('refuses a service the protos do not have', async () => {
    expect(await startError([{ service: 'vdb.cloud.nothing.v1.NothingService', handlers: {} }])).to.equal(
      'vdb emulator: vdb.cloud.nothing.v1.NothingService is not a service of the vdb protos (proto/vdb)',
    );
  });

  it('the gRPC server refuses a second handler for one method path', () => {
    const server = new GrpcServer({ maxReceiveMessageBytes: 1024, maxSendMessageBytes: 1024 });
    const bytes = { decode: (b: Buffer) => b, encode: (b: unknown) => b as Buffer };
    server.unary('/vdb.Test/Get', bytes, bytes, () => Buffer.alloc(0));
    expect(() => server.unary('/vdb.Test/Get', bytes, bytes, () => Buffer.alloc(0))).to.throw(
      'gRPC method /vdb.Test/Get is registered twice on this server',
    );
    expect(() => server.drain('/vdb.Test/Get')).to.throw(/registered twice/);
  });
});
