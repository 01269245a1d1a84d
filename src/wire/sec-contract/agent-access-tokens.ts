import { field, type ContractBodies } from './language.js';

/** The operating systems agents run on. */
export const AGENT_OPERATING_SYSTEMS = ['linux', 'windows'] as const;

const props = field.object(
  {
    description: field.string({ optional: true, allowEmpty: true }),
    os: field.string({ optional: true, oneOf: AGENT_OPERATING_SYSTEMS }),
  },
  { optional: true },
);

/** The request bodies of agent access tokens: a create, and an update that may leave any field out. */
export const AGENT_ACCESS_TOKEN_BODIES: ContractBodies = {
  AgentAccessTokens: field.object({ tokenAlias: field.string(), tokenEnabled: field.flag(), props }),
  'AgentAccessTokens:update': field.object({
    tokenAlias: field.string({ optional: true }),
    tokenEnabled: field.flag({ optional: true }),
    props,
  }),
};
