/**
 * What a plan says of a create whose look-alikes nothing known says whose they are (create-lookalikes.ts
 * decides when; docs/decisions.md, "Whose object is it"): by the provider's `untracked_objects`, the
 * client (Pulumi shows no provider warning, so nothing that only a warning would tell happens there),
 * and what the user asked (`-target`). Every refusal names each likely cause and a way out for each, in
 * the client's words (engine/host/host-terms.ts); none offers a second object where the platform keeps the key unique.
 */
import type { Fields } from '../../schema/define.js';
import type { ResourceDef } from '../contracts/index.js';
import type { Lookup, Model } from './create-evidence.js';
import { capitalized } from './create-messages.js';
import type { createEntry } from './create-records.js';
import type { EngineContext } from '../context/index.js';

/** At most this many look-alikes are named in a message; the rest are counted. */
const NAMED_LOOKALIKES = 10;

/** A create waiting for the walk to show whether its look-alikes are this state's. */
export interface Pending<C> {
  readonly r: ResourceDef<Fields, C>;
  readonly lookup: Lookup<C>;
  readonly what: string;
  readonly entry: ReturnType<typeof createEntry>;
  /** Objects nothing says whose they are yet. */
  readonly objects: readonly Model[];
  /** Where the platform keeps the key unique: the create cannot succeed beside any of them. */
  readonly unique: boolean;
  /** Import ids of those this workspace's state held and no longer holds (state-holdings.ts). */
  readonly removed?: readonly string[];
  /** Import ids of those this apply's plan forgets: its state holds them no more once it ends. */
  readonly forgotten?: readonly string[];
  /** Why the state of the saved plan being applied could not be read, if it could not. */
  readonly planUnread?: string;
}

export interface Verdict {
  readonly severity: 'error' | 'warning';
  readonly summary: string;
  readonly detail: string;
}

/** One summary for every create a plan warns about: Terraform and OpenTofu fold warnings of one summary. */
export const PLANNED_LOOKALIKES = 'Objects like planned creates exist, untracked';

/**
 * The verdict on `p`, whose objects no fact says whose they are (`unknown`, at least one): in a plan that
 * cannot know yet (Terraform's, OpenTofu's), a warning that says what the apply will do; where the
 * create is about to be sent (ApplyResourceChange, or Pulumi's plan right before it), the decision.
 */
