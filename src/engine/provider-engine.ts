/**
 * The lifecycle engine, written once for every resource and data source: protocol-neutral (Values
 * in, Values out), it applies the plan/apply/read/import/upgrade rules of protocol.md §2.4 and §4 and
 * turns anything thrown into diagnostics.
 */
import type { Fields, ModelOf } from '../schema/define.js';
import type { Schema } from '../schema/block.js';
import type { ObjectValue, Value } from '../schema/value.js';
import { decodeJSON } from '../schema/json.js';
import { ValueDecodeError } from '../schema/msgpack.js';
import { fromModel } from '../schema/model.js';
import type { IdentityDef, Logger, Partial2, ProviderDef } from './contracts.js';
import { changedAttributes, formatIdentity, identityModel, identityOfState, identityType, importStartFromIdentity, missingAttributes } from './identity.js';
import type { CtyType } from '../schema/cty-type.js';
import { Diagnostics, diagnosticFromError } from './diagnostics.js';
import { DEFAULT_CREATE_RECOVERY, type CreateRecoveryOptions } from './create-recovery.js';
import type { ClientCapabilities } from './validate.js';
import { ProviderConfiguration } from './provider-config.js';
import { DataSources } from './data-sources.js';
import { ResourceChanges, type PlanOutcome } from './resource-changes.js';
import { ResourceState, withDefaults } from './resource-state.js';
import { ListResources, type ListEvent, type ListedObject, type ListOptions } from './list-resources.js';
import { EphemeralResources, type OpenedEphemeral } from './ephemeral-resources.js';
import { EngineContext, type PrivateState, type StateOutcome } from './engine-context.js';

export type { PrivateState, StateOutcome, PlanOutcome, ListEvent, ListedObject };

/** A state and the identity of the object it describes (null: none, or not known yet). */
export interface IdentifiedOutcome extends StateOutcome {
  identity: ObjectValue | null;
}

/** Every resource identity is at this version; none has needed an upgrade yet. */
export const IDENTITY_VERSION = 0;

/**
 * Private-state mark of an imported object not read yet: that read adopts the identity it finds
 * (the import started from what the user typed) and drops the mark.
 */
const IMPORTED_MARK = 'keel.imported';

export class ProviderEngine<C> {
  private readonly ctx: EngineContext<C>;
  private readonly configuration: ProviderConfiguration<C>;
  private readonly dataSources: DataSources<C>;
  private readonly ephemerals: EphemeralResources<C>;
  private readonly state: ResourceState<C>;
  private readonly lists: ListResources<C>;
  private readonly changes: ResourceChanges<C>;

  constructor(
    readonly def: ProviderDef<Fields, C>,
    log: Logger,
    env: NodeJS.ProcessEnv = process.env,
    /** How creates whose answer was lost are recovered (tests shorten the lookup delay). */
    createRecovery: Partial<CreateRecoveryOptions> = {},
  ) {
    this.ctx = new EngineContext(def, log, env);
    this.configuration = new ProviderConfiguration(this.ctx);
    this.dataSources = new DataSources(this.ctx);
    this.ephemerals = new EphemeralResources(this.ctx);
    this.state = new ResourceState(this.ctx);
    this.lists = new ListResources(this.ctx);
    this.changes = new ResourceChanges(this.ctx, { ...DEFAULT_CREATE_RECOVERY, ...createRecovery });
  }

  providerSchema(): Schema {
    return this.def.schema;
  }
  resourceSchemas(): Map<string, Schema> {
    return new Map([...this.ctx.resources].map(([k, r]) => [k, r.schema]));
  }
  dataSourceSchemas(): Map<string, Schema> {
    return this.dataSources.dataSourceSchemas();
  }
  ephemeralResourceSchemas(): Map<string, Schema> {
    return this.ephemerals.ephemeralResourceSchemas();
  }
  ephemeralResourceSchema(typeName: string): Schema | undefined {
    return this.ephemerals.ephemeralResourceSchema(typeName);
  }
  resourceSchema(typeName: string): Schema | undefined {
    return this.ctx.resources.get(typeName)?.schema;
  }
  dataSourceSchema(typeName: string): Schema | undefined {
    return this.dataSources.dataSourceSchema(typeName);
  }

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

