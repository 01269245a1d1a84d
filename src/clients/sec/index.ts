export { createSecClient, type SecClient, type SecClientConfig } from './client.js';
export type { CallOptions } from './http.js';
export type { SecLogger } from './transport.js';
export type { RetryPolicy } from './retry.js';
export type { Integration, IntegrationInput, IntegrationState } from './integration.js';
export {
  ALERT_CHANNEL_TYPES,
  type AlertChannelData,
  type AlertChannelType,
} from './alert-channel-data.js';
export type { AlertChannel, AlertChannelInput, AlertChannelsApi } from './alert-channels.js';
export type {
  AgentAccessToken,
  AgentAccessTokenInput,
  AgentAccessTokenUpdate,
  AgentAccessTokensApi,
} from './agent-access-tokens.js';
export type { UserProfile, UserProfileAccount, UserProfileApi } from './user-profile.js';
export type { InventoryApi, InventoryCloud, InventoryScan } from './inventory.js';
export { decodeJsonDataUrl, encodeJsonDataUrl } from './data-url.js';
export { isLoopbackHost } from './base-url.js';
export { ApiError, type ApiErrorCode, isApiError } from '@keel/provider-framework/client';
