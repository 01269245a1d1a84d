import { createHash, randomUUID } from 'node:crypto';
import type { Clock, MemoryStore } from '../core/index.js';
import { timestampAt } from './wire-codec.js';
import { failedPrecondition, permissionDenied } from './errors.js';

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
 * platform, finds it set); a database API key records nobody, so its field stays empty
 * (docs/api/vdb.md, "Creator e-mail addresses").
 */
export function createdByEmail(caller: Caller, managementKeyRecords: 'its owner' | 'nobody'): string {
  if (caller.kind === 'user') return caller.email;
  return caller.kind === 'management_key' && managementKeyRecords === 'its owner' ? caller.ownerEmail : '';
}

export type BootstrapFailure = { readonly code: 'failed_precondition' | 'permission_denied'; readonly message: string };

export interface VdbContext {
  readonly store: MemoryStore;
  /** Every kind of object stored, as the service modules declare them (services.ts gathers them). */
  readonly storage: readonly StoredKind[];
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

/**
 * What a client set of a message: the message as sent, but the fields the server sets, so that a store
 * keeps every field the `.proto` lets a client set with no line of its own.
 */
export function sentFields<T extends object, K extends keyof T>(message: T, serverSet: readonly K[]): Omit<T, K> {
  const sent: Partial<T> = { ...message };
  for (const key of serverSet) delete sent[key];
  return sent as Omit<T, K>;
}

/**
 * What a whole replacement of `current` stores: `message` as sent (a field it leaves out is gone), but the
 * fields the server sets as `current` holds them.
 */
export function replacedBy<T extends object, K extends keyof T>(current: T, message: T, serverSet: readonly K[]): T {
  const kept: Partial<T> = {};
  for (const key of serverSet) if (current[key] !== undefined) kept[key] = current[key];
  return { ...sentFields(message, serverSet), ...kept } as T;
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
 * The account of a request must be the key's account: another account is PERMISSION_DENIED (as the
 * real service answers for a key of another account).
 */
export function checkAccount(ctx: VdbContext, accountId: unknown): void {
  // That it is a UUID is the API's rule, held before any handler runs (request-rules.ts).
  if (accountId !== ctx.accountId) throw permissionDenied(`the API key has no access to account ${String(accountId)}`);
}

// ---------------------------------------------------------------------------------------------
// storage declarations

/**
 * A kind of object the emulator stores, declared once by the service module that answers for it:
 * its collection in the store, and the objects of other kinds it refers to by id, which decide what
 * deleting one of those does to it (removeStored). Its shape is the message's, in ./records.ts.
 */
export interface StoredKind<Name extends string = string, T = any> {
  /** The store's collection, also its key in VDB_COLLECTIONS (the test handles' names). */
  readonly name: Name;
  /** What one object is called in messages, e.g. `hybrid cloud environment`. */
  readonly label: string;
  readonly refersTo?: readonly Reference<T>[];
  /** Brings a stored object up to date (a transition that has ended) before the test handles read it. */
  refresh?(ctx: VdbContext, id: string): unknown;
  /** Drops what the emulator keeps about the object beside the store, when the API removes it. */
  forget?(ctx: VdbContext, id: string): void;
}

/** The flags of a delete call that decide what goes with the deleted object. */
export interface DeleteOptions {
  readonly deleteBackups?: boolean;
}

/** An object's reference to an object of another kind, and what deleting that object does to it. */
export interface Reference<T> {
  /** The collection of the kind referred to. */
  readonly to: string;
  /** The field holding the id referred to, or the ids (an array). */
  readonly field: keyof T & string;
  /**
   * - `remove`: the object goes with the one it refers to; with an array of ids, the id is taken out
   *   and the object goes with the last one;
   * - `detach`: the id is taken out of the array and the object stays;
   * - `refuse`: the deletion is refused (FAILED_PRECONDITION) while the object refers to it.
   */
  readonly whenDeleted: 'remove' | 'detach' | 'refuse';
  /** `remove` only when the delete call sets this flag; otherwise the object is kept as it is. */
  readonly onlyIfAsked?: keyof DeleteOptions;
  /** Objects this refuses do not refer (a cluster refers to a hybrid environment only when it is hybrid). */
  applies?(item: T): boolean;
}

/**
 * Removes an object as a delete call does, and with it what the declarations say: what refers to it
 * with `remove` goes too (and, in turn, what refers to that), `detach` takes its id out of the
 * objects that list it. A `refuse` stops the whole deletion before anything is removed.
 */
export function removeStored(ctx: VdbContext, kind: StoredKind, id: string, options: DeleteOptions = {}): void {
  const doomed: Array<{ kind: StoredKind; id: string }> = [];
  const isDoomed = (collection: string, itemId: string): boolean =>
    doomed.some((entry) => entry.kind.name === collection && entry.id === itemId);
  const queue = [{ kind, id }];
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (isDoomed(next.kind.name, next.id)) continue;
    doomed.push(next);
    for (const { referrer, reference, itemId, item } of referencesTo(ctx, next.kind, next.id)) {
      if (!removesWith(reference, options)) continue;
      const value = item[reference.field];
      const left = Array.isArray(value) ? value.filter((other) => !isDoomed(reference.to, String(other))) : [];
      if (left.length === 0) queue.push({ kind: referrer, id: itemId });
    }
    refuseIfReferred(ctx, next.kind, next.id);
  }
  for (const entry of doomed) {
    ctx.store.remove(entry.kind.name, entry.id);
    entry.kind.forget?.(ctx, entry.id);
  }
  // What stays but listed a removed object (with `detach`, or `remove` with other ids left) no longer lists it.
  for (const referrer of ctx.storage) {
    for (const reference of referrer.refersTo ?? []) {
      if (reference.whenDeleted !== 'detach' && !removesWith(reference, options)) continue;
      for (const itemId of ctx.store.ids(referrer.name)) {
        const item = ctx.store.get<Record<string, unknown>>(referrer.name, itemId)!;
        const value = item[reference.field];
        if (!Array.isArray(value) || !value.some((other) => isDoomed(reference.to, String(other)))) continue;
        const kept = value.filter((other) => !isDoomed(reference.to, String(other)));
        ctx.store.put(referrer.name, itemId, { ...item, [reference.field]: kept });
      }
    }
  }
}

