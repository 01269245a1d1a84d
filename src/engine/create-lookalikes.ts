/**
 * What a plan says about a create before anything is made
 * (docs/decisions.md, "Creates outlive their process"):
 *
 * - when a record of a killed run matches it (create-journal.ts), that the apply will look for what
 *   that run made first (create-records.ts);
 * - otherwise, when objects already hold its key and every setting the platform reports (what a run
 *   killed before it could write anything down leaves, on a fresh runner or after the working
 *   directory was wiped), each of them, with when it was made and the `import` block that adopts it.
 *   The apply still creates, as the configuration asks: the user decides.
 *
 * One listing per type and scope, and only for plans that create: the census of the creates
 * (create-evidence.ts), so that in the apply, where Terraform plans each create again, the create that
 * follows uses it. A listing that fails costs the warning, never the plan.
 */
import type { Fields, ModelOf } from '../schema/define.js';
import { fromModel, toModel } from '../schema/model.js';
import { Unknown, type ObjectValue } from '../schema/value.js';
import type { ResourceDef } from './contracts.js';
import type { CreateLedger, Lookup, Model } from './create-evidence.js';
import { describe, capitalized } from './create-messages.js';
import { createEntry, handedOver } from './create-records.js';
import { Diagnostics } from './diagnostics.js';
import { MODEL_OPTIONS, type EngineContext } from './engine-context.js';
import { differencesFromPlan } from './reconcile.js';

/** At most this many look-alikes are named in a warning; the rest are counted. */
const NAMED_LOOKALIKES = 10;

export class CreateLookalikes<C> {
  constructor(
    private readonly ctx: EngineContext<C>,
    /** The census of this process's creates: the listing a plan makes serves the create that follows it. */
    private readonly ledger: CreateLedger,
  ) {}

  /** The warnings for a planned create of `r` (nothing when its key is not known yet). */
  async warn(r: ResourceDef<Fields, C>, planned: ObjectValue, diags: Diagnostics): Promise<void> {
    const lookup = r.findCreated;
    if (!lookup || this.ctx.client === undefined || !requiredKnown(r, planned)) return;
    const plan = toModel(r.schema.fields, planned, MODEL_OPTIONS);
    const what = describe(r, plan);
    const journal = this.ctx.journal;
    const entry = createEntry(r, plan, planned);
    const cutOff =
      journal.usable && (await journal.hasRecords(entry, { anySettings: true }))
        ? (await journal.openRecords(entry, { anySettings: true })).filter((record) => !handedOver(record))
        : [];
    if (cutOff.length > 0) {
      // Each summary names its object: Terraform folds warnings of one summary into the first.
      diags.warning(
        `An earlier run was cut off while creating ${what}`,
        `A run in this directory ended while its request to create ${what} was out, and no run since showed ` +
          'what it made. The apply looks for that object before sending anything: it adopts it when the record ' +
          "proves it is that run's, or stops and names it with the command that adopts it.",
      );
      return;
    }
    const listed = await this.listing(r, lookup, plan);
    if (!listed) return;
    const fields = r.schema.fields;
    const later = new Set<string>(lookup.setAfterCreate ?? []);
    const shown = this.ctx.shown.get(r.typeName);
    const alike = listed
      .filter(
        (o) =>
          lookup.holdsKey(plan, o) &&
          !shown?.has(lookup.importId(o)) &&
          differencesFromPlan(fields, planned, fromModel(fields, o, planned), later).length === 0,
      )
      // What a killed run left is newest: named first.
      .sort((a, b) => (lookup.madeAt?.(b) ?? 0) - (lookup.madeAt?.(a) ?? 0));
    if (alike.length === 0) return;
    const named = alike.slice(0, NAMED_LOOKALIKES).map((o) => {
      const at = lookup.madeAt?.(o);
      return `${lookup.importId(o)}${at === undefined ? '' : ` (made or last changed ${new Date(at).toISOString()})`}`;
    });
    const more = alike.length - named.length;
    const id = lookup.importId(alike[0]!);
    const adopt = r.importState
      ? ` If one of them was left by a run that was killed before Terraform could store it, and no state ` +
        `tracks it, adopt it instead of making another, with an \`import\` block: import { to = <this resource's ` +
        `address> id = ${JSON.stringify(id)} }.`
      : '';
    diags.warning(
      `${capitalized(what)} may exist already`,
      `${capitalized(what)} is planned to be created, but the platform already has ${
        alike.length === 1 ? 'an object that holds' : `${alike.length} objects that hold`
      } its key and every setting it reports: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}.${adopt} ` +
        'The apply creates a new object, as the configuration asks.',
    );
  }

  /** The type's census: one listing per scope serves the plans and creates of the next 30 s (create-evidence.ts). */
  private async listing(
    r: ResourceDef<Fields, C>,
    lookup: Lookup<C>,
    plan: ModelOf<Fields>,
  ): Promise<readonly Model[] | null> {
    try {
      return await this.ledger.census(r.typeName, lookup, plan, this.ctx.operation(new Diagnostics(), {}, r.typeName));
    } catch (err) {
      this.ctx.log.debug('listing for look-alikes of planned creates failed', {
        tf_resource_type: r.typeName,
        error: err instanceof Error ? err.message : String(err),
      });
      return null;
    }
  }
}

/** Whether every required top-level argument is known: a key is made of them. */
function requiredKnown<C>(r: ResourceDef<Fields, C>, planned: ObjectValue): boolean {
  for (const [name, def] of Object.entries(r.schema.fields))
    if (def.kind === 'attr' && def.options.required && planned[name] instanceof Unknown) return false;
  return true;
}
