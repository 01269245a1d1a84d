/**
 * Acceptance tests written as steps, as terraform-plugin-testing's `resource.Test` takes them: each
 * step is a configuration the real CLI plans and applies in one working directory (CliWorkspace), with
 * what its plan must make, what the state must then hold, an error it must fail with instead, or an
 * import into a fresh state that must read back what the state holds. After each applied step the plan
 * must be empty (the provider's read agrees with its apply), and at the end, whenever the state holds
 * anything (after a failed step too, as terraform-plugin-testing does), the configuration is destroyed
 * (with the last configuration that was not meant to fail) and `checkDestroy` runs; a step's failure
 * is reported before anything the destroy says, and the destroy's and `checkDestroy`'s under their
 * names. Acceptance tests reach real services and take time, so they run only where `TF_ACC` is set
 * (`acceptanceEnabled`), as Go providers' do.
 */
import { isDeepStrictEqual } from 'node:util';
import {
  assertChanges,
  CliError,
  describeChange,
  CliWorkspace,
  type CliWorkspaceOptions,
  type StateResource,
} from './cli-workspace.js';
import type { PlanCheck, StateCheck } from './checks.js';

/** One step: a configuration, and what planning and applying it must do. */
export interface TestStep {
  /** The configuration of the step (main.tf). */
  readonly config: string;
  /** Skips the step (nothing of it runs) when true, or when the function says so: a feature the CLI lacks. */
  readonly skip?: boolean | (() => boolean | Promise<boolean>);
  /** Runs before the step: a change made on the platform outside Terraform, for one. */
  readonly preConfig?: () => void | Promise<void>;
  /** The values of the configuration's variables for this step (written as `step.auto.tfvars.json`). */
  readonly configVariables?: Readonly<Record<string, unknown>>;
  /** Addresses whose objects the step replaces (`-replace`), as terraform-plugin-testing's `Taint`. */
  readonly taint?: readonly string[];
  /**
   * A refresh only (`apply -refresh-only`): the state takes what the platform holds, with the step's
   * configuration unchanged; its `state` and `check` then run, and the plan after it must be empty.
   */
  readonly refreshState?: boolean;
  /** What the step's plan must make: address → actions joined by `,` (`create`, `update`, `delete,create`). */
  readonly planChanges?: Readonly<Record<string, string>>;
  /** Checks of the step's plan before it is applied (./checks.ts: `planCheck.unknownValue`, …). */
  readonly planChecks?: readonly PlanCheck[];
  /** The step must fail, its error matching this: the CLI's output is searched. Nothing else of the step runs. */
  readonly expectError?: RegExp;
  /** Plan only, never apply: the plan must be empty unless `expectNonEmptyPlan` or `planChanges` says otherwise. */
  readonly planOnly?: boolean;
  /** The plan after the apply may change something (by default it must be empty). */
  readonly expectNonEmptyPlan?: boolean;
  /**
   * What the state must hold after the apply: per address, the attributes named with their values
   * (others are not compared), or `null` for an address the state must not hold.
   */
  readonly state?: Readonly<Record<string, Readonly<Record<string, unknown>> | null>>;
  /** Checks of the state after the apply (./checks.ts: `stateCheck.knownValue`, …). */
  readonly stateChecks?: readonly StateCheck[];
  /** More checks after the apply, with the workspace (its state, its files). */
  readonly check?: (workspace: CliWorkspace) => void | Promise<void>;
  /**
   * An import step: takes `resource` of the state into a fresh working directory with the step's
   * configuration, by `id` (default: the resource's `id` attribute in the state), and with `verify`,
   * compares every attribute it reads back with the state's (but those `ignore` names).
   */
  readonly importState?: {
    readonly resource: string;
    readonly id?: string;
    readonly verify?: boolean;
    readonly ignore?: readonly string[];
  };
}

export interface AcceptanceTest extends Omit<CliWorkspaceOptions, 'dir'> {
  readonly steps: readonly TestStep[];
  /** Runs after the destroy at the end, to check that the objects are gone from the platform. */
  readonly checkDestroy?: (workspace: CliWorkspace) => void | Promise<void>;
}