/** Whether deleting what the reference points to, with these flags, removes the referring object. */
function removesWith(reference: Reference<any>, options: DeleteOptions): boolean {
  if (reference.whenDeleted !== 'remove') return false;
  return reference.onlyIfAsked === undefined || options[reference.onlyIfAsked] === true;
}

interface Referral {
  readonly referrer: StoredKind;
  readonly reference: Reference<any>;
  readonly itemId: string;
  readonly item: Record<string, unknown>;
}

/** The objects that refer to one object, by the declarations of every kind. */
function referencesTo(ctx: VdbContext, kind: StoredKind, id: string): Referral[] {
  const found: Referral[] = [];
  for (const referrer of ctx.storage) {
    for (const reference of referrer.refersTo ?? []) {
      if (reference.to !== kind.name) continue;
      for (const itemId of ctx.store.ids(referrer.name)) {
        const item = ctx.store.get<Record<string, unknown>>(referrer.name, itemId)!;
        if (reference.applies && !reference.applies(item)) continue;
        const value = item[reference.field];
        if (Array.isArray(value) ? value.includes(id) : value === id) found.push({ referrer, reference, itemId, item });
      }
    }
  }
  return found;
}

function refuseIfReferred(ctx: VdbContext, kind: StoredKind, id: string): void {
  const refusing = referencesTo(ctx, kind, id).filter(({ reference }) => reference.whenDeleted === 'refuse');
  const first = refusing[0];
  if (!first) return;
  const blockers = refusing.filter(({ referrer }) => referrer === first.referrer);
  const names = blockers.map(({ item, itemId }) => String(item.name ?? itemId));
  throw failedPrecondition(
    `${kind.label} ${id} still has ${blockers.length} ${first.referrer.label}(s) (${names.join(', ')}); ` +
      'delete them first',
  );
}
