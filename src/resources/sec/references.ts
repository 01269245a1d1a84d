/**
 * How the sec platform lists the objects arguments name (`refersTo`), so the plan checks that each
 * known id names one it holds (engine/catalogue/reference-checks.ts). Channels a rule names must also be of the
 * kind the rule sends to: an e-mail channel for a report, an object store for a data export.
 */
import type { ReferenceKinds } from '@keel/provider-framework';
import type { SecClient } from '../../clients/sec/index.js';

const channelsOfType = (type: string | undefined) => async (client: SecClient, _scope: string, signal: AbortSignal) =>
  (await client.alertChannels.list({ signal }))
    .filter((c) => type === undefined || c.type === type)
    .map((c) => c.intgGuid);

const channels = { what: 'alert channels', list: channelsOfType(undefined) };

export const SEC_REFERENCES: ReferenceKinds<SecClient> = {
  'alert channels': channels,
  'an alert channel': channels,
  'e-mail alert channels': { what: 'e-mail alert channels', list: channelsOfType('EmailUser') },
  'object-store alert channels': { what: 'object-store alert channels', list: channelsOfType('CloudAObjectStore') },
  'resource groups': {
    what: 'resource groups',
    list: async (client, _scope, signal) =>
      (await client.resourceGroups.list({ signal })).map((g) => g.resourceGroupGuid),
  },
  'a query': {
    what: 'queries',
    list: async (client, _scope, signal) => (await client.queries.list({ signal })).map((q) => q.queryId),
    madeBy: { sec_query: 'query_id' },
  },
  'an alert profile': {
    what: 'alert profiles',
    list: async (client, _scope, signal) => (await client.alertProfiles.list({ signal })).map((p) => p.alertProfileId),
    madeBy: { sec_alert_profile: 'name' },
  },
};