/** Whether acceptance tests run: `TF_ACC` is set to something other than empty, `0` or `false`. */
export function acceptanceEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.TF_ACC ?? '';
  return value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * An acceptance test that did not hold: the step (counted from 1) and what went wrong; for the destroy
 * at the end and `checkDestroy`, the last step that ran and `phase` saying which.
 */
export class AcceptanceError extends Error {
  override readonly name = 'AcceptanceError';
  constructor(
    readonly step: number,
    message: string,
    readonly phase?: 'destroy' | 'checkDestroy',
  ) {
    super(`${phase === undefined ? `step ${step}` : `${phase} after step ${step}`}: ${message}`);
  }
}

/**
 * Runs the steps under the CLI given; rejects with an AcceptanceError naming the step that failed.
 * Where acceptance tests are not enabled it runs nothing and says so: `{ ran: false }`.
 */
export async function acceptanceTest(test: AcceptanceTest): Promise<{ readonly ran: boolean }> {
  if (!acceptanceEnabled()) return { ran: false };
  if (test.steps.length === 0) throw new Error('an acceptance test needs a step');
  const { steps, checkDestroy, ...options } = test;
  const workspace = await CliWorkspace.create(options);
  let initialised = false;
  // What the destroy at the end plans with: the last configuration that did not fail on purpose.
  let lastGood: TestStep | undefined;
  let last = 0;
  let failure: unknown;
  try {
    for (const [index, step] of steps.entries()) {
      const at = index + 1;
      last = at;
      const fail = (message: string): never => {
        throw new AcceptanceError(at, message);
      };
      if (step.skip === true || (typeof step.skip === 'function' && (await step.skip()))) continue;
      await step.preConfig?.();
      await writeStep(workspace, step);
      if (!initialised) {
        await workspace.init();
        initialised = true;
      }
      try {
        if (step.importState) await importStep(workspace, step, options, fail);
        else if (step.expectError) await failingStep(workspace, step.expectError, fail);
        else await appliedStep(workspace, step, fail);
      } catch (error) {
        if (error instanceof AcceptanceError) throw error;
        fail(error instanceof Error ? error.message : String(error));
      }
      if (!step.expectError) lastGood = step;
    }
  } catch (error) {
    failure = error;
  }
  const said = (error: unknown) => (error instanceof Error ? error.message : String(error));
  try {
    // Whatever a step made, a failed one too, is destroyed: nothing is left on the platform.
    if (initialised && (await workspace.state()).length > 0) {
      if (lastGood !== undefined) await writeStep(workspace, lastGood);
      await workspace.destroy();
      try {
        await checkDestroy?.(workspace);
      } catch (error) {
        failure ??= new AcceptanceError(last, said(error), 'checkDestroy');
      }
    }
  } catch (error) {
    failure ??= new AcceptanceError(last, `the destroy failed: ${said(error)}`, 'destroy');
  } finally {
    workspace.dispose();
  }
  if (failure !== undefined) throw failure;
  return { ran: true };
}

/** Writes a step's configuration and its variables (none: an empty file, so no earlier step's stay). */
async function writeStep(workspace: CliWorkspace, step: TestStep): Promise<void> {
  await workspace.writeConfig(step.config);
  await workspace.writeConfig(`${JSON.stringify(step.configVariables ?? {}, null, 2)}\n`, 'step.auto.tfvars.json');
}

/** A step that plans (and unless plan-only, applies and plans again). */
async function appliedStep(workspace: CliWorkspace, step: TestStep, fail: (message: string) => never) {
  if (step.refreshState) {
    await workspace.apply(['-refresh-only']);
    return afterApply(workspace, step, fail);
  }
  const replace = (step.taint ?? []).map((address) => `-replace=${address}`);
  const plan = await workspace.plan(replace);
  if (step.planChanges) assertChanges(plan, step.planChanges);
  failing(
    'the plan is not as expected',
    (step.planChecks ?? []).map((c) => c.check(plan)),
    fail,
  );
  if (step.planOnly) {
    if (!step.planChanges && !step.expectNonEmptyPlan && plan.changes.length > 0)
      fail(`the plan is not empty:\n${plan.changes.map(describeChange).join('\n')}`);
    return;
  }
  await workspace.apply(replace);
  await afterApply(workspace, step, fail);
}

