/**
 * A `moved` block across resource types under the real clients (Terraform 1.15.5, the main judge,
 * and OpenTofu): the client asks the target's provider to move the state (MoveResourceState), as it
 * announces `move_resource_state`, then reads the object at its new address. The provider is the
 * test provider `acme/mover` (test/support/moving-things.ts), whose `mover_thing` takes the state of
 * the deprecated `mover_old_thing`; its platform is a JSON file, as the client starts a process per
 * walk. The old state holds no account, which names the object with its id: the moved state has no
 * identity until the read after the move, on the configured provider, gives it
 * (packages/framework/src/engine/resources/resource-moves.ts).
 */
import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { providerInstallationConfig } from '../../src/tfclient/terraform-cli.js';
import { launcherDir } from './served-provider.js';
import { ACCEPTANCE_CLIS } from './real-clients.js';
import { Workspace, type WorkspaceOptions } from './terraform.js';

const ENTRY = fileURLToPath(new URL('./moving-provider.js', import.meta.url));
const REQUIRES = 'terraform {\n  required_providers {\n    mover = { source = "acme/mover" }\n  }\n}\n';
const OLD = `${REQUIRES}
resource "mover_old_thing" "x" {
  title  = "hello"
  size   = 3
  labels = { team = "a" }
}
`;
const MOVED = `${REQUIRES}
resource "mover_thing" "y" {
  name = "hello"
  size = 3
  label {
    key   = "team"
    value = "a"
  }
}

moved {
  from = mover_old_thing.x
  to   = mover_thing.y
}
`;

describe('a `moved` block across resource types, under the real clients', () => {
  /** Where the wrapper of the test provider's executable is, made once for every client. */
  let binDir = '';
  before(() => {
    binDir = launcherDir('mover', ENTRY);
  });
  after(() => rmSync(binDir, { recursive: true, force: true }));

  for (const cli of ACCEPTANCE_CLIS) {
    describe(cli.name, function () {
      this.timeout(300_000);
      let options: WorkspaceOptions;
      let ws: Workspace | undefined;
      let store = '';

      before(function () {
        options = { ...cli.workspace(this), cliConfig: providerInstallationConfig({ 'acme/mover': binDir }) };
      });
      afterEach(() => ws?.dispose());

      /** A workspace with a platform of its own. */
      const workspace = (config: string): Workspace => {
        store = join(binDir, `store-${Date.now()}.json`);
        ws = new Workspace(config, { MOVER_STORE: store, KEEL_CREATE_RECORDS: 'off' }, options);
        return ws;
      };

      it('moves mover_old_thing to mover_thing: the plan shows only the move, the state the new type with its identity', async () => {
        const w = workspace(OLD);
        await w.expect(['apply', '-auto-approve', '-no-color']);
        w.writeConfig(MOVED);
        // A move is a change of the plan (exit code 2), and the only one.
        const plan = await w.expect(['plan', '-detailed-exitcode', '-no-color'], 2);
        expect(plan.stdout).to.contain('# mover_old_thing.x has moved to mover_thing.y');
        expect(plan.stdout).to.match(/Plan: 0 to add, 0 to change, 0 to destroy\./);
        await w.expect(['apply', '-auto-approve', '-no-color']);
        const state = await w.state();
        expect([...state.keys()]).to.deep.equal(['mover_thing.y']);
        const moved = state.get('mover_thing.y')!;
        expect(moved.values).to.deep.include({ id: 't-1', name: 'hello', size: 3, account: 'main' });
        expect(moved.values.label).to.deep.equal([{ key: 'team', value: 'a' }]);
        expect(moved.identity).to.deep.equal({ id: 't-1', account: 'main' });
        // The platform's object is the one the old type made, not a new one.
        expect(Object.keys(JSON.parse(readFileSync(store, 'utf8')).things)).to.deep.equal(['t-1']);
        await w.expect(['plan', '-detailed-exitcode', '-no-color'], 0);
      });

      it("a move to a type that takes no moved state fails the plan in the provider's words", async () => {
        const w = workspace(OLD);
        await w.expect(['apply', '-auto-approve', '-no-color']);
        w.writeConfig(`${REQUIRES}
resource "mover_note" "n" {
  text = "hello"
}

moved {
  from = mover_old_thing.x
  to   = mover_note.n
}
`);
        const plan = await w.expect(['plan', '-no-color'], 1);
        const said = plan.stderr.replace(/\s+/g, ' ');
        expect(said).to.contain('Cannot move resource state');
        expect(said).to.contain(
          'The resource type mover_note of the provider mover takes no state moved from the resource type ' +
            `"mover_old_thing" of the provider "${cli.registry}/acme/mover": it takes none.`,
        );
      });
    });
  }
});
