/**
 * The lifecycle engine, written once for every resource and data source: protocol-neutral (Values
 * in, Values out), it applies the plan/apply/read/import/upgrade rules of protocol.md §2.4 and §4 and
 * turns anything thrown into diagnostics.
 */
import type { Fields, ModelOf } from '../schema/define.js';
import type { Schema } from '../schema/block.js';
import { impliedType } from '../schema/block.js';
import { type ObjectValue, type Value } from '../schema/value.js';
import { isWhollyKnown } from '../schema/value-ops.js';
import { decodeJSON } from '../schema/json.js';
import { ValueDecodeError } from '../schema/msgpack.js';
import { fromModel, toModel, plainToValue } from '../schema/model.js';
import type { AttributePath } from '../schema/path.js';
import type { DataSourceDef, Logger, OpContext, ProviderDef, ResourceDef } from './contracts.js';
import { Diagnostics, DiagnosticError, diagnosticFromError, sentences } from './diagnostics.js';
import { DEFAULT_CREATE_RECOVERY, createTracked, describe, type CreateRecoveryOptions } from './create-recovery.js';
import { isApiError } from '../clients/errors.js';
import { planObject } from './planner.js';
import { finalizeApplied, reconcileRead, type Mismatch } from './reconcile.js';
import { validateFields } from './validate.js';

export type PrivateState = Record<string, unknown>;

export interface PlanOutcome {
  planned: ObjectValue | null;
  requiresReplace: AttributePath[];
  plannedPrivate: PrivateState;
  diags: Diagnostics;
}

export interface StateOutcome {
  state: ObjectValue | null;
  private: PrivateState;
  diags: Diagnostics;
}

export class ProviderEngine<C> {
  private readonly resources = new Map<string, ResourceDef<Fields, C>>();
  private readonly dataSources = new Map<string, DataSourceDef<Fields, C>>();
  private client: C | undefined;
  /** Why there is no client yet: not configured, or configured with values unknown until apply. */
  private unconfiguredReason = 'The provider has not been configured.';
  private stopController = new AbortController();

  private readonly createRecovery: CreateRecoveryOptions;

  constructor(
    readonly def: ProviderDef<Fields, C>,
    private readonly log: Logger,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** How creates whose answer was lost are recovered (tests shorten the lookup delay). */
    createRecovery: Partial<CreateRecoveryOptions> = {},
  ) {
    this.createRecovery = { ...DEFAULT_CREATE_RECOVERY, ...createRecovery };
    for (const r of def.resources) this.resources.set(r.typeName, r);
    for (const d of def.dataSources) this.dataSources.set(d.typeName, d);
  }

  providerSchema(): Schema {
    return this.def.schema;
  }
  resourceSchemas(): Map<string, Schema> {
    return new Map([...this.resources].map(([k, r]) => [k, r.schema]));
  }
  dataSourceSchemas(): Map<string, Schema> {
    return new Map([...this.dataSources].map(([k, d]) => [k, d.schema]));
  }
  resourceSchema(typeName: string): Schema | undefined {
    return this.resources.get(typeName)?.schema;
  }
  dataSourceSchema(typeName: string): Schema | undefined {
    return this.dataSources.get(typeName)?.schema;
  }

  /** StopProvider: cancels in-flight work; later calls get a fresh signal. */
  stop(): void {
    this.stopController.abort();
    this.stopController = new AbortController();
  }

  validateProviderConfig(config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    if (validateFields(this.def.schema.fields, config, diags)) this.guardSync(diags, 'Invalid provider configuration', () => this.def.validate?.(toModel(this.def.schema.fields, config), diags));
    return diags;
  }

