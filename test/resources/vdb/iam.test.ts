/**
 * Custom roles and user role assignments through the provider executable against the in-process
 * emulator.
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS } from '../../../src/emulators/vdb/index.js';
import type { Role } from '../../../src/clients/vdb/api.js';
import type { ObjectValue } from '../../../packages/framework/src/schema/value.js';
import { startHarness, type Harness } from './harness.js';

const ROLE = 'vdb_accounts_role';
const USER_ROLES = 'vdb_accounts_user_roles';

describe('vdb IAM', function () {
  this.timeout(60_000);
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  const storedRole = (id: string) => h.emulator.get<Role>(VDB_COLLECTIONS.roles, id)!;
  const rolesOf = (userId: string) => h.emulator.get<{ roleIds: string[] }>(VDB_COLLECTIONS.userRoles, userId)!.roleIds;

  it('role: create with permissions (categories filled), update in place, import, drift, destroy', async () => {
    const plain = {
      name: 'tf backup operator',
      description: 'Runs backups',
      permissions: [{ value: 'read:backups' }, { value: 'write:backups' }, { value: 'read:roles' }],
    };
    let state = await h.converge(ROLE, null, plain);
    const id = state.id as string;
    expect(state).to.deep.include({ role_type: 'ROLE_TYPE_CUSTOM', account_id: h.emulator.accountId, sub_type: '' });
    const categories = Object.fromEntries((state.permissions as ObjectValue[]).map((p) => [p.value, p.category]));
    expect(categories).to.deep.equal({
      'read:backups': 'Cluster',
      'write:backups': 'Cluster',
      'read:roles': 'Identity and Access Management',
    });
    expect(storedRole(id)).to.deep.include({
      name: 'tf backup operator',
      description: 'Runs backups',
      roleType: 'ROLE_TYPE_CUSTOM',
    });

    const changed = { name: 'tf backup admin', permissions: [{ value: 'read:backups' }, { value: 'delete:backups' }] };
    expect((await h.plan(ROLE, state, changed)).requiresReplace).to.deep.equal([]);
    state = await h.converge(ROLE, state, changed);
    expect(state.id).to.equal(id);
    expect(
      storedRole(id)
        .permissions.map((p) => p.value)
        .sort(),
    ).to.deep.equal(['delete:backups', 'read:backups']);
    expect(storedRole(id).description).to.equal('');

    const imported = await h.tf.importState(ROLE, id);
    expect(imported).to.deep.include({ id, name: 'tf backup admin', description: null });
    expect(await h.isNoOp(ROLE, imported, changed)).to.equal(true);

    h.emulator.put(VDB_COLLECTIONS.roles, id, {
      ...storedRole(id),
      permissions: [{ value: 'read:backups', category: 'Cluster' }],
    });
    const drifted = (await h.tf.read(ROLE, state)).state!;
    expect((drifted.permissions as ObjectValue[]).map((p) => p.value)).to.deep.equal(['read:backups']);
    expect(await h.isNoOp(ROLE, drifted, changed)).to.equal(false);

    await h.destroy(ROLE, drifted);
    expect(h.emulator.get(VDB_COLLECTIONS.roles, id)).to.equal(undefined);
    expect((await h.tf.read(ROLE, drifted)).state).to.equal(null);
  });

  it('role: bad names and permission strings fail at plan time with paths', async () => {
    const bad = await h.failure(
      h.tf.validateResource(ROLE, h.config(ROLE, { name: 'x', permissions: [{ value: 'everything' }] })),
    );
    expect(bad.diagnostics.map((d) => d.path).sort()).to.deep.equal(['name', 'permissions']);
    expect(bad.diagnostics.find((d) => d.path === 'permissions')!.detail).to.match(/read:backups/);
  });

  it('user roles: adds only missing roles, reads drift, moves between roles, leaves foreign roles alone, no import', async () => {
    const member = h.emulator.addMember('tf-dev@vdb-emulator.example');
    const baseRoles = rolesOf(member.id);
    expect(baseRoles).to.have.length(1);
    const reader = await h.converge(ROLE, null, { name: 'tf reader', permissions: [{ value: 'read:clusters' }] });
    const writer = await h.converge(ROLE, null, { name: 'tf writer', permissions: [{ value: 'write:clusters' }] });

    const plain = { user_email: member.email, role_ids: [reader.id, writer.id] };
    let state = await h.converge(USER_ROLES, null, plain);
    expect(state).to.deep.include({
      id: `${h.emulator.accountId}/${member.id}`,
      user_id: member.id,
      keep_on_destroy: false,
    });
    expect(rolesOf(member.id)).to.have.members([...baseRoles, reader.id, writer.id]);

    // Someone removes a role elsewhere: the refresh shows it, the plan adds it back.
    h.emulator.put(VDB_COLLECTIONS.userRoles, member.id, { userId: member.id, roleIds: [...baseRoles, reader.id] });
    const drifted = (await h.tf.read(USER_ROLES, state)).state!;
    expect(drifted.role_ids).to.deep.equal([reader.id]);
    state = await h.converge(USER_ROLES, drifted, plain);
    expect(rolesOf(member.id)).to.have.members([...baseRoles, reader.id, writer.id]);

    // Dropping a role from the configuration revokes it; the base role it never managed stays.
    state = await h.converge(USER_ROLES, state, { ...plain, role_ids: [writer.id] });
    expect(rolesOf(member.id)).to.have.members([...baseRoles, writer.id]);

    const noImport = await h.failure(h.tf.importState(USER_ROLES, `${h.emulator.accountId}/${member.id}`));
    expect(noImport.diagnostics[0]!.summary).to.equal('Import not supported');

    await h.destroy(USER_ROLES, state);
    expect(rolesOf(member.id)).to.deep.equal(baseRoles);

    const unknown = await h.failure(
      h.converge(USER_ROLES, null, { user_email: 'nobody@vdb-emulator.example', role_ids: [reader.id] }),
    );
    // Known at plan, the member is looked up then (engine/catalogue/reference-checks.ts).
    expect(unknown.diagnostics[0]).to.deep.include({ summary: 'Names no existing object', path: 'user_email' });
    expect(unknown.diagnostics[0]!.detail).to.match(
      /^"nobody@vdb-emulator\.example" is none of the members \(by e-mail address\) the platform holds in account /,
    );

    // keep_on_destroy leaves the roles assigned.
    const kept = await h.converge(USER_ROLES, null, {
      user_email: member.email,
      role_ids: [reader.id],
      keep_on_destroy: true,
    });
    await h.destroy(USER_ROLES, kept);
    expect(rolesOf(member.id)).to.include(reader.id);
    await h.destroy(ROLE, reader);
    await h.destroy(ROLE, writer);
  });
});
