import { type ContractBodies, field } from './language.js';

/** The clouds whose inventory the platform scans (its `csp` values, as resource groups name them). */
export const INVENTORY_CLOUDS = ['CLOUD_A', 'CLOUD_B', 'CLOUD_C'] as const;
export type InventoryCloud = (typeof INVENTORY_CLOUDS)[number];

/**
 * `POST /api/v2/Inventory/scan?csp=<cloud>` takes no body: its rules are its query's, named as a body
 * (`Inventory:scan`), so that one place says them.
 */
export const INVENTORY_BODIES: ContractBodies = {
  'Inventory:scan': field.object({ csp: field.string({ oneOf: INVENTORY_CLOUDS }) }),
};
