/**
 * External ids for cross-account roles, in the platform's format (version 2):
 *
 *     seceid:<cloud>:v2:<account>:<cloud account id>:<10 random characters>
 *
 * The cloud is `cloud_a`, `cloud_b`, `cloud_c` or `cloud_d`; `<account>` is the platform account the
 * provider is configured for. The id is made by the provider alone (the platform keeps no record of
 * it) and used as the `credentials.external_id` of the cloud_a integrations' roles.
 */
import { randomInt } from 'node:crypto';
import {
  attr,
  DiagnosticError,
  type ModelOf,
  resource,
  type ResourceDef,
  resourceSchema,
  validators,
} from '@keel/provider-framework';
import type { SecClient } from '../../clients/sec/index.js';

export const EXTERNAL_ID_CLOUDS = ['cloud_a', 'cloud_b', 'cloud_c', 'cloud_d'] as const;
const PREFIX = 'seceid';
const VERSION = 'v2';
/** The characters the random part is drawn from: those a cross-account role's external id may hold. */
const RANDOM_CHARACTERS = '=,.@:/-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ1234567890';
const RANDOM_LENGTH = 10;

const schema = resourceSchema(
  {
    id: attr.sdkId('The external id (the same as `v2`).'),
    csp: attr.string({
      required: true,
      replace: true,
      validate: [validators.oneOf(...EXTERNAL_ID_CLOUDS)],
      description:
        `The cloud of the account to integrate: ` +
        `${EXTERNAL_ID_CLOUDS.map((c) => `\`${c}\``).join(', ')}. A change makes a new external id.`,
    }),
    account_id: attr.string({
      required: true,
      replace: true,
      validate: [
        validators.nonEmpty(),
        validators.matches(/^[^\s]+$/, 'an account id without spaces', ['123456789012']),
      ],
      description: 'The id of the cloud account to integrate. A change makes a new external id.',
    }),
    v2: attr.string({
      computed: true,
      description:
        `The external id, version 2: \`${PREFIX}:<csp>:${VERSION}` +
        `:<platform account>:<account_id>:<10 random characters>\`.`,
    }),
  },
  {
    description:
      "An external id for a cross-account role, in the platform's format (version 2), for the " +
      '`credentials.external_id` of the cloud_a integrations. The provider makes it; the platform ' +
      'keeps no record of it, so it is never read back and cannot be imported.',
  },
);
type Model = ModelOf<typeof schema.fields>;

function randomPart(): string {
  let out = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) out += RANDOM_CHARACTERS[randomInt(RANDOM_CHARACTERS.length)];
  return out;
}

const externalId = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_external_id',
  schema,
  // Not importable: the platform keeps no record that an import could find (nor has upstream an importer).
  identity: { attributes: { id: { description: 'The external id.', forImport: 'required' } } },
  repeatableCreate:
    'It creates nothing on the platform: the provider makes the external id itself, so a repeated create ' +
    'only draws another random part.',
  async create(plan, ctx) {
    const account = ctx.client.account.trim().toLowerCase();
    if (account === '')
      throw new DiagnosticError(
        'No platform account',
        'An external id names the platform account, but the provider is configured without one ' +
          '(`account` or `SEC_ACCOUNT`).',
      );
    const v2 = [PREFIX, plan.csp, VERSION, account, plan.account_id, randomPart()].join(':');
    return { id: v2, v2 };
  },
  // Nothing to read: the platform keeps no record of external ids.
  read: async (prior) => prior as Partial<Model>,
  // Nothing to delete either.
  delete: async () => {},
});

export const externalIdResources: ResourceDef<any, SecClient>[] = [externalId];
