/**
 * What a create that cannot tell its outcome, or whose key another object holds, says: each object
 * holding the key with why it was not adopted, and the import that adopts the right one. Shared by a
 * lost answer in this process (create-recovery.ts) and a record of a killed run (create-records.ts).
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import type { ApiError } from '../../wire/api-error.js';
import type { ResourceDef } from '../contracts/index.js';
import type { Holder } from './create-evidence.js';
import { DiagnosticError } from '../diagnostics/index.js';

/** What the import advice needs of a resource type, whatever its fields. */
type AnyResource = Pick<ResourceDef<any, any>, 'typeName' | 'importState' | 'importIdDescription'>;

/** At most this many objects are named in a message; the rest are counted. */
const NAMED_CANDIDATES = 10;

/**
 * The object a create of this plan makes, as a person would look for it. It names messages and
 * keys the ledger's turns, so it never throws: a plan Terraform would not send (a required value
 * missing) gets the generic description and fails where the create judges it.
 */
export function describe<C>(r: ResourceDef<Fields, C>, plan: ModelOf<Fields>): string {
  try {
    return r.findCreated?.describe(plan) ?? `the new ${r.typeName}`;
  } catch {
    return `the new ${r.typeName}`;
  }
}

/** "terraform import" advice for one object, or for a choice among several (or none known). */
export function importAdvice(r: AnyResource, ids: readonly string[]): string {
  if (!r.importState) return 'This type cannot be imported: remove the object on the platform if it is unwanted.';
  const id = ids.length === 1 ? ids[0]! : `<${r.importIdDescription ?? 'its id'}>`;
  const which = ids.length > 1 ? 'the right one' : 'it';
  return (
    `To manage ${which} with this resource, import ${which}: \`terraform import <address> '${id}'\`, or an ` +
    `\`import\` block with \`id = "${id}"\`.`
  );
}

export function namedHolders(holders: readonly Holder[]): string {
  const named = holders.slice(0, NAMED_CANDIDATES).map((h) => `${h.id} (${h.note})`);
  const more = holders.length - named.length;
  return `${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

export function unknownOutcome<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  /** The lost answer, or what else left the outcome unknown (a run killed with the request out). */
  lost: ApiError | string,
  why: string,
  holders: readonly Holder[] = [],
): DiagnosticError {
  // The client's message names the create call and says that its answer was lost.
  const head = `${typeof lost === 'string' ? lost : lost.message}. ${why}`;
  if (holders.length === 0) {
    const importIt = r.importState
      ? `import it (\`terraform import <address> <id>\`, where the id is ${r.importIdDescription ?? 'its id'})`
      : 'remove it';
    return new DiagnosticError(
      'Create outcome unknown',
      `${head} Look on the platform for ${describe(r, plan)}. If it exists, ${importIt}; otherwise apply again.`,
    );
  }
  return new DiagnosticError(
    'Create outcome unknown',
    `${head} It adopted no object and deleted nothing. Objects holding the key of ${describe(r, plan)}: ` +
      `${namedHolders(holders)}. ${importAdvice(
        r,
        holders.map((h) => h.id),
      )} Otherwise apply again once the platform shows what the request made.`,
  );
}

export function alreadyExists<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  refused: ApiError,
  holders: readonly Holder[],
  why?: string,
): DiagnosticError {
  const ids = holders.map((h) => h.id);
  const named =
    ids.length === 0
      ? ''
      : ` (${ids.slice(0, NAMED_CANDIDATES).join(', ')}${ids.length > NAMED_CANDIDATES ? ', …' : ''})`;
  return new DiagnosticError(
    `Cannot create ${r.typeName}`,
    [
      `${refused.message}.`,
      ...(why ? [`${why}.`] : []),
      `${capitalized(describe(r, plan))} already exists${named} and was not made by this configuration, so the ` +
        `provider does not take it over.`,
      importAdvice(r, ids),
      `Otherwise change the configuration so that the new object differs in ${r.findCreated!.key}.`,
    ].join(' '),
  );
}

/**
 * A create refused because an object this state holds still holds a key the platform keeps unique: the
 * one this resource replaces (`create_before_destroy` makes the new object first), or a renamed key's
 * old object, which the same apply destroys in no fixed order. The state's own, not another's.
 */
export function heldByThisState<C>(
  r: ResourceDef<Fields, C>,
  plan: ModelOf<Fields>,
  refused: ApiError,
  holder: string,
): DiagnosticError {
  const key = r.findCreated!.key;
  return new DiagnosticError(
    `Cannot create ${r.typeName}`,
    `${refused.message}. ${holder} holds ${key} of ${describe(r, plan)}, which the platform keeps unique, and ` +
      `this state holds ${holder}: it is the object this resource replaces (\`create_before_destroy\` makes the ` +
      `new object before it destroys ${holder}), or a renamed key's old object, which this apply destroys in no ` +
      `fixed order. Remove \`create_before_destroy\` from this resource's lifecycle, give the new object another ` +
      `${key} in the same change, or, for a renamed key, add a \`moved\` block. ${holder} is unchanged, and ` +
      'nothing was created.',
  );
}

/**
 * A create of the one sub-object a parent can have (a type with `repeatableCreate`, whose create reads
 * first), refused because the parent has one already: it is never taken over, and importing it adopts
 * it. `parent` as a person finds it ("cluster 7f3…"), `what` the sub-object ("a maintenance window").
 */
export function alreadyHasOne(r: AnyResource, parent: string, what: string, id: string): DiagnosticError {
  return new DiagnosticError(
    `Cannot create ${r.typeName}`,
    `${capitalized(parent)} already has ${what}, which this configuration did not set, so the provider does not ` +
      `take it over. ${importAdvice(r, [id])} Otherwise remove it on the platform and apply again.`,
  );
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
