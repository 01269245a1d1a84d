/**
 * `sec_access_token` (ephemeral): a short-lived API access token made from the provider's key and
 * secret, for a run that needs one (another tool, a provider block), never stored in plan or state.
 * What upstream's `api_token` data source gave, without putting the token in the state.
 */
import { attr, ephemeralResource, resourceSchema, validators } from '@keel/provider-framework';
import { MAX_TOKEN_LIFETIME_SECONDS } from '../../../wire/sec-contract/access-tokens.js';
import { checkedBy } from '../rules.js';
import type { SecClient } from '../../../clients/sec/index.js';

/** Ask for renewal this long before the token expires, so a run never holds an expired one. */
const RENEW_MARGIN_MS = 60_000;
/**
 * The provider's shortest lifetime, above the platform's 1 s: a token that lives less than the renewal
 * margin would be stale the moment it is handed out.
 */
const MIN_LIFETIME_SECONDS = RENEW_MARGIN_MS / 1000;
// The platform's bound is checked below, with the provider's stricter minimum.
const LIFETIME_CHECKS = [validators.intBetween(MIN_LIFETIME_SECONDS, MAX_TOKEN_LIFETIME_SECONDS)];
checkedBy('AccessTokens.expiryTime', 'range', {
  checks: LIFETIME_CHECKS,
  stricter: 'a token outlives the margin its renewal is asked for by',
});

const schema = resourceSchema(
  {
    lifetime_seconds: attr.number({
      optional: true,
      default: 3600,
      validate: LIFETIME_CHECKS,
      description:
        `How long the token lives, in seconds: ${MIN_LIFETIME_SECONDS} to ${MAX_TOKEN_LIFETIME_SECONDS} ` +
        "(the platform's maximum). Default 3600.",
    }),
    token: attr.string({
      computed: true,
      sensitive: true,
      description: 'The access token, sent as `Authorization: Bearer <token>`.',
    }),
    expires_at: attr.string({ computed: true, description: 'When the token expires (RFC 3339).' }),
  },
  {
    description:
      "A short-lived API access token made from the provider's `api_key` and `api_secret`, for this run " +
      'only: it is never stored in the plan or the state. The platform ' +
      'cannot extend a token: a run that outlasts it is told to ask for a longer `lifetime_seconds`.',
  },
);

export default ephemeralResource<typeof schema.fields, SecClient>({
  typeName: 'sec_access_token',
  schema,
  async open(config, ctx) {
    const issued = await ctx.client.accessTokens.issue(config.lifetime_seconds ?? 3600, { signal: ctx.signal });
    return {
      result: { token: issued.token, expires_at: issued.expiresAt.toISOString().replace(/\.\d+Z$/, 'Z') },
      renewAt: new Date(issued.expiresAt.getTime() - RENEW_MARGIN_MS),
      private: { expires_at: issued.expiresAt.toISOString() },
    };
  },
  async renew(priv, ctx) {
    // A token cannot be extended, and its value cannot change within a run: say when it runs out.
    ctx.diags.warning(
      'Access token about to expire',
      `The sec_access_token of this run expires at ${String(priv.expires_at)} and the platform cannot ` +
        `extend it. If the run still needs it then, set a longer lifetime_seconds.`,
    );
    return {};
  },
});