  async configureProvider(terraformVersion: string, config: ObjectValue): Promise<Diagnostics> {
    const diags = new Diagnostics();
    if (!isWhollyKnown(impliedType(this.def.schema.block), config)) {
      // Terraform may configure with values that depend on resources not yet created (§2.4);
      // planning needs no API calls, so fail only if an operation needs the client.
      this.unconfiguredReason =
        'The provider configuration depends on values that are not known until apply, so the provider cannot reach the API yet. Apply the resources the provider configuration depends on first (for example with -target).';
      return diags;
    }
    try {
      const model = toModel(this.def.schema.fields, config);
      this.client = await this.def.configure(model, { terraformVersion, diags, log: this.log, env: this.env });
    } catch (err) {
      diags.append([diagnosticFromError('Cannot configure the provider', err)]);
    }
    return diags;
  }

  validateResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const r = this.resources.get(typeName);
    if (!r) return diags.error('Unknown resource type', `The provider ${this.def.name} has no resource type "${typeName}".`);
    if (validateFields(r.schema.fields, config, diags)) this.guardSync(diags, 'Invalid configuration', () => r.validate?.(toModel(r.schema.fields, config), diags));
    return diags;
  }

  validateDataResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    const diags = new Diagnostics();
    const d = this.dataSources.get(typeName);
    if (!d) return diags.error('Unknown data source', `The provider ${this.def.name} has no data source "${typeName}".`);
    if (validateFields(d.schema.fields, config, diags)) this.guardSync(diags, 'Invalid configuration', () => d.validate?.(toModel(d.schema.fields, config), diags));
    return diags;
  }

  /** UpgradeResourceState: raw state JSON of `version` → a full object of the current schema. */
  upgradeResourceState(typeName: string, version: number, rawJson: string | null): { state: ObjectValue | null; diags: Diagnostics } {
    const diags = new Diagnostics();
    const r = this.resources.get(typeName);
    if (!r) return { state: null, diags: diags.error('Unknown resource type', `The provider has no resource type "${typeName}".`) };
    if (rawJson === null) {
      return { state: null, diags: diags.error('Unsupported state format', 'State written by Terraform before 0.12 (flatmap) cannot be upgraded by this provider.') };
    }
    if (version > r.schema.version) {
      return { state: null, diags: diags.error('State is newer than the provider', `The state has schema version ${version}, this provider knows up to ${r.schema.version}. Use a newer provider version.`) };
    }
    try {
      let json = rawJson;
      if (version < r.schema.version) {
        if (!r.upgrade) throw new Error(`no upgrade from schema version ${version} to ${r.schema.version}`);
        json = JSON.stringify(r.upgrade(version, JSON.parse(rawJson) as Record<string, unknown>));
      }
      const state = decodeJSON(impliedType(r.schema.block), json, { missingAttributesAreNull: true, dropUnknownAttributes: true });
      return { state: state as ObjectValue | null, diags };
    } catch (err) {
      // State that does not fit the schema is for the user to see, not a provider bug.
      if (err instanceof ValueDecodeError) return { state: null, diags: diags.error('Cannot read the stored state', `The state stored for ${typeName} is not valid: ${err.message}.`, err.path) };
      diags.append([diagnosticFromError('Cannot read the stored state', err)]);
      return { state: null, diags };
    }
  }

  async readResource(typeName: string, current: ObjectValue, priv: PrivateState): Promise<StateOutcome> {
    const r = this.resources.get(typeName);
    const diags = new Diagnostics();
    if (!r) return { state: current, private: priv, diags: diags.error('Unknown resource type', `No resource type "${typeName}".`) };
    try {
      const ctx = this.context(diags, priv, typeName);
      const fresh = await r.read(toModel(r.schema.fields, current), ctx);
      if (fresh === null) return { state: null, private: priv, diags };
      const freshValue = fromModel(r.schema.fields, fresh, current);
      return { state: reconcileRead(r.schema.fields, current, freshValue), private: priv, diags };
    } catch (err) {
      if (isNotFound(err)) return { state: null, private: priv, diags };
      diags.append([diagnosticFromError(`Cannot read ${typeName}`, err)]);
      return { state: current, private: priv, diags };
    }
  }

  planResourceChange(typeName: string, prior: ObjectValue | null, proposed: ObjectValue | null, config: ObjectValue | null, priorPrivate: PrivateState): PlanOutcome {
    const diags = new Diagnostics();
    const r = this.resources.get(typeName);
    if (!r) return { planned: proposed, requiresReplace: [], plannedPrivate: priorPrivate, diags: diags.error('Unknown resource type', `No resource type "${typeName}".`) };
    if (proposed === null) return { planned: null, requiresReplace: [], plannedPrivate: priorPrivate, diags };
    try {
      const { planned, requiresReplace } = planObject(r.schema.fields, prior, proposed, config ?? proposed);
      return { planned, requiresReplace, plannedPrivate: priorPrivate, diags };
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot plan ${typeName}`, err)]);
      return { planned: proposed, requiresReplace: [], plannedPrivate: priorPrivate, diags };
    }
  }

  async applyResourceChange(typeName: string, prior: ObjectValue | null, planned: ObjectValue | null, plannedPrivate: PrivateState): Promise<StateOutcome> {
    const diags = new Diagnostics();
    const r = this.resources.get(typeName);
    if (!r) return { state: prior, private: plannedPrivate, diags: diags.error('Unknown resource type', `No resource type "${typeName}".`) };
    const fields = r.schema.fields;
    let partial: object | undefined;
    const ctx = this.context(diags, plannedPrivate, typeName, (m) => (partial = m));
    const action = planned === null ? 'delete' : prior === null ? 'create' : 'update';
    try {
      if (planned === null) {
        await r.delete(toModel(fields, prior!), ctx);
        return { state: null, private: {}, diags };
      }
      const plan = toModel(fields, planned);
      const result =
        prior === null
          ? await createTracked(r, plan, ctx, this.createRecovery)
          : await (r.update ?? notUpdatable(typeName))(plan, toModel(fields, prior), ctx);
      return { state: this.finalize(r, planned, fromModel(fields, result, planned)), private: plannedPrivate, diags };
    } catch (err) {
      if (action === 'delete' && isNotFound(err)) return { state: null, private: {}, diags };
      const failure = diagnosticFromError(`Cannot ${action} ${typeName}`, err);
      // Keep what exists: a partially created object goes to state (Terraform taints it); a failed
      // update keeps the prior state; a failed delete keeps the object.
      if (partial && planned) {
        const state = this.finalize(r, planned, fromModel(fields, partial, planned));
        diags.append([action === 'create' ? { ...failure, detail: sentences(failure.detail, keptTainted(r, toModel(fields, state))) } : failure]);
        return { state, private: plannedPrivate, diags };
      }
      if (action === 'create' && isApiError(err, 'cancelled')) {
        diags.append([{ ...failure, summary: `Create of ${typeName} cancelled`, detail: `${failure.detail}: ${describe(r, toModel(fields, planned!))} was not created.` }]);
      } else diags.append([failure]);
      return { state: prior, private: plannedPrivate, diags };
    }
  }

  async importResourceState(typeName: string, id: string): Promise<StateOutcome> {
    const diags = new Diagnostics();
    const r = this.resources.get(typeName);
    if (!r) return { state: null, private: {}, diags: diags.error('Unknown resource type', `No resource type "${typeName}".`) };
    if (!r.importState) return { state: null, private: {}, diags: diags.error('Import not supported', `The resource type ${typeName} cannot be imported.`) };
    const idForm = `${typeName} is imported by ${r.importIdDescription ?? 'the id of the object'}.`;
    // `terraform import <address> ""` reaches the provider (an import block's empty id does not).
    if (id.trim() === '') return { state: null, private: {}, diags: diags.error('Missing Resource Import Identifier', `The import ID is empty. ${idForm}`) };
    // Terraform's own words when the read that follows an import finds nothing, said here when the
    // import itself finds out, with the id's form.
    const nonExistent = (): StateOutcome => ({
      state: null,
      private: {},
      diags: diags.error(
        'Cannot import non-existent remote object',
        `While attempting to import an existing object to ${typeName}, the provider detected that no object exists with the given id. ` +
          "Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, " +
          `or use "terraform apply" to create a new remote object for this resource. ${idForm}`,
      ),
    });
    try {
      const start = await r.importState(id, this.context(diags, {}, typeName));
      if (start === null) return nonExistent();
      return { state: withDefaults(r.schema.fields, fromModel(r.schema.fields, start, null)), private: {}, diags };
    } catch (err) {
      if (isNotFound(err)) return nonExistent();
      diags.append([diagnosticFromError(`Cannot import ${typeName}`, err)]);
      return { state: null, private: {}, diags };
    }
  }

  async readDataSource(typeName: string, config: ObjectValue): Promise<{ state: ObjectValue | null; diags: Diagnostics }> {
    const diags = new Diagnostics();
    const d = this.dataSources.get(typeName);
    if (!d) return { state: null, diags: diags.error('Unknown data source', `No data source "${typeName}".`) };
    try {
      const result = await d.read(toModel(d.schema.fields, config), this.context(diags, {}, typeName));
      const fresh = fromModel(d.schema.fields, result, config);
      // Configured values stay exactly as configured; computed ones come from the API.
      const state = reconcileRead(d.schema.fields, config, fresh);
      for (const [name, v] of Object.entries(config)) if (v !== null && d.schema.fields[name]?.kind === 'attr') state[name] = v;
      return { state, diags };
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot read data source ${typeName}`, err)]);
      return { state: null, diags };
    }
  }

  private finalize(r: ResourceDef<Fields, C>, planned: ObjectValue, result: ObjectValue): ObjectValue {
    const mismatches: Mismatch[] = [];
    const state = finalizeApplied(r.schema.fields, planned, result, mismatches);
    if (mismatches.length > 0) {
      this.log.warn('the API stored values that differ from the plan; state keeps the planned values and the next refresh shows the difference', {
        tf_resource_type: r.typeName,
        paths: mismatches.map((m) => m.path),
      });
    }
    return state;
  }

  private context(diags: Diagnostics, priv: PrivateState, typeName: string, partial: (m: object | undefined) => void = () => {}): OpContext<C> {
    const engine = this;
    return {
      get client(): C {
        if (engine.client === undefined) throw new DiagnosticError('Provider not configured', engine.unconfiguredReason);
        return engine.client;
      },
      signal: this.stopController.signal,
      log: this.log.child({ tf_resource_type: typeName }),
      diags,
      private: priv,
      partial,
    };
  }

  private guardSync(diags: Diagnostics, summary: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      diags.append([diagnosticFromError(summary, err)]);
    }
  }
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'not_found';
}

/** What a create that failed after the object came to exist leaves behind, said once for every type. */
function keptTainted<C>(r: ResourceDef<Fields, C>, state: ModelOf<Fields>): string {
  const id = (state as { id?: unknown }).id;
  const which = typeof id === 'string' && id !== '' ? `${r.typeName} ${id}` : capitalizedDescription(r, state);
  return `${which} exists and is kept in the state, marked tainted, so the next apply replaces it (\`terraform untaint\` keeps it instead).`;
}

function capitalizedDescription<C>(r: ResourceDef<Fields, C>, model: ModelOf<Fields>): string {
  const text = describe(r, model);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function notUpdatable(typeName: string): never {
  // Only a request Terraform would not send gets here: every change of such a type forces replacement.
  throw new DiagnosticError('Cannot update in place', `${typeName} cannot be updated in place; a change to it must replace it, as its plan says.`);
}

/** Fills plan-time defaults into a state built from scratch (import), so the next plan is empty. */
function withDefaults(fields: Fields, state: ObjectValue): ObjectValue {
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr' && def.options.default !== undefined && state[name] === null) state[name] = plainToValue(def.type.cty, def.options.default);
  }
  return state;
}

export type { Value };