export function verdictOn<C>(
  ctx: EngineContext<C>,
  p: Pending<C>,
  unknown: readonly Model[],
  phase: 'plan' | 'apply',
): Verdict {
  // What a killed run left is newest: named first.
  const sorted = [...unknown].sort((a, b) => (p.lookup.madeAt?.(b) ?? 0) - (p.lookup.madeAt?.(a) ?? 0));
  const found = foundText(ctx, p, sorted);
  const { terms } = ctx;
  const ids = sorted.map((o) => p.lookup.importId(o));
  const one = ids.length === 1;
  const importIt = terms.importAdvice(p.r.typeName, p.r.importState !== undefined, ids, p.r.importIdDescription);
  const what = capitalized(p.what);
  const mode = ctx.createSettings.untrackedObjects;
  const creates = (mode === 'create' || (mode === 'warn' && !terms.isPulumi)) && !p.unique;
  const retired =
    mode === 'adopt'
      ? ` ${terms.settingName('untracked_objects')} "adopt" is retired (it took objects that another state may ` +
        'hold): it refuses as "refuse" does.'
      : '';
  const killed =
    `what a run of this configuration left when it was killed before its ${terms.stateWord} was saved (a CI ` +
    `job's timeout or cancel, a lost runner). ${importIt}`;
  const ownElsewhere =
    `an object of this ${terms.stateWord}: at another address (a renamed key whose old object this apply ` +
    'destroys), or the one this resource replaces (`create_before_destroy`), when the apply could read neither ' +
    `its own plan walk nor the state of its saved plan${
      p.planUnread ? ` (${p.planUnread})` : ''
    }: then keep the records on a volume plan and apply share (${terms.settingName('create_records_dir')}), or, ` +
    'for a renamed key, add a `moved` block';
  const removedIds = p.removed ?? [];
  const removedOne = removedIds.length === 1;
  const removed =
    removedIds.length === 0
      ? ''
      : ` This ${terms.stateWord}'s notes say it held ${removedIds.join(', ')} (a walk of it showed ` +
        `${removedOne ? 'it' : 'them'}, or an apply that ended in order made ${removedOne ? 'it' : 'them'}), and ` +
        `this run's ${terms.stateWord} does not: ${removedOne ? 'it was' : 'they were'} taken out of it ` +
        `(${terms.stateRemoved}), or that apply's client was killed after it, before it stored its ` +
        `${terms.stateWord}.`;
  const forgottenIds = p.forgotten ?? [];
  const forgottenOne = forgottenIds.length === 1;
  const forgets =
    forgottenIds.length === 0
      ? ''
      : ` This apply's plan forgets ${forgottenIds.join(', ')} (a \`removed\` block with \`destroy = false\`): ` +
        `this ${terms.stateWord} holds ${forgottenOne ? 'it' : 'them'} no more once the apply ends.`;
  const known = `${found}${removed}${forgets}`;
  // Every object's cause is known: this state held it, or holds it until this apply ends. Else each likely
  // cause is named, with its way out.
  const allRemoved = removedIds.length + forgottenIds.length === ids.length;
  const keep: string[] = [];
  if (removedIds.length > 0)
    keep.push(`if this ${terms.stateWord} should hold ${removedOne ? 'it' : 'them'} again: ${importIt}`);
  if (forgottenIds.length > 0)
    keep.push(
      `if this ${terms.stateWord} should keep ${forgottenOne ? 'it' : 'them'}: take out the \`removed\` block ` +
        `(this apply forgets ${forgottenOne ? 'it' : 'them'} all the same). ${importIt}`,
    );
  const takeBack =
    ` ${capitalized(keep.join(' And '))} If ${one ? 'it is' : 'they are'} to be left alone, make this one ` +
    `differ in ${p.lookup.key}` +
    (p.unique ? '.' : `, or create it beside with ${terms.setting('untracked_objects', 'create')}.`);
  if (ctx.host.command.targeted)
    return {
      severity: 'warning',
      summary: phase === 'plan' ? PLANNED_LOOKALIKES : `${what} may exist already`,
      detail:
        `${found} This run is narrowed (\`-target\`, \`-exclude\`), so it did not read the rest of the state: ` +
        `${one ? 'the object' : 'these objects'} may be resources of this state it left out. If one is what a ` +
        `killed run of this configuration left behind, adopt it (${importIt}); otherwise the apply creates as ` +
        'configured.',
    };
  if (phase === 'plan') {
    const then = creates
      ? `${terms.settingName('untracked_objects')} is "${mode}", so the apply creates a new object beside ` +
        `${one ? 'it' : 'them'}, as the configuration asks, and this ${terms.stateWord} keeps what it was ` +
        'created beside, so later plans do not name it again.'
      : `Before it sends the create, the apply decides on what the plan walk then has shown: if this ` +
        `${terms.stateWord} holds ${one ? 'it' : 'them'} (at another address), the create goes on; otherwise ` +
        `the apply refuses this create and sends nothing for it.${retired} ${
          p.unique
            ? `The platform keeps ${p.lookup.key} unique, so a second one cannot be made. It may be ${killed} Or ` +
              `another ${terms.workspaceWord}'s, configuration's or person's: then make this one differ in ` +
              `${p.lookup.key}.`
            : `It may be: (1) ${killed} (2) another ${terms.workspaceWord}'s, configuration's or person's, made on ` +
              `purpose: then make this one differ in ${p.lookup.key}, or create it beside ` +
              `${one ? 'that one' : 'those'} with ${terms.setting('untracked_objects', 'create')}.`
        }`;
    return { severity: 'warning', summary: PLANNED_LOOKALIKES, detail: `${found} ${then}` };
  }
  if (p.unique)
    return {
      severity: 'error',
      summary: `${what} exists already`,
      detail: `${known} The platform keeps ${p.lookup.key} unique, so a second one cannot be made.${
        allRemoved
          ? takeBack
          : ` It may be ${killed} Or it is another ${terms.workspaceWord}'s, configuration's or person's: then ` +
            `make this one differ in ${p.lookup.key}.`
      } Nothing was created.`,
    };
  if (creates)
    return {
      severity: 'warning',
      summary: `${what} is created beside an untracked object like it`,
      detail:
        `${known} ${terms.settingName('untracked_objects')} is "${mode}", so the apply creates a new ` +
        'object, as ' +
        `the configuration asks; this ${terms.stateWord} keeps the ${one ? 'id' : 'ids'} of what it was created ` +
        `beside, so later plans do not name ${one ? 'it' : 'them'} again.`,
    };
  const pulumiNote =
    terms.isPulumi && mode === 'warn'
      ? ` Pulumi shows no warning of a provider, so ${terms.settingName('untracked_objects')} "warn" would make a ` +
        'second object without a word: the provider refuses instead.'
      : '';
  const renamed = terms.isPulumi ? '' : ` (3) ${ownElsewhere}.`;
  return {
    severity: 'error',
    summary: `${what} exists already, untracked`,
    detail: allRemoved
      ? `${known}${pulumiNote}${retired}${takeBack} Nothing was created.`
      : `${known}${pulumiNote}${retired} It may be: (1) ${killed} (2) another ${terms.workspaceWord}'s, ` +
        `another configuration's or a person's, made on purpose: then this one is a new object of its own. Make it ` +
        `differ in ${p.lookup.key}, or create it beside ${one ? 'that one' : 'those'} with ` +
        `${terms.setting('untracked_objects', 'create')}; this ${terms.stateWord} then keeps what it was created ` +
        `beside, and later plans do not ask again.${renamed} Nothing was created.`,
  };
}

