import { ApiError } from '@keel/provider-framework/client';
import { DEFAULT_STOP_GRACE_MS } from '../stop.js';
import type { VdbClient } from './api.js';
import type { Sender } from './calls.js';
import { DEFAULT_RETRY_POLICY, type VdbClientConfig } from './config.js';
import { parseApiUrl, type VdbEndpoint } from './endpoint.js';
import { type ProxyChoice, proxyFromEnvironment } from '../proxy.js';
import { loadOnFirstCall } from '../load-on-first-call.js';
import type { VdbTransport } from './transport.js';
import { accountsApi } from './services/accounts.js';
import { authKeysApi } from './services/auth-keys.js';
import { backupSchedulesApi, backupsApi } from './services/backups.js';
import { bookingApi } from './services/booking.js';
import { clustersApi } from './services/clusters.js';
import { databaseApiKeysApi } from './services/database-api-keys.js';
import { hybridEnvironmentsApi } from './services/hybrid.js';
import { iamApi } from './services/iam.js';
import { platformApi } from './services/platform.js';

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * A client of the vdb management API over one gRPC channel. Throws ApiError 'invalid' for an
 * unusable configuration (empty key, a URL that is not host:port / https:// / loopback http://).
 */
export function createVdbClient(config: VdbClientConfig): VdbClient {
  if (config.apiKey.trim() === '') {
    throw new ApiError('the API key must not be empty', { code: 'invalid', operation: 'configure vdb client' });
  }
  const endpoint = parseApiUrl(config.apiUrl);
  const environment = config.environment ?? process.env;
  const proxy = channelProxy(endpoint, environment);
  const options = {
    endpoint,
    environment,
    ...(proxy ? { proxy } : {}),
    apiKey: config.apiKey,
    insecure: config.insecure ?? false,
    userAgent: config.userAgent,
    timeoutMs: config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY_POLICY, ...definedOnly(config.retry ?? {}) },
    logger: config.logger,
    stopGraceMs: config.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
    ...(config.gate ? { gate: config.gate } : {}),
  };
  // The channel (grpc-js, the API's protobuf types, the trusted roots) is made at the first call:
  // most processes Terraform starts never call the platform (../load-on-first-call.ts).
  let transport: VdbTransport | undefined;
  let closed = false;
  const connected = loadOnFirstCall<Sender>(async () => {
    const { VdbTransport } = await import('./transport.js');
    transport = new VdbTransport(options);
    // Closed meanwhile: the transport refuses the call as a closed client does.
    if (closed) transport.close();
    return transport;
  });
  return {
    clusters: clustersApi(connected),
    databaseApiKeys: databaseApiKeysApi(connected),
    authKeys: authKeysApi(connected),
    backupSchedules: backupSchedulesApi(connected),
    backups: backupsApi(connected),
    hybridEnvironments: hybridEnvironmentsApi(connected),
    booking: bookingApi(connected),
    platform: platformApi(connected),
    iam: iamApi(connected),
    accounts: accountsApi(connected),
    close: () => {
      closed = true;
      transport?.close();
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/**
 * The proxy the channel goes through, by Go's rules as grpc-go applies them (the target as an https
 * URL: HTTPS_PROXY, NO_PROXY, loopback never). grpc-js tunnels with plain HTTP CONNECT only, so an
 * https:// or SOCKS proxy is refused here rather than tried.
 */
function channelProxy(endpoint: VdbEndpoint, env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  const hostPort = endpoint.target;
  const proxy = proxyFromEnvironment(env)(new URL(`https://${hostPort}`));
  if (proxy && proxy.url.protocol !== 'http:') {
    throw new ApiError(
      `${proxy.variable} names a ${proxy.url.protocol.slice(0, -1)}:// proxy; the vdb provider reaches proxies ` +
        `with plain HTTP CONNECT only: give an http:// proxy, or leave ${endpoint.host} out with NO_PROXY`,
      { code: 'invalid', operation: 'configure vdb client' },
    );
  }
  return proxy;
}
