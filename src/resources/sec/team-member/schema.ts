import { attr, block, type ModelOf, resourceSchema, validators } from '@keel/provider-framework';
import { notBlankEntries, sameIgnoringCase, sameTextIgnoringCase } from '../governance-values.js';
import { checkedBy, secRules } from '../rules.js';
import { wireFields } from '../wired-fields.js';

// Every view of a member's body takes the same e-mail address: the one attribute checks them all.
for (const body of ['TeamMembers:update', 'TeamMembers:org', 'TeamMembers:orgUpdate'])
  checkedBy(`${body}.userName`, 'format', { sameAs: 'TeamMembers.userName' });

/**
 * Attributes that are one field of the body as it is, by the field's path (../wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped in
 * index.ts.
 */
export const wired = wireFields(
  'TeamMembers',
  {
    id: attr.sdkId('The user GUID of the member (the same as `guid`).'),
    email: attr.string({
      required: true,
      replace: true,
      validate: secRules('TeamMembers.userName', { trimmed: true }),
      equal: sameTextIgnoringCase,
      description:
        'The e-mail address, which is also the user name. The platform cannot change it, so a change ' +
        'replaces the member.',
    }),
    first_name: attr.string({ required: true, validate: [validators.nonEmpty()], description: 'First name.' }),
    last_name: attr.string({ required: true, validate: [validators.nonEmpty()], description: 'Last name.' }),
    company: attr.string({ required: true, validate: [validators.nonEmpty()], description: 'Company name.' }),
    enabled: attr.bool({
      optional: true,
      default: true,
      description: 'Whether the member can sign in. Default `true`.',
    }),
    administrator: attr.bool({
      optional: true,
      default: false,
      description:
        'Make the member an administrator of the account. Account-level members only: conflicts with ' +
        '`organization`. Default `false`.',
    }),
    organization: block.one(
      {
        administrator: attr.bool({
          optional: true,
          default: false,
          description: 'Make the member an administrator of the whole organization. Default `false`.',
        }),
        user: attr.bool({
          optional: true,
          default: false,
          description: 'Make the member a user of the whole organization. Default `false`.',
        }),
        admin_accounts: attr.stringSet({
          optional: true,
          validate: [notBlankEntries],
          equal: sameIgnoringCase,
          description: 'Accounts of the organization the member administers (names compare case-insensitively).',
        }),
        user_accounts: attr.stringSet({
          optional: true,
          validate: [notBlankEntries],
          equal: sameIgnoringCase,
          description: 'Accounts of the organization the member uses (names compare case-insensitively).',
        }),
      },
      {
        description:
          'Makes this an organization-level member, with organization-wide or per-account roles. Needs ' +
          '`organization = true` in the provider configuration. Give exactly one kind of role: ' +
          '`administrator`, `user`, or account lists.',
      },
    ),
    guid: attr.string({ computed: true, description: 'The user GUID.' }),
    created_time: attr.string({ computed: true, description: 'When the member was created.' }),
    updated_time: attr.string({ computed: true, volatile: true, description: 'When the member was last changed.' }),
    updated_by: attr.string({ computed: true, volatile: true, description: 'Who last changed the member.' }),
  },
  {},
  { update: 'TeamMembers:update' },
);

export const schema = resourceSchema(wired.fields, {
  description:
    'A team member: a user of the account, or, with an `organization` block and the provider in ' +
    'organization mode, of the organization.',
});

export type Model = ModelOf<typeof schema.fields>;
export type OrganizationModel = Model['organization'][number];
