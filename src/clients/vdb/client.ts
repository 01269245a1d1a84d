import { ApiError } from '../../wire/api-error.js';
import { DEFAULT_STOP_GRACE_MS } from '../stop.js';
import type {
  AccountMember,
  AccountsApi,
  AuthKey,
  AuthKeysApi,
  Backup,
  BackupSchedule,
  BackupSchedulesApi,
  BackupsApi,
  BookingApi,
  BookingPackage,
  BootstrapCommands,
  CloudProvider,
  CloudProviderRegion,
  Cluster,
  ClustersApi,
  DatabaseApiKey,
  DatabaseApiKeysApi,
  HybridEnvironment,
  HybridEnvironmentsApi,
  IamApi,
  Permission,
  PlatformApi,
  Role,
  VdbCallOptions,
  VdbClient,
  VdbClientConfig,
} from './api.js';
import { DEFAULT_RETRY_POLICY } from './api.js';
import type { Plain } from './codec.js';
import { parseApiUrl, type VdbEndpoint } from './endpoint.js';
import { type ProxyChoice, proxyFromEnvironment } from '../proxy.js';
import { VDB_SERVICES } from '../../wire/vdb-services.js';
import { loadOnFirstCall } from '../load-on-first-call.js';
import { JWT_RBAC_METADATA } from './metadata.js';
import type { VdbTransport } from './transport.js';
import { SharedListings } from './shared-listing.js';

