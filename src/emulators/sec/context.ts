import type { Clock, MemoryStore } from '../core/index.js';
import type { SearchPages } from './search-pages.js';
import type { TokenRegistry } from './tokens.js';

/** Store collection names, also the path segment of each family under /api/v2. */
export const SEC_COLLECTIONS = {
  alertChannels: 'AlertChannels',
  agentAccessTokens: 'AgentAccessTokens',
} as const;

export type SecCollection = (typeof SEC_COLLECTIONS)[keyof typeof SEC_COLLECTIONS];

// Collections that more than one family reads (a policy evaluates a query, which cannot be deleted
// while a policy uses it), kept here so that neither family imports the other.
/** Store collection of policies, keyed by `policyId`. */
export const POLICIES = 'Policies';
/** Store collection of policy exceptions, keyed by `exceptionId` (deleting a policy removes its exceptions). */
export const POLICY_EXCEPTIONS = 'Exceptions';
/** Store collection of queries, keyed by `queryId`. */
export const QUERIES = 'Queries';

export const API_PREFIX = '/api/v2';

/** Everything the sec handlers share. */
export interface SecContext {
  readonly store: MemoryStore;
  readonly clock: Clock;
  /** Account subdomain, e.g. "acme". */
  readonly account: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** The API user every change is attributed to. */
  readonly username: string;
  /** Sub-accounts an `Account-Name` header may name (besides the account itself). */
  readonly subaccounts: readonly string[];
  readonly tokens: TokenRegistry;
  /** Channel test failures injected by tests: intgGuid → message. */
  readonly channelTestFailures: Map<string, string>;
  /** Inventory scans refused by tests: cloud (`CLOUD_A` …) → message. */
  readonly inventoryScanRefusals: Map<string, string>;
  /** The pages of search answers. */
  readonly searchPages: SearchPages;
}
