/**
 * The test kit's in-process part: a provider definition driven through the framework's engine as
 * Terraform drives it, with no Terraform and no other process, for fast unit tests of a provider's
 * own logic (as terraform-plugin-framework's providers test theirs). Each call makes the RPCs that
 * Terraform would make for it, in its order, and runs Terraform's own checks of what the provider
 * answers (./harness-lifecycle.ts).
 *
 * Models go in and come out as plain objects (./harness-values.ts). A model the harness returned
 * carries, unseen, what Terraform keeps beside a state (its private data and identity) into the next
 * call it is given to. A call whose diagnostics hold an error rejects with a HarnessError that carries
 * them (./harness-diagnostics.ts); a call's warnings are its result's `diagnostics` where it has them,
 * and `harness.warnings` after it for every call. No record of a create is written unless
 * `createRecords` says where.
 */
import { checkReadResult } from '../engine/checks/index.js';
import { declarationProblems, type ProviderDef } from '../engine/contracts/index.js';
import { journalPlace } from '../engine/journal/index.js';
import type { Diagnostics, Logger } from '../engine/diagnostics/index.js';
import { HostView } from '../engine/host/index.js';
import { ProviderEngine } from '../engine/entry/index.js';
import { impliedType, type Schema, type SchemaBlock } from '../schema/block.js';
import type { ObjectValue } from '../schema/value.js';
import { isWhollyKnown } from '../schema/value-ops.js';
import {
  CallReport,
  HarnessError,
  harnessDiagnostic,
  modelDiagnostic,
  type HarnessDiagnostic,
} from './harness-diagnostics.js';
import { CLIENT, ResourceLifecycle, type ChangeRequest } from './harness-lifecycle.js';
import { changedPaths, problemsAsErrors, type PlannedAction } from './harness-plan.js';
import { configValue, ModelError, modelOf, plainOf, typedValue, type HarnessModel } from './harness-values.js';

export interface HarnessOptions {
  /** The provider's configuration (its `provider` block) as a model; empty when not given. */
  readonly config?: Record<string, unknown>;
  /** The variables `configure` sees (`ctx.env`) and the engine reads; the process's own when not given. */
  readonly env?: NodeJS.ProcessEnv;
  /** The Terraform version ConfigureProvider gives (`ctx.terraformVersion`); 1.15.5 when not given. */
  readonly terraformVersion?: string;
  /** Where the provider's logs go; nowhere when not given. */
  readonly log?: Logger;
  /**
   * The working directory whose data directory (`.terraform`) keeps the records of creates, as under
   * Terraform; none are kept when not given.
   */
  readonly createRecords?: string;
}

/** A resource's plan, as Terraform reads it. */
export interface HarnessPlan {
  readonly action: PlannedAction;
  /** The planned state, `UNKNOWN` where a value is known only after apply; null for a destroy. */
  readonly planned: HarnessModel | null;
  /** The changed attributes that replace the object (`key`, `rule[0].port`); empty unless `action` is replace. */
  readonly requiresReplace: readonly string[];
  /** The attributes and blocks whose planned value differs from the prior one, unknown ones included. */
  readonly changes: readonly string[];
  /** The plan's warnings. */
  readonly diagnostics: readonly HarnessDiagnostic[];
}

/** An identity as a model: each identity attribute's text. */
export type HarnessIdentity = Record<string, string | null>;

const TERRAFORM_VERSION = '1.15.5';
const SILENT: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, child: () => SILENT };

/**
 * A provider definition served in this process, configured, and called as Terraform would call it:
 * each method makes the RPCs Terraform makes for what it names, in Terraform's order, and runs
 * Terraform's checks of every answer ("Provider produced invalid plan", "… inconsistent result after
 * apply"). A plan validates first and proposes the new state as Terraform does; a replacement is planned
 * as a create and applied as a destroy then a create; a no-op plan is not applied; an import is read
 * once.
 *
 * Models are plain objects of the schema: every attribute and block in what comes out (null where
 * unset), numbers as JS numbers (a `Decimal` where a float64 cannot hold one), sets as arrays, and
 * `UNKNOWN` (from `@keel/provider-framework`) where a plan knows a value only after apply. What goes in
 * may leave out what it does not set, and a configuration may hold `UNKNOWN`. A state the harness
 * returned carries, unseen, what Terraform keeps beside it (private data, identity) into the call it is
 * given to; changed by the test, it is taken as it now is.
 *
 * A call whose diagnostics hold an error rejects with `HarnessError` (each diagnostic with its
 * attribute path); `validate` returns them instead. Warnings are a plan's `diagnostics`, and
 * `warnings` after any call. The harness serves as Terraform's apply walk: the plan's search for
 * untracked objects like a create is not made, and no record of a create is kept unless asked.
 */
export class ProviderHarness {
  private readonly resources: ResourceLifecycle;
  private lastWarnings: readonly HarnessDiagnostic[] = [];

  private constructor(private readonly engine: ProviderEngine<unknown>) {
    this.resources = new ResourceLifecycle(engine);
  }