const DEFAULT_TIMEOUT_MS = 60_000;
/** A server that keeps returning page tokens is broken; stop rather than loop forever. */
const MAX_PAGES = 1_000;

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
  const connected = loadOnFirstCall<Pick<VdbTransport, 'unary'>>(async () => {
    const { VdbTransport } = await import('./transport.js');
    transport = new VdbTransport(options);
    // Closed meanwhile: the transport refuses the call as a closed client does.
    if (closed) transport.close();
    return transport;
  });
  const rpc = new Rpc(connected);
  return {
    clusters: clustersApi(rpc),
    databaseApiKeys: databaseApiKeysApi(rpc),
    authKeys: authKeysApi(rpc),
    backupSchedules: backupSchedulesApi(rpc),
    backups: backupsApi(rpc),
    hybridEnvironments: hybridEnvironmentsApi(rpc),
    booking: bookingApi(rpc),
    platform: platformApi(rpc),
    iam: iamApi(rpc),
    accounts: accountsApi(rpc),
    close: () => {
      closed = true;
      transport?.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------

/** Retried when the request is safe to repeat; reads always are. */
type Safety = 'read' | 'idempotent' | 'once';

class Rpc {
  constructor(private readonly transport: Pick<VdbTransport, 'unary'>) {}

  call(
    service: string,
    method: string,
    request: Plain,
    safety: Safety,
    options: VdbCallOptions = {},
    metadata?: Record<string, string>,
  ): Promise<Plain> {
    return this.transport.unary({
      service,
      method,
      request,
      idempotent: safety !== 'once',
      changes: safety !== 'read',
      ...(metadata ? { metadata } : {}),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** Every page of a paginated list. */
  async pages(service: string, method: string, request: Plain, options: VdbCallOptions = {}): Promise<Plain[]> {
    const items: Plain[] = [];
    const seen = new Set<string>();
    let pageToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const response = await this.call(
        service,
        method,
        { ...request, ...(pageToken ? { pageToken } : {}) },
        'read',
        options,
      );
      items.push(...list(response, 'items'));
      const next = response.nextPageToken;
      if (typeof next !== 'string' || next === '') return items;
      if (seen.has(next)) throw malformed(`${method}`, `the server repeated page token ${JSON.stringify(next)}`);
      seen.add(next);
      pageToken = next;
    }
    throw malformed(method, `more than ${MAX_PAGES} pages`);
  }
}

function malformed(operation: string, detail: string): ApiError {
  return new ApiError(`malformed response: ${detail}`, { code: 'malformed_response', operation });
}

function list(response: Plain, key: string): Plain[] {
  return (response[key] as Plain[] | undefined) ?? [];
}

/** The response's sub-message `key`, which must be present and carry a non-empty id. */
function entity(
  response: Plain,
  key: string,
  operation: string,
  checks: (item: Plain) => string | undefined = hasId,
): Plain {
  const item = response[key] as Plain | undefined;
  if (item === undefined) throw malformed(operation, `no ${key} in the response`);
  const problem = checks(item);
  if (problem) throw malformed(operation, `${key}: ${problem}`);
  return item;
}

function hasId(item: Plain): string | undefined {
  return typeof item.id === 'string' && item.id !== '' ? undefined : 'missing id';
}

/** A created database API key, of either key service: it names itself and carries its secret, shown only now. */
function createdKey(response: Plain): Plain {
  return entity(
    response,
    'databaseApiKey',
    'DatabaseApiKeyService/CreateDatabaseApiKey',
    (item) => hasId(item) ?? (item.key === '' ? 'missing key' : undefined),
  );
}

function checked<T>(items: Plain[], operation: string, checks: (item: Plain) => string | undefined = hasId): T[] {
  items.forEach((item, i) => {
    const problem = checks(item);
    if (problem) throw malformed(operation, `items[${i}]: ${problem}`);
  });
  return items as unknown as T[];
}

function clusterProblem(item: Plain): string | undefined {
  return hasId(item) ?? (item.configuration === undefined ? 'missing configuration' : undefined);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

// ---------------------------------------------------------------------------------------------

function clustersApi(rpc: Rpc): ClustersApi {
  const S = VDB_SERVICES.cluster;
  return {
    async list(request, options) {
      const items = await rpc.pages(S, 'ListClusters', { ...request }, options);
      return checked<Cluster>(items, 'ClusterService/ListClusters', clusterProblem);
    },
    async get(request, options) {
      const response = await rpc.call(S, 'GetCluster', { ...request }, 'read', options);
      return entity(response, 'cluster', 'ClusterService/GetCluster', clusterProblem) as unknown as Cluster;
    },
    async create(cluster, options = {}) {
      const metadata = options.jwtRbac === undefined ? undefined : { [JWT_RBAC_METADATA]: String(options.jwtRbac) };
      const request = {
        cluster: {
          accountId: cluster.accountId,
          name: cluster.name,
          cloudProviderId: cluster.cloudProviderId,
          cloudProviderRegionId: cluster.cloudProviderRegionId,
          labels: cluster.labels,
          configuration: cluster.configuration,
        },
      };
      const response = await rpc.call(S, 'CreateCluster', request, 'once', options, metadata);
      return entity(response, 'cluster', 'ClusterService/CreateCluster', clusterProblem) as unknown as Cluster;
    },
    async update(cluster, options) {
      const { lastModifiedAt: _serverSet, ...configuration } = cluster.configuration as Cluster['configuration'];
      const request = {
        cluster: {
          id: cluster.id,
          accountId: cluster.accountId,
          name: cluster.name,
          cloudProviderId: cluster.cloudProviderId,
          cloudProviderRegionId: cluster.cloudProviderRegionId,
          labels: cluster.labels,
          configuration,
          createdAt: cluster.createdAt,
          deletedAt: cluster.deletedAt,
        },
      };
      const response = await rpc.call(S, 'UpdateCluster', request, 'idempotent', options);
      return entity(response, 'cluster', 'ClusterService/UpdateCluster', clusterProblem) as unknown as Cluster;
    },
    async delete(request, options) {
      await rpc.call(S, 'DeleteCluster', { ...request }, 'idempotent', options);
    },
    async enableJwtRbac(request, options) {
      await rpc.call(S, 'EnableClusterJwtRbac', { ...request }, 'idempotent', options);
    },
    async suspend(request, options) {
      await rpc.call(S, 'SuspendCluster', { ...request }, 'idempotent', options);
    },
    async unsuspend(request, options) {
      await rpc.call(S, 'UnsuspendCluster', { ...request }, 'idempotent', options);
    },
  };
}

function databaseApiKeysApi(rpc: Rpc): DatabaseApiKeysApi {
  const S = VDB_SERVICES.databaseApiKeyV2;
  const listings = new SharedListings<DatabaseApiKey>();
  const api: DatabaseApiKeysApi = {
    async list(request, options) {
      const response = await rpc.call(S, 'ListDatabaseApiKeys', { ...request }, 'read', options);
      return checked<DatabaseApiKey>(list(response, 'items'), 'DatabaseApiKeyService/ListDatabaseApiKeys');
    },
    find: ({ accountId, clusterId, id }, options) =>
      listings.find(`${accountId}/${clusterId}`, id, () => api.list({ accountId, clusterId }, options)),
    async create(key, options) {
      const request = {
        databaseApiKey: {
          accountId: key.accountId,
          clusterId: key.clusterId,
          name: key.name,
          expiresAt: key.expiresAt,
          accessRules: key.accessRules,
        },
      };
      return createdKey(
        await rpc.call(S, 'CreateDatabaseApiKey', request, 'once', options),
      ) as unknown as DatabaseApiKey;
    },
    async delete(request, options) {
      await rpc.call(S, 'DeleteDatabaseApiKey', { ...request }, 'idempotent', options);
    },
  };
  return api;
}

function authKeysApi(rpc: Rpc): AuthKeysApi {
  const S = VDB_SERVICES.databaseApiKeyV1;
  // The legacy service has no get: reads share listings of the account's keys.
  const listings = new SharedListings<AuthKey>();
  const api: AuthKeysApi = {
    async list(request, options) {
      const response = await rpc.call(S, 'ListDatabaseApiKeys', { ...request }, 'read', options);
      return checked<AuthKey>(list(response, 'items'), 'DatabaseApiKeyService/ListDatabaseApiKeys');
    },
    find: ({ accountId, id }, options) => listings.find(accountId, id, () => api.list({ accountId }, options)),
    async create(key, options) {
      const request = { databaseApiKey: { accountId: key.accountId, clusterIds: key.clusterIds } };
      return createdKey(await rpc.call(S, 'CreateDatabaseApiKey', request, 'once', options)) as unknown as AuthKey;
    },
    async delete(request, options) {
      await rpc.call(S, 'DeleteDatabaseApiKey', { ...request }, 'idempotent', options);
    },
  };
  return api;
}

function backupSchedulesApi(rpc: Rpc): BackupSchedulesApi {
  const S = VDB_SERVICES.backup;
  const schedule = (response: Plain, method: string): BackupSchedule =>
    entity(response, 'backupSchedule', `BackupService/${method}`) as unknown as BackupSchedule;
  return {
    async list(request, options) {
      const items = await rpc.pages(S, 'ListBackupSchedules', { ...request }, options);
      return checked<BackupSchedule>(items, 'BackupService/ListBackupSchedules');
    },
    async get(request, options) {
      return schedule(await rpc.call(S, 'GetBackupSchedule', { ...request }, 'read', options), 'GetBackupSchedule');
    },
    async create(input, options) {
      const request = {
        backupSchedule: {
          accountId: input.accountId,
          clusterId: input.clusterId,
          schedule: input.schedule,
          retentionPeriod: input.retentionPeriod,
        },
      };
      return schedule(await rpc.call(S, 'CreateBackupSchedule', request, 'once', options), 'CreateBackupSchedule');
    },
    async update(input, options) {
      const request = {
        backupSchedule: {
          id: input.id,
          accountId: input.accountId,
          clusterId: input.clusterId,
          schedule: input.schedule,
          retentionPeriod: input.retentionPeriod,
        },
      };
      return schedule(
        await rpc.call(S, 'UpdateBackupSchedule', request, 'idempotent', options),
        'UpdateBackupSchedule',
      );
    },
    async delete(request, options) {
      await rpc.call(S, 'DeleteBackupSchedule', { ...request }, 'idempotent', options);
    },
  };
}

function backupsApi(rpc: Rpc): BackupsApi {
  const S = VDB_SERVICES.backup;
  return {
    async list(request, options) {
      const items = await rpc.pages(S, 'ListBackups', { ...request }, options);
      return checked<Backup>(items, 'BackupService/ListBackups');
    },
    async get(request, options) {
      const response = await rpc.call(S, 'GetBackup', { ...request }, 'read', options);
      return entity(response, 'backup', 'BackupService/GetBackup') as unknown as Backup;
    },
    async create(input, options) {
      const request = {
        backup: { accountId: input.accountId, clusterId: input.clusterId, retentionPeriod: input.retentionPeriod },
      };
      const response = await rpc.call(S, 'CreateBackup', request, 'once', options);
      return entity(response, 'backup', 'BackupService/CreateBackup') as unknown as Backup;
    },
    async delete(request, options) {
      await rpc.call(S, 'DeleteBackup', { ...request }, 'idempotent', options);
    },
  };
}

function hybridEnvironmentsApi(rpc: Rpc): HybridEnvironmentsApi {
  const S = VDB_SERVICES.hybrid;
  const environment = (response: Plain, method: string): HybridEnvironment =>
    entity(response, 'hybridCloudEnvironment', `HybridCloudService/${method}`) as unknown as HybridEnvironment;
  return {
    async list(request, options) {
      const response = await rpc.call(S, 'ListHybridCloudEnvironments', { ...request }, 'read', options);
      return checked<HybridEnvironment>(list(response, 'items'), 'HybridCloudService/ListHybridCloudEnvironments');
    },
    async get(request, options) {
      return environment(
        await rpc.call(S, 'GetHybridCloudEnvironment', { ...request }, 'read', options),
        'GetHybridCloudEnvironment',
      );
    },
    async create(input, options) {
      const request = {
        hybridCloudEnvironment: { accountId: input.accountId, name: input.name, configuration: input.configuration },
      };
      return environment(
        await rpc.call(S, 'CreateHybridCloudEnvironment', request, 'once', options),
        'CreateHybridCloudEnvironment',
      );
    },
    async update(input, options) {
      const { lastModifiedAt: _serverSet, ...configuration } = input.configuration as { lastModifiedAt?: string };
      const request = {
        hybridCloudEnvironment: { id: input.id, accountId: input.accountId, name: input.name, configuration },
      };
      return environment(
        await rpc.call(S, 'UpdateHybridCloudEnvironment', request, 'idempotent', options),
        'UpdateHybridCloudEnvironment',
      );
    },
    async delete(request, options) {
      await rpc.call(S, 'DeleteHybridCloudEnvironment', { ...request }, 'idempotent', options);
    },
    async generateBootstrapCommands(request, options) {
      const response = await rpc.call(S, 'GenerateBootstrapCommands', { ...request }, 'once', options);
      return {
        commands: (response.commands as string[] | undefined) ?? [],
        accessKey: (response.accessKey as string | undefined) ?? '',
        registryUsername: (response.registryUsername as string | undefined) ?? '',
        registryPassword: (response.registryPassword as string | undefined) ?? '',
      } satisfies BootstrapCommands;
    },
  };
}

function bookingApi(rpc: Rpc): BookingApi {
  const S = VDB_SERVICES.booking;
  return {
    async listPackages(request, options) {
      const response = await rpc.call(
        S,
        'ListPackages',
        {
          accountId: request.accountId,
          cloudProviderId: request.cloudProviderId,
          // The provider always sends the region, possibly "" (vdb.md §3.9).
          cloudProviderRegionId: request.cloudProviderRegionId ?? '',
          statuses: request.statuses,
        },
        'read',
        options,
      );
      return checked<BookingPackage>(list(response, 'items'), 'BookingService/ListPackages');
    },
  };
}

function platformApi(rpc: Rpc): PlatformApi {
  const S = VDB_SERVICES.platform;
  return {
    async listCloudProviders(request, options) {
      const response = await rpc.call(S, 'ListCloudProviders', { ...request }, 'read', options);
      return checked<CloudProvider>(list(response, 'items'), 'PlatformService/ListCloudProviders');
    },
    async listCloudProviderRegions(request, options) {
      const response = await rpc.call(S, 'ListCloudProviderRegions', { ...request }, 'read', options);
      return checked<CloudProviderRegion>(list(response, 'items'), 'PlatformService/ListCloudProviderRegions');
    },
    async getCloudProviderRegion(request, options) {
      const response = await rpc.call(S, 'GetCloudProviderRegion', { ...request }, 'read', options);
      return entity(response, 'region', 'PlatformService/GetCloudProviderRegion') as unknown as CloudProviderRegion;
    },
  };
}

function iamApi(rpc: Rpc): IamApi {
  const S = VDB_SERVICES.iam;
  const role = (response: Plain, method: string): Role =>
    entity(response, 'role', `IAMService/${method}`) as unknown as Role;
  const roleMessage = (input: {
    accountId: string;
    name: string;
    description?: string | undefined;
    permissions: readonly string[];
  }) => ({
    accountId: input.accountId,
    name: input.name,
    description: input.description,
    roleType: 'ROLE_TYPE_CUSTOM',
    permissions: input.permissions.map((value) => ({ value })),
  });
  return {
    async listRoles(request, options) {
      const response = await rpc.call(S, 'ListRoles', { ...request }, 'read', options);
      return checked<Role>(list(response, 'items'), 'IAMService/ListRoles');
    },
    async getRole(request, options) {
      return role(await rpc.call(S, 'GetRole', { ...request }, 'read', options), 'GetRole');
    },
    async createRole(input, options) {
      return role(await rpc.call(S, 'CreateRole', { role: roleMessage(input) }, 'once', options), 'CreateRole');
    },
    async updateRole(input, options) {
      return role(
        await rpc.call(S, 'UpdateRole', { role: { id: input.id, ...roleMessage(input) } }, 'idempotent', options),
        'UpdateRole',
      );
    },
    async deleteRole(request, options) {
      await rpc.call(S, 'DeleteRole', { ...request }, 'idempotent', options);
    },
    async listPermissions(request, options) {
      const response = await rpc.call(S, 'ListPermissions', { ...request }, 'read', options);
      return checked<Permission>(list(response, 'permissions'), 'IAMService/ListPermissions', (item) =>
        item.value === '' ? 'missing value' : undefined,
      );
    },
    async listUserRoles(request, options) {
      const response = await rpc.call(S, 'ListUserRoles', { ...request }, 'read', options);
      return checked<Role>(list(response, 'roles'), 'IAMService/ListUserRoles');
    },
    async assignUserRoles(request, options) {
      await rpc.call(S, 'AssignUserRoles', { ...request }, 'idempotent', options);
    },
  };
}

function accountsApi(rpc: Rpc): AccountsApi {
  const S = VDB_SERVICES.account;
  return {
    async listAccountMembers(request, options) {
      const response = await rpc.call(S, 'ListAccountMembers', { ...request }, 'read', options);
      return list(response, 'items').map((item, i): AccountMember => {
        const user = item.accountMember as Plain | undefined;
        if (!user || hasId(user))
          throw malformed('AccountService/ListAccountMembers', `items[${i}]: missing account member`);
        return { user: user as unknown as AccountMember['user'], isOwner: item.isOwner === true };
      });
    },
  };
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
