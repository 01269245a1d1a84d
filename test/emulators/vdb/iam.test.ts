/** IAMService and AccountService in the vdb emulator: permissions, roles, members and their roles. */
import { expect } from 'chai';
import type { VdbClient } from '../../../src/clients/vdb/index.js';
import { VDB_SERVICES } from '../../../src/wire/vdb-proto.js';
import type { VdbEmulator } from '../../../src/emulators/vdb/index.js';
import { failure, rawCall, useVdbEmulator } from './harness.js';

describe('vdb emulator', () => {
  let emulator: VdbEmulator;
  let vdb: VdbClient;
  let account: string;
  useVdbEmulator((session) => ({ emulator, vdb, account } = session));

  describe('IAM and members', () => {
    it('has system roles and a permission catalog; custom roles get categories filled', async () => {
      const roles = await vdb.iam.listRoles({ accountId: account });
      expect(roles.map((role) => [role.name, role.roleType, role.subType])).to.deep.equal([
        ['Owner', 'ROLE_TYPE_SYSTEM', 'SYSTEM_ROLE_SUB_TYPE_OWNER'],
        ['Admin', 'ROLE_TYPE_SYSTEM', 'SYSTEM_ROLE_SUB_TYPE_ADMIN'],
        ['Base', 'ROLE_TYPE_SYSTEM', 'SYSTEM_ROLE_SUB_TYPE_BASE'],
      ]);
      const permissions = await vdb.iam.listPermissions({ accountId: account });
      expect(permissions).to.deep.include({ value: 'read:backups', category: 'Cluster' });

      const role = await vdb.iam.createRole({
        accountId: account,
        name: 'Backup operators',
        description: 'Runs backups',
        permissions: ['read:backups', 'write:backups', 'read:backups'],
      });
      expect(role).to.deep.include({ roleType: 'ROLE_TYPE_CUSTOM', description: 'Runs backups' });
      expect(role.subType).to.equal(undefined);
      expect(role.permissions).to.deep.equal([
        { value: 'read:backups', category: 'Cluster' },
        { value: 'write:backups', category: 'Cluster' },
      ]);
      const updated = await vdb.iam.updateRole({
        id: role.id,
        accountId: account,
        name: 'Backup admins',
        permissions: ['delete:backups'],
      });
      expect(updated).to.deep.include({ name: 'Backup admins', description: '', createdAt: role.createdAt });
      expect(await vdb.iam.getRole({ accountId: account, roleId: role.id })).to.deep.equal(updated);

      const owner = roles[0]!;
      expect(
        await failure(
          vdb.iam.updateRole({ id: owner.id, accountId: account, name: 'Owner', permissions: ['read:clusters'] }),
          'invalid',
        ),
      ).to.include('system role Owner cannot be changed');
      expect(await failure(vdb.iam.deleteRole({ accountId: account, roleId: owner.id }), 'invalid')).to.include(
        'system role Owner cannot be deleted',
      );
      await vdb.iam.deleteRole({ accountId: account, roleId: role.id });
      await failure(vdb.iam.getRole({ accountId: account, roleId: role.id }), 'not_found');
    });

    it('lists every documented permission under its documented category, and roles may use each', async () => {
      // The platform's permission reference, section by section, plus restore:backups from the API's method options.
      const documented: Record<string, string[]> = {
        'Identity and Access Management': [
          'read:roles',
          'write:roles',
          'delete:roles',
          'read:management_keys',
          'write:management_keys',
          'delete:management_keys',
          'write:invites',
          'read:invites',
          'delete:invites',
          'read:users',
          'delete:users',
        ],
        Cluster: [
          'read:api_keys',
          'write:api_keys',
          'delete:api_keys',
          'read:backups',
          'write:backups',
          'delete:backups',
          'restore:backups',
          'read:clusters',
          'write:clusters',
          'delete:clusters',
          'read:cluster_data',
          'write:cluster_data',
          'read:backup_schedules',
          'write:backup_schedules',
          'delete:backup_schedules',
        ],
        'Hybrid Cloud': [
          'read:hybrid_cloud_environments',
          'write:hybrid_cloud_environments',
          'delete:hybrid_cloud_environments',
        ],
        'Payment & Billing': ['read:payment_information', 'write:payment_information'],
        'Account Management': ['read:account', 'write:account', 'delete:account'],
        Profile: ['read:profile'],
      };
      const expected = Object.entries(documented).flatMap(([category, values]) =>
        values.map((value) => ({ value, category })),
      );
      const listed = await vdb.iam.listPermissions({ accountId: account });
      expect([...listed].sort((a, b) => a.value.localeCompare(b.value))).to.deep.equal(
        [...expected].sort((a, b) => a.value.localeCompare(b.value)),
      );

      const role = await vdb.iam.createRole({
        accountId: account,
        name: 'Data and restores',
        permissions: ['restore:backups', 'read:cluster_data', 'write:cluster_data', 'read:account'],
      });
      expect(role.permissions).to.deep.equal([
        { value: 'restore:backups', category: 'Cluster' },
        { value: 'read:cluster_data', category: 'Cluster' },
        { value: 'write:cluster_data', category: 'Cluster' },
        { value: 'read:account', category: 'Account Management' },
      ]);

      // The system roles as documented: the owner has everything, an admin all but write:account.
      const roles = await vdb.iam.listRoles({ accountId: account });
      const valuesOf = (name: string) =>
        roles
          .find((r) => r.name === name)!
          .permissions.map((p) => p.value)
          .sort();
      expect(valuesOf('Owner')).to.deep.equal(expected.map((p) => p.value).sort());
      expect(valuesOf('Admin')).to.deep.equal(
        expected
          .map((p) => p.value)
          .filter((v) => v !== 'write:account')
          .sort(),
      );
    });

    it('validates roles', async () => {
      const message = await failure(
        vdb.iam.createRole({
          accountId: account,
          name: 'ops',
          description: 'x'.repeat(257),
          permissions: ['fly:rockets'],
        }),
        'invalid',
      );
      expect(message).to.include('role.name: must be at least 4 characters');
      expect(message).to.include('role.description: must be at most 256 characters');
      // The catalogue is the server's check, after the API's rules.
      expect(
        await failure(
          vdb.iam.createRole({ accountId: account, name: 'operators', permissions: ['fly:rockets'] }),
          'invalid',
        ),
      ).to.include('role.permissions[0].value: unknown permission "fly:rockets" (see ListPermissions)');
      expect(
        await failure(vdb.iam.createRole({ accountId: account, name: 'operators', permissions: [] }), 'invalid'),
      ).to.include('role.permissions: must contain at least 1 item(s)');
      const system = await rawCall(
        emulator,
        VDB_SERVICES.iam,
        'CreateRole',
        {
          role: {
            accountId: account,
            name: 'sneaky',
            roleType: 'ROLE_TYPE_SYSTEM',
            permissions: [{ value: 'read:clusters' }],
          },
        },
        { authorization: `apikey ${emulator.apiKey}` },
      );
      expect(system.error?.details).to.include('role.role_type: must be in list [2] [enum.in]');
    });

    it('lists members and assigns and removes their roles', async () => {
      const members = await vdb.accounts.listAccountMembers({ accountId: account });
      expect(members.map((member) => [member.user.email, member.isOwner])).to.deep.equal([
        ['owner@vdb-emulator.example', true],
        ['member@vdb-emulator.example', false],
      ]);
      const added = emulator.addMember('new@vdb-emulator.example');
      expect(
        (await vdb.accounts.listAccountMembers({ accountId: account })).map((member) => member.user.id),
      ).to.include(added.id);

      const member = members[1]!.user;
      const role = await vdb.iam.createRole({ accountId: account, name: 'Readers', permissions: ['read:clusters'] });
      const names = async () =>
        (await vdb.iam.listUserRoles({ accountId: account, userId: member.id })).map((r) => r.name);
      expect(await names()).to.deep.equal(['Base']);
      await vdb.iam.assignUserRoles({ accountId: account, userId: member.id, roleIdsToAdd: [role.id] });
      await vdb.iam.assignUserRoles({ accountId: account, userId: member.id, roleIdsToAdd: [role.id] });
      expect(await names()).to.deep.equal(['Base', 'Readers']);
      await vdb.iam.deleteRole({ accountId: account, roleId: role.id });
      expect(await names(), 'deleting a role unassigns it').to.deep.equal(['Base']);

      expect(await failure(vdb.iam.assignUserRoles({ accountId: account, userId: member.id }), 'invalid')).to.include(
        'role_ids_to_add and role_ids_to_delete cannot both be empty [assign.not_empty]',
      );
      await failure(
        vdb.iam.assignUserRoles({ accountId: account, userId: member.id, roleIdsToAdd: [crypto.randomUUID()] }),
        'not_found',
      );
      await failure(vdb.iam.listUserRoles({ accountId: account, userId: crypto.randomUUID() }), 'not_found');
    });
  });
});
