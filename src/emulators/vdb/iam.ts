/**
 * IAMService and AccountService (docs/api/vdb.md, "Roles and members"): a permission catalog, three
 * system roles, custom roles, account members and their role assignments.
 */
import type { Permission, Role, StoredMember, User } from './records.js';
import type { WireObject } from './wire-codec.js';
import { VDB_SERVICES } from '../../wire/vdb-proto.js';
import {
  checkAccount,
  newId,
  nowTimestamp,
  removeStored,
  replacedBy,
  sentFields,
  stableUuid,
  type StoredKind,
  type VdbContext,
} from './context.js';
import { Violations, failedPrecondition, notFound, quoted } from './errors.js';
import type { ServiceRegistration } from './server.js';

/** The fields of a role the server sets (the others are the client's, kept as sent). */
const ROLE_SERVER_FIELDS = ['id', 'createdAt', 'lastModifiedAt', 'roleType', 'subType'] as const;

/**
 * Every permission the platform documents, under the section of its permission reference that
 * lists it (ListPermissions reports that heading as the category). `restore:backups` is named by
 * the API's method options (RestoreBackup, CreateClusterFromBackup) rather than by that page.
 */
const CATALOGUE: Readonly<Record<string, readonly string[]>> = {
  'Identity and Access Management': [
    ...crud('roles'),
    ...crud('management_keys'),
    ...crud('invites'),
    'read:users',
    'delete:users',
  ],
  Cluster: [
    ...crud('api_keys'),
    ...crud('backups'),
    'restore:backups',
    ...crud('clusters'),
    'read:cluster_data',
    'write:cluster_data',
    ...crud('backup_schedules'),
  ],
  'Hybrid Cloud': crud('hybrid_cloud_environments'),
  'Payment & Billing': ['read:payment_information', 'write:payment_information'],
  'Account Management': crud('account'),
  Profile: ['read:profile'],
};

function crud(area: string): string[] {
  return ['read', 'write', 'delete'].map((verb) => `${verb}:${area}`);
}

const PERMISSION_CATALOGUE: readonly Permission[] = Object.entries(CATALOGUE).flatMap(([category, values]) =>
  values.map((value) => ({ value, category })),
);

export interface StoredUserRoles {
  readonly userId: string;
  readonly roleIds: readonly string[];
}

/** Permissions, the owner/admin/base system roles and the account's members. */
export function seedIam(ctx: VdbContext, memberEmails: readonly string[]): void {
  for (const permission of PERMISSION_CATALOGUE) ctx.store.put(PERMISSIONS.name, permission.value, permission);
  const now = nowTimestamp(ctx);
  const system = (
    subType: Role['subType'],
    name: string,
    description: string,
    permissions: readonly Permission[],
  ): Role => ({
    id: stableUuid(`vdb-emulator/${ctx.accountId}/role/${name}`),
    createdAt: now,
    lastModifiedAt: now,
    accountId: ctx.accountId,
    name,
    description,
    roleType: 'ROLE_TYPE_SYSTEM',
    permissions,
    subType,
  });
  const roles = [
    // As the platform's role documentation describes them: the owner has everything, an admin all
    // but changing the account itself, the base role what every member needs to use the console.
    system(
      'SYSTEM_ROLE_SUB_TYPE_OWNER',
      'Owner',
      'All permissions, including account write permissions.',
      PERMISSION_CATALOGUE,
    ),
    system(
      'SYSTEM_ROLE_SUB_TYPE_ADMIN',
      'Admin',
      'All permissions except account write permissions.',
      PERMISSION_CATALOGUE.filter((p) => p.value !== 'write:account'),
    ),
    system(
      'SYSTEM_ROLE_SUB_TYPE_BASE',
      'Base',
      'The minimum every member needs.',
      PERMISSION_CATALOGUE.filter((p) => p.value === 'read:account' || p.value === 'read:profile'),
    ),
  ];
  for (const role of roles) ctx.store.put(ROLES.name, role.id, role);
  memberEmails.forEach((email, i) => addMember(ctx, email, i === 0));
}

export function addMember(ctx: VdbContext, email: string, isOwner = false): User {
  const user: User = {
    id: stableUuid(`vdb-emulator/${ctx.accountId}/user/${email}`),
    createdAt: nowTimestamp(ctx),
    lastModifiedAt: nowTimestamp(ctx),
    email,
    status: 'USER_STATUS_ACTIVE',
    defaultAccountId: ctx.accountId,
  };
  ctx.store.put(MEMBERS.name, user.id, { user, isOwner } satisfies StoredMember);
  const base = ctx.store
    .list<Role>(ROLES.name)
    .find((role) => role.subType === (isOwner ? 'SYSTEM_ROLE_SUB_TYPE_OWNER' : 'SYSTEM_ROLE_SUB_TYPE_BASE'));
  ctx.store.put(USER_ROLES.name, user.id, {
    userId: user.id,
    roleIds: base ? [base.id] : [],
  } satisfies StoredUserRoles);
  return user;
}

export const PERMISSIONS: StoredKind<'permissions', Permission> = { name: 'permissions', label: 'permission' };

export const ROLES: StoredKind<'roles', Role> = { name: 'roles', label: 'role' };

/** Keyed by user id. */
export const MEMBERS: StoredKind<'members', StoredMember> = { name: 'members', label: 'account member' };

/** A member's roles, keyed by user id; a deleted role is taken out of them. */
export const USER_ROLES: StoredKind<'userRoles', StoredUserRoles> = {
  name: 'userRoles',
  label: 'role assignment',
  refersTo: [{ to: ROLES.name, field: 'roleIds', whenDeleted: 'detach' }],
};