  validateResourceConfig(typeName: string, config: ObjectValue, client?: ClientCapabilities): Diagnostics {
    return this.changes.validateResourceConfig(typeName, config, client);
  }

  validateDataResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.dataSources.validateDataResourceConfig(typeName, config);
  }

  upgradeResourceState(typeName: string, version: number, rawJson: string | null): { state: ObjectValue | null; diags: Diagnostics } {
    return this.state.upgradeResourceState(typeName, version, rawJson);
  }

  readResource(typeName: string, current: ObjectValue, priv: PrivateState): Promise<StateOutcome> {
    return this.state.readResource(typeName, current, priv);
  }

  planResourceChange(typeName: string, prior: ObjectValue | null, proposed: ObjectValue | null, config: ObjectValue | null, priorPrivate: PrivateState): PlanOutcome {
    return this.changes.planResourceChange(typeName, prior, proposed, config, priorPrivate);
  }
  applyResourceChange(typeName: string, prior: ObjectValue | null, planned: ObjectValue | null, plannedPrivate: PrivateState, config: ObjectValue | null = null): Promise<StateOutcome> {
    return this.changes.applyResourceChange(typeName, prior, planned, plannedPrivate, config);
  }

  importResourceState(typeName: string, id: string): Promise<StateOutcome> {
    return this.state.importResourceState(typeName, id);
  }

  readDataSource(typeName: string, config: ObjectValue): Promise<{ state: ObjectValue | null; diags: Diagnostics }> {
    return this.dataSources.readDataSource(typeName, config);
  }

  validateEphemeralResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.ephemerals.validateEphemeralResourceConfig(typeName, config);
  }
  openEphemeralResource(typeName: string, config: ObjectValue): Promise<OpenedEphemeral> {
    return this.ephemerals.openEphemeralResource(typeName, config);
  }
  renewEphemeralResource(typeName: string, priv: PrivateState): Promise<{ renewAt?: Date; private: PrivateState; diags: Diagnostics }> {
    return this.ephemerals.renewEphemeralResource(typeName, priv);
  }
  closeEphemeralResource(typeName: string, priv: PrivateState): Promise<Diagnostics> {
    return this.ephemerals.closeEphemeralResource(typeName, priv);
  }
  closeLeftoverEphemerals(budgetMs: number): Promise<void> {
    return this.ephemerals.closeLeftoverEphemerals(budgetMs);
  }

  // -------------------------------------------------------------------------------------------------
  // Resource identity (Terraform 1.12 and later). Each RPC that returns a state returns the identity
  // of the object it describes, computed from that state; these methods wrap the lifecycle methods
  // above and check that an object's identity never changes.

  /** The identity declaration of every resource type that has one (GetResourceIdentitySchemas). */
  identitySchemas(): Map<string, IdentityDef<Fields, C>> {
    return new Map([...this.ctx.resources].flatMap(([k, r]) => (r.identity ? [[k, r.identity] as const] : [])));
  }
  identityTypeOf(typeName: string): CtyType | undefined {
    const def = this.ctx.resources.get(typeName)?.identity;
    return def ? identityType(def) : undefined;
  }

  /**
   * ReadResource with identity: the identity of what was read. A current identity (from the state)
   * must still be the object's; the first read after an import adopts what it reads, as the import
   * started from what the user typed.
   */
  async readWithIdentity(typeName: string, current: ObjectValue, priv: PrivateState, currentIdentity: ObjectValue | null): Promise<IdentifiedOutcome> {
    const { [IMPORTED_MARK]: imported, ...ownPrivate } = priv;
    const def = this.ctx.resources.get(typeName)?.identity;
    // A state that does not name its object is not read, as it is not planned or applied; an
    // import's state may still lack what its read completes.
    if (def && imported !== true) {
      const diags = new Diagnostics();
      if (this.lacksIdentity(typeName, 'prior', currentIdentity ?? identityOfState(def, current, this.ctx.client), diags)) return { state: current, private: priv, diags, identity: currentIdentity };
    }
    const out = await this.readResource(typeName, current, ownPrivate);
    if (!def || out.diags.hasErrors) return { ...out, identity: currentIdentity };
    if (out.state === null) return { ...out, identity: null };
    const identity = identityOfState(def, out.state, this.ctx.client);
    if (this.identityIncomplete(typeName, def, identity, 'read', out.diags)) return { ...out, identity: currentIdentity };
    if (currentIdentity !== null && imported !== true) this.identityUnchanged(typeName, def, currentIdentity, identity, 'read', out.diags);
    return { ...out, identity: out.diags.hasErrors ? currentIdentity : identity };
  }

  /**
   * PlanResourceChange with identity. A create has none yet (Terraform learns it from the apply); an
   * update or destroy keeps the prior one, and a planned change of what names the object must be a
   * replacement.
   */
  planWithIdentity(typeName: string, prior: ObjectValue | null, proposed: ObjectValue | null, config: ObjectValue | null, priorPrivate: PrivateState, priorIdentity: ObjectValue | null): PlanOutcome & { identity: ObjectValue | null } {
    const out = this.planResourceChange(typeName, prior, proposed, config, priorPrivate);
    const def = this.ctx.resources.get(typeName)?.identity;
    if (!def || prior === null) return { ...out, identity: null };
    const kept = priorIdentity ?? identityOfState(def, prior, this.ctx.client);
    if (this.lacksIdentity(typeName, 'prior', kept, out.diags)) return { ...out, identity: null };
    if (out.diags.hasErrors || out.planned === null) return { ...out, identity: kept };
    const changed = changedAttributes(kept, identityOfState(def, out.planned, this.ctx.client));
    if (changed.length > 0 && out.requiresReplace.length === 0) {
      out.diags.error(
        'Resource identity would change',
        `The plan for this ${typeName} changes ${changed.map((n) => `\`${n}\``).join(', ')}, which name the object, without replacing it: its identity would go from ${formatIdentity(def, kept)} to ${formatIdentity(def, identityOfState(def, out.planned, this.ctx.client))}. An object's identity never changes. This is a bug in the provider; please report it.`,
      );
    }
    return { ...out, identity: kept };
  }

  /**
   * ApplyResourceChange with identity: after a create or update the identity must be complete, and
   * an update must leave it as planned.
   */
  async applyWithIdentity(
    typeName: string,
    prior: ObjectValue | null,
    planned: ObjectValue | null,
    plannedPrivate: PrivateState,
    config: ObjectValue | null,
    plannedIdentity: ObjectValue | null,
  ): Promise<IdentifiedOutcome> {
    const def = this.ctx.resources.get(typeName)?.identity;
    // An update of a state that does not name its object, or that would name another, is refused
    // before anything is sent: a plan this provider made replaces an object whose name changes.
    if (def && prior !== null && planned !== null) {
      const diags = new Diagnostics();
      const stored = identityOfState(def, prior, this.ctx.client);
      const kept = plannedIdentity ?? stored;
      const next = identityOfState(def, planned, this.ctx.client);
      if (this.lacksIdentity(typeName, 'prior', kept, diags) || this.lacksIdentity(typeName, 'planned', next, diags)) {
        return { state: prior, private: plannedPrivate, diags, identity: null };
      }
      const changed = changedAttributes(stored, next);
      if (changed.length > 0) {
        diags.error(
          'Invalid planned state',
          `The planned update of this ${typeName} changes ${changed.map((n) => `\`${n}\``).join(', ')}, which name the object: its identity would go from ${formatIdentity(def, stored)} to ${formatIdentity(def, next)}. A change of what names an object replaces it; this plan was not made by this provider.`,
        );
        return { state: prior, private: plannedPrivate, diags, identity: kept };
      }
    }
    const out = await this.applyResourceChange(typeName, prior, planned, plannedPrivate, config);
    if (!def || out.state === null) return { ...out, identity: null };
    const identity = identityOfState(def, out.state, this.ctx.client);
    // A failed create or update still returns what exists; its identity, when it has one, names it.
    if (out.diags.hasErrors) return { ...out, identity: missingAttributes(identity).length === 0 ? identity : plannedIdentity };
    const action = prior === null ? 'create' : 'update';
    if (this.identityIncomplete(typeName, def, identity, action, out.diags)) return { ...out, identity: null };
    if (prior !== null) this.identityUnchanged(typeName, def, plannedIdentity ?? identityOfState(def, prior, this.ctx.client), identity, action, out.diags);
    return { ...out, identity };
  }

  /**
   * ImportResourceState by id or by identity (an `import` block gives one or the other). The import
   * returns the identity it knows so far; the read that follows completes it.
   */
  async importWithIdentity(typeName: string, target: { id: string } | { identity: ObjectValue }): Promise<IdentifiedOutcome> {
    const r = this.ctx.resources.get(typeName);
    const def = r?.identity;
    if ('id' in target) {
      const out = await this.importResourceState(typeName, target.id);
      if (!def || out.state === null) return { ...out, identity: null };
      const identity = identityOfState(def, out.state, this.ctx.client);
      return { ...out, private: { ...out.private, [IMPORTED_MARK]: true }, identity: missingAttributes(identity).length === 0 ? identity : null };
    }
    const diags = new Diagnostics();
    if (!r) return { state: null, private: {}, diags: diags.error('Unknown resource type', `No resource type "${typeName}".`), identity: null };
    if (!def) return { state: null, private: {}, diags: diags.error('Import by identity not supported', `The resource type ${typeName} has no identity.`), identity: null };
    if (!r.importState) return { state: null, private: {}, diags: diags.error('Import not supported', `The resource type ${typeName} cannot be imported.`), identity: null };
    const given = target.identity;
    const missing = missingAttributes(given).filter((n) => def.attributes[n]!.forImport === 'required');
    if (missing.length > 0) {
      return {
        state: null,
        private: {},
        diags: diags.error('Incomplete identity', `Importing ${typeName} by identity needs ${missing.map((n) => `\`${n}\``).join(', ')} in the \`identity\` of the \`import\` block.`),
        identity: null,
      };
    }
    try {
      const ctx = this.ctx.operation(diags, {}, typeName);
      const start = def.importState ? await def.importState(identityModel(given), ctx) : importStartFromIdentity(def, identityModel(given));
      const state = withDefaults(r.schema.fields, fromModel(r.schema.fields, start as Partial2<ModelOf<Fields>>, null));
      // What the starting state already names wins (e.g. an account filled in from the provider's); the rest is as given.
      const known = identityOfState(def, state, this.ctx.client);
      const identity = Object.fromEntries(Object.keys(def.attributes).map((n) => [n, known[n] ?? given[n] ?? null]));
      return { state, private: { [IMPORTED_MARK]: true }, diags, identity };
    } catch (err) {
      diags.append([diagnosticFromError(`Cannot import ${typeName}`, err)]);
      return { state: null, private: {}, diags, identity: null };
    }
  }

  /**
   * UpgradeResourceIdentity: a stored identity (JSON) → the current identity type. Every identity is
   * still at version 0, so only that version is read; Terraform calls this when the stored version
   * differs from the schema's.
   */
  upgradeResourceIdentity(typeName: string, version: number, rawJson: string): { identity: ObjectValue | null; diags: Diagnostics } {
    const diags = new Diagnostics();
    const def = this.ctx.resources.get(typeName)?.identity;
    if (!this.ctx.resources.has(typeName)) return { identity: null, diags: diags.error('Unknown resource type', `The provider has no resource type "${typeName}".`) };
    if (!def) return { identity: null, diags: diags.error('No resource identity', `The resource type ${typeName} has no identity to upgrade.`) };
    if (version !== IDENTITY_VERSION) {
      return { identity: null, diags: diags.error('Unknown identity version', `The stored identity of ${typeName} has version ${version}; this provider knows version ${IDENTITY_VERSION} only. Use the provider version that wrote it, or a newer one.`) };
    }
    try {
      const identity = decodeJSON(identityType(def), rawJson) as ObjectValue | null;
      if (identity === null) return { identity: null, diags: diags.error('Cannot read the stored identity', `The stored identity of ${typeName} is null.`) };
      return { identity, diags };
    } catch (err) {
      if (err instanceof ValueDecodeError) return { identity: null, diags: diags.error('Cannot read the stored identity', `The identity stored for ${typeName} is not valid: ${err.message}.`) };
      diags.append([diagnosticFromError('Cannot read the stored identity', err)]);
      return { identity: null, diags };
    }
  }

  listResourceSchemas(): Map<string, Schema> {
    return this.lists.listResourceSchemas();
  }
  listResourceSchema(typeName: string): Schema | undefined {
    return this.lists.listResourceSchema(typeName);
  }
  validateListResourceConfig(typeName: string, config: ObjectValue): Diagnostics {
    return this.lists.validateListResourceConfig(typeName, config);
  }
  listResource(typeName: string, config: ObjectValue, options: ListOptions): AsyncGenerator<ListEvent> {
    return this.lists.listResource(typeName, config, options);
  }

  /**
   * Adds an error when the prior or planned state of an existing object lacks what names it; returns
   * whether it did. This provider never writes such a state (an object is recorded only once it has
   * its id, and a plan keeps it), so the request is at fault, not the provider, and identity changes
   * cannot be judged from it.
   */
  private lacksIdentity(typeName: string, which: 'prior' | 'planned', identity: ObjectValue, diags: Diagnostics): boolean {
    const missing = missingAttributes(identity);
    if (missing.length === 0) return false;
    diags.error(
      `Invalid ${which} state`,
      `The ${which} state of this ${typeName} lacks ${missing.map((n) => `\`${n}\``).join(', ')}, which name the object, so it does not name an object this provider manages. Remove it from the state (\`terraform state rm\`) and import the object.`,
    );
    return true;
  }

  /** Adds an error when an identity after a read, create or update lacks a value; returns whether it did. */
  private identityIncomplete(typeName: string, def: IdentityDef<Fields, C>, identity: ObjectValue, after: string, diags: Diagnostics): boolean {
    const missing = missingAttributes(identity);
    if (missing.length === 0) return false;
    diags.error(
      'Incomplete resource identity',
      `After the ${after} of this ${typeName}, its identity lacks ${missing.map((n) => `\`${n}\``).join(', ')}: ${formatIdentity(def, identity)}. This is a bug in the provider; please report it.`,
    );
    return true;
  }

  /** Adds an error naming both identities when they differ. */
  private identityUnchanged(typeName: string, def: IdentityDef<Fields, C>, before: ObjectValue, after: ObjectValue, during: string, diags: Diagnostics): void {
    if (changedAttributes(before, after).length === 0) return;
    diags.error(
      'Resource identity changed',
      `During the ${during} of this ${typeName}, its identity changed from ${formatIdentity(def, before)} to ${formatIdentity(def, after)}. An object's identity never changes, so this is not the object Terraform manages under that identity. This is a bug in the provider; please report it.`,
    );
  }
}

export type { Value };
