import type { Clock, MemoryStore } from '../core/index.js';
import type { TokenRegistry } from './tokens.js';

/** Store collection names, also the path segment of each family under /api/v2. */
export const SEC_COLLECTIONS = {
  alertChannels: 'AlertChannels',
  agentAccessTokens: 'AgentAccessTokens',
} as const;

export type SecCollection = (typeof SEC_COLLECTIONS)[keyof typeof SEC_COLLECTIONS];

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
}
