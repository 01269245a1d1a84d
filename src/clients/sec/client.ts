import type { HostGate } from '../host-gate.js';
import { HttpPool } from './http-pool.js';
import { ApiError } from '@keel/provider-framework/client';
import { apiSecureContext, apiTrustSources } from '../trust.js';
import { type ProxyChoice, proxyFromEnvironment } from '../proxy.js';
import { DEFAULT_STOP_GRACE_MS } from '../stop.js';
import type { AgentAccessTokensApi } from './agent-access-tokens.js';
import type { AlertChannelsApi } from './alert-channels.js';
import { TokenSource } from './auth.js';
import { parseBaseUrl } from './base-url.js';
import { SecHttp } from './http.js';
import { Redactor } from './redactor.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import { Transport, type SecLogger } from './transport.js';
import { loadOnFirstCall } from '../load-on-first-call.js';
import type { UserProfileApi } from './user-profile.js';
import type { CloudAccountsApi } from './cloud-accounts.js';
import type { ContainerRegistriesApi } from './container-registries.js';
import type { AlertProfilesApi } from './alert-profiles.js';
import type { PoliciesApi } from './policies.js';
import type { PolicyExceptionsApi } from './policy-exceptions.js';
import type { QueriesApi } from './queries.js';
import type { AlertRulesApi } from './alert-rules.js';
import type { DataExportRulesApi } from './data-export-rules.js';
import type { MetricsApi } from './metrics.js';
import type { ReportRulesApi } from './report-rules.js';
import type { ResourceGroupsApi } from './resource-groups.js';
import type { TeamMembersApi } from './team-members.js';
import type { VulnerabilityExceptionsApi } from './vulnerability-exceptions.js';
import type { InventoryApi } from './inventory.js';

export interface SecClientConfig {
  /** e.g. https://acme.sec-platform.example, or a loopback http:// URL (emulator). */
  readonly baseUrl: string;
  /** The account subdomain; informational here (requests go to baseUrl). */
  readonly account: string;
  readonly apiKey?: string | undefined;
  readonly apiSecret?: string | undefined;
  /** Pre-issued access token; key+secret, when also given, renew it. */
  readonly apiToken?: string | undefined;
  /** Sent as Account-Name. */
  readonly subaccount?: string | undefined;
  /** Sends Org-Access: true. */
  readonly organization?: boolean | undefined;
  readonly userAgent: string;
  /** Deadline of one call including retries; default 125 s (the platform's proxy limit). */
  readonly timeoutMs?: number | undefined;
  /** Receives request summaries (operation, status, attempt, duration), never headers or bodies. */
  readonly logger?: SecLogger | undefined;
  /** Overrides the retry budget and backoff (tests use short delays). */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /**
   * How long a changing request already sent may finish after Terraform asks to stop; default 30 s
   * (src/clients/stop.ts).
   */
  readonly stopGraceMs?: number | undefined;
  /** The most an answer's body may hold; a larger one fails its call. Default 64 MiB (SEC_MAX_RESPONSE_BYTES). */
  readonly maxResponseBytes?: number | undefined;
  /**
   * Where the proxy variables (HTTPS_PROXY, NO_PROXY, ...: ../proxy.ts) and the trust's (SSL_CERT_FILE,
   * NODE_EXTRA_CA_CERTS, ...: ../trust.ts) are read; default process.env.
   */
  readonly environment?: NodeJS.ProcessEnv | undefined;
  /** The back-off every call of this client waits on (../host-gate.ts); default a gate of its own. */
  readonly gate?: HostGate | undefined;
}

