/**
 * What the vdb emulator's tests share (test/emulators/vdb/*.test.ts, one file per service): an
 * emulator and a client started before each test and closed after it, a raw gRPC call that goes
 * around the client, and the helpers that read a refusal or make a cluster.
 */
import * as grpc from '@grpc/grpc-js';
import { expect } from 'chai';
import {
  ApiError,
  createVdbClient,
  type ApiErrorCode,
  type Cluster,
  type ClusterInput,
  type VdbClient,
} from '../../../src/clients/vdb/index.js';
import { decodePlain, encodePlain, type Plain } from '../../../src/clients/vdb/codec.js';
import { vdbMethod } from '../../../src/wire/vdb-proto.js';
import { startVdbEmulator, type VdbEmulator } from '../../../src/emulators/vdb/index.js';

export const PROVISIONING_MS = 1_000;

export interface RawAnswer {
  readonly error?: grpc.ServiceError;
  readonly response?: Plain;
  readonly headers?: grpc.Metadata;
  readonly trailers?: grpc.Metadata;
}

/**
 * One call without the client's help: any metadata, any request (including what the client refuses to send).
 * It sends only the metadata given: no API key unless the test passes one (`authorization: apikey <key>`),
 * so a call that needs one is answered UNAUTHENTICATED without it.
 */
export async function rawCall(
  emulator: VdbEmulator,
  service: string,
  method: string,
  request: Plain | Buffer,
  metadata: Record<string, string> = {},
): Promise<RawAnswer> {
  const info = vdbMethod(service, method);
  const client = new grpc.Client(`127.0.0.1:${emulator.port}`, grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  for (const [key, value] of Object.entries(metadata)) md.set(key, value);
  try {
    return await new Promise<RawAnswer>((resolve) => {
      let headers: grpc.Metadata | undefined;
      let trailers: grpc.Metadata | undefined;
      const call = client.makeUnaryRequest<Buffer, Buffer>(
        info.path,
        (bytes) => bytes,
        (bytes) => bytes,
        Buffer.isBuffer(request) ? request : encodePlain(info.request, request),
        md,
        { deadline: Date.now() + 5_000 },
        (error, bytes) => {
          setImmediate(() =>
            resolve(
              error
                ? { error, headers, trailers: error.metadata }
                : { response: decodePlain(info.response, bytes!), headers, trailers },
            ),
          );
        },
      );
      call.on('metadata', (value) => (headers = value));
      call.on('status', (value) => (trailers = value.metadata));
    });
  } finally {
    client.close();
  }
}

/** The message of the ApiError `promise` ends in, which must have this code. */
export async function failure(promise: Promise<unknown>, code: ApiErrorCode): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).code, (error as ApiError).message).to.equal(code);
    return (error as ApiError).message;
  }
  expect.fail(`expected ApiError ${code}`);
}

export interface VdbSession {
  readonly emulator: VdbEmulator;
  readonly vdb: VdbClient;
  /** The emulator's account. */
  readonly account: string;
}

/**
 * Starts an emulator (provisioning takes PROVISIONING_MS) and a client without retries before each
 * test of the calling `describe`, hands them to `started`, and closes both after the test. Returns
 * the helpers that make clusters on the current emulator.
 */
export function useVdbEmulator(started: (session: VdbSession) => void) {
  let session: VdbSession | undefined;
  const current = (): VdbSession => {
    if (!session) throw new Error('no emulator: the helpers work inside a test');
    return session;
  };

  beforeEach(async () => {
    const emulator = await startVdbEmulator({ provisioningMs: PROVISIONING_MS });
    const vdb = createVdbClient({
      apiUrl: emulator.url,
      apiKey: emulator.apiKey,
      userAgent: 'test',
      retry: { maxAttempts: 1 },
    });
    session = { emulator, vdb, account: emulator.accountId };
    started(session);
  });

  afterEach(async () => {
    const { emulator, vdb } = current();
    session = undefined;
    vdb.close();
    await emulator.close();
  });

  function clusterInput(overrides: Partial<ClusterInput> = {}): ClusterInput {
    const { emulator, account } = current();
    return {
      accountId: account,
      name: 'orders',
      cloudProviderId: 'aws',
      cloudProviderRegionId: 'us-east-1',
      configuration: { numberOfNodes: 3, packageId: emulator.packageId('aws', 'small') },
      ...overrides,
    };
  }

  /** A cluster whose provisioning is already over. */
  async function healthyCluster(overrides: Partial<ClusterInput> = {}): Promise<Cluster> {
    const { emulator, vdb, account } = current();
    const cluster = await vdb.clusters.create(clusterInput(overrides));
    emulator.clock.advance(PROVISIONING_MS);
    return vdb.clusters.get({ accountId: account, clusterId: cluster.id });
  }

  return { clusterInput, healthyCluster };
}
