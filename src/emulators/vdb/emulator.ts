import { randomUUID } from 'node:crypto';
import type { StoredMember, User } from './records.js';
import {
  BoundedLog,
  Clock,
  MemoryStore,
  RequestQuota,
  SeededFaults,
  randomHex,
  type FaultProfileOptions,
  type FaultStats,
  type LoggedRequest,
  type LogLimits,
  type QuotaOptions,
  type QuotaStats,
} from '../core/index.js';
import { packageId, seedCatalog } from './catalog.js';
import { CLUSTERS } from './clusters.js';
import { startDatabaseEndpoints } from './database-endpoints.js';
import type { BootstrapFailure, VdbContext } from './context.js';
import { MEMBERS, addMember, seedIam } from './iam.js';
import { FaultQueue, startGrpcServer, type VdbFault, type VdbLoggedRequest } from './server.js';
import { STORED_KINDS, vdbServices } from './services.js';

export interface VdbEmulatorOptions {
  /** 0 or absent: any free port. */
  port?: number;
  /** Random when absent. */
  apiKey?: string;
  /** A UUID; random when absent. */
  accountId?: string;
  /** How long cluster create/update/suspend/resume, backups and environment readiness take. Default 1000 ms. */
  provisioningMs?: number;
  /** Account member e-mails; the first is the owner. Default: owner@… and member@vdb-emulator.example. */
  members?: string[];
  /** The member who made the management key (`apiKey`) in the console; default the owner. */
  managementKeyOwner?: string;
  /** Page size of list calls that do not ask for one (0 = everything in one page, the default). */
  pageSize?: number;
  /** Serve TLS with this certificate instead of plaintext (the URL is then `https://localhost:PORT`). */
  tls?: { certPem: string; keyPem: string };
  /** Seeded faults from the start (see setFaultProfile). */
  faultProfile?: FaultProfileOptions;
  /** The account's rate limit (a token bucket; core/quota.ts); none when absent. */
  rateLimit?: QuotaOptions;
  /** How much of the request log is kept (core/request-log.ts); default DEFAULT_LOG_LIMITS. */
  requestLog?: LogLimits;
  /**
   * Serve the clusters' own endpoints on loopback (database-endpoints.ts), their URLs
   * `http://127.0.0.1:PORT/clusters/<id>`. Default true; false gives the platform's URLs, which
   * nothing answers but which are the same in every run (fixtures recorded byte for byte need that).
   */
  databaseEndpoints?: boolean;
}

/** A running emulator of the vdb management API, plus the handles tests need. */
export interface VdbEmulator {
  /** `http://127.0.0.1:PORT` (or `https://localhost:PORT` with `tls`). */
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly accountId: string;
  /**
   * The calls received, oldest first, as many as `requestLog` keeps (the newest 10,000 by default);
   * `authorization` masked.
   */
  readonly requests: readonly VdbLoggedRequest[];
  /** How many calls were received, whether the log still holds them or not. */
  requestsReceived(): number;
  /** The calls the clusters' own endpoints received (`api-key` masked); none with `databaseEndpoints: false`. */
  readonly databaseRequests: readonly LoggedRequest[];
  /** Emulator time; `clock.advance(ms)` finishes provisioning without waiting. */
  readonly clock: Clock;
  /** Raw stored objects (camelCase api.ts shapes; secrets included). Collections: VDB_COLLECTIONS. */
  list<T = Record<string, unknown>>(collection: string): T[];
  /** The ids (store keys) of a collection's objects. */
  ids(collection: string): string[];
  get<T = Record<string, unknown>>(collection: string, id: string): T | undefined;
  /** Writes behind the API's back (drift); for a cluster this also ends any running transition. */
  put<T>(collection: string, id: string, value: T): void;
  /** Deletes behind the API's back; returns whether it existed. */
  remove(collection: string, id: string): boolean;
  clearRequests(): void;
  /** The next matching call(s) get this answer instead (see VdbFault). */
  injectFault(fault: VdbFault): void;
  clearFaults(): void;
  /**
   * Seeded faults on a share of all calls (Create* methods are the creates that can be ambiguous);
   * undefined switches them off. Same seed + same sequence of calls = same faults (see
   * core/fault-profile.ts). Throws FaultProfileError on invalid options.
   */
  setFaultProfile(profile: FaultProfileOptions | undefined): void;
  /** Counters of the current (or last) fault profile. */
  faultStats(): FaultStats;
  /** Calls the rate limit let through and refused (zeros without one). */
  rateLimitStats(): QuotaStats;
  /** The next cluster create or configuration update ends in a FAILED phase with this reason. */
  failNextProvisioning(reason?: string): void;
  /**
   * The next backup created ends, once it has run for `provisioningMs`, in this status instead of
   * BACKUP_STATUS_SUCCEEDED (the platform gives no reason on a backup).
   */
  failNextBackup(status?: 'BACKUP_STATUS_FAILED' | 'BACKUP_STATUS_SKIPPED' | 'BACKUP_STATUS_FAILED_TO_SYNC'): void;
  /** How long provisioning takes from now on. */
  setProvisioningMs(ms: number): void;
  /** GenerateBootstrapCommands fails with FAILED_PRECONDITION / PERMISSION_DENIED (once, or until cleared). */
  failBootstrap(code: BootstrapFailure['code'], options?: { message?: string; once?: boolean }): void;
  clearBootstrapFailure(): void;
  /** Adds an account member (with the Base role). */
  addMember(email: string): User;
  /**
   * A console session token of the member with this e-mail address: calls made with
   * `authorization: bearer <token>` act as that user (objects they create record their e-mail in
   * `created_by_email`), where the management key acts for the member who made it. Throws for a non-member.
   */
  userToken(email: string): string;
  /** The catalog id of a package, e.g. packageId('aws', 'small'). */
  packageId(cloudProviderId: string, name: string): string;
  close(): Promise<void>;
}

