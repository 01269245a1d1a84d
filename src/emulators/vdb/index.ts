export { DEFAULT_PROVISIONING_MS, startVdbEmulator, type VdbEmulator, type VdbEmulatorOptions } from './emulator.js';
export { VDB_COLLECTIONS } from './services.js';
export { FAIL_PROVISIONING_LABEL } from './clusters.js';
export { DEFAULT_DATABASE_VERSION } from './cluster-state.js';
export { HYBRID_PROVIDER, packageId } from './catalog.js';
export type { BootstrapCredentials } from './hybrid.js';
export { RETRY_AFTER_METADATA, type VdbFault, type VdbLoggedRequest } from './server.js';
export { FAULT_KINDS, FaultProfileError } from '../core/index.js';
export type { FaultKind, FaultProfileOptions, FaultStats } from '../core/index.js';
