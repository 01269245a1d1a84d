/**
 * Resource identity (Terraform 1.12 and later). Each RPC that returns a state returns the identity
 * of the object it describes, computed from that state (identity.ts); these methods wrap the
 * lifecycle of resource-changes.ts and resource-state.ts and check that an object's identity never
 * changes. UpgradeResourceIdentity reads a stored identity.
 */
import type { CtyType } from '../../schema/cty-type.js';
import type { Fields, ModelOf } from '../../schema/define.js';
import { decodeJSON } from '../../schema/json.js';
import { fromModel } from '../../schema/model.js';
import { ValueDecodeError } from '../../schema/msgpack.js';
import type { ObjectValue } from '../../schema/value.js';
import type { IdentityDef, Partial2 } from '../contracts/index.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import type { EngineContext, PrivateState, StateOutcome } from '../context/index.js';
import {
  changedAttributes,
  formatIdentity,
  identityIncomplete,
  identityModel,
  identityOfState,
  identityType,
  identityUnchanged,
  importStartFromIdentity,
  lacksIdentity,
  missingAttributes,
  quoted,
} from './identity.js';
import type { PlanOutcome, ResourceChanges } from './resource-changes.js';
import { withDefaults, type ResourceState } from './resource-state.js';

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
const IMPORTED_MARK = 'imported';
/**
 * The mark's name before the engine named nothing after the project. An import is read in the same walk,
 * so no saved state should hold it; one that does is still read as imported.
 */
const EARLIER_IMPORTED_MARK = 'keel.imported';

export class ResourceIdentity<C> {
  constructor(
    private readonly ctx: EngineContext<C>,
    private readonly changes: ResourceChanges<C>,
    private readonly state: ResourceState<C>,
  ) {}

