/**
 * The lifecycle engine, written once for every resource and data source: protocol-neutral (Values
 * in, Values out), it applies the plan/apply/read/import/upgrade rules of
 * docs/protocol.md, "RPC rules" and docs/protocol.md, "Terraform's checks" and turns anything
 * thrown into diagnostics.
 *
 * ProviderEngine is the façade the server calls, one method per RPC. Each method hands the call to
 * the module that serves its family (as the plugin framework's server keeps one file per RPC family):
 * this part's own files for the provider's configuration, data sources, ephemeral resources and
 * actions; the resources part (engine/resources/) for managed resources, their identities, moves,
 * lists and generated configuration; the functions part for functions. They share one EngineContext
 * (engine/context/) and never this class (ARCHITECTURE.md, "Inside the engine", names each module).
 */
import type { Schema } from '../../schema/block.js';
import type { CtyType } from '../../schema/cty-type.js';
import type { Fields } from '../../schema/define.js';
import type { ObjectValue } from '../../schema/value.js';
import type { IdentityDef, ProviderDef } from '../contracts/index.js';
import type { Logger, Diagnostics } from '../diagnostics/index.js';
import { CreateJournal, type JournalPlace } from '../journal/index.js';
import { DEFAULT_CREATE_RECOVERY, type CreateRecoveryOptions } from '../creates/index.js';
import { Actions, type ActionEvent, type InvokeOptions } from './actions.js';
import { DataSources } from './data-sources.js';
import { EngineContext, type PrivateState, type StateOutcome } from '../context/index.js';
import { EphemeralResources, type OpenedEphemeral } from './ephemeral-resources.js';
import {
  ResourceConfigGeneration,
  ListResources,
  ListedReads,
  type ListEvent,
  type ListOptions,
  ResourceChanges,
  type PlanOutcome,
  ResourceIdentity,
  type IdentifiedOutcome,
  ResourceMoves,
  ResourceState,
} from '../resources/index.js';
import { Functions } from '../functions/index.js';
import type { HostView } from '../host/index.js';
import { ProviderConfiguration } from './provider-config.js';
import type { ClientCapabilities } from '../plan/index.js';

export class ProviderEngine<C> {
  private readonly ctx: EngineContext<C>;
  private readonly configuration: ProviderConfiguration<C>;
  private readonly changes: ResourceChanges<C>;
  private readonly state: ResourceState<C>;
  private readonly identity: ResourceIdentity<C>;
  private readonly lists: ListResources<C>;
  private readonly generation: ResourceConfigGeneration<C>;
  private readonly dataSources: DataSources<C>;
  private readonly ephemerals: EphemeralResources<C>;
  private readonly actions: Actions<C>;
  /** GetFunctions and CallFunction (engine/functions/): the server calls the part itself, it needs nothing else. */
  readonly functions: Functions;
  /** MoveResourceState (resource-moves.ts), which the server also calls itself. */
  readonly moves: ResourceMoves<C>;

  constructor(
    readonly def: ProviderDef<Fields, C>,
    log: Logger,
    env: NodeJS.ProcessEnv = process.env,
    /** How creates whose answer was lost are recovered (tests shorten the lookup delay). */
    createRecovery: Partial<CreateRecoveryOptions> = {},
    /**
     * Where the records of creates outlive the process (engine/journal/create-journal.ts), or the journal itself;
     * null keeps none.
     */
    journal: JournalPlace | CreateJournal | null = null,
    /** What the provider knows of the client that runs it (tests give one that reads no process). */
    host?: HostView,
  ) {
    const records = journal instanceof CreateJournal ? journal : new CreateJournal(def.name, journal);
    this.ctx = new EngineContext(def, log, env, records, host);
    this.configuration = new ProviderConfiguration(this.ctx);
    const listed = new ListedReads(this.ctx);
    this.changes = new ResourceChanges(this.ctx, { ...DEFAULT_CREATE_RECOVERY, ...createRecovery }, listed);
    this.state = new ResourceState(this.ctx, listed);
    this.identity = new ResourceIdentity(this.ctx, this.changes, this.state);
    this.lists = new ListResources(this.ctx);
    this.generation = new ResourceConfigGeneration(this.ctx);
    this.dataSources = new DataSources(this.ctx);
    this.ephemerals = new EphemeralResources(this.ctx);
    this.actions = new Actions(this.ctx);
    this.functions = new Functions(def.name, def.functions ?? []);
    this.moves = new ResourceMoves(this.ctx);
  }

  // Schemas (GetProviderSchema, GetResourceIdentitySchemas).

