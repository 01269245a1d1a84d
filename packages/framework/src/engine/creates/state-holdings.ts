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
 * it (`terraform state rm`, a `removed` block applied before, a workspace deleted and made again). A saved
 * plan that forgets it says so in its file; a plan walk that forgets it makes the same calls as one that
 * replaces it because it is tainted, so there it counts as held. Where neither fact can be had (Pulumi,
 * whose walk shows a stack's objects as it goes; a run narrowed by `-target`; a system that does not say
 * which run it is; a plan file it cannot read), the notes alone decide, as before.
 */
import type { Fields } from '../../schema/define.js';
import type { ResourceDef } from '../contracts/index.js';
import { decodeStored, type EngineContext, idOf } from '../context/index.js';
import { forgottenObjects, priorStateObjects } from '../host/index.js';
import { impliedType } from '../../schema/block.js';
import { decodeMsgpack } from '../../schema/msgpack.js';
import type { ObjectValue } from '../../schema/value.js';

export type StateNow = 'held' | 'removed' | undefined;

export class StateHoldings<C> {
  /**
   * The ids of each type in the saved plan's state, less those it forgets; null when it cannot be read
   * (`unreadable` says why).
   */
  private savedPlan: Promise<Map<string, Set<string>> | null> | undefined;
  /** Why the saved plan's state could not be read, once it was tried. */
  unreadable: string | undefined;

  constructor(private readonly ctx: EngineContext<C>) {}

  /** Whether this workspace's state holds `id` of `r` as this apply begins (undefined: not known). */
  async now(r: ResourceDef<Fields, C>, id: string): Promise<StateNow> {
    const { host, journal } = this.ctx;
    if (host.isPulumi) return undefined;
    // A saved plan's apply makes no plan walk, and its walk shows what the plan forgets too: the plan file decides.
    const inPlan = await this.inSavedPlan(r, id);
    if (inPlan !== undefined) return inPlan ? 'held' : 'removed';
    const run = await journal.thisRun(r.typeName, id);
    // Shown by this run's walks: held. A walk that shows an object and makes no plan of it forgets it (a
    // `removed` block) or replaces it because it is tainted (its plan is a create's): the calls are the
    // same, and a tainted object's replacement is what users do every day, so neither is refused here.
    if (run === 'shown') return 'held';
    if (host.command.targeted || host.command.appliesSavedPlan) return undefined;
    return run === undefined ? undefined : 'removed';
  }

  /** Whether the saved plan's state holds `id`; undefined when no saved plan is applied or it cannot be read. */
  private async inSavedPlan(r: ResourceDef<Fields, C>, id: string): Promise<boolean | undefined> {
    const path = this.ctx.host.command.savedPlan;
    if (path === undefined) return undefined;
    this.savedPlan ??= this.readSavedPlan(path);
    const held = await this.savedPlan;
    return held === null ? undefined : (held.get(r.typeName)?.has(id) ?? false);
  }

  private async readSavedPlan(path: string): Promise<Map<string, Set<string>> | null> {
    try {
      const out = new Map<string, Set<string>>();
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
        if (id === undefined) continue;
        let ids = out.get(r.typeName);
        if (!ids) out.set(r.typeName, (ids = new Set()));
        ids.add(id);
      }
      // What the plan forgets (a `removed` block) its state holds no longer once it is applied.
      for (const forgotten of await forgottenObjects(path, `${this.ctx.def.name}_`)) {
        const r = this.ctx.resources.get(forgotten.type);
        if (!r?.findCreated) continue;
        const state = decodeMsgpack(impliedType(r.schema.block), forgotten.msgpack);
        const id = state === null ? undefined : idOf(r, state as ObjectValue);
        if (id !== undefined) out.get(r.typeName)?.delete(id);
      }
      return out;
    } catch (err) {
      this.unreadable = `the plan file ${path} could not be read (${err instanceof Error ? err.message : err})`;
      this.ctx.log.warn('the state of the saved plan could not be read', { error: this.unreadable });
      return null;
    }
  }
}
