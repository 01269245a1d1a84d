/**
 * Overlapping `vdb_accounts_user_roles` under real Terraform (which keeps each resource's private
 * state): a resource takes back only the roles it granted, so destroying one of two resources that
 * name the same member leaves the roles the other granted, and roles the member had before either.
 */
import { expect } from 'chai';
import { VDB_COLLECTIONS, startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { createVdbClient, type VdbClient } from '../../src/clients/vdb/index.js';
import { vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { Workspace, requireTerraform } from './terraform.js';

const MEMBER = 'member@vdb-emulator.example';

describe('acceptance: overlapping vdb_accounts_user_roles under real Terraform', function () {
  this.timeout(300_000);
  let emulator: VdbEmulator;
  let api: VdbClient;
  let ws: Workspace;
  let memberId: string;
  /** The role the member was given in the console before Terraform ran. */
  let consoleRole: string;
  /** Role ids by name (r1, r2, r3), made outside the configurations under test. */
  const roles: Record<string, string> = {};

  const rolesOfMember = () =>
    new Set(emulator.get<{ roleIds: string[] }>(VDB_COLLECTIONS.userRoles, memberId)!.roleIds);
  const baseRole = () =>
    emulator.list<{ id: string; name: string }>(VDB_COLLECTIONS.roles).find((r) => r.name === 'Base')!.id;

  /** A configuration with the user-roles resources given as name → role names. */
  function config(resources: Record<string, string[]>): string {
    const blocks = Object.entries(resources).map(
      ([name, names]) =>
        `resource "vdb_accounts_user_roles" "${name}" {\n  user_email = "${MEMBER}"\n  role_ids   = [${names.map((n) => `"${roles[n]}"`).join(', ')}]\n}\n`,
    );
    return `terraform {\n  required_providers {\n    vdb = { source = "keel/vdb" }\n  }\n}\n\nprovider "vdb" {}\n\n${blocks.join('\n')}`;
  }

  async function apply(resources: Record<string, string[]>): Promise<void> {
    ws.writeConfig(config(resources));
    await ws.expect(['apply', '-auto-approve', '-no-color']);
  }

  /** `terraform plan -detailed-exitcode`: 0 = no changes, 2 = changes. */
  async function planCode(): Promise<number> {
    return (await ws.run(['plan', '-detailed-exitcode', '-no-color'])).code;
  }

  before(async function () {
    requireTerraform(this);
    emulator = await startVdbEmulator({ provisioningMs: 100 });
    api = createVdbClient({ apiUrl: emulator.url, apiKey: emulator.apiKey, userAgent: 'test' });
    const accountId = emulator.accountId;
    memberId = (await api.accounts.listAccountMembers({ accountId })).find((m) => m.user.email === MEMBER)!.user.id;
    for (const name of ['r0', 'r1', 'r2', 'r3'])
      roles[name] = (await api.iam.createRole({ accountId, name: `tf ${name}`, permissions: ['read:clusters'] })).id;
    consoleRole = roles.r0!;
    await api.iam.assignUserRoles({ accountId, userId: memberId, roleIdsToAdd: [consoleRole] });
    ws = new Workspace(config({}), vdbProviderEnv(emulator));
  });

  after(async () => {
    ws?.dispose();
    api?.close();
    await emulator?.close();
  });

  it('destroying the later of two overlapping resources leaves the roles of the other and the ones the member had before', async () => {
    await apply({ a: ['r1', 'r2'] });
    await apply({ a: ['r1', 'r2'], b: ['r0', 'r2', 'r3'] });
    expect(rolesOfMember()).to.deep.equal(new Set([baseRole(), consoleRole, roles.r1, roles.r2, roles.r3]));
    expect(await planCode()).to.equal(0);

    // b granted only r3: r2 came from a, r0 from the console.
    await apply({ a: ['r1', 'r2'] });
    expect(rolesOfMember()).to.deep.equal(new Set([baseRole(), consoleRole, roles.r1, roles.r2]));
    expect(await planCode(), 'a still has everything it names').to.equal(0);

    // A role dropped from a's role_ids goes only if a granted it.
    await apply({ a: ['r1', 'r2', 'r0'] });
    await apply({ a: ['r1'] });
    expect(rolesOfMember()).to.deep.equal(new Set([baseRole(), consoleRole, roles.r1]));
  });

  it('destroying the one that granted a shared role revokes it; the other assigns it again at its next apply', async () => {
    await apply({ a: ['r1', 'r2'] });
    await apply({ a: ['r1', 'r2'], b: ['r2', 'r3'] });
    await apply({ b: ['r2', 'r3'] });
    expect(rolesOfMember()).to.deep.equal(new Set([baseRole(), consoleRole, roles.r3]));
    expect(await planCode(), 'b shows r2 missing').to.equal(2);
    await apply({ b: ['r2', 'r3'] });
    expect(rolesOfMember()).to.deep.equal(new Set([baseRole(), consoleRole, roles.r2, roles.r3]));
    expect(await planCode()).to.equal(0);
    await apply({});
    expect(rolesOfMember(), 'b granted both r2 and r3 by now').to.deep.equal(new Set([baseRole(), consoleRole]));
  });

  it('created in one apply, exactly one of two resources grants a shared role; destroying both leaves what the member had', async () => {
    await apply({ a: ['r1', 'r2'], b: ['r2', 'r3'] });
    const state = await ws.state();
    expect([...state.keys()].sort()).to.deep.equal(['vdb_accounts_user_roles.a', 'vdb_accounts_user_roles.b']);
    const assigns = emulator.requests.filter((r) => r.method === 'AssignUserRoles').slice(-2);
    const added = assigns.flatMap((r) => (r.request?.roleIdsToAdd as string[] | undefined) ?? []);
    expect(
      added.filter((id) => id === roles.r2),
      'r2 is granted once',
    ).to.have.length(1);

    await apply({ b: ['r2', 'r3'] });
    const afterA = rolesOfMember();
    expect(afterA.has(roles.r1!)).to.equal(false);
    expect(afterA.has(roles.r3!)).to.equal(true);
    await apply({});
    expect(rolesOfMember()).to.deep.equal(new Set([baseRole(), consoleRole]));
  });
});
