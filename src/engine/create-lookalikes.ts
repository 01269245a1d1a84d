/**
 * What a plan says about a create before anything is made (README, "Killed CI jobs and fresh runners";
 * docs/decisions.md, "Creates outlive their process"):
 *
 * - when a record of a killed run matches it (create-journal.ts), that the apply will look for what
 *   that run made first (create-records.ts). Only a record another process left counts: the creates
 *   of this very run write records too;
 * - otherwise, the objects that already hold its key and every setting the platform reports but that
 *   no state of this run tracks: what a job killed before Terraform saved its state leaves, on a fresh
 *   runner whose directory holds no record. What is done with them is the provider's
 *   `untracked_objects` setting: `refuse` (an error before anything is created, naming each with the
 *   `import` block that adopts it), `warn` (named, and the apply creates), or `adopt` (the apply takes
 *   them over, one for each create of that key, and leaves any beyond that alone: how many creates of a
 *   key a plan holds is known only at its end, as Terraform plans ten resources at a time, so the plan
 *   cannot refuse on their count).
 *
 * Said in the plan walk only (walk.ts): an apply walk shows only the objects it changes, so there an
 * object tracked at another address would look untracked. Before it names anything, the check waits
 * for the walk to show what its state holds (objects are shown from the moment Terraform upgrades or
 * reads them), and it marks those it found tracked in the journal, for the apply walk of a client that
 * cannot say which walk it is. One listing per type and scope serves the plan's creates and the apply's
 * (the census, create-evidence.ts). A listing that fails costs the check, never the plan.
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

/** At most this many look-alikes are named in a message; the rest are counted. */
const NAMED_LOOKALIKES = 10;

export class CreateLookalikes<C> {
  constructor(
    private readonly ctx: EngineContext<C>,
    /** The census of this process's creates: the listing a plan makes serves the create that follows it. */
    private readonly ledger: CreateLedger,
  ) {}

