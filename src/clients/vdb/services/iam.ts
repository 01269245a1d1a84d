/** IAMService (iam.v1): roles, their permissions, and the roles of a user. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';

export const ROLE_TYPES = ['ROLE_TYPE_UNSPECIFIED', 'ROLE_TYPE_SYSTEM', 'ROLE_TYPE_CUSTOM'] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

export const SYSTEM_ROLE_SUB_TYPES = [
  'SYSTEM_ROLE_SUB_TYPE_UNSPECIFIED',
  'SYSTEM_ROLE_SUB_TYPE_OWNER',
  'SYSTEM_ROLE_SUB_TYPE_ADMIN',
  'SYSTEM_ROLE_SUB_TYPE_BASE',
] as const;
export type SystemRoleSubType = (typeof SYSTEM_ROLE_SUB_TYPES)[number];

export const USER_STATUSES = [
  'USER_STATUS_UNSPECIFIED',
  'USER_STATUS_ACTIVE',
  'USER_STATUS_BLOCKED',
  'USER_STATUS_DELETED',
] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export interface Permission {
  /** e.g. `read:backups`. */
  readonly value: string;
  /** e.g. `Cluster`, `Account`. */
  readonly category?: string | undefined;
}

export interface RoleInput {
  readonly accountId: string;
  readonly name: string;
  readonly description?: string | undefined;
  /** Only the values are sent; the server fills the categories. At least one. */
  readonly permissions: readonly string[];
}

export interface RoleUpdate extends RoleInput {
  readonly id: string;
}

export interface Role {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly lastModifiedAt?: string | undefined;
  readonly accountId: string;
  readonly name: string;
  readonly description: string;
  readonly roleType: RoleType;
  readonly permissions: readonly Permission[];
  readonly subType?: SystemRoleSubType | undefined;
}

export interface User {
  readonly id: string;
  readonly createdAt?: string | undefined;
  readonly lastModifiedAt?: string | undefined;
  readonly email: string;
  readonly status: UserStatus;
  readonly defaultAccountId: string;
}

/** The role message of a create or an update: always a custom role, its permissions by value. */
function roleMessage(input: RoleInput) {
  return {
    accountId: input.accountId,
    name: input.name,
    description: input.description,
    roleType: 'ROLE_TYPE_CUSTOM',
    permissions: input.permissions.map((value) => ({ value })),
  };
}

export type IamApi = ReturnType<typeof iamApi>;

export function iamApi(sender: Sender) {
  const calls = new ServiceCalls(sender, VDB_SERVICES.iam);
  return {
    listRoles: calls.unary<{ accountId: string }, Role[]>({
      method: 'ListRoles',
      safety: 'read',
      answer: many('items', ['id']),
    }),

    getRole: calls.unary<{ accountId: string; roleId: string }, Role>({
      method: 'GetRole',
      safety: 'read',
      answer: one('role', ['id']),
    }),

    /** Sent with role_type CUSTOM. Retried only when declined (see Errors in ../api.ts). */
    createRole: calls.unary<RoleInput, Role>({
      method: 'CreateRole',
      safety: 'once',
      request: (input) => ({ role: roleMessage(input) }),
      answer: one('role', ['id']),
    }),

    /** Sent with role_type CUSTOM. */
    updateRole: calls.unary<RoleUpdate, Role>({
      method: 'UpdateRole',
      safety: 'idempotent',
      request: (input) => ({ role: { id: input.id, ...roleMessage(input) } }),
      answer: one('role', ['id']),
    }),

    deleteRole: calls.unary<{ accountId: string; roleId: string }, void>({
      method: 'DeleteRole',
      safety: 'idempotent',
      answer: nothing,
    }),

    /** Every permission that can go into a custom role. */
    listPermissions: calls.unary<{ accountId: string }, Permission[]>({
      method: 'ListPermissions',
      safety: 'read',
      answer: many('permissions', ['value']),
    }),

    /** The roles assigned to one user in the account. */
    listUserRoles: calls.unary<{ accountId: string; userId: string }, Role[]>({
      method: 'ListUserRoles',
      safety: 'read',
      answer: many('roles', ['id']),
    }),

    /** At least one of the two lists must be non-empty. Retried (adding/removing is idempotent). */
    assignUserRoles: calls.unary<
      {
        accountId: string;
        userId: string;
        roleIdsToAdd?: readonly string[] | undefined;
        roleIdsToDelete?: readonly string[] | undefined;
      },
      void
    >({ method: 'AssignUserRoles', safety: 'idempotent', answer: nothing }),
  };
}
