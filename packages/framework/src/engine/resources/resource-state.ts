/**
 * A managed resource's state as stored and refreshed: UpgradeResourceState (stored JSON → the
 * current schema), ReadResource (the object as the platform has it now) and ImportResourceState (a
 * state begun from an id the user typed).
 */
import type { Fields } from '../../schema/define.js';
import { fromModel, plainToValue, toModel } from '../../schema/model.js';
import { ValueDecodeError } from '../../schema/msgpack.js';
import type { ObjectValue } from '../../schema/value.js';
import { Diagnostics, diagnosticFromError } from '../diagnostics/index.js';
import {
  decodeStored,
  MODEL_OPTIONS,
  isNotFound,
  type EngineContext,
  type PrivateState,
  type StateOutcome,
} from '../context/index.js';
import { deadline, operationLimit } from '../contracts/index.js';
import { cutOffReplacement } from '../creates/index.js';
import { reconcileRead } from '../plan/index.js';
import type { ListedReads } from './listed-reads.js';

export class ResourceState<C> {
  constructor(
    private readonly ctx: EngineContext<C>,
    /** Reads many objects of a type from one listing (listed-reads.ts). */
    private readonly listed: ListedReads<C>,
  ) {}

  /** UpgradeResourceState: raw state JSON of `version` → a full object of the current schema. */
  upgradeResourceState(
    typeName: string,
    version: number,
    rawJson: string | null,
  ): { state: ObjectValue | null; diags: Diagnostics } {
    const diags = new Diagnostics();
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return { state: null, diags };
    if (rawJson === null) {
      const detail = 'State written by Terraform before 0.12 (flatmap) cannot be upgraded by this provider.';
      return { state: null, diags: diags.error('Unsupported state format', detail) };
    }
    if (version > r.schema.version) {
      const detail =
        `The state has schema version ${version}, this provider knows up to ${r.schema.version}. ` +
        'Use a newer provider version.';
      return { state: null, diags: diags.error('State is newer than the provider', detail) };
    }
    try {
      const state = decodeStored(r, version, rawJson);
      // The walk's first word of this object: its state holds it, so a plan of a create names it as no
      // look-alike, and the records of its create end. Only taken from the state so far: a plan that
      // forgets it reads it no further (engine/creates/state-holdings.ts).
      if (state !== null) this.ctx.seen(r, state, 'stored');
      return { state, diags };
    } catch (err) {
      // State that does not fit the schema is for the user to see, not a provider bug.
      if (err instanceof ValueDecodeError) {
        const detail = `The state stored for ${typeName} is not valid: ${err.message}.`;
        return { state: null, diags: diags.error('Cannot read the stored state', detail, err.path) };
      }
      diags.append([diagnosticFromError('Cannot read the stored state', err)]);
      return { state: null, diags };
    }
  }

  async readResource(typeName: string, current: ObjectValue, priv: PrivateState): Promise<StateOutcome> {
    const diags = new Diagnostics();
    const r = this.ctx.resources.find(typeName, diags);
    if (!r) return { state: current, private: priv, diags };
    try {
      const limit = deadline('read', operationLimit(r.schema.fields, current, 'read'));
      const ctx = this.ctx.operation(diags, priv, typeName, undefined, limit.signal);
      const fresh = await limit.bound(this.listed.read(r, toModel(r.schema.fields, current, MODEL_OPTIONS), ctx));
      this.ctx.seen(r, current, fresh === null ? 'gone' : 'tracked');
      if (fresh === null) return { state: null, private: priv, diags };
      const replaced = await cutOffReplacement(this.ctx, r, current, ctx);
      if (replaced) diags.warning(...replaced);
      const freshValue = fromModel(r.schema.fields, fresh, current);
      return { state: reconcileRead(r.schema.fields, current, freshValue), private: priv, diags };
    } catch (err) {
      if (isNotFound(err)) {
        this.ctx.seen(r, current, 'gone');
        return { state: null, private: priv, diags };
      }
      diags.append([diagnosticFromError(`Cannot read ${typeName}`, err)]);
      return { state: current, private: priv, diags };
    }
  }

  async importResourceState(typeName: string, id: string): Promise<StateOutcome> {
    const diags = new Diagnostics();
    const r = this.ctx.resources.get(typeName);
    const refused = (summary: string, detail: string): StateOutcome => {
      return { state: null, private: {}, diags: diags.error(summary, detail) };
    };
    if (!r) return { state: null, private: {}, diags: this.ctx.resources.reportUnknown(typeName, diags) };
    if (!r.importState) return refused('Import not supported', `The resource type ${typeName} cannot be imported.`);
    const idForm = `${typeName} is imported by ${r.importIdDescription ?? 'the id of the object'}.`;
    // `terraform import <address> ""` reaches the provider (an import block's empty id does not).
    if (id.trim() === '') return refused('Missing Resource Import Identifier', `The import ID is empty. ${idForm}`);
    // Terraform's own words when the read that follows an import finds nothing, said here when the
    // import itself finds out, with the id's form.
    const nonExistent = (): StateOutcome =>
      refused(
        'Cannot import non-existent remote object',
        `While attempting to import an existing object to ${typeName}, the provider detected that no object ` +
          'exists with the given id. Only pre-existing objects can be imported; check that the id is correct and ' +
          "that it is associated with the provider's configured region or endpoint, " +
          `or use "terraform apply" to create a new remote object for this resource. ${idForm}`,
      );
    try {
      const start = await r.importState(id, this.ctx.operation(diags, {}, typeName));
      if (start === null) return nonExistent();
      const state = withDefaults(r.schema.fields, fromModel(r.schema.fields, start, null));
      this.ctx.seen(r, state, 'imported');
      return { state, private: {}, diags };
    } catch (err) {
      if (isNotFound(err)) return nonExistent();
      diags.append([diagnosticFromError(`Cannot import ${typeName}`, err)]);
      return { state: null, private: {}, diags };
    }
  }
}

/** Fills plan-time defaults into a state built from scratch (import), so the next plan is empty. */
export function withDefaults(fields: Fields, state: ObjectValue): ObjectValue {
  for (const [name, def] of Object.entries(fields)) {
    if (def.kind === 'attr' && def.options.default !== undefined && state[name] === null) {
      state[name] = plainToValue(def.type.cty, def.options.default);
    }
  }
  return state;
}
