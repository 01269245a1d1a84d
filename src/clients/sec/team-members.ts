import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, partialUpdate, placeDeclared, readingDeclared } from './declared.js';
import { envelope, flag, leavesUnread, optionalText, toFlag } from './wire.js';
import { searchAll } from './search.js';

/**
 * A team member. Read with organization access (provider `organization = true`, header
 * Org-Access), the platform adds the organization-level roles in `organization`.
 */
export interface TeamMember {
  readonly userGuid: string;
  /** The e-mail address. */
  readonly userName: string;
  readonly userEnabled: boolean;
  readonly props: {
    readonly firstName: string;
    readonly lastName: string;
    readonly company: string;
    /** Account-level administrator (account view only). */
    readonly accountAdmin: boolean;
    readonly createdTime: string;
    readonly updatedTime: string;
    readonly updatedBy: string;
  };
  readonly organization?: TeamMemberOrganization | undefined;
}

export interface TeamMemberOrganization {
  readonly orgAdmin: boolean;
  readonly orgUser: boolean;
  /** One row per account the member can reach; `admin` says in which role. */
  readonly accounts: readonly { readonly accountName: string; readonly admin: boolean; readonly userGuid: string }[];
}

/** An account-level member (no organization access). */
export interface TeamMemberInput extends Declaring {
  readonly userName: string;
  readonly userEnabled: boolean;
  readonly props: {
    readonly firstName: string;
    readonly lastName: string;
    readonly company: string;
    readonly accountAdmin: boolean;
  };
}

/** An organization-level member (needs organization access). */
export interface OrgTeamMemberInput extends Declaring {
  readonly userName: string;
  readonly userEnabled: boolean;
  readonly orgAdmin: boolean;
  readonly orgUser: boolean;
  readonly adminRoleAccounts: readonly string[];
  readonly userRoleAccounts: readonly string[];
  readonly props: { readonly firstName: string; readonly lastName: string; readonly company: string };
}

export interface TeamMembersApi {
  /** ApiError 'conflict' when the e-mail address is taken. */
  create(input: TeamMemberInput | OrgTeamMemberInput, options?: CallOptions): Promise<TeamMember>;
  /** ApiError 'not_found' when it does not exist. */
  get(userGuid: string, options?: CallOptions): Promise<TeamMember>;
  /** Replaces everything but the user name, which cannot change. */
  update(userGuid: string, input: TeamMemberInput | OrgTeamMemberInput, options?: CallOptions): Promise<TeamMember>;
  delete(userGuid: string, options?: CallOptions): Promise<void>;
  /** Members whose user name equals `userName` (zero or one). */
  search(userName: string, options?: CallOptions): Promise<TeamMember[]>;
  /** Every member. */
  list(options?: CallOptions): Promise<TeamMember[]>;
}

const BASE = '/api/v2/TeamMembers';

const accountRow = z.object({ accountName: z.string(), admin: z.boolean(), userGuid: z.string() });

const memberSchema = readingDeclared(
  leavesUnread(
    z.object({
      userGuid: z.string().optional(),
      userName: z.string(),
      userEnabled: flag,
      props: z
        .object({
          firstName: optionalText,
          lastName: optionalText,
          company: optionalText,
          accountAdmin: z
            .boolean()
            .nullish()
            .transform((v) => v ?? false),
          createdTime: optionalText,
          updatedTime: optionalText,
          updatedBy: optionalText,
        })
        .nullish()
        .transform(
          (p) =>
            p ?? {
              firstName: '',
              lastName: '',
              company: '',
              accountAdmin: false,
              createdTime: '',
              updatedTime: '',
              updatedBy: '',
            },
        ),
      // Present only in the organization view.
      orgAccount: z.boolean().optional(),
      orgAdmin: z.boolean().optional(),
      orgUser: z.boolean().optional(),
      accounts: z.array(accountRow).optional(),
    }),
    { custGuid: "the account's own id, the same on every member (the user profile reads it)" },
  ),
  'TeamMembers',
).transform((m, ctx): TeamMember => {
  // The organization view names the guid in its account rows
  // (docs/api/sec.md, "Account and organization views").
  const userGuid = m.userGuid ?? m.accounts?.[0]?.userGuid;
  if (!userGuid) {
    ctx.addIssue({ code: 'custom', path: ['userGuid'], message: 'the member has no userGuid' });
    return z.NEVER;
  }
  // Every field read besides the organization view's roles, which `organization` holds.
  const { orgAccount, orgAdmin, orgUser, accounts, ...own } = m;
  const base = { ...own, userGuid };
  if (orgAccount === undefined) return base;
  return {
    ...base,
    organization: { orgAdmin: orgAdmin ?? false, orgUser: orgUser ?? false, accounts: accounts ?? [] },
  };
});

const one = envelope(memberSchema);
const many = envelope(z.array(memberSchema));

function isOrgInput(input: TeamMemberInput | OrgTeamMemberInput): input is OrgTeamMemberInput {
  return 'orgAdmin' in input;
}

function memberBody(input: TeamMemberInput | OrgTeamMemberInput, forUpdate: boolean): Record<string, unknown> {
  // The user name identifies the member and cannot change: updates leave it out.
  const common = { ...(forUpdate ? {} : { userName: input.userName }), userEnabled: toFlag(input.userEnabled) };
  if (!isOrgInput(input)) {
    const body = { ...common, props: { ...input.props } };
    return placeDeclared(body, input.declared, forUpdate ? partialUpdate('TeamMembers:update') : {});
  }
  const body = {
    ...common,
    orgAdmin: input.orgAdmin,
    orgUser: input.orgUser,
    adminRoleAccounts: [...input.adminRoleAccounts],
    userRoleAccounts: [...input.userRoleAccounts],
    props: { ...input.props },
  };
  // The organization's view takes only what its own body declares.
  return placeDeclared(
    body,
    input.declared,
    forUpdate ? partialUpdate('TeamMembers:orgUpdate') : { only: 'TeamMembers:org' },
  );
}

export function teamMembersApi(http: SecHttp): TeamMembersApi {
  const path = (guid: string) => `${BASE}/${segment(guid)}`;
  return {
    async create(input, options) {
      return (
        await http.json(
          { method: 'POST', path: BASE, operation: `POST ${BASE}`, body: memberBody(input, false) },
          one,
          options,
        )
      ).data;
    },
    async get(userGuid, options) {
      return (
        await http.json({ method: 'GET', path: path(userGuid), operation: `GET ${BASE}/{userGuid}` }, one, options)
      ).data;
    },
    async update(userGuid, input, options) {
      const call = {
        method: 'PATCH',
        path: path(userGuid),
        operation: `PATCH ${BASE}/{userGuid}`,
        body: memberBody(input, true),
      } as const;
      return (await http.json(call, one, options)).data;
    },
    async delete(userGuid, options) {
      await http.empty({ method: 'DELETE', path: path(userGuid), operation: `DELETE ${BASE}/{userGuid}` }, options);
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
    async search(userName, options) {
      const call = {
        method: 'POST',
        path: `${BASE}/search`,
        operation: `POST ${BASE}/search`,
        body: { filters: [{ field: 'userName', expression: 'eq', value: userName }] },
        // A query: repeating it changes nothing.
        idempotent: true,
        changes: false,
      } as const;
      return searchAll(http, http.endpoint, call, memberSchema, options);
    },
  };
}
