import {
  declaredFields,
  HttpError,
  invalid,
  json,
  noContent,
  prefixedId,
  quote,
  randomHex,
  validate,
  type EmulatorRequest,
  type Router,
} from '../core/index.js';
import { TEAM_MEMBER_BODIES } from '../../wire/sec-contract/team-members.js';
import { API_PREFIX, type SecContext } from './context.js';
import { searchFilter, type SearchableField } from './search-filters.js';

export const TEAM_MEMBERS_COLLECTION = 'TeamMembers';
const BASE = `${API_PREFIX}/${TEAM_MEMBERS_COLLECTION}`;

/**
 * One user. Account-level members have an account role (`props.accountAdmin`); organization-level
 * members (created with organization access) have organization roles instead.
 */
export interface TeamMemberRecord {
  userGuid: string;
  userName: string;
  userEnabled: 0 | 1;
  custGuid: string;
  props: {
    firstName: string;
    lastName: string;
    company: string;
    accountAdmin: boolean;
    createdTime: string;
    updatedTime: string;
    updatedBy: string;
  };
  orgLevel: boolean;
  orgAdmin: boolean;
  orgUser: boolean;
  /** Upper-cased account names. */
  adminRoleAccounts: string[];
  userRoleAccounts: string[];
}

const ORG_FIELDS = ['orgAdmin', 'orgUser', 'adminRoleAccounts', 'userRoleAccounts'] as const;
const accountSpec = (forUpdate: boolean) => TEAM_MEMBER_BODIES[forUpdate ? 'TeamMembers:update' : 'TeamMembers']!;
const orgSpec = (forUpdate: boolean) => TEAM_MEMBER_BODIES[forUpdate ? 'TeamMembers:orgUpdate' : 'TeamMembers:org']!;

type Body = {
  userName?: string;
  userEnabled: 0 | 1;
  orgAdmin?: boolean;
  orgUser?: boolean;
  adminRoleAccounts?: string[];
  userRoleAccounts?: string[];
  props: { firstName: string; lastName: string; company: string; accountAdmin?: boolean };
};

const custGuids = new WeakMap<SecContext, string>();

export function registerTeamMemberRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: accountSpec(false) });
  router.document('PATCH', `${BASE}/:userGuid`, { body: accountSpec(true) });
  router.add('POST', BASE, (request) => {
    const body = parse(ctx, request, false);
    const wanted = body.userName!.toLowerCase();
    if (ctx.store.list<TeamMemberRecord>(TEAM_MEMBERS_COLLECTION).some((m) => m.userName.toLowerCase() === wanted)) {
      throw new HttpError(409, `a team member with user name ${quote(body.userName)} already exists`);
    }
    const now = ctx.clock.nowIso();
    const orgLevel = orgAccess(request);
    // Every field the contract declares is kept as sent; then what the platform normalises and sets.
    const sent = declaredFields((orgLevel ? orgSpec : accountSpec)(false), body) as Partial<TeamMemberRecord>;
    const record: TeamMemberRecord = {
      ...sent,
      userGuid: prefixedId(ctx.account.toUpperCase()),
      userName: body.userName!,
      userEnabled: body.userEnabled,
      custGuid: custGuidOf(ctx),
      props: {
        ...body.props,
        accountAdmin: body.props.accountAdmin ?? false,
        createdTime: now,
        updatedTime: now,
        updatedBy: ctx.username,
      },
      orgLevel,
      ...orgRoles(body),
    };
    ctx.store.put(TEAM_MEMBERS_COLLECTION, record.userGuid, record);
    return json(201, { data: present(ctx, record, orgLevel) });
  });

  router.add('GET', BASE, (request) =>
    json(200, {
      data: ctx.store.list<TeamMemberRecord>(TEAM_MEMBERS_COLLECTION).map((m) => present(ctx, m, orgAccess(request))),
    }),
  );
  router.add('GET', `${BASE}/:userGuid`, (request) =>
    json(200, { data: present(ctx, find(ctx, request.params.userGuid!), orgAccess(request)) }),
  );

  router.add('PATCH', `${BASE}/:userGuid`, (request) => {
    const existing = find(ctx, request.params.userGuid!);
    const body = parse(ctx, request, true);
    if (body.userName !== undefined && body.userName.toLowerCase() !== existing.userName.toLowerCase()) {
      throw invalid('body.userName cannot be changed; create a new team member instead');
    }
    const org = orgAccess(request);
    // An update replaces what it sends (a null clears a field); what it leaves out keeps its value.
    const sent = declaredFields((org ? orgSpec : accountSpec)(true), body) as Partial<TeamMemberRecord>;
    const updated: TeamMemberRecord = {
      ...existing,
      ...sent,
      userEnabled: body.userEnabled,
      props: {
        ...existing.props,
        ...sent.props,
        firstName: body.props.firstName,
        lastName: body.props.lastName,
        company: body.props.company,
        accountAdmin: org ? existing.props.accountAdmin : (body.props.accountAdmin ?? false),
        updatedTime: ctx.clock.nowIso(),
        updatedBy: ctx.username,
      },
      ...(org ? { orgLevel: true, ...orgRoles(body) } : {}),
    };
    ctx.store.put(TEAM_MEMBERS_COLLECTION, existing.userGuid, updated);
    return json(200, { data: present(ctx, updated, org) });
  });

  router.add('DELETE', `${BASE}/:userGuid`, (request) => {
    ctx.store.remove(TEAM_MEMBERS_COLLECTION, find(ctx, request.params.userGuid!).userGuid);
    return noContent();
  });

  router.add('POST', `${BASE}/search`, (request) => {
    const matches = searchFilter(request.body, SEARCHABLE);
    const rows = ctx.store
      .list<TeamMemberRecord>(TEAM_MEMBERS_COLLECTION)
      .filter(matches)
      .map((m) => present(ctx, m, orgAccess(request)));
    return ctx.searchPages.first(request, BASE, rows);
  });
  ctx.searchPages.register(router, BASE);
}

