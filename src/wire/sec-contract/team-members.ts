import { field, type ContractBodies } from './language.js';

const personName = () => field.string();

const accountView = (forUpdate: boolean) =>
  field.object({
    userName: field.string({ format: 'email', optional: forUpdate }),
    userEnabled: field.flag(),
    props: field.object({
      firstName: personName(),
      lastName: personName(),
      company: personName(),
      accountAdmin: field.boolean(),
    }),
  });
const orgView = (forUpdate: boolean) =>
  field.object({
    userName: field.string({ format: 'email', optional: forUpdate }),
    userEnabled: field.flag(),
    orgAdmin: field.boolean(),
    orgUser: field.boolean(),
    adminRoleAccounts: field.array(field.string(), { optional: true }),
    userRoleAccounts: field.array(field.string(), { optional: true }),
    props: field.object({ firstName: personName(), lastName: personName(), company: personName() }),
  });

/**
 * The request bodies of team members, in the account's view and, with organization access (header
 * `Org-Access: true`), in the organization's; an update may leave the user name out (it cannot change).
 */
export const TEAM_MEMBER_BODIES: ContractBodies = {
  TeamMembers: accountView(false),
  'TeamMembers:update': accountView(true),
  'TeamMembers:org': orgView(false),
  'TeamMembers:orgUpdate': orgView(true),
};
