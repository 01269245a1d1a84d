export { startSecEmulator, type SecEmulator, type SecEmulatorOptions } from './emulator.js';
export { SEC_COLLECTIONS, type SecCollection } from './context.js';
export { TEST_FAILURE_MARKER } from './alert-channels.js';
export { INVENTORY_SCANS, type InventoryScanRecord } from './inventory.js';
export { ALERT_CHANNEL_DATA_SPECS } from './alert-channel-types.js';
export type { IntegrationRecord, IntegrationState } from './integrations.js';
export type { AgentAccessTokenRecord } from './agent-access-tokens.js';
export { FAULT_KINDS, FaultProfileError } from '../core/index.js';
export type { Fault, FaultKind, FaultProfileOptions, FaultStats, LoggedRequest } from '../core/index.js';