  /** Validates the provider's configuration and configures it; rejects with HarnessError on an error. */
  static async start(definition: ProviderDef<any, any>, options: HarnessOptions = {}): Promise<ProviderHarness> {
    // A mistake in a declaration fails here, naming its type and field, not at the first call that needs it.
    const problems = declarationProblems(definition);
    if (problems.length > 0)
      throw new HarnessError(
        `declaration of provider ${definition.name}`,
        problems.map((detail) => ({ severity: 'error', summary: 'Invalid declaration', detail })),
      );
    const env = options.env ?? process.env;
    const address = { namespace: definition.namespace ?? 'local', name: definition.name };
    const journal = options.createRecords === undefined ? null : journalPlace(address, env, options.createRecords);
    // The client is Terraform, whatever runs the tests: no process is read to tell.
    const host = new HostView(env, options.createRecords ?? process.cwd(), () => undefined, 0);
    const engine = new ProviderEngine(definition, options.log ?? SILENT, env, { lookupDelayMs: 0 }, journal, host);
    const harness = new ProviderHarness(engine);
    await harness.run(`configure of provider ${definition.name}`, async (report) => {
      const config = report.model(() => configValue(engine.providerSchema().block, options.config ?? {}));
      report.check(engine.validateProviderConfig(config).items);
      report.check((await engine.configureProvider(options.terraformVersion ?? TERRAFORM_VERSION, config)).items);
    });
    return harness;
  }

  /** The warnings of the call that ended last (its own result holds them too, where it has diagnostics). */
  get warnings(): readonly HarnessDiagnostic[] {
    return this.lastWarnings;
  }

  /** ValidateResourceConfig: every diagnostic of a resource's configuration, its errors too (never rejects). */
  validate(typeName: string, config: Record<string, unknown>): HarnessDiagnostic[] {
    const schema = this.engine.resourceSchema(typeName);
    return this.validation(`validation of ${typeName}`, schema, config, (value) =>
      this.engine.validateResourceConfig(typeName, value, CLIENT),
    );
  }

  /** ValidateDataResourceConfig: every diagnostic of a data source's configuration. */
  validateDataSource(typeName: string, config: Record<string, unknown>): HarnessDiagnostic[] {
    const schema = this.engine.dataSourceSchema(typeName);
    return this.validation(`validation of data source ${typeName}`, schema, config, (value) =>
      this.engine.validateDataResourceConfig(typeName, value),
    );
  }

  /** PlanResourceChange after validation: a create (no prior), an update or replacement, a destroy (config null). */
  plan(typeName: string, request: ChangeRequest): Promise<HarnessPlan> {
    return this.run(`plan of ${typeName}`, async (report) => {
      const block = this.resourceBlock(typeName, report);
      const out = await this.resources.plan(typeName, block, request, report);
      return {
        action: out.action,
        planned: out.planned === null ? null : modelOf(out.planned),
        requiresReplace: out.replacing,
        changes: changedPaths(block, out.prior?.state ?? null, out.planned),
        diagnostics: [...report.warnings],
      };
    });
  }

  /** Plans and applies the change: the new state, or null after a destroy. A no-op plan is not applied. */
  apply(typeName: string, request: ChangeRequest): Promise<HarnessModel | null> {
    return this.change(`apply of ${typeName}`, typeName, request);
  }

  /** Plans and applies a create of `config`: the new object's state. */
  async create(typeName: string, config: Record<string, unknown>): Promise<HarnessModel> {
    return (await this.change(`create of ${typeName}`, typeName, { config }))!;
  }

  /** Plans and applies the destroy of the object `state` holds. */
  async destroy(typeName: string, state: HarnessModel): Promise<void> {
    await this.change(`destroy of ${typeName}`, typeName, { prior: state, config: null });
  }

  /** ReadResource (the refresh): the object as the platform has it now, or null when it is gone. */
  read(typeName: string, state: HarnessModel): Promise<HarnessModel | null> {
    return this.run(`read of ${typeName}`, (report) =>
      this.resources.read(typeName, this.resourceBlock(typeName, report), state, report),
    );
  }

  /**
   * ImportResourceState by id (`terraform import`, an `import` block's `id`) or by identity (its
   * `identity`), then the read that follows: the imported object's state.
   */
  importState(typeName: string, target: string | { readonly identity: HarnessIdentity }): Promise<HarnessModel> {
    const what = typeof target === 'string' ? JSON.stringify(target) : 'by identity';
    return this.run(`import of ${typeName} ${what}`, (report) => {
      const block = this.resourceBlock(typeName, report);
      if (typeof target === 'string') return this.resources.import(typeName, block, { id: target }, report);
      const type = this.engine.identityTypeOf(typeName);
      // A type without identity: the engine says so.
      const identity = type ? report.model(() => typedValue(type, target.identity) as ObjectValue) : {};
      return this.resources.import(typeName, block, { identity }, report);
    });
  }

  /** The identity Terraform keeps beside a state the harness returned; null when it has none. */
  identityOf(state: HarnessModel): HarnessIdentity | null {
    const identity = this.resources.identityOf(state);
    return identity === null ? null : (plainOf(identity) as HarnessIdentity);
  }

