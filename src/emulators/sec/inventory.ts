import { HttpError, json, type Router } from '../core/index.js';
import { API_PREFIX, type SecContext } from './context.js';
import { CLOUD_ACCOUNTS } from './cloud-accounts.js';
import type { IntegrationRecord } from './integrations.js';
import { INVENTORY_CLOUDS, type InventoryCloud } from '../../wire/sec-contract/inventory.js';

/**
 * The resource inventory's scan on demand: `POST /api/v2/Inventory/scan?csp=<cloud>`, no body,
 * answered at once with `{"data": {"status": "scanning", "details": "Scan has been requested"}}` while
 * the platform scans in the background. Modelled on the platform's public API as its SDKs call it
 * (the Go SDK's `Inventory.Scan(csp)` and its test fixture, the Python SDK's `inventory.scan(csp)`),
 * with the neutral cloud names of resource groups for `csp` (docs/decisions.md, "Neutral names").
 *
 * Not documented there, so ours: a scan of a cloud needs an enabled configuration integration of that
 * cloud (where the inventory comes from), else 400 with a message saying so; tests make a scan be
 * refused with `refuseInventoryScan`.
 */
export { INVENTORY_CLOUDS, type InventoryCloud };

/** The configuration integrations that feed each cloud's inventory. */
const CONFIGURATION_TYPES: Record<InventoryCloud, readonly string[]> = {
  CLOUD_A: ['CloudACfg', 'CloudAGovCfg'],
  CLOUD_B: ['CloudBCfg'],
  CLOUD_C: ['CloudCCfg'],
};

/** Store collection of the scans asked for, oldest first (keyed by a sequence number). */
export const INVENTORY_SCANS = 'InventoryScans';

export interface InventoryScanRecord {
  readonly csp: InventoryCloud;
  /** Emulator time of the request (ms). */
  readonly requestedAt: number;
  readonly requestedBy: string;
}

export function registerInventoryRoutes(router: Router, ctx: SecContext): void {
  router.add('POST', `${API_PREFIX}/Inventory/scan`, (request) => {
    const csp = request.query.get('csp');
    if (csp === null || !(INVENTORY_CLOUDS as readonly string[]).includes(csp)) {
      const given = csp === null ? 'none was given' : `got ${JSON.stringify(csp)}`;
      throw new HttpError(400, `csp must be one of ${INVENTORY_CLOUDS.join(', ')}; ${given}`);
    }
    const cloud = csp as InventoryCloud;
    const refusal = ctx.inventoryScanRefusals.get(cloud);
    if (refusal !== undefined) throw new HttpError(400, refusal);
    const integrated = ctx.store
      .list<IntegrationRecord>(CLOUD_ACCOUNTS.collection)
      .some((record) => record.enabled === 1 && CONFIGURATION_TYPES[cloud].includes(record.type));
    if (!integrated) {
      throw new HttpError(
        400,
        `no enabled ${cloud} configuration integration (${CONFIGURATION_TYPES[cloud].join(' or ')}): nothing to scan`,
      );
    }
    const id = String(ctx.store.ids(INVENTORY_SCANS).length + 1);
    const record: InventoryScanRecord = { csp: cloud, requestedAt: ctx.clock.now(), requestedBy: ctx.username };
    ctx.store.put(INVENTORY_SCANS, id, record);
    return json(200, { data: { status: 'scanning', details: 'Scan has been requested' } });
  });
}
