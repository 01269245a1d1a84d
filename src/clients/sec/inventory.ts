import { z } from 'zod';
import type { CallOptions, SecHttp } from './http.js';
import { envelope } from './wire.js';
import type { InventoryCloud } from '../../wire/sec-contract/inventory.js';

/** The clouds whose resource inventory the platform scans (the neutral `csp` values): sec's contract's. */
export { INVENTORY_CLOUDS, type InventoryCloud } from '../../wire/sec-contract/inventory.js';

/** What the platform says of a scan it was asked for, e.g. `scanning` / "Scan has been requested". */
export interface InventoryScan {
  readonly status: string;
  readonly details: string;
}

export interface InventoryApi {
  /**
   * Asks the platform to scan the resources of a cloud's integrated accounts now
   * (`POST /api/v2/Inventory/scan?csp=…`, no body); it answers at once and scans in the background.
   */
  scan(cloud: InventoryCloud, options?: CallOptions): Promise<InventoryScan>;
}

const PATH = '/api/v2/Inventory/scan';
const response = envelope(z.object({ status: z.string(), details: z.string().optional().default('') }));

export function inventoryApi(http: SecHttp): InventoryApi {
  return {
    async scan(cloud, options) {
      const call = {
        method: 'POST',
        path: `${PATH}?csp=${encodeURIComponent(cloud)}`,
        operation: `POST ${PATH}`,
        // Asking for a scan again while one runs only asks again: safe to repeat.
        idempotent: true,
      } as const;
      return (await http.json(call, response, options)).data;
    },
  };
}
