/**
 * The vdb emulator: the platform's gRPC management API on loopback, for tests and examples.
 *
 * Where things are. Each service module answers one or more gRPC services and declares what it
 * stores: clusters.ts (ClusterService), keys.ts (database API keys v1 and v2), backups.ts,
 * hybrid.ts, catalog.ts (booking and platform), iam.ts (IAM and accounts). services.ts lists the
 * modules; server.ts serves them (authentication, request log, faults); context.ts holds what they
 * share, with StoredKind and removeStored; records.ts the messages' shapes, as the .proto files give
 * them; wire-codec.ts reads and writes protobuf. emulator.ts starts it all and gives tests their handles.
 *
 * To answer a new call of a service the emulator already serves, in that service's module:
 * 1. add the method's handler to the module's registration of the service (`handlers`; a method
 *    that needs no API key goes in `public` too). Handlers receive the decoded request (camelCase,
 *    shapes of records.ts), throw RpcError (errors.ts) to refuse, and return the response message.
 *    A method not in the .proto (proto/vdb, then `npm run build`), or a second registration of the
 *    service, stops the emulator at start saying so; a method left without a handler answers
 *    UNIMPLEMENTED.
 * 2. test it in test/emulators/vdb/<module>.test.ts.
 * A new service: its full name in VDB_SERVICES (src/wire/vdb-services.ts, shared with the client),
 * then a registration of it in the module it belongs with, or a new module exporting
 * `{ services, storage }` added to SERVICE_MODULES in services.ts.
 *
 * To store a new kind of object, in the module whose calls make it:
 * 1. add its shape to records.ts (as the .proto says) if the call's messages do not have it yet;
 * 2. declare it: `export const THINGS: StoredKind<'things', Thing> = { name, label, refersTo }`, and
 *    put it in the module's `storage`. `refersTo` says what each object points to by id and what
 *    deleting that does to it: `remove` (it goes too, or with the last of an array of ids),
 *    `detach` (the id is taken out), `refuse` (no deletion while it exists); `onlyIfAsked` ties a
 *    removal to a flag of the delete call. Add `refresh` when reads must bring it up to date, and
 *    `forget` for state kept beside the store.
 * 3. read and write it with `ctx.store` under `THINGS.name`, and delete with removeStored(ctx,
 *    THINGS, id), which removes what refers to it as declared: no other module changes. Tests find
 *    it as VDB_COLLECTIONS.things.
 */
export { DEFAULT_PROVISIONING_MS, startVdbEmulator, type VdbEmulator, type VdbEmulatorOptions } from './emulator.js';
export { VDB_COLLECTIONS } from './services.js';
export { FAIL_PROVISIONING_LABEL } from './clusters.js';
export { DEFAULT_DATABASE_VERSION } from './cluster-state.js';
export { HYBRID_PROVIDER, packageId } from './catalog.js';
export type { BootstrapCredentials } from './hybrid.js';
export { RETRY_AFTER_METADATA, type VdbFault, type VdbLoggedRequest } from './server.js';
export { FAULT_KINDS, FaultProfileError } from '../core/index.js';
export type { FaultKind, FaultProfileOptions, FaultStats } from '../core/index.js';