  /** What the plan of a create of `r` says (nothing when its key is not known yet, or in an apply walk). */
  async check(r: ResourceDef<Fields, C>, planned: ObjectValue, diags: Diagnostics): Promise<void> {
    const lookup = r.findCreated;
    if (!lookup || this.ctx.client === undefined || this.ctx.walk.isApply || !requiredKnown(r, planned)) return;
    const plan = toModel(r.schema.fields, planned, MODEL_OPTIONS);
    const what = describe(r, plan);
    const entry = createEntry(r, plan, planned);
    if (await this.cutOff(entry)) {
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
    const alike = listed.filter(
      (o) =>
        lookup.holdsKey(plan, o) &&
        differencesFromPlan(fields, planned, fromModel(fields, o, planned), later).length === 0,
    );
    if (alike.length === 0) return;
    const journal = this.ctx.journal;
    const marked = new Set<string>();
    for (const o of alike) if (await journal.isMarked(r.typeName, lookup.importId(o))) marked.add(lookup.importId(o));
    const tracked = (o: Model) => marked.has(lookup.importId(o)) || this.isTracked(r.typeName, lookup.importId(o));
    // The walk shows what its state holds as it goes: what it has not shown yet may still come.
    const { settleQuietMs, settleMaxMs } = this.ledger.options;
    await this.ctx.walk.settled(() => alike.some((o) => !tracked(o)), settleQuietMs, settleMaxMs);
    const untracked = alike.filter((o) => !tracked(o));
    for (const o of alike)
      if (!marked.has(lookup.importId(o)) && tracked(o)) await journal.markTracked(r.typeName, lookup.importId(o));
    if (untracked.length === 0) return;
    // What a killed run left is newest: named first.
    untracked.sort((a, b) => (lookup.madeAt?.(b) ?? 0) - (lookup.madeAt?.(a) ?? 0));
    const mode = this.ctx.createSettings.untrackedObjects;
    if (mode === 'adopt' && journal.usable) {
      for (const o of untracked) await this.ctx.journal.planAdoption(entry, lookup.importId(o));
      diags.warning(`${capitalized(what)} is taken over, not created`, adoption(untracked, lookup));
      return;
    }
    const found = lookalikes(r, lookup, untracked, what);
    if (mode === 'warn')
      diags.warning(
        `${capitalized(what)} may exist already`,
        `${found} The apply creates a new object, as the configuration asks.`,
      );
    else
      diags.error(
        `${capitalized(what)} exists already, untracked`,
        `${found} Nothing was created. Import the objects this configuration should manage, delete the others, ` +
          'or set `untracked_objects` in the provider block: "warn" creates anyway, "adopt" takes them over ' +
          '(README, "Killed CI jobs and fresh runners").',
      );
  }

  /** Whether records of another process match `entry` whose objects its host may never have stored. */
  private async cutOff(entry: ReturnType<typeof createEntry>): Promise<boolean> {
    const journal = this.ctx.journal;
    if (!journal.usable || !(await journal.hasRecords(entry, { anySettings: true }))) return false;
    const records = await journal.openRecords(entry, { anySettings: true });
    return records.some((record) => !record.plannedAdoption && !handedOver(record) && !journal.wroteItself(record));
  }

  /** Shown tracked by this walk, made or adopted by this process, or marked tracked by a walk before it. */
  private isTracked(type: string, id: string): boolean {
    return this.ctx.shown.get(type)?.has(id) === true || this.ledger.isClaimed(type, id);
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

/** The untracked look-alikes, named with when each was made, and the `import` block that adopts one. */
function lookalikes<C>(
  r: ResourceDef<Fields, C>,
  lookup: Lookup<C>,
  untracked: readonly Model[],
  what: string,
): string {
  const one = untracked.length === 1;
  const shown = untracked.slice(0, NAMED_LOOKALIKES);
  const named = shown.map((o) => {
    const at = lookup.madeAt?.(o);
    return `${lookup.importId(o)}${at === undefined ? '' : ` (made or last changed ${new Date(at).toISOString()})`}`;
  });
  const more = untracked.length - named.length;
  const blocks = shown.map(
    (o) => `import { to = <this resource's address> id = ${JSON.stringify(lookup.importId(o))} }`,
  );
  const imports = r.importState
    ? ` To keep ${one ? 'it' : 'one of them'} instead of making another, adopt it with an \`import\` block: ` +
      `${blocks.join('; ')}.`
    : '';
  const holders = one ? 'an object that holds' : `${untracked.length} objects that hold`;
  return (
    `The platform already has ${holders} the key of ${what} and every setting it reports, and no state this run ` +
    `read tracks ${one ? 'it' : 'them'}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}. A run killed ` +
    `before Terraform saved its state (a CI job's timeout, a cancel, a lost runner) leaves such objects behind.` +
    imports
  );
}

function adoption<C>(untracked: readonly Model[], lookup: Lookup<C>): string {
  const ids = untracked.map((o) => lookup.importId(o));
  const one = ids.length === 1;
  return (
    `The platform already has ${one ? 'an object' : `${ids.length} objects`} holding this key and every setting ` +
    `it reports that no state this run read tracks (${ids.slice(0, NAMED_LOOKALIKES).join(', ')}` +
    `${ids.length > NAMED_LOOKALIKES ? `, and ${ids.length - NAMED_LOOKALIKES} more` : ''}), and ` +
    '`untracked_objects = "adopt"` says objects of this key belong to this configuration: the apply takes ' +
    `${one ? 'it' : 'one of them'} over instead of creating (each create of this key takes another, and any left ` +
    'over are left alone), and creates only if none is left unchanged by then.'
  );
}

/** Whether every required top-level argument is known: a key is made of them. */
function requiredKnown<C>(r: ResourceDef<Fields, C>, planned: ObjectValue): boolean {
  for (const [name, def] of Object.entries(r.schema.fields))
    if (def.kind === 'attr' && def.options.required && planned[name] instanceof Unknown) return false;
  return true;
}
