/**
 * The author's test kit (`@keel/provider-framework/testing`): runs a provider under the real Terraform
 * or OpenTofu CLI, as terraform-plugin-testing does for Go providers (./testing/cli-workspace.ts).
 *
 *   const ws = await CliWorkspace.create({ cli: 'terraform', provider: { namespace: 'acme', name: 'kv',
 *     version: '0.1.0', main: fileURLToPath(new URL('../dist/main.js', import.meta.url)) } });
 *   await ws.writeConfig('resource "kv_entry" "a" { key = "a"  value = "1" }');
 *   await ws.init(); await ws.apply();
 *   assertNoChanges(await ws.plan());
 */
export {
  assertChanges,
  assertNoChanges,
  CliError,
  CliWorkspace,
  clisFromEnv,
  type CliResult,
  type CliWorkspaceOptions,
  type Plan,
  type PlannedChange,
  type ProviderUnderTest,
  type StateResource,
} from './testing/cli-workspace.js';
