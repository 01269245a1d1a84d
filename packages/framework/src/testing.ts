/**
 * The author's test kit (`@keel/provider-framework/testing`), in two parts.
 *
 * `ProviderHarness` drives a provider definition through the framework's engine in this process, with
 * no Terraform and no other process: validate, plan, apply, read, import, destroy, data sources and
 * functions, each as Terraform would call it and with Terraform's own checks of what the provider
 * answers. Models go in and come out as plain objects; a call whose diagnostics hold an error rejects
 * with a `HarnessError` that carries them. For the many fast tests of a provider's own logic.
 *
 *   const kv = await ProviderHarness.start(definition, { config: { path: '/tmp/store.json' } });
 *   const entry = await kv.create('kv_entry', { key: 'a', value: '1' });
 *   const plan = await kv.plan('kv_entry', { prior: entry, config: { key: 'a', value: '2' } });
 *
 * `CliWorkspace` runs the provider under the real Terraform or OpenTofu CLI, as terraform-plugin-testing
 * does for Go providers: `init` installs it from a filesystem mirror as it would a release, and every
 * command of the CLI works on it. For the few tests of the whole cycle.
 *
 *   const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));
 *   const provider = { namespace: 'acme', name: 'kv', version: '0.1.0', main };
 *   const ws = await CliWorkspace.create({ cli: 'terraform', provider });
 *   await ws.writeConfig('resource "kv_entry" "a" { key = "a"  value = "1" }');
 *   await ws.init(); await ws.apply();
 *   assertNoChanges(await ws.plan());
 *
 * `acceptanceTest` takes such a test as steps (terraform-plugin-testing's TestStep): configurations
 * with what their plan makes, what the state then holds, an error they fail with, or an import that
 * must read back what the state holds; an applied step's plan must then be empty. It runs only where
 * `TF_ACC` is set.
 *
 *   await acceptanceTest({ cli: 'terraform', provider, steps: [
 *     { config: one, planChanges: { 'kv_entry.a': 'create' }, state: { 'kv_entry.a': { value: '1' } } },
 *     { config: one, importState: { resource: 'kv_entry.a', verify: true } },
 *   ] });
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
export {
  acceptanceEnabled,
  acceptanceTest,
  AcceptanceError,
  type AcceptanceTest,
  type TestStep,
} from './testing/acceptance.js';
export {
  knownValue,
  planCheck,
  stateCheck,
  type PlanCheck,
  type StateCheck,
  type ValueCheck,
} from './testing/checks.js';
export { HarnessError, type HarnessDiagnostic } from './testing/harness-diagnostics.js';
export type { ChangeRequest } from './testing/harness-lifecycle.js';
export type { PlannedAction } from './testing/harness-plan.js';
export type { HarnessModel } from './testing/harness-values.js';
export {
  ProviderHarness,
  type HarnessIdentity,
  type HarnessOptions,
  type HarnessPlan,
} from './testing/harness.js';