/**
 * A unique key an object of another state whose records are kept here holds: the create cannot succeed.
 * `owners` name those states as a person finds them (journal-notes.ts stateLabel).
 */
export function heldElsewhere<C>(
  ctx: EngineContext<C>,
  lookup: Lookup<C>,
  what: string,
  object: Model,
  owners: readonly string[],
): [string, string] {
  const { terms } = ctx;
  const word = terms.workspaceWord;
  const name = terms.isPulumi ? '`pulumi.getStack()`' : '`terraform.workspace`';
  return [
    `${capitalized(what)} exists already`,
    `The platform keeps ${lookup.key} unique, and ${lookup.importId(object)} holds it: the ${terms.stateWord} of ` +
      `${owners.join(', ')} made or holds that object, so this ${terms.stateWord} cannot make its own with the same ` +
      `${lookup.key}. Give each ${word} its own (for example with the ${word}'s name in it: ${name}). Nothing was ` +
      'created.',
  ];
}

/** The objects found, named with when each was made. */
function foundText<C>(ctx: EngineContext<C>, p: Pending<C>, objects: readonly Model[]): string {
  const one = objects.length === 1;
  const named = objects.slice(0, NAMED_LOOKALIKES).map((o) => {
    const at = p.lookup.madeAt?.(o);
    return `${p.lookup.importId(o)}${at === undefined ? '' : ` (made or last changed ${new Date(at).toISOString()})`}`;
  });
  const more = objects.length - named.length;
  const holds = p.unique ? `the key of ${p.what}` : `the key of ${p.what} and every setting it reports`;
  return (
    `The platform already has ${one ? 'an object' : `${objects.length} objects`} that ${one ? 'holds' : 'hold'} ` +
    `${holds}, and no ${ctx.terms.stateWord} this run read holds ${one ? 'it' : 'them'}: ${named.join(', ')}` +
    `${more > 0 ? ` and ${more} more` : ''}.`
  );
}