export const DEFAULT_PROVISIONING_MS = 1_000;

export async function startVdbEmulator(options: VdbEmulatorOptions = {}): Promise<VdbEmulator> {
  const ctx: VdbContext = {
    store: new MemoryStore(),
    storage: STORED_KINDS,
    clock: new Clock(),
    accountId: options.accountId ?? randomUUID(),
    provisioningMs: options.provisioningMs ?? DEFAULT_PROVISIONING_MS,
    provisioningFailures: [],
    backupFailures: [],
    backupOutcomes: new Map(),
    transitions: new Map(),
    environmentReadyAt: new Map(),
    bootstrapFailure: undefined,
    defaultPageSize: options.pageSize ?? 0,
    userSessions: new Map(),
  };
  const apiKey = options.apiKey ?? `vdb_mgmt_${randomHex(24).toLowerCase()}`;
  seedCatalog(ctx);
  const members = options.members ?? ['owner@vdb-emulator.example', 'member@vdb-emulator.example'];
  const managementKeyOwner = options.managementKeyOwner ?? members[0];
  if (managementKeyOwner === undefined || !members.includes(managementKeyOwner)) {
    const who = managementKeyOwner ?? 'no members';
    throw new Error(`the management key's owner must be a member of the account (${who})`);
  }
  seedIam(ctx, members);
  const endpoints = options.databaseEndpoints === false ? undefined : await startDatabaseEndpoints(ctx);

  const log = new BoundedLog<VdbLoggedRequest>(options.requestLog);
  const faults = new FaultQueue();
  const seededFaults = new SeededFaults(options.faultProfile);
  const rateLimit = options.rateLimit ? new RequestQuota(options.rateLimit) : undefined;
  const server = await startGrpcServer({
    port: options.port ?? 0,
    apiKey,
    managementKeyOwner,
    userForSession: (token) => {
      const userId = ctx.userSessions.get(token);
      const member = userId === undefined ? undefined : ctx.store.get<StoredMember>(MEMBERS.name, userId);
      return member ? { id: member.user.id, email: member.user.email } : undefined;
    },
    log,
    faults,
    seededFaults,
    ...(rateLimit ? { rateLimit } : {}),
    tls: options.tls,
    now: () => ctx.clock.now(),
    services: vdbServices(ctx),
  });

  // Reads through the test handles see the same up-to-date state as API reads.
  const refresh = (collection: string, id: string): void => {
    STORED_KINDS.find((kind) => kind.name === collection)?.refresh?.(ctx, id);
  };
  const refreshAll = (collection: string): void => {
    for (const item of ctx.store.list<{ id?: string }>(collection)) if (item.id) refresh(collection, item.id);
  };

  return {
    url: options.tls ? `https://localhost:${server.port}` : `http://127.0.0.1:${server.port}`,
    port: server.port,
    apiKey,
    accountId: ctx.accountId,
    requests: log.entries,
    requestsReceived: () => log.received,
    databaseRequests: endpoints?.log.entries ?? [],
    clock: ctx.clock,
    list: (collection) => {
      refreshAll(collection);
      return ctx.store.list(collection);
    },
    ids: (collection) => {
      refreshAll(collection);
      return ctx.store.ids(collection);
    },
    get: (collection, id) => {
      refresh(collection, id);
      return ctx.store.get(collection, id);
    },
    put: (collection, id, value) => {
      // Behind the API's back: no cascade, but a cluster's transition would overwrite what was written.
      if (collection === CLUSTERS.name) ctx.transitions.delete(id);
      ctx.store.put(collection, id, value);
    },
    remove: (collection, id) => {
      if (collection === CLUSTERS.name) ctx.transitions.delete(id);
      return ctx.store.remove(collection, id);
    },
    clearRequests: () => log.clear(),
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    setFaultProfile: (profile) => seededFaults.set(profile),
    faultStats: () => seededFaults.stats(),
    rateLimitStats: () => rateLimit?.stats() ?? { admitted: 0, refused: 0 },
    failNextProvisioning: (reason = 'insufficient capacity in the region') => {
      ctx.provisioningFailures.push(reason);
    },
    failNextBackup: (status = 'BACKUP_STATUS_FAILED') => {
      ctx.backupFailures.push(status);
    },
    setProvisioningMs: (ms) => {
      ctx.provisioningMs = ms;
    },
    failBootstrap: (code, failOptions = {}) => {
      const message =
        failOptions.message ??
        (code === 'permission_denied'
          ? 'generating bootstrap commands needs write:hybrid_cloud_environments and write:management_keys'
          : 'bootstrap commands are not available for this environment');
      ctx.bootstrapFailure = { code, message, once: failOptions.once ?? true };
    },
    clearBootstrapFailure: () => {
      ctx.bootstrapFailure = undefined;
    },
    addMember: (email) => addMember(ctx, email),
    userToken: (email) => {
      const member = ctx.store.list<StoredMember>(MEMBERS.name).find((m) => m.user.email === email);
      if (!member) throw new Error(`${email} is not a member of account ${ctx.accountId}`);
      const token = `vdb_session_${randomHex(24).toLowerCase()}`;
      ctx.userSessions.set(token, member.user.id);
      return token;
    },
    packageId,
    close: async () => {
      await Promise.all([server.close(), endpoints?.close()]);
    },
  };
}
