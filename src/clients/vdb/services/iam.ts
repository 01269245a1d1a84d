/** IAMService (iam.v1): roles, their permissions, and the roles of a user. */
import { VDB_SERVICES } from '../../../wire/vdb-services.js';
import { many, nothing, one, ServiceCalls, type Sender } from '../calls.js';
import { type Answered, type Sent, VDB_ENUMS, type VdbEnum } from '../messages.js';

export const ROLE_TYPES = VDB_ENUMS['iam.v1.RoleType'];
export type RoleType = VdbEnum<'iam.v1.RoleType'>;
export const SYSTEM_ROLE_SUB_TYPES = VDB_ENUMS['iam.v1.SystemRoleSubType'];
export type SystemRoleSubType = VdbEnum<'iam.v1.SystemRoleSubType'>;
export const USER_STATUSES = VDB_ENUMS['iam.v1.UserStatus'];
export type UserStatus = VdbEnum<'iam.v1.UserStatus'>;

/** A permission: its value (`read:backups`) and category (`Cluster`, `Account`). */
export type Permission = Answered<'iam.v1.Permission'>;

/**
 * A custom role as created: its permissions by value only (the server fills the categories), and any other
 * field the client may set (sent as given, so a field the `.proto` gains needs nothing here).
 */
export type RoleInput = Omit<
  Sent<'iam.v1.Role', 'accountId' | 'name'>,
  'id' | 'createdAt' | 'lastModifiedAt' | 'roleType' | 'subType' | 'permissions'
> & { readonly permissions: readonly string[] };
export type RoleUpdate = RoleInput & { readonly id: string };
export type Role = Answered<'iam.v1.Role'>;
export type User = Answered<'iam.v1.User'>;

/** The role message of a create or an update: always a custom role, its permissions by value. */
function roleMessage(input: RoleInput) {
  const { permissions, ...sent } = input;
  return { ...sent, roleType: 'ROLE_TYPE_CUSTOM', permissions: permissions.map((value) => ({ value })) };
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