  /** The identity declaration of every resource type that has one (GetResourceIdentitySchemas). */
  identitySchemas(): Map<string, IdentityDef<Fields, C>> {
    return this.ctx.resources.collect((r) => r.identity);
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
  async readWithIdentity(
    typeName: string,
    current: ObjectValue,
    priv: PrivateState,
    currentIdentity: ObjectValue | null,
  ): Promise<IdentifiedOutcome> {
    const { [IMPORTED_MARK]: marked, [EARLIER_IMPORTED_MARK]: markedEarlier, ...ownPrivate } = priv;
    const imported = marked ?? markedEarlier;
    const def = this.ctx.resources.get(typeName)?.identity;
    // A state that does not name its object is not read, as it is not planned or applied; an
    // import's state may still lack what its read completes.
    if (def && imported !== true) {
      const diags = new Diagnostics();
      const stored = currentIdentity ?? identityOfState(def, current, this.ctx.client);
      if (lacksIdentity(typeName, 'prior', stored, diags)) {
        return { state: current, private: priv, diags, identity: currentIdentity };
      }
    }
    const out = await this.state.readResource(typeName, current, ownPrivate);
    if (!def || out.diags.hasErrors) return { ...out, identity: currentIdentity };
    if (out.state === null) return { ...out, identity: null };
    const identity = identityOfState(def, out.state, this.ctx.client);
    if (identityIncomplete(typeName, def, identity, 'read', out.diags)) return { ...out, identity: currentIdentity };
    if (currentIdentity !== null && imported !== true) {
      identityUnchanged(typeName, def, currentIdentity, identity, 'read', out.diags);
    }
    return { ...out, identity: out.diags.hasErrors ? currentIdentity : identity };
  }

  /**
   * PlanResourceChange with identity. A create has none yet (Terraform learns it from the apply); an
   * update or destroy keeps the prior one, and a planned change of what names the object must be a
   * replacement.
   */
  planWithIdentity(
    typeName: string,
    prior: ObjectValue | null,
    proposed: ObjectValue | null,
    config: ObjectValue | null,
    priorPrivate: PrivateState,
    priorIdentity: ObjectValue | null,
  ): PlanOutcome & { identity: ObjectValue | null } {
    const out = this.changes.planResourceChange(typeName, prior, proposed, config, priorPrivate);
    const def = this.ctx.resources.get(typeName)?.identity;
    if (!def || prior === null) return { ...out, identity: null };
    const kept = priorIdentity ?? identityOfState(def, prior, this.ctx.client);
    if (lacksIdentity(typeName, 'prior', kept, out.diags)) return { ...out, identity: null };
    if (out.diags.hasErrors || out.planned === null) return { ...out, identity: kept };
    const next = identityOfState(def, out.planned, this.ctx.client);
    const changed = changedAttributes(kept, next);
    if (changed.length > 0 && out.requiresReplace.length === 0) {
      out.diags.error(
        'Resource identity would change',
        `The plan for this ${typeName} changes ${quoted(changed)}, which name the object, without replacing it: ` +
          `its identity would go from ${formatIdentity(def, kept)} to ${formatIdentity(def, next)}. ` +
          "An object's identity never changes. This is a bug in the provider; please report it.",
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
    caller?: AbortSignal,
  ): Promise<IdentifiedOutcome> {
    const { client } = this.ctx;
    const def = this.ctx.resources.get(typeName)?.identity;
    // An update of a state that does not name its object, or that would name another, is refused
    // before anything is sent: a plan this provider made replaces an object whose name changes.
    if (def && prior !== null && planned !== null) {
      const diags = new Diagnostics();
      const stored = identityOfState(def, prior, client);
      const kept = plannedIdentity ?? stored;
      const next = identityOfState(def, planned, client);
      if (lacksIdentity(typeName, 'prior', kept, diags) || lacksIdentity(typeName, 'planned', next, diags)) {
        return { state: prior, private: plannedPrivate, diags, identity: null };
      }
      const changed = changedAttributes(stored, next);
      if (changed.length > 0) {
        diags.error(
          'Invalid planned state',
          `The planned update of this ${typeName} changes ${quoted(changed)}, which name the object: its identity ` +
            `would go from ${formatIdentity(def, stored)} to ${formatIdentity(def, next)}. A change of what names ` +
            'an object replaces it; this plan was not made by this provider.',
        );
        return { state: prior, private: plannedPrivate, diags, identity: kept };
      }
    }
    const out = await this.changes.applyResourceChange(typeName, prior, planned, plannedPrivate, config, caller);
    if (!def || out.state === null) return { ...out, identity: null };
    const identity = identityOfState(def, out.state, this.ctx.client);
    // A failed create or update still returns what exists; its identity, when it has one, names it.
    if (out.diags.hasErrors) {
      return { ...out, identity: missingAttributes(identity).length === 0 ? identity : plannedIdentity };
    }
    const action = prior === null ? 'create' : 'update';
    if (identityIncomplete(typeName, def, identity, action, out.diags)) return { ...out, identity: null };
    if (prior !== null) {
      const before = plannedIdentity ?? identityOfState(def, prior, this.ctx.client);
      identityUnchanged(typeName, def, before, identity, action, out.diags);
    }
    return { ...out, identity };
  }

  /**
   * ImportResourceState by id or by identity (an `import` block gives one or the other). The import
   * returns the identity it knows so far; the read that follows completes it.
   */
  async importWithIdentity(
    typeName: string,
    target: { id: string } | { identity: ObjectValue },
  ): Promise<IdentifiedOutcome> {
    const r = this.ctx.resources.get(typeName);
    const def = r?.identity;
    if ('id' in target) {
      const out = await this.state.importResourceState(typeName, target.id);
      if (!def || out.state === null) return { ...out, identity: null };
      const identity = identityOfState(def, out.state, this.ctx.client);
      const complete = missingAttributes(identity).length === 0;
      return { ...out, private: { ...out.private, [IMPORTED_MARK]: true }, identity: complete ? identity : null };
    }
    const diags = new Diagnostics();
    const refused = (summary: string, detail: string): IdentifiedOutcome => {
      return { state: null, private: {}, diags: diags.error(summary, detail), identity: null };
    };
    if (!r)
      return { state: null, private: {}, diags: this.ctx.resources.reportUnknown(typeName, diags), identity: null };
    if (!def) return refused('Import by identity not supported', `The resource type ${typeName} has no identity.`);
    if (!r.importState) return refused('Import not supported', `The resource type ${typeName} cannot be imported.`);
    const given = target.identity;
    const missing = missingAttributes(given).filter((n) => def.attributes[n]!.forImport === 'required');
    if (missing.length > 0) {
      const where = 'in the `identity` of the `import` block';
      const detail = `Importing ${typeName} by identity needs ${quoted(missing)} ${where}.`;
      return refused('Incomplete identity', detail);
    }
    try {
      const ctx = this.ctx.operation(diags, {}, typeName);
      const start = def.importState
        ? await def.importState(identityModel(given), ctx)
        : importStartFromIdentity(def, identityModel(given));
      const fields = r.schema.fields;
      const state = withDefaults(fields, fromModel(fields, start as Partial2<ModelOf<Fields>>, null));
      // What the starting state already names wins (e.g. an account filled in from the provider's);
      // the rest is as given.
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
  upgradeResourceIdentity(
    typeName: string,
    version: number,
    rawJson: string,
  ): { identity: ObjectValue | null; diags: Diagnostics } {
    const diags = new Diagnostics();
    const refused = (summary: string, detail: string) => ({ identity: null, diags: diags.error(summary, detail) });
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return { identity: null, diags };
    const def = r.identity;
    if (!def) return refused('No resource identity', `The resource type ${typeName} has no identity to upgrade.`);
    if (version !== IDENTITY_VERSION) {
      return refused(
        'Unknown identity version',
        `The stored identity of ${typeName} has version ${version}; this provider knows version ` +
          `${IDENTITY_VERSION} only. Use the provider version that wrote it, or a newer one.`,
      );
    }
    try {
      const identity = decodeJSON(identityType(def), rawJson) as ObjectValue | null;
      if (identity === null) {
        return refused('Cannot read the stored identity', `The stored identity of ${typeName} is null.`);
      }
      return { identity, diags };
    } catch (err) {
      if (err instanceof ValueDecodeError) {
        const detail = `The identity stored for ${typeName} is not valid: ${err.message}.`;
        return refused('Cannot read the stored identity', detail);
      }
      diags.append([diagnosticFromError('Cannot read the stored identity', err)]);
      return { identity: null, diags };
    }
  }
}
