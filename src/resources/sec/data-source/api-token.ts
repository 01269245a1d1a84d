/**
 * `sec_api_token`: an API access token made from the provider's key and secret. Kept for
 * configurations written for the upstream provider; the token ends up in the state, so new
 * configurations use the ephemeral resource `sec_access_token`, which never stores it.
 */
import { attr, dataSource, resourceSchema } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';

/** The lifetime the platform gives a token when none is asked for. */
const LIFETIME_SECONDS = 3600;

const schema = resourceSchema(
  {
    id: attr.computedId('When the token was made (UTC, RFC 3339); it has no meaning on the platform.'),
    token: attr.string({
      computed: true,
      sensitive: true,
      description: 'The access token, sent as `Authorization: Bearer <token>`; valid for an hour.',
    }),
  },
  {
    description:
      "An API access token made from the provider's `api_key` and `api_secret`, valid for an hour. Kept " +
      'for compatibility: the token is stored in the state. Use the ephemeral resource ' +
      '`sec_access_token` instead, which never stores it.',
    deprecated: 'The token is stored in the state. Use the ephemeral resource sec_access_token, which never stores it.',
  },
);

export default dataSource<typeof schema.fields, SecClient>({
  typeName: 'sec_api_token',
  schema,
  async read(_config, ctx) {
    const issued = await ctx.client.accessTokens.issue(LIFETIME_SECONDS, { signal: ctx.signal });
    return { id: new Date().toISOString(), token: issued.token };
  },
});