  /** UpgradeResourceState: a state stored (as JSON) by schema version `version` → the state now. */
  upgradeState(typeName: string, version: number, stored: Record<string, unknown>): HarnessModel {
    return this.runNow(`upgrade of ${typeName}`, (report) => {
      this.resourceBlock(typeName, report);
      const out = this.engine.upgradeResourceState(typeName, version, JSON.stringify(stored));
      report.check(out.diags.items);
      if (out.state === null) return report.fail('Cannot read the stored state', 'The upgrade gave no state.');
      return this.resources.keep(typeName, { state: out.state, private: {}, identity: null });
    });
  }

  /** ValidateDataResourceConfig and ReadDataSource: the data source's state. */
  readDataSource(typeName: string, config: Record<string, unknown>): Promise<HarnessModel> {
    return this.run(`read of data source ${typeName}`, async (report) => {
      const block = this.dataSourceBlock(typeName, report);
      const value = report.model(() => configValue(block, config));
      report.check(this.engine.validateDataResourceConfig(typeName, value).items);
      if (!isWhollyKnown(impliedType(block), value))
        report.fail('Configuration not known', 'Terraform reads a data source once its whole configuration is known.');
      const out = await this.engine.readDataSource(typeName, value);
      report.check(out.diags.items);
      if (out.state === null) return report.fail('Provider produced null object', `The read of ${typeName} gave none.`);
      report.check(problemsAsErrors('Provider produced invalid object', typeName, checkReadResult(block, out.state)));
      return modelOf(out.state);
    });
  }

  /** CallFunction: `provider::<name>::<function>(args…)`'s result; throws HarnessError with the function's error. */
  callFunction(name: string, args: readonly unknown[]): unknown {
    const functions = this.engine.functions;
    const called = `provider::${this.engine.def.name}::${name}`;
    return this.runNow(`call of ${called}`, (report) => {
      const values = args.map((arg, i) => {
        const parameter = functions.parameterAt(name, i);
        // No such function, or one argument too many: the call itself says so.
        if (parameter === undefined) return null;
        return report.model(() => typedValue(parameter.type, arg, []));
      });
      const out = functions.call(name, values);
      if (out.error === undefined) return plainOf(out.result);
      const { text, argument } = out.error;
      if (argument === undefined)
        return report.fail('Error in function call', `Call to function "${called}" failed: ${text}.`);
      const parameter = functions.parameterAt(name, argument)?.name ?? `#${argument}`;
      return report.fail('Invalid function argument', `Invalid value for "${parameter}" parameter: ${text}.`, {
        argument,
      });
    });
  }

  /** StopProvider: operations in flight see their `ctx.signal` abort. */
  stop(): void {
    this.engine.stop();
  }

  /** A plan applied, as `apply`, `create` and `destroy` make it. */
  private change(operation: string, typeName: string, request: ChangeRequest): Promise<HarnessModel | null> {
    return this.run(operation, async (report) => {
      const block = this.resourceBlock(typeName, report);
      return this.resources.apply(typeName, block, await this.resources.plan(typeName, block, request, report), report);
    });
  }

  /** A validation RPC's diagnostics, what of the model does not fit the schema among them. */
  private validation(
    operation: string,
    schema: Schema | undefined,
    config: Record<string, unknown>,
    validate: (config: ObjectValue) => Diagnostics,
  ): HarnessDiagnostic[] {
    return this.runNow(operation, (report) => {
      // An unknown type: the engine says so.
      if (schema === undefined) return validate({}).items.map(harnessDiagnostic);
      let value: ObjectValue;
      try {
        value = configValue(schema.block, config);
      } catch (err) {
        if (err instanceof ModelError) return [modelDiagnostic(err)];
        throw err;
      }
      const found = validate(value).items.map(harnessDiagnostic);
      report.warnings.push(...found.filter((d) => d.severity === 'warning'));
      return found;
    });
  }

  private resourceBlock(typeName: string, report: CallReport): SchemaBlock {
    const schema = this.engine.resourceSchema(typeName);
    if (schema) return schema.block;
    const detail = `The provider ${this.engine.def.name} does not support resource type "${typeName}".`;
    return report.fail('Invalid resource type', detail);
  }

  private dataSourceBlock(typeName: string, report: CallReport): SchemaBlock {
    const schema = this.engine.dataSourceSchema(typeName);
    if (schema) return schema.block;
    const detail = `The provider ${this.engine.def.name} does not support data source "${typeName}".`;
    return report.fail('Invalid data source', detail);
  }

  /** Runs one call: its warnings are the harness's `warnings` once it ends, however it ends. */
  private async run<T>(operation: string, body: (report: CallReport) => Promise<T>): Promise<T> {
    const report = new CallReport(operation);
    try {
      return await body(report);
    } finally {
      this.lastWarnings = report.warnings;
    }
  }

  private runNow<T>(operation: string, body: (report: CallReport) => T): T {
    const report = new CallReport(operation);
    try {
      return body(report);
    } finally {
      this.lastWarnings = report.warnings;
    }
  }
}