  providerSchema(): Schema {
    return this.def.schema;
  }
  resourceSchemas(): Map<string, Schema> {
    return this.ctx.resources.collect((r) => r.schema);
  }
  resourceSchema(typeName: string): Schema | undefined {
    return this.ctx.resources.get(typeName)?.schema;
  }
  identitySchemas(): Map<string, IdentityDef<Fields, C>> {
    return this.identity.identitySchemas();
  }
  identityTypeOf(typeName: string): CtyType | undefined {
    return this.identity.identityTypeOf(typeName);
  }
  listResourceSchemas(): Map<string, Schema> {
    return this.lists.listResourceSchemas();
  }
  listResourceSchema(typeName: string): Schema | undefined {
    return this.lists.listResourceSchema(typeName);
  }
  dataSourceSchemas(): Map<string, Schema> {
    return this.dataSources.dataSourceSchemas();
  }
  dataSourceSchema(typeName: string): Schema | undefined {
    return this.dataSources.dataSourceSchema(typeName);
  }
  ephemeralResourceSchemas(): Map<string, Schema> {
    return this.ephemerals.ephemeralResourceSchemas();
  }
  ephemeralResourceSchema(typeName: string): Schema | undefined {
    return this.ephemerals.ephemeralResourceSchema(typeName);
  }

  // The provider (provider-config.ts; StopProvider ends what runs under the shared context).

  /** StopProvider: cancels in-flight work; later calls get a fresh signal. */
  stop(): void {
    this.ctx.stop();
  }
  validateProviderConfig(config: ObjectValue): Diagnostics {
    return this.configuration.validateProviderConfig(config);
  }
  configureProvider(terraformVersion: string, config: ObjectValue): Promise<Diagnostics> {
    return this.configuration.configureProvider(terraformVersion, config);
  }

  // Managed resources' changes (engine/resources/resource-changes.ts).

  validateResourceConfig(typeName: string, config: ObjectValue, client?: ClientCapabilities): Diagnostics {
    return this.changes.validateResourceConfig(typeName, config, client);
  }
  planResourceChange(
    typeName: string,
    prior: ObjectValue | null,
    proposed: ObjectValue | null,
    config: ObjectValue | null,
    priorPrivate: PrivateState,
  ): PlanOutcome {
    return this.changes.planResourceChange(typeName, prior, proposed, config, priorPrivate);
  }
  /** `config`, when given, is checked once more before a create or update (engine/resources/resource-changes.ts). */
  applyResourceChange(
    typeName: string,
    prior: ObjectValue | null,
    planned: ObjectValue | null,
    plannedPrivate: PrivateState,
    config: ObjectValue | null = null,
  ): Promise<StateOutcome> {
    return this.changes.applyResourceChange(typeName, prior, planned, plannedPrivate, config);
  }

  /**
   * PlanResourceChange as the server serves it: planWithIdentity, then what the plan tells the
   * records of creates and they (and the platform) tell the plan (engine/resources/resource-changes.ts planNotices).
   */
  async planWithNotices(
    typeName: string,
    prior: ObjectValue | null,
    proposed: ObjectValue | null,
    config: ObjectValue | null,
    priorPrivate: PrivateState,
    priorIdentity: ObjectValue | null,
    /** The client's capabilities: Terraform's apply walk allows deferral (engine/host/walk.ts). */
    client: { deferralAllowed?: boolean } = {},
  ): Promise<PlanOutcome & { identity: ObjectValue | null }> {
    this.ctx.walk.called(client);
    const out = this.identity.planWithIdentity(typeName, prior, proposed, config, priorPrivate, priorIdentity);
    await this.changes.planNotices(typeName, prior, config, out);
    return { ...out, diags: this.ctx.terms.inClientWords(typeName, out.diags) };
  }

  // The records of creates, as the process ends (engine/journal/create-journal.ts).

  /**
   * Terraform went away: from now on nothing is sent that was not on the wire, answers are written
   * down for the next run, and this resolves once no create is in flight.
   */
  async hostGone(): Promise<void> {
    this.ctx.journal.hostGone();
    this.ctx.stop();
    await this.ctx.journal.whenIdle();
    await this.ctx.journal.flush();
  }
  /** Terraform's Shutdown: what was returned to it is its to keep. */
  ended(): Promise<void> {
    return this.ctx.journal.ended();
  }

  // Managed resources' stored and refreshed state (engine/resources/resource-state.ts).

  upgradeResourceState(
    typeName: string,
    version: number,
    rawJson: string | null,
  ): { state: ObjectValue | null; diags: Diagnostics } {
    this.ctx.walk.called();
    return this.state.upgradeResourceState(typeName, version, rawJson);
  }
  readResource(typeName: string, current: ObjectValue, priv: PrivateState): Promise<StateOutcome> {
    return this.state.readResource(typeName, current, priv);
  }
  importResourceState(typeName: string, id: string): Promise<StateOutcome> {
    return this.state.importResourceState(typeName, id);
  }

  // The same with identity, which the server calls (engine/resources/resource-identity.ts).

