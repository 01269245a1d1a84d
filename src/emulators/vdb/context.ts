import { createHash, randomUUID } from 'node:crypto';
import type { Clock, MemoryStore } from '../core/index.js';
import { timestampAt } from './wire-codec.js';
import { invalidArgument, permissionDenied } from './errors.js';
import { isUuid } from './rules.js';

/** Store collections (objects in the shapes of ./records.ts). */
export const VDB_COLLECTIONS = {
  clusters: 'clusters',
  /** v2 keys; the stored objects keep the secret `key`. */
  databaseApiKeys: 'databaseApiKeys',
  /** legacy v1 keys; the stored objects keep the secret `key`. */
  authKeys: 'authKeys',
  backupSchedules: 'backupSchedules',
  backups: 'backups',
  hybridEnvironments: 'hybridEnvironments',
  packages: 'packages',
  cloudProviders: 'cloudProviders',
  cloudProviderRegions: 'cloudProviderRegions',
  permissions: 'permissions',
  roles: 'roles',
  /** { user: User, isOwner } keyed by user id. */
  members: 'members',
  /** The latest bootstrap credentials of an environment, keyed by environment id (tests check rotation). */
  bootstrapCredentials: 'bootstrapCredentials',
  /** { userId, roleIds } keyed by user id. */
  userRoles: 'userRoles',
} as const;

/** What a cluster is doing and when that ends; clusters without one keep their stored state. */
export interface ClusterTransition {
  readonly kind: 'create' | 'update' | 'suspend' | 'resume';
  readonly startedAt: number;
  readonly endsAt: number;
  /** The platform's reason when the transition ends in failure. */
  readonly failReason?: string | undefined;
}

/**
 * Who makes a call. The platform serves both its console users (a session token per member) and
 * management keys, each made in the console by a member, whose address it keeps.
 */
export type Caller =
  | { readonly kind: 'management_key'; readonly ownerEmail: string }
  | { readonly kind: 'user'; readonly userId: string; readonly email: string }
  /** A public method called without credentials. */
  | { readonly kind: 'anonymous' };

/**
 * The `created_by_email` the platform records for an object made by this caller: a user's own
 * address; for a management key, what the object's kind records. A hybrid cloud environment records
 * the member the key belongs to (upstream's acceptance test, run with a management key against the
 * platform, finds it set); a database API key records nobody (vdb.md §2.2: "empty when created by a
 * management key").
 */
export function createdByEmail(caller: Caller, managementKeyRecords: 'its owner' | 'nobody'): string {
  if (caller.kind === 'user') return caller.email;
  return caller.kind === 'management_key' && managementKeyRecords === 'its owner' ? caller.ownerEmail : '';
}

export type BootstrapFailure = { readonly code: 'failed_precondition' | 'permission_denied'; readonly message: string };

export interface VdbContext {
  readonly store: MemoryStore;
  readonly clock: Clock;
  readonly accountId: string;
  /** How long create/update/suspend/resume take. */
  provisioningMs: number;
  /** Reasons for the next clusters whose provisioning must fail, oldest first. */
  readonly provisioningFailures: string[];
  /** How the next backups end instead of succeeding (e.g. `BACKUP_STATUS_FAILED`), oldest first. */
  readonly backupFailures: string[];
  /** Backups that end in another status than SUCCEEDED: backup id → that status. */
  readonly backupOutcomes: Map<string, string>;
  readonly transitions: Map<string, ClusterTransition>;
  /** Environment ids whose agents have "connected" at this time (set when bootstrap commands are generated). */
  readonly environmentReadyAt: Map<string, number>;
  /** Makes GenerateBootstrapCommands fail (then cleared after one use when `once`). */
  bootstrapFailure: (BootstrapFailure & { once: boolean }) | undefined;
  /** 0 = lists are not paginated unless the client asks. */
  defaultPageSize: number;
  /** Console session tokens of account members (`authorization: bearer <token>`) → user id. */
  readonly userSessions: Map<string, string>;
  /**
   * Where the clusters' own endpoints are served (database-endpoints.ts), `http://127.0.0.1:PORT`;
   * absent, cluster URLs have the platform's form, which nothing here answers.
   */
  databaseEndpoints?: string;
}

export function nowTimestamp(ctx: VdbContext): string {
  return timestampAt(ctx.clock.now());
}

export function newId(): string {
  return randomUUID();
}

/** A UUID that is the same in every run for the same seed (catalog ids that examples can show). */
export function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return (
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-` +
    `${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
  );
}

/**
 * The account of a request must be the key's account: empty or malformed is INVALID_ARGUMENT,
 * another account PERMISSION_DENIED (as the real service answers for a key of another account).
 */
export function checkAccount(ctx: VdbContext, path: string, accountId: unknown): void {
  const value = typeof accountId === 'string' ? accountId : '';
  if (value === '')
    throw invalidArgument(
      `validation error:\n - ${path}: value is empty, which is not a valid UUID [string.uuid_empty]`,
    );
  if (!isUuid(value)) throw invalidArgument(`validation error:\n - ${path}: value must be a valid UUID [string.uuid]`);
  if (value !== ctx.accountId) throw permissionDenied(`the API key has no access to account ${value}`);
}