function orgAccess(request: EmulatorRequest): boolean {
  const value = request.headers['org-access'];
  return (Array.isArray(value) ? value[0] : value)?.toLowerCase() === 'true';
}

function custGuidOf(ctx: SecContext): string {
  let guid = custGuids.get(ctx);
  if (guid === undefined) custGuids.set(ctx, (guid = `${ctx.account.toUpperCase()}_${randomHex(16)}`));
  return guid;
}

function find(ctx: SecContext, userGuid: string): TeamMemberRecord {
  const record = ctx.store.get<TeamMemberRecord>(TEAM_MEMBERS_COLLECTION, userGuid);
  if (!record) throw new HttpError(404, `team member ${quote(userGuid)} not found`);
  return record;
}

/** Validates a body in the view the request's organization access selects. */
function parse(ctx: SecContext, request: EmulatorRequest, forUpdate: boolean): Body {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body must be an object');
  const record = body as Record<string, unknown>;
  if (orgAccess(request)) {
    const props = record.props;
    if (typeof props === 'object' && props !== null && 'accountAdmin' in props) {
      throw invalid(
        'body.props.accountAdmin is an account-level role; with organization access, give orgAdmin, orgUser, ' +
          'adminRoleAccounts or userRoleAccounts',
      );
    }
    validate(orgSpec(forUpdate), body, 'body');
    checkOrgRoles(ctx, body as Body);
  } else {
    const orgFields = ORG_FIELDS.filter((key) => key in record);
    if (orgFields.length > 0)
      throw invalid(
        `body.${orgFields[0]} is an organization-level role and needs organization access (header Org-Access: true)`,
      );
    validate(accountSpec(forUpdate), body, 'body');
  }
  return body as Body;
}

