import {
  Clock,
  FaultInjector,
  MemoryStore,
  RequestLog,
  Router,
  RequestQuota,
  SeededFaults,
  json,
  randomHex,
  secretValue,
  startHttpServer,
  type DescribedRoute,
  type Fault,
  type FaultProfileOptions,
  type FaultStats,
  type HttpLimits,
  type LogLimits,
  type QuotaOptions,
  type QuotaStats,
  type LoggedRequest,
} from '../core/index.js';
import { registerAgentAccessTokenRoutes } from './agent-access-tokens.js';
import { registerAlertChannelRoutes } from './alert-channels.js';
import { SECRET_HEADER, TOKEN_PATH, authMiddleware, registerTokenRoute } from './auth.js';
import { OPENAPI_PATH, secOpenApi } from './openapi.js';
import { API_PREFIX, type SecContext } from './context.js';
import { TokenRegistry, type TokenRecord } from './tokens.js';
import { registerUserProfileRoute } from './user-profile.js';
import { registerCloudAccountRoutes } from './cloud-accounts.js';
import { registerContainerRegistryRoutes } from './container-registries.js';
import { registerAlertProfileRoutes } from './alert-profiles.js';
import { registerPolicyRoutes } from './policies.js';
import { registerQueryRoutes } from './queries.js';
import { registerAlertRuleRoutes } from './alert-rules.js';
import { registerDataExportRuleRoutes } from './data-export-rules.js';
import { registerMetricRoutes } from './metrics.js';
import { registerPolicyExceptionRoutes } from './policy-exceptions.js';
import { registerReportRuleRoutes } from './report-rules.js';
import { registerResourceGroupRoutes } from './resource-groups.js';
import { registerTeamMemberRoutes } from './team-members.js';
import { registerVulnerabilityExceptionRoutes } from './vulnerability-exceptions.js';
import { registerInventoryRoutes } from './inventory.js';
import { SearchPages } from './search-pages.js';

export interface SecEmulatorOptions {
  /** 0 or absent: any free port. */
  port?: number;
  account?: string;
  /** Random when absent. */
  apiKey?: string;
  apiSecret?: string;
  /** Extra accounts an `Account-Name` header may select. */
  subaccounts?: string[];
  /** Seeded faults from the start (see setFaultProfile). */
  faultProfile?: FaultProfileOptions;
  /** The account's rate limit (a token bucket; core/quota.ts); none when absent. */
  rateLimit?: QuotaOptions;
  /** Bounds on requests and connections (core/http-limits.ts); each absent one takes its default. */
  limits?: Partial<HttpLimits>;
  /** How much of the request log is kept (core/request-log.ts); default DEFAULT_LOG_LIMITS. */
  requestLog?: LogLimits;
  /** How many matches a search answers at once, the rest in pages (default DEFAULT_SEARCH_PAGE_SIZE). */
  searchPageSize?: number;
  /** How far the platform's clock is from this machine's (negative: behind); 0 when absent. */
  clockOffsetMs?: number;
  /** How long every answer waits, as a distant platform's round trip does (ms); 0 when absent. */
  latencyMs?: number;
}

/** A running emulator of the sec management API, plus the handles tests need. */
export interface SecEmulator {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  /** Every route with the rules of its body, as the OpenAPI document at `/openapi.json` gives them. */
  routes(): DescribedRoute[];
  readonly account: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /**
   * The requests received, oldest first, as many as `requestLog` keeps (the newest 10,000 by
   * default); Authorization and X-SEC-UAKS are masked.
   */
  readonly requests: readonly LoggedRequest[];
  /** How many requests were received, whether the log still holds them or not. */
  requestsReceived(): number;
  /** Emulator time; `clock.advance(ms)` ages tokens. */
  readonly clock: Clock;
  /** Raw stored objects (secrets not masked). Collections: see SEC_COLLECTIONS. */
  list<T = Record<string, unknown>>(collection: string): T[];
  /** The ids (store keys) of a collection's objects. */
  ids(collection: string): string[];
  get<T = Record<string, unknown>>(collection: string, id: string): T | undefined;
  /** Writes behind the API's back (drift). */
  put<T>(collection: string, id: string, value: T): void;
  /** Deletes behind the API's back; returns whether it existed. */
  remove(collection: string, id: string): boolean;
  clearRequests(): void;
  /** The next matching request(s) get this answer instead (see Fault). */
  injectFault(fault: Fault): void;
  clearFaults(): void;
  /**
   * Seeded faults on a share of all requests, the token endpoint included (a real API rate-limits
   * it too); undefined switches them off. Same seed + same sequence of requests = same faults
   * (see core/fault-profile.ts). Throws FaultProfileError on invalid options.
   */
  setFaultProfile(profile: FaultProfileOptions | undefined): void;
  /** Counters of the current (or last) fault profile. */
  faultStats(): FaultStats;
  /** Calls the rate limit let through and refused (zeros without one). */
  rateLimitStats(): QuotaStats;
  /** Sets the account's rate limit from now on (undefined: none), as `rateLimit` does from the start. */
  setRateLimit(options: QuotaOptions | undefined): void;
  /** Every token issued so far becomes invalid. */
  expireTokens(): void;
  /** Tokens issued from now on live this long, whatever the client asks; undefined restores. */
  setTokenLifetime(seconds: number | undefined): void;
  /** Every access token issued so far (valid or not), with the lifetime asked for and the requests it authorized. */
  issuedTokens(): TokenRecord[];
  /** A valid token, as a pre-issued `api_token` would be. */
  issueToken(seconds?: number): string;
  /** Makes POST /AlertChannels/{intgGuid}/test answer 400 with `message`; undefined clears. */
  failChannelTest(intgGuid: string, message?: string): void;
  /** Makes POST /Inventory/scan?csp=<cloud> answer 400 with `message`; undefined clears. */
  refuseInventoryScan(cloud: string, message?: string): void;
  close(): Promise<void>;
}

