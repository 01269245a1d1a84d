/**
 * Whether this workspace's state holds an object as an apply begins, on facts of the run itself
 * (docs/decisions.md, "Whose object is it"), never on its timing:
 *
 * - an apply of a saved plan: the state that plan was made against, which the plan file carries, less
 *   the objects the plan forgets (engine/host/saved-plan.ts; Terraform applies a saved plan only to the
 *   state it was made against);
 * - otherwise the walks of this run of the client (engine/journal/journal-notes.ts): Terraform's and
 *   OpenTofu's `apply` plan first, and their plan walk shows every object of the state (an upgrade of
 *   each, a read), whatever the order of its calls, before the apply walk begins.
 *
 * An object the notes of this workspace name that neither shows was removed from the state since it held
 * it (`terraform state rm`, a `removed` block applied before, a workspace deleted and made again). One
 * this apply's plan forgets (a `removed` block with `destroy = false`) leaves the state as it ends: a saved
 * plan says so in its file, and Terraform's plan walk (since 1.10, when it refreshes) reads from the
 * platform every object it keeps, changes, replaces or destroys, and only takes from the state the ones
 * it forgets. Where the walk reads those too (OpenTofu) or reads nothing (`-refresh=false`), forgetting an
 * object makes the same calls as replacing it because it is tainted, which users do every day: there it
 * counts as held. Where no fact can be had (Pulumi, whose walk shows a stack's objects as it goes; a run
 * narrowed by `-target`; a system that does not say which run it is; a plan file it cannot read), the
 * notes alone decide, as before.
 */
import type { Fields } from '../../schema/define.js';
import type { ResourceDef } from '../contracts/index.js';
import { decodeStored, type EngineContext, idOf } from '../context/index.js';
import { forgottenObjects, priorStateObjects } from '../host/index.js';
import { impliedType } from '../../schema/block.js';
import { decodeMsgpack } from '../../schema/msgpack.js';
import type { ObjectValue } from '../../schema/value.js';

/**
 * Whether the state holds an object as this apply begins (`held`), no longer did (`removed`: taken out
 * before), or holds it no more once this apply ends (`forgotten` by its plan); undefined: not known.
 */
export type StateNow = 'held' | 'removed' | 'forgotten' | undefined;

/** A saved plan's state, by type: the ids it holds and the ids the plan forgets. */
type SavedPlanState = Map<string, { held: Set<string>; forgotten: Set<string> }>;

export class StateHoldings<C> {
  /**
   * The ids of each type in the saved plan's state, and those the plan forgets; null when it cannot be
   * read (`unreadable` says why).
   */
  private savedPlan: Promise<SavedPlanState | null> | undefined;
  /** Why the saved plan's state could not be read, once it was tried. */
  unreadable: string | undefined;

  constructor(private readonly ctx: EngineContext<C>) {}

  /** Whether this workspace's state holds `id` of `r` as this apply begins (undefined: not known). */
  async now(r: ResourceDef<Fields, C>, id: string): Promise<StateNow> {
    const { host, journal } = this.ctx;
    if (host.isPulumi) return undefined;
    // A saved plan's apply makes no plan walk, and its walk shows what the plan forgets too: the plan file decides.
    const inPlan = await this.inSavedPlan(r, id);
    if (inPlan !== undefined) return inPlan;
    const run = await journal.thisRun(r.typeName, id);
    // Read, planned or made by this run's walks: held. Only taken from the state: forgotten by the plan
    // where the client reads every object but those, else held (a tainted object's replacement).
    if (run === 'shown') return 'held';
    if (run === 'stored') return host.readsAllButForgotten ? 'forgotten' : 'held';
    if (host.command.targeted || host.command.appliesSavedPlan) return undefined;
    return run === undefined ? undefined : 'removed';
  }

  /** What the saved plan's state says of `id`; undefined when no saved plan is applied or it cannot be read. */
  private async inSavedPlan(r: ResourceDef<Fields, C>, id: string): Promise<StateNow> {
    const path = this.ctx.host.command.savedPlan;
    if (path === undefined) return undefined;
    this.savedPlan ??= this.readSavedPlan(path);
    const state = await this.savedPlan;
    if (state === null) return undefined;
    const ofType = state.get(r.typeName);
    if (ofType?.forgotten.has(id)) return 'forgotten';
    return ofType?.held.has(id) ? 'held' : 'removed';
  }

  private async readSavedPlan(path: string): Promise<SavedPlanState | null> {
    try {
      const out: SavedPlanState = new Map();
      const ofType = (type: string) => {
        let ids = out.get(type);
        if (!ids) out.set(type, (ids = { held: new Set(), forgotten: new Set() }));
        return ids;
      };
      for (const stored of await priorStateObjects(path, `${this.ctx.def.name}_`)) {
        const r = this.ctx.resources.get(stored.type);
        if (!r?.findCreated) continue;
        let id: string | undefined;
        try {
          const state = decodeStored(r, stored.schemaVersion, stored.attributes);
          id = state === null ? undefined : idOf(r, state);
        } catch {
          // An object stored in a schema this provider cannot read names no id: not this create's evidence.
        }
        if (id !== undefined) ofType(r.typeName).held.add(id);
      }
      // What the plan forgets (a `removed` block) its state holds no longer once it is applied.
      for (const forgotten of await forgottenObjects(path, `${this.ctx.def.name}_`)) {
        const r = this.ctx.resources.get(forgotten.type);
        if (!r?.findCreated) continue;
        const state = decodeMsgpack(impliedType(r.schema.block), forgotten.msgpack);
        const id = state === null ? undefined : idOf(r, state as ObjectValue);
        if (id !== undefined) ofType(r.typeName).forgotten.add(id);
      }
      return out;
    } catch (err) {
      this.unreadable = `the plan file ${path} could not be read (${err instanceof Error ? err.message : err})`;
      this.ctx.log.warn('the state of the saved plan could not be read', { error: this.unreadable });
      return null;
    }
  }
}
