import { json, type Router } from '../core/index.js';
import { CLOUD_ACCOUNT_DATA_SPECS } from '../../wire/sec-contract/cloud-accounts.js';
import { API_PREFIX, type SecContext } from './context.js';
import {
  presentIntegration,
  registerIntegrationRoutes,
  type IntegrationFamily,
  type IntegrationRecord,
} from './integrations.js';

/**
 * Cloud-account integrations (docs/api/sec.md, "Cloud account types"): the `data` of each type is sec's
 * contract's (src/wire/sec-contract/cloud-accounts.ts).
 */
export { CLOUD_ACCOUNT_DATA_SPECS };

/** Scanners report with a server token, issued on create. */
const SERVER_TOKEN_TYPES = new Set([
  'CloudAAgentless',
  'CloudAAgentlessOrg',
  'CloudBAgentless',
  'CloudCAgentless',
  'CloudADspm',
  'CloudCDspm',
]);

export const CLOUD_ACCOUNTS: IntegrationFamily = {
  collection: 'CloudAccounts',
  label: 'cloud account',
  dataSpecs: CLOUD_ACCOUNT_DATA_SPECS,
  issuesServerToken: (type) => SERVER_TOKEN_TYPES.has(type),
};

export function registerCloudAccountRoutes(router: Router, ctx: SecContext): void {
  registerIntegrationRoutes(router, ctx, CLOUD_ACCOUNTS);

  // GET /CloudAccounts/{type} lists one type; literal segments win over the {intgGuid} route.
  for (const type of Object.keys(CLOUD_ACCOUNT_DATA_SPECS)) {
    router.add('GET', `${API_PREFIX}/${CLOUD_ACCOUNTS.collection}/${type}`, () =>
      json(200, {
        data: ctx.store
          .list<IntegrationRecord>(CLOUD_ACCOUNTS.collection)
          .filter((record) => record.type === type)
          .map((record) => presentIntegration(CLOUD_ACCOUNTS, record)),
      }),
    );
  }
}