export async function startSecEmulator(options: SecEmulatorOptions = {}): Promise<SecEmulator> {
  const account = options.account ?? 'example';
  const clock = new Clock(options.clockOffsetMs);
  const ctx: SecContext = {
    store: new MemoryStore(),
    clock,
    account,
    apiKey: options.apiKey ?? `${account.toUpperCase()}_${randomHex(20)}`,
    apiSecret: options.apiSecret ?? `_${secretValue(16)}`,
    username: `api-user@${account}.example`,
    subaccounts: options.subaccounts ?? [],
    tokens: new TokenRegistry(clock),
    channelTestFailures: new Map(),
    inventoryScanRefusals: new Map(),
    searchPages: new SearchPages(options.searchPageSize),
  };

  const router = new Router();
  registerTokenRoute(router, ctx);
  registerAlertChannelRoutes(router, ctx);
  registerAgentAccessTokenRoutes(router, ctx);
  registerCloudAccountRoutes(router, ctx);
  registerContainerRegistryRoutes(router, ctx);
  registerAlertProfileRoutes(router, ctx);
  registerPolicyRoutes(router, ctx);
  registerQueryRoutes(router, ctx);
  registerAlertRuleRoutes(router, ctx);
  registerDataExportRuleRoutes(router, ctx);
  registerMetricRoutes(router, ctx);
  registerPolicyExceptionRoutes(router, ctx);
  registerReportRuleRoutes(router, ctx);
  registerResourceGroupRoutes(router, ctx);
  registerTeamMemberRoutes(router, ctx);
  registerVulnerabilityExceptionRoutes(router, ctx);
  registerInventoryRoutes(router, ctx);
  registerUserProfileRoute(router, ctx, {
    custGuid: `${account.toUpperCase()}_${randomHex(16)}`,
    userGuid: `${account.toUpperCase()}_${randomHex(16)}`,
  });
  let description: unknown;
  router.add('GET', OPENAPI_PATH, () => json(200, (description ??= secOpenApi(router, 'v2'))));

  const log = new RequestLog(new Set(['authorization', SECRET_HEADER, 'cookie']), options.requestLog);
  const faults = new FaultInjector();
  const seededFaults = new SeededFaults(options.faultProfile);
  let rateLimit = options.rateLimit ? new RequestQuota(options.rateLimit) : undefined;
  const server = await startHttpServer({
    router,
    log,
    faults,
    seededFaults,
    rateLimit: { take: () => rateLimit?.take() },
    isCreate: isCreateRequest,
    middleware: [authMiddleware(ctx)],
    now: () => clock.now(),
    port: options.port ?? 0,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
  });

  return {
    url: server.url,
    account,
    apiKey: ctx.apiKey,
    apiSecret: ctx.apiSecret,
    requests: log.entries,
    requestsReceived: () => log.received,
    clock,
    routes: () => router.describe(),
    list: (collection) => ctx.store.list(collection),
    ids: (collection) => ctx.store.ids(collection),
    get: (collection, id) => ctx.store.get(collection, id),
    put: (collection, id, value) => void ctx.store.put(collection, id, value),
    remove: (collection, id) => ctx.store.remove(collection, id),
    clearRequests: () => log.clear(),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    setFaultProfile: (profile) => seededFaults.set(profile),
    faultStats: () => seededFaults.stats(),
    rateLimitStats: () => rateLimit?.stats() ?? { admitted: 0, refused: 0 },
    setRateLimit: (quota) => {
      rateLimit = quota ? new RequestQuota(quota) : undefined;
    },
    expireTokens: () => ctx.tokens.expireAll(),
    setTokenLifetime: (seconds) => {
      ctx.tokens.lifetimeOverrideSeconds = seconds;
    },
    issueToken: (seconds = 3600) => ctx.tokens.issue(seconds).token,
    issuedTokens: () => ctx.tokens.issued(),
    failChannelTest: (intgGuid, message) => {
      if (message === undefined) ctx.channelTestFailures.delete(intgGuid);
      else ctx.channelTestFailures.set(intgGuid, message);
    },
    refuseInventoryScan: (cloud, message) => {
      if (message === undefined) ctx.inventoryScanRefusals.delete(cloud);
      else ctx.inventoryScanRefusals.set(cloud, message);
    },
    close: () => server.close(),
  };
}

/**
 * Every POST under /api/v2 creates an object, except the token endpoint (a token is not an object
 * a client adopts), searches, channel tests and inventory scans.
 */
function isCreateRequest(method: string, path: string): boolean {
  return (
    method === 'POST' &&
    path.startsWith(`${API_PREFIX}/`) &&
    path !== TOKEN_PATH &&
    !/\/(search|test|scan|validate)$/.test(path)
  );
}