/** What an applied step must then hold: its state and checks, and an empty plan. */
async function afterApply(workspace: CliWorkspace, step: TestStep, fail: (message: string) => never) {
  if (step.state) await checkState(await workspace.state(), step.state, fail);
  if (step.stateChecks) {
    const state = await workspace.state();
    failing(
      'the state is not as expected',
      step.stateChecks.map((c) => c.check(state)),
      fail,
    );
  }
  await step.check?.(workspace);
  const after = await workspace.plan();
  if (!step.expectNonEmptyPlan && after.changes.length > 0)
    fail(
      'after applying, the plan is not empty (the provider reads back other values than it applied):\n' +
        after.changes.map(describeChange).join('\n'),
    );
}

async function failingStep(workspace: CliWorkspace, expected: RegExp, fail: (message: string) => never) {
  try {
    await workspace.plan();
    await workspace.apply();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    const output = `${error.result.stderr}\n${error.result.stdout}`;
    if (!expected.test(output)) fail(`it failed, but not with an error matching ${expected}:\n${output}`);
    return;
  }
  fail(`it was expected to fail with an error matching ${expected}, and it applied`);
}

async function importStep(
  workspace: CliWorkspace,
  step: TestStep,
  options: Omit<CliWorkspaceOptions, 'dir'>,
  fail: (message: string) => never,
) {
  const { resource, verify = false, ignore = [] } = step.importState!;
  const held = (await workspace.state()).find((r) => r.address === resource);
  if (!held) fail(`the state holds no ${resource} to import`);
  const id = step.importState!.id ?? held!.values.id;
  if (typeof id !== 'string') fail(`${resource} has no string \`id\`: give importState.id`);
  const fresh = await CliWorkspace.create(options);
  try {
    await writeStep(fresh, step);
    await fresh.init();
    await fresh.importResource(resource, id as string);
    const imported = (await fresh.state()).find((r) => r.address === resource);
    if (!imported) fail(`importing ${resource} by ${JSON.stringify(id)} left it out of the state`);
    if (!verify) return;
    const differences = Object.keys({ ...held!.values, ...imported!.values })
      .filter((name) => !ignore.includes(name))
      .filter((name) => !isDeepStrictEqual(held!.values[name], imported!.values[name]))
      .map((name) => `  ${name}: state ${show(held!.values[name])}, imported ${show(imported!.values[name])}`);
    if (differences.length > 0)
      fail(`${resource} imported by ${JSON.stringify(id)} differs from the state:\n${differences.join('\n')}`);
  } finally {
    fresh.dispose();
  }
}

async function checkState(
  state: readonly StateResource[],
  expected: Readonly<Record<string, Readonly<Record<string, unknown>> | null>>,
  fail: (message: string) => never,
) {
  const problems: string[] = [];
  for (const [address, values] of Object.entries(expected)) {
    const found = state.find((r) => r.address === address);
    if (values === null) {
      if (found) problems.push(`  ${address}: in the state, expected gone`);
      continue;
    }
    if (!found) {
      problems.push(`  ${address}: not in the state`);
      continue;
    }
    for (const [name, value] of Object.entries(values))
      if (!isDeepStrictEqual(found.values[name], value))
        problems.push(`  ${address}.${name}: ${show(found.values[name])}, expected ${show(value)}`);
  }
  if (problems.length > 0) fail(`the state is not as expected:\n${problems.join('\n')}`);
}

/** Fails with every problem the checks found, under `title`. */
function failing(title: string, problems: readonly (string | undefined)[], fail: (message: string) => never): void {
  const found = problems.filter((p): p is string => p !== undefined);
  if (found.length > 0) fail(`${title}:\n${found.map((p) => `  ${p}`).join('\n')}`);
}

const show = (value: unknown) => (value === undefined ? 'absent' : JSON.stringify(value));
