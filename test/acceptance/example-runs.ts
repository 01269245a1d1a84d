/**
 * What a suite that runs example folders as a user does needs: both emulators (vdb's clusters quick
 * to provision), and workspaces made from the folders under one CLI, all gone after the suite.
 * Called in a `describe` body, it registers the suite's `before` and `after` hooks.
 */
import { startSecEmulator, type SecEmulator } from '../../src/emulators/sec/index.js';
import { startVdbEmulator, type VdbEmulator } from '../../src/emulators/vdb/index.js';
import type { AcceptanceCli } from './real-clients.js';
import { Workspace, type WorkspaceOptions } from './terraform.js';

export interface ExampleRuns {
  readonly sec: SecEmulator;
  readonly vdb: VdbEmulator;
  /** How workspaces run the suite's CLI. */
  readonly options: WorkspaceOptions;
  /** A workspace holding a copy of `dir`, with the provider settings `env`. */
  workspace(dir: string, env: Record<string, string>): Workspace;
  /** A workspace holding `mainTf` alone. */
  configured(mainTf: string, env: Record<string, string>): Workspace;
}

export function exampleRuns(cli: AcceptanceCli): ExampleRuns {
  let sec: SecEmulator | undefined;
  let vdb: VdbEmulator | undefined;
  let options: WorkspaceOptions | undefined;
  const workspaces: Workspace[] = [];
  before(async function () {
    options = cli.workspace(this);
    sec = await startSecEmulator();
    vdb = await startVdbEmulator({ provisioningMs: 50 });
  });
  after(async () => {
    for (const ws of workspaces) ws.dispose();
    await sec?.close();
    await vdb?.close();
  });
  return {
    get sec() {
      return sec!;
    },
    get vdb() {
      return vdb!;
    },
    get options() {
      return options!;
    },
    workspace(dir, env) {
      const ws = Workspace.fromExample(dir, env, options);
      workspaces.push(ws);
      return ws;
    },
    configured(mainTf, env) {
      const ws = new Workspace(mainTf, env, options);
      workspaces.push(ws);
      return ws;
    },
  };
}