  readWithIdentity(
    typeName: string,
    current: ObjectValue,
    priv: PrivateState,
    currentIdentity: ObjectValue | null,
  ): Promise<IdentifiedOutcome> {
    this.ctx.walk.called();
    return this.identity.readWithIdentity(typeName, current, priv, currentIdentity);
  }
  planWithIdentity(
    typeName: string,
    prior: ObjectValue | null,
    proposed: ObjectValue | null,
    config: ObjectValue | null,
    priorPrivate: PrivateState,
    priorIdentity: ObjectValue | null,
  ): PlanOutcome & { identity: ObjectValue | null } {
    return this.identity.planWithIdentity(typeName, prior, proposed, config, priorPrivate, priorIdentity);
  }
  async applyWithIdentity(
    typeName: string,
    prior: ObjectValue | null,
    planned: ObjectValue | null,
    plannedPrivate: PrivateState,
    config: ObjectValue | null,
    plannedIdentity: ObjectValue | null,
    /** Aborted when the caller went away, so that the result never reaches it. */
    caller?: AbortSignal,
  ): Promise<IdentifiedOutcome> {
    // Pulumi plans each create right before applying it, in one process: its plans are never an
    // apply walk's that another walk judged before (engine/host/walk.ts).
    this.ctx.walk.called({ applies: !this.ctx.host.appliesRightAfterPlan });
    const out = await this.identity.applyWithIdentity(
      typeName,
      prior,
      planned,
      plannedPrivate,
      config,
      plannedIdentity,
      caller,
    );
    return { ...out, diags: this.ctx.terms.inClientWords(typeName, out.diags) };
  }
  importWithIdentity(typeName: string, target: { id: string } | { identity: ObjectValue }): Promise<IdentifiedOutcome> {
    this.ctx.walk.called();
    return this.identity.importWithIdentity(typeName, target);
  }
  upgradeResourceIdentity(
    typeName: string,
    version: number,
    rawJson: string,
  ): { identity: ObjectValue | null; diags: Diagnostics } {
    return this.identity.upgradeResourceIdentity(typeName, version, rawJson);
  }

  // Configuration written from a state (engine/resources/generate-config.ts).

  /** GenerateResourceConfig; `state` is null when Terraform sent none (1.14.0). */
  generateResourceConfig(typeName: string, state: ObjectValue | null): { config: ObjectValue; diags: Diagnostics } {
    return this.generation.generateResourceConfig(typeName, state);
  }

  // List resources (engine/resources/list-resources.ts).

  validateListResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.lists.validateListResourceConfig(typeName, config);
  }
  listResource(typeName: string, config: ObjectValue, options: ListOptions): AsyncGenerator<ListEvent> {
    return this.lists.listResource(typeName, config, options);
  }

  // Data sources (data-sources.ts).

  validateDataResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.dataSources.validateDataResourceConfig(typeName, config);
  }
  readDataSource(typeName: string, config: ObjectValue): Promise<{ state: ObjectValue | null; diags: Diagnostics }> {
    this.ctx.walk.called();
    return this.dataSources.readDataSource(typeName, config);
  }

  // Ephemeral resources (ephemeral-resources.ts).

  validateEphemeralResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.ephemerals.validateEphemeralResourceConfig(typeName, config);
  }
  openEphemeralResource(typeName: string, config: ObjectValue): Promise<OpenedEphemeral> {
    return this.ephemerals.openEphemeralResource(typeName, config);
  }
  renewEphemeralResource(
    typeName: string,
    priv: PrivateState,
  ): Promise<{ renewAt?: Date; private: PrivateState; diags: Diagnostics }> {
    return this.ephemerals.renewEphemeralResource(typeName, priv);
  }
  closeEphemeralResource(typeName: string, priv: PrivateState): Promise<Diagnostics> {
    return this.ephemerals.closeEphemeralResource(typeName, priv);
  }
  /** Closes what Terraform left open, as the provider shuts down (ephemeral-resources.ts). */
  closeLeftoverEphemerals(budgetMs: number): Promise<void> {
    return this.ephemerals.closeLeftoverEphemerals(budgetMs);
  }

  // Actions (actions.ts).

  actionSchemas(): Map<string, Schema> {
    return this.actions.actionSchemas();
  }
  actionSchema(typeName: string): Schema | undefined {
    return this.actions.actionSchema(typeName);
  }
  validateActionConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.actions.validateActionConfig(typeName, config);
  }
  planAction(typeName: string, config: ObjectValue): Diagnostics {
    return this.actions.planAction(typeName, config);
  }
  invokeAction(typeName: string, config: ObjectValue, options: InvokeOptions = {}): AsyncGenerator<ActionEvent> {
    return this.actions.invokeAction(typeName, config, options);
  }
}
