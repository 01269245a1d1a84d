/**
 * `terraform import` of an empty id or of an id no object has, for every importable type of both
 * providers: Terraform's usual messages, whichever step (ImportResourceState, or the ReadResource that
 * follows) finds out. First through the provider executables, then what a user of the real CLI sees,
 * with `terraform import` and with an `import {}` block.
 */
import { expect } from 'chai';
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import { loadProviderDef } from '../../src/providers/describe.js';
import { ProviderCallError, TerraformClient } from '../../src/tfclient/terraform-client.js';
import { secProviderEnv, vdbProviderEnv } from '../../src/tfclient/terraform-cli.js';
import { BIN_DIR, Workspace, requireTerraform } from './terraform.js';

const NON_EXISTENT = 'Cannot import non-existent remote object';
/** Terraform's detail, as its CLI wraps it: only the words matter. */
const nonExistentDetail = (target: string) =>
  `While attempting to import an existing object to ${target}, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use "terraform apply" to create a new remote object for this resource.`;
const words = (text: string) => text.replace(/\s+/g, ' ');

const MISSING_UUID = '00000000-0000-4000-8000-00000000abcd';
/** A well-formed id that names nothing, in the form the type's import id takes. */
function missingId(importIdDescription: string | undefined): string {
  if (importIdDescription?.includes('/')) return `${MISSING_UUID}/${MISSING_UUID}`;
  if (importIdDescription?.includes(':')) return `acme-missing-1:${MISSING_UUID}`;
  return MISSING_UUID;
}

describe('import of an empty or unknown id', function () {
  this.timeout(300_000);
  let sec: SecEmulator;
  let vdb: VdbEmulator;

  before(async () => {
    sec = await startSecEmulator();
    vdb = await startVdbEmulator();
  });
  after(async () => {
    await sec?.close();
    await vdb?.close();
  });

  for (const name of ['sec', 'vdb'] as const) {
    it(`${name}: every importable type answers an empty id and an unknown one as Terraform does`, async () => {
      const def = await loadProviderDef(name);
      const tf = await TerraformClient.start(
        `${BIN_DIR}/terraform-provider-${name}`,
        name === 'sec' ? secProviderEnv(sec) : vdbProviderEnv(vdb),
      );
      try {
        await tf.configure({});
        const importable = def.resources.filter((r) => r.importState);
        expect(importable.length).to.be.above(5);
        for (const r of importable) {
          for (const id of ['', '  ']) {
            const empty = await tf.importState(r.typeName, id).then(
              () => null,
              (e: unknown) => e,
            );
            expect(empty, `${r.typeName} ${JSON.stringify(id)}`).to.be.instanceOf(ProviderCallError);
            expect((empty as ProviderCallError).rpc).to.equal('ImportResourceState');
            expect((empty as ProviderCallError).diagnostics).to.deep.equal([
              {
                severity: 'error',
                summary: 'Missing Resource Import Identifier',
                detail: `The import ID is empty. ${r.typeName} is imported by ${r.importIdDescription}.`,
                path: '',
              },
            ]);
          }
          const unknown = await tf.importState(r.typeName, missingId(r.importIdDescription)).then(
            () => null,
            (e: unknown) => e,
          );
          expect(unknown, r.typeName).to.be.instanceOf(ProviderCallError);
          const [diagnostic, ...more] = (unknown as ProviderCallError).diagnostics;
          expect(more, r.typeName).to.deep.equal([]);
          expect(diagnostic!.summary, `${r.typeName}: ${diagnostic!.detail}`).to.equal(NON_EXISTENT);
          // Found out by the import itself, the provider says it in Terraform's words (plus the id's
          // form); found out by the read that follows, the client (as Terraform) says it.
          if ((unknown as ProviderCallError).rpc === 'ImportResourceState') {
            expect(diagnostic!.detail).to.equal(
              `${nonExistentDetail(r.typeName)} ${r.typeName} is imported by ${r.importIdDescription}.`,
            );
          }
        }
      } finally {
        await tf.close();
      }
    });
  }

  describe('under the real Terraform CLI', () => {
    let ws: Workspace;
    const head =
      'terraform {\n  required_providers {\n    sec = { source = "keel/sec" }\n    vdb = { source = "keel/vdb" }\n  }\n}\n';
    const role =
      'resource "vdb_accounts_role" "r" {\n  name = "tf-import-role"\n  permissions { value = "read:clusters" }\n}\n';
    const member =
      'resource "sec_team_member" "m" {\n  email = "nobody@example.com"\n  first_name = "No"\n  last_name = "Body"\n  company = "Example"\n}\n';
    const importBlock = (to: string, id: string) => `import {\n  to = ${to}\n  id = "${id}"\n}\n`;

    before(function () {
      requireTerraform(this);
      ws = new Workspace(head + role + member, { ...secProviderEnv(sec), ...vdbProviderEnv(vdb) });
    });
    after(() => ws?.dispose());

    it('terraform import with an empty id: Missing Resource Import Identifier, naming the id form', async () => {
      const r = await ws.run(['import', '-no-color', 'sec_team_member.m', '']);
      expect(r.code).to.equal(1);
      expect(words(r.stderr)).to.include(
        'Error: Missing Resource Import Identifier The import ID is empty. sec_team_member is imported by the user GUID, or the e-mail address.',
      );
    });

    it('terraform import of an unknown id: Cannot import non-existent remote object, whichever step finds out', async () => {
      // The vdb role's import takes the id as is; the read that follows finds nothing (Terraform's message).
      const byRead = await ws.run(['import', '-no-color', 'vdb_accounts_role.r', MISSING_UUID]);
      expect(byRead.code).to.equal(1);
      expect(words(byRead.stderr)).to.include(`Error: ${NON_EXISTENT} ${nonExistentDetail('"vdb_accounts_role.r"')}`);
      // The team member's import looks the address up itself (the provider's message).
      const byImport = await ws.run(['import', '-no-color', 'sec_team_member.m', 'nobody@example.com']);
      expect(byImport.code).to.equal(1);
      expect(words(byImport.stderr)).to.include(
        `Error: ${NON_EXISTENT} ${nonExistentDetail('sec_team_member')} sec_team_member is imported by the user GUID, or the e-mail address.`,
      );
      expect(await ws.state()).to.have.property('size', 0);
    });

    it('an import block with an unknown id fails the plan with the same message; an empty one is refused by Terraform', async () => {
      ws.writeConfig(head + role + member + importBlock('sec_team_member.m', 'nobody@example.com'));
      const unknown = await ws.run(['plan', '-no-color']);
      expect(unknown.code).to.equal(1);
      expect(words(unknown.stderr)).to.include(`Error: ${NON_EXISTENT} ${nonExistentDetail('sec_team_member')}`);

      ws.writeConfig(head + role + member + importBlock('vdb_accounts_role.r', MISSING_UUID));
      const byRead = await ws.run(['plan', '-no-color']);
      expect(byRead.code).to.equal(1);
      expect(words(byRead.stderr)).to.include(`Error: ${NON_EXISTENT} ${nonExistentDetail('"vdb_accounts_role.r"')}`);

      ws.writeConfig(head + role + member + importBlock('vdb_accounts_role.r', ''));
      const empty = await ws.run(['plan', '-no-color']);
      expect(empty.code).to.equal(1);
      expect(words(empty.stderr)).to.include('The import ID value evaluates to an empty string');
    });
  });
});
