import { attr, attrStep, dataSource, DiagnosticError, resourceSchema } from '@keel/provider-framework';
import type { SecClient } from '../../../clients/sec/index.js';

const schema = resourceSchema(
  {
    id: attr.computedId('The token alias (the same as `name`).'),
    name: attr.string({ required: true, description: 'The name (alias) of the agent access token to look up.' }),
    token: attr.string({ computed: true, sensitive: true, description: 'The agent access token itself.' }),
  },
  {
    description: 'Looks up an existing agent access token by its name, for example to hand it to agent installations.',
  },
);

export default dataSource<typeof schema.fields, SecClient>({
  typeName: 'sec_agent_access_token',
  schema,
  async read(config, ctx) {
    const tokens = await ctx.client.agentAccessTokens.list({ signal: ctx.signal });
    const found = tokens.find((t) => t.tokenAlias === config.name);
    if (!found) {
      throw new DiagnosticError(
        'Agent access token not found',
        `No agent access token is named ${JSON.stringify(config.name)}.`,
        [attrStep('name')],
      );
    }
    return { id: found.tokenAlias, token: found.accessToken };
  },
});
