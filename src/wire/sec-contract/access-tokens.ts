import { field, type ContractBodies } from './language.js';

/** The longest lifetime a token may be asked for, in seconds (a day). */
export const MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/** The request bodies of the token endpoint (POST /api/v2/access/tokens; the secret goes in a header). */
export const ACCESS_TOKEN_BODIES: ContractBodies = {
  AccessTokens: field.object({
    keyId: field.string(),
    expiryTime: field.integer({ optional: true, min: 1, max: MAX_TOKEN_LIFETIME_SECONDS }),
  }),
};