export const IAM_MODULE = { services: iamServices, storage: [PERMISSIONS, ROLES, MEMBERS, USER_ROLES] } as const;

function iamServices(ctx: VdbContext): ServiceRegistration[] {
  return [
    {
      service: VDB_SERVICES.iam,
      handlers: {
        ListPermissions: (request) => {
          checkAccount(ctx, request.accountId);
          return { permissions: ctx.store.list(PERMISSIONS.name) };
        },
        ListRoles: (request) => {
          checkAccount(ctx, request.accountId);
          return { items: ctx.store.list(ROLES.name) };
        },
        GetRole: (request) => {
          checkAccount(ctx, request.accountId);
          return { role: requireRole(ctx, request.roleId as string) };
        },
        CreateRole: (request) => ({ role: createRole(ctx, request.role as Role | undefined) }),
        UpdateRole: (request) => ({ role: updateRole(ctx, request.role as Role | undefined) }),
        DeleteRole: (request) => {
          checkAccount(ctx, request.accountId);
          const role = requireRole(ctx, request.roleId as string);
          if (role.roleType === 'ROLE_TYPE_SYSTEM')
            throw failedPrecondition(`system role ${role.name} cannot be deleted`);
          // Members who had it keep their other roles (USER_ROLES declares the reference).
          removeStored(ctx, ROLES, role.id);
          return {};
        },
        ListUserRoles: (request) => {
          checkAccount(ctx, request.accountId);
          const assignment = requireUserRoles(ctx, request.userId as string);
          return {
            roles: assignment.roleIds
              .map((id) => ctx.store.get<Role>(ROLES.name, id))
              .filter((role) => role !== undefined),
          };
        },
        AssignUserRoles: (request) => {
          checkAccount(ctx, request.accountId);
          assignUserRoles(ctx, request);
          return {};
        },
      },
    },
    {
      service: VDB_SERVICES.account,
      handlers: {
        ListAccountMembers: (request) => {
          checkAccount(ctx, request.accountId);
          const members = ctx.store.list<StoredMember>(MEMBERS.name);
          const items = members.map((member) => ({ accountMember: member.user, isOwner: member.isOwner }));
          return { items };
        },
      },
    },
  ];
}

function requireRole(ctx: VdbContext, id: string): Role {
  const role = ctx.store.get<Role>(ROLES.name, id);
  if (!role) throw notFound(`role ${id}`);
  return role;
}

function requireUserRoles(ctx: VdbContext, userId: string): StoredUserRoles {
  const assignment = ctx.store.get<StoredUserRoles>(USER_ROLES.name, userId);
  if (!assignment) throw notFound(`user ${userId}`);
  return assignment;
}

/**
 * The role's permissions, each once, from the catalogue: that they exist is the server's check; their
 * count and form, the name's and the type are the API's rules, held before the handler ran.
 */
function knownPermissions(ctx: VdbContext, role: Role): Permission[] {
  const v = new Violations();
  const resolved: Permission[] = [];
  const seen = new Set<string>();
  role.permissions.forEach((permission, i) => {
    const known = ctx.store.get<Permission>(PERMISSIONS.name, permission.value);
    if (!known) {
      v.add(
        `role.permissions[${i}].value`,
        `unknown permission ${quoted(permission.value)} (see ListPermissions)`,
        'permission.exists',
      );
    } else if (!seen.has(known.value)) {
      seen.add(known.value);
      resolved.push(known);
    }
  });
  v.throwIfAny();
  return resolved;
}

function createRole(ctx: VdbContext, input: Role | undefined): WireObject {
  // The API's rules held (request-rules.ts): a role is given, in bounds, without an id.
  const role = input!;
  checkAccount(ctx, role.accountId);
  const permissions = knownPermissions(ctx, role);
  const now = nowTimestamp(ctx);
  // Every field the client may set is kept as sent; the server sets the rest.
  const stored: Role = {
    ...sentFields(role, ROLE_SERVER_FIELDS),
    id: newId(),
    createdAt: now,
    lastModifiedAt: now,
    roleType: 'ROLE_TYPE_CUSTOM',
    permissions,
  };
  ctx.store.put(ROLES.name, stored.id, stored);
  return stored as unknown as WireObject;
}

function updateRole(ctx: VdbContext, input: Role | undefined): WireObject {
  // The API's rules held (request-rules.ts): a role with an id is given, in bounds.
  const role = input!;
  checkAccount(ctx, role.accountId);
  const permissions = knownPermissions(ctx, role);
  const current = requireRole(ctx, role.id);
  if (current.roleType === 'ROLE_TYPE_SYSTEM')
    throw failedPrecondition(`system role ${current.name} cannot be changed`);
  const stored: Role = {
    ...replacedBy(current, role, ROLE_SERVER_FIELDS),
    accountId: current.accountId,
    permissions,
    lastModifiedAt: nowTimestamp(ctx),
  };
  ctx.store.put(ROLES.name, stored.id, stored);
  return stored as unknown as WireObject;
}

function assignUserRoles(ctx: VdbContext, request: WireObject): void {
  const toAdd = (request.roleIdsToAdd as string[] | undefined) ?? [];
  const toDelete = (request.roleIdsToDelete as string[] | undefined) ?? [];
  // Not both empty, at most 100 UUIDs each: the API's rules, held before the handler ran.
  const assignment = requireUserRoles(ctx, request.userId as string);
  for (const id of [...toAdd, ...toDelete]) requireRole(ctx, id);
  const roleIds = [...assignment.roleIds.filter((id) => !toDelete.includes(id))];
  for (const id of toAdd) if (!roleIds.includes(id)) roleIds.push(id);
  ctx.store.put(USER_ROLES.name, assignment.userId, { ...assignment, roleIds });
}