export interface SecClient {
  /** Access tokens to hand out (the provider's own calls authenticate by themselves). */
  readonly accessTokens: {
    issue(lifetimeSeconds: number, options?: { signal?: AbortSignal }): Promise<{ token: string; expiresAt: Date }>;
  };
  /** The account subdomain the provider was configured with (the tenant in ids the platform derives from it). */
  readonly account: string;
  /** Whether calls carry organization access (Org-Access: true): what the provider was configured with. */
  readonly organization: boolean;
  /**
   * Where the calls go and for whom, never a credential: the API's origin, and the sub-account and
   * organization access the calls carry (the records of creates are kept per address).
   */
  readonly address: string;
  readonly agentAccessTokens: AgentAccessTokensApi;
  readonly alertChannels: AlertChannelsApi;
  readonly userProfile: UserProfileApi;
  readonly cloudAccounts: CloudAccountsApi;
  readonly containerRegistries: ContainerRegistriesApi;
  readonly alertProfiles: AlertProfilesApi;
  readonly policies: PoliciesApi;
  readonly policyExceptions: PolicyExceptionsApi;
  readonly queries: QueriesApi;
  readonly alertRules: AlertRulesApi;
  readonly dataExportRules: DataExportRulesApi;
  /** Usage events (the metric module data source). */
  readonly metrics: MetricsApi;
  readonly reportRules: ReportRulesApi;
  readonly resourceGroups: ResourceGroupsApi;
  readonly teamMembers: TeamMembersApi;
  readonly vulnerabilityExceptions: VulnerabilityExceptionsApi;
  /** The resource inventory of the integrated clouds (scans on demand). */
  readonly inventory: InventoryApi;
  /** Closes the connection pool; calls made afterwards fail. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 125_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * A client of the sec management API with one keep-alive connection pool. Throws ApiError
 * 'invalid' for an unusable configuration (bad URL, plain http to a non-loopback host, no credentials).
 */
export function createSecClient(config: SecClientConfig): SecClient {
  const endpoint = parseBaseUrl(config.baseUrl);
  if (!config.apiToken && !(config.apiKey && config.apiSecret)) {
    throw new ApiError('either api_key and api_secret, or api_token, must be set', {
      code: 'invalid',
      operation: 'configure sec client',
    });
  }
  const redactor = new Redactor();
  for (const secret of [config.apiKey, config.apiSecret, config.apiToken]) redactor.add(secret);

  const environment = config.environment ?? process.env;
  let proxy: ProxyChoice | undefined;
  try {
    proxy = proxyFromEnvironment(environment)(new URL(endpoint.origin));
  } catch (error) {
    throw new ApiError((error as Error).message, { code: 'invalid', operation: 'configure sec client' });
  }
  if (proxy?.url.protocol === 'socks5:')
    throw new ApiError(`${proxy.variable} names a SOCKS proxy; the sec provider reaches proxies over HTTP(S) only`, {
      code: 'invalid',
      operation: 'configure sec client',
    });
  // The trusted roots are explicit (../trust.ts).
  const pool = new HttpPool(endpoint.origin, {
    connections: 8,
    keepAliveTimeoutMs: 30_000,
    connectTimeoutMs: 10_000,
    maxResponseBytes: config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    ...(endpoint.origin.startsWith('https:') ? { secureContext: () => apiSecureContext(environment) } : {}),
    ...(proxy ? { proxy } : {}),
  });
  const transport = new Transport(pool, {
    origin: endpoint.origin,
    pathPrefix: endpoint.pathPrefix,
    commonHeaders: commonHeaders(config),
    retry: { ...DEFAULT_RETRY_POLICY, ...definedOnly(config.retry ?? {}) },
    redactor,
    ...(config.logger ? { logger: config.logger } : {}),
    stopGraceMs: config.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
    trustSources: () => apiTrustSources(environment),
    ...(config.gate ? { gate: config.gate } : {}),
  });
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const credentials = {
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.apiSecret ? { apiSecret: config.apiSecret } : {}),
    ...(config.apiToken ? { apiToken: config.apiToken } : {}),
  };
  const tokens = new TokenSource(transport, credentials, redactor, timeoutMs);
  const http = new SecHttp(transport, tokens, timeoutMs, endpoint);

  return {
    accessTokens: { issue: (lifetimeSeconds, options = {}) => tokens.issue(lifetimeSeconds, options.signal) },
    account: config.account,
    organization: config.organization === true,
    address: [
      endpoint.origin,
      ...(config.subaccount ? [`sub-account ${config.subaccount}`] : []),
      ...(config.organization ? ['organization'] : []),
    ].join(' '),
    agentAccessTokens: loadOnFirstCall(() =>
      import('./agent-access-tokens.js').then((m) => m.agentAccessTokensApi(http)),
    ),
    alertChannels: loadOnFirstCall(() => import('./alert-channels.js').then((m) => m.alertChannelsApi(http))),
    userProfile: loadOnFirstCall(() => import('./user-profile.js').then((m) => m.userProfileApi(http))),
    cloudAccounts: loadOnFirstCall(() => import('./cloud-accounts.js').then((m) => m.cloudAccountsApi(http))),
    containerRegistries: loadOnFirstCall(() =>
      import('./container-registries.js').then((m) => m.containerRegistriesApi(http)),
    ),
    alertProfiles: loadOnFirstCall(() => import('./alert-profiles.js').then((m) => m.alertProfilesApi(http))),
    policies: loadOnFirstCall(() => import('./policies.js').then((m) => m.policiesApi(http))),
    policyExceptions: loadOnFirstCall(() => import('./policy-exceptions.js').then((m) => m.policyExceptionsApi(http))),
    queries: loadOnFirstCall(() => import('./queries.js').then((m) => m.queriesApi(http))),
    alertRules: loadOnFirstCall(() => import('./alert-rules.js').then((m) => m.alertRulesApi(http))),
    dataExportRules: loadOnFirstCall(() => import('./data-export-rules.js').then((m) => m.dataExportRulesApi(http))),
    metrics: loadOnFirstCall(() =>
      import('./metrics.js').then((m) => m.metricsApi(http, config.account, config.subaccount)),
    ),
    reportRules: loadOnFirstCall(() => import('./report-rules.js').then((m) => m.reportRulesApi(http))),
    resourceGroups: loadOnFirstCall(() => import('./resource-groups.js').then((m) => m.resourceGroupsApi(http))),
    teamMembers: loadOnFirstCall(() => import('./team-members.js').then((m) => m.teamMembersApi(http))),
    vulnerabilityExceptions: loadOnFirstCall(() =>
      import('./vulnerability-exceptions.js').then((m) => m.vulnerabilityExceptionsApi(http)),
    ),
    inventory: loadOnFirstCall(() => import('./inventory.js').then((m) => m.inventoryApi(http))),
    close: () => pool.close(),
  };
}

function commonHeaders(config: SecClientConfig): Record<string, string> {
  return {
    Accept: 'application/json',
    'User-Agent': config.userAgent,
    ...(config.subaccount ? { 'Account-Name': config.subaccount } : {}),
    ...(config.organization ? { 'Org-Access': 'true' } : {}),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}