function checkOrgRoles(ctx: SecContext, body: Body): void {
  const adminAccounts = body.adminRoleAccounts ?? [];
  const userAccounts = body.userRoleAccounts ?? [];
  const perAccount = adminAccounts.length + userAccounts.length > 0;
  if (body.orgAdmin && body.orgUser) throw invalid('body.orgAdmin and body.orgUser cannot both be true');
  if (perAccount && (body.orgAdmin || body.orgUser)) {
    throw invalid(
      'body.adminRoleAccounts and body.userRoleAccounts grant per-account roles and cannot be combined with orgAdmin ' +
        'or orgUser',
    );
  }
  if (!perAccount && !body.orgAdmin && !body.orgUser) {
    throw invalid(
      'an organization-level team member needs a role: orgAdmin, orgUser, or accounts in adminRoleAccounts or ' +
        'userRoleAccounts',
    );
  }
  const known = new Set([ctx.account, ...ctx.subaccounts].map((a) => a.toUpperCase()));
  const seen = new Map<string, string>();
  for (const [list, accounts] of [
    ['adminRoleAccounts', adminAccounts],
    ['userRoleAccounts', userAccounts],
  ] as const) {
    accounts.forEach((account, index) => {
      const upper = account.toUpperCase();
      if (!known.has(upper)) throw invalid(`body.${list}[${index}]: the organization has no account ${quote(account)}`);
      const other = seen.get(upper);
      if (other !== undefined && other !== list)
        throw invalid(`body.${list}[${index}]: account ${quote(account)} is also in ${other}`);
      seen.set(upper, list);
    });
  }
}

function orgRoles(
  body: Body,
): Pick<TeamMemberRecord, 'orgAdmin' | 'orgUser' | 'adminRoleAccounts' | 'userRoleAccounts'> {
  const upper = (accounts: string[] | undefined) => [...new Set((accounts ?? []).map((a) => a.toUpperCase()))];
  return {
    orgAdmin: body.orgAdmin ?? false,
    orgUser: body.orgUser ?? false,
    adminRoleAccounts: upper(body.adminRoleAccounts),
    userRoleAccounts: upper(body.userRoleAccounts),
  };
}

/** The account view, or the organization view with one row per account the member reaches. */
function present(ctx: SecContext, m: TeamMemberRecord, orgView: boolean): Record<string, unknown> {
  // The fields the view's body declares, as held (but the roles, which each view shows its own way);
  // then the view's own shape of the others.
  const held: Record<string, unknown> = declaredFields((orgView ? orgSpec : accountSpec)(false), m);
  for (const field of ORG_FIELDS) delete held[field];
  const props = {
    ...(held.props as object | undefined),
    firstName: m.props.firstName,
    lastName: m.props.lastName,
    company: m.props.company,
    createdTime: m.props.createdTime,
    updatedTime: m.props.updatedTime,
    updatedBy: m.props.updatedBy,
  };
  if (!orgView)
    return {
      ...held,
      custGuid: m.custGuid,
      userGuid: m.userGuid,
      userName: m.userName,
      userEnabled: m.userEnabled,
      props: { ...props, accountAdmin: m.props.accountAdmin },
    };
  const row = (accountName: string, admin: boolean) => ({
    accountName,
    admin,
    custGuid: m.custGuid,
    userEnabled: m.userEnabled,
    userGuid: m.userGuid,
  });
  const everyAccount = [ctx.account, ...ctx.subaccounts].map((a) => a.toUpperCase());
  const accounts = !m.orgLevel
    ? [row(ctx.account.toUpperCase(), m.props.accountAdmin)]
    : m.orgAdmin || m.orgUser
      ? everyAccount.map((a) => row(a, m.orgAdmin))
      : [...m.adminRoleAccounts.map((a) => row(a, true)), ...m.userRoleAccounts.map((a) => row(a, false))];
  return {
    ...held,
    userGuid: m.userGuid,
    userName: m.userName,
    userEnabled: m.userEnabled,
    props,
    orgAccount: true,
    orgAdmin: m.orgLevel && m.orgAdmin,
    orgUser: m.orgLevel && m.orgUser,
    url: `${ctx.account}.sec-platform.example`,
    accounts,
  };
}

/** What a search may filter members on (search-filters.ts); user names compare in any case. */
const SEARCHABLE: Readonly<Record<string, SearchableField<TeamMemberRecord>>> = {
  userName: { read: (m) => m.userName, caseInsensitive: true },
  userGuid: { read: (m) => m.userGuid },
};
