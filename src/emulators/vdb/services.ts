/**
 * What the vdb emulator is made of: its service modules. Each answers one or more gRPC services of
 * the vdb protos (its handlers) and declares the kinds of object it stores (see StoredKind in
 * ./context.ts); ./index.ts says how to add a call or a kind of object.
 */
import { BACKUP_MODULE } from './backups.js';
import { CATALOG_MODULE } from './catalog.js';
import { CLUSTER_MODULE } from './clusters.js';
import type { StoredKind, VdbContext } from './context.js';
import { HYBRID_MODULE } from './hybrid.js';
import { IAM_MODULE } from './iam.js';
import { KEY_MODULE } from './keys.js';
import type { ServiceRegistration } from './server.js';

export interface VdbServiceModule {
  /** Its gRPC services, one registration each, handlers bound to the emulator's context. */
  readonly services: (ctx: VdbContext) => ServiceRegistration[];
  /** The kinds of object its handlers store. */
  readonly storage: readonly StoredKind[];
}

export const SERVICE_MODULES = [
  CLUSTER_MODULE,
  KEY_MODULE,
  BACKUP_MODULE,
  HYBRID_MODULE,
  CATALOG_MODULE,
  IAM_MODULE,
] as const satisfies readonly VdbServiceModule[];

type CollectionName = (typeof SERVICE_MODULES)[number]['storage'][number]['name'];

/**
 * Every kind stored, each collection declared once, and every reference to a declared kind: the
 * emulator does not start otherwise (a reference to nothing would make deletions leave objects behind).
 */
export function checkedKinds(kinds: readonly StoredKind[]): readonly StoredKind[] {
  const names = new Set<string>();
  for (const kind of kinds) {
    if (names.has(kind.name)) throw new Error(`vdb emulator: the collection ${kind.name} is declared twice`);
    names.add(kind.name);
  }
  for (const kind of kinds) {
    for (const reference of kind.refersTo ?? []) {
      if (!names.has(reference.to)) {
        throw new Error(
          `vdb emulator: ${kind.name}.${reference.field} refers to ${reference.to}, which no service module stores`,
        );
      }
    }
  }
  return kinds;
}

export const STORED_KINDS: readonly StoredKind[] = checkedKinds(
  SERVICE_MODULES.flatMap((module): readonly StoredKind[] => module.storage),
);

/** The store's collections by name, for the test handles (VdbEmulator.list, get, put, remove). */
export const VDB_COLLECTIONS = Object.fromEntries(STORED_KINDS.map((kind) => [kind.name, kind.name])) as {
  readonly [Name in CollectionName]: Name;
};

export function vdbServices(ctx: VdbContext): ServiceRegistration[] {
  return SERVICE_MODULES.flatMap((module) => module.services(ctx));
}
