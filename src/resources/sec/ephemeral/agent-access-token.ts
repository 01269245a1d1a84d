/**
 * `sec_agent_access_token` (ephemeral): the secret of an existing agent access token, looked up by
 * name, for an agent installer or a write-only argument, without it ever entering the state.
 */
import { attr, attrStep, DiagnosticError, ephemeralResource, resourceSchema } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';

const schema = resourceSchema(
  {
    name: attr.string({
      required: true,
      description:
        'The name (alias) of the agent access token. For a token this configuration creates, give the ' +
        "resource's `id` (`sec_agent_access_token.<name>.id`), not the name as text: an ephemeral " +
        'resource is opened while planning as soon as its arguments are known, before the token exists, ' +
        'and waits until apply only for a value known after apply.',
    }),
    token: attr.string({ computed: true, sensitive: true, description: 'The agent access token itself.' }),
    enabled: attr.bool({ computed: true, description: 'Whether agents may use the token.' }),
  },
  {
    description:
      'The secret of an existing agent access token, looked up by name, for this run only: it is never ' +
      'stored in the plan or the state. Use it for an agent installer or a write-only argument.',
  },
);

export default ephemeralResource<typeof schema.fields, SecClient>({
  typeName: 'sec_agent_access_token',
  schema,
  async open(config, ctx) {
    const found = (await ctx.client.agentAccessTokens.search(config.name, { signal: ctx.signal })).find(
      (t) => t.tokenAlias === config.name,
    );
    if (!found) {
      throw new DiagnosticError(
        'Agent access token not found',
        `No agent access token is named ${JSON.stringify(config.name)}. ` +
          "If this configuration creates it, set `name` to the resource's `id` (`sec_agent_access_token.<name>.id`) " +
          'rather than the name as text: Terraform opens an ephemeral resource as soon as its arguments are known, ' +
          'while planning, before the token is created.',
        [attrStep('name')],
      );
    }
    return { result: { token: found.accessToken, enabled: found.tokenEnabled } };
  },
});
