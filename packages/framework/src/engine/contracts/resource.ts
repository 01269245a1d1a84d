/**
 * What a resource module declares: its schema, the mapping to the API (create, read, update, delete,
 * import), its identity and list, and how a create whose answer was lost is found (CreateLookup).
 */
import type { ArgumentRule } from '../../schema/argument-rules.js';
import type { ConfigModelOf, Fields, ModelOf, ResourceSchema } from '../../schema/define.js';
import type { CatalogueContext } from './catalogue.js';
import type { Diagnostics } from '../diagnostics/index.js';
import type { IdentityDef } from './identity.js';
import type { ListDef } from './list.js';
import type { StateMover } from './move.js';
import type { OpContext, Partial2 } from './operation.js';
import type { PlanContext } from './plan-context.js';

export interface ResourceDef<F extends Fields, C> {
  readonly typeName: string;
  readonly schema: ResourceSchema<F>;
  /**
   * How `terraform import` ids become a starting state; the engine then calls `read`. Returns the
   * attributes the read needs (others stay null; defaults are filled in), or null when no object has
   * that id (as does throwing ApiError 'not_found'): the engine then answers as Terraform does for a
   * non-existent object. The engine refuses an empty id before calling it.
   */
  readonly importState?: (id: string, ctx: OpContext<C>) => Promise<Partial2<ModelOf<F>> | null>;
  /** Documentation of the import id, e.g. "the integration GUID". */
  readonly importIdDescription?: string;
  /**
   * Sends the create request and returns the object as the platform made it. Steps that follow
   * once it exists (waiting until it is ready, testing it, a follow-up call) belong in `settle`, so
   * that the engine can keep the object in the state before they run
   * (packages/framework/src/engine/creates/create-recovery.ts).
   */
  create(plan: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  /**
   * What a create does once the object exists, given what `create` returned (or what `findCreated`
   * found after a lost answer). The object is already in the state when this starts: if it fails,
   * Terraform keeps the object marked tainted. After a stop its requests are not sent and its waits
   * end at once, so a step it still has to take fails and the object is kept, tainted, as it is. It
   * may call `ctx.partial` to keep a later form.
   */
  settle?(created: Partial2<ModelOf<F>>, plan: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  /**
   * How the engine tells what a create whose answer was lost made, from the objects this create did
   * not make (packages/framework/src/engine/creates/create-recovery.ts). A type whose create makes an object that a
   * repeated request would duplicate should have one; the framework does not require it (this
   * repository's providers give every type this or `repeatableCreate`, and a test of theirs holds them).
   */
  findCreated?: CreateLookup<F, C>;
  /**
   * For a type without `findCreated`: why repeating its create can duplicate nothing (e.g. it only
   * changes existing objects). Shown in the docs.
   */
  readonly repeatableCreate?: string;
  /** Returns the object as the API has it, or null when it is gone. */
  read(prior: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>> | null>;
  /**
   * How a walk that reads many objects of this type reads them from one listing instead of one call
   * each (engine/resources/listed-reads.ts). Each listed object must be what `read` returns for it.
   */
  readonly readsByListing?: ReadListing<F, C, any>;
  update?(plan: ModelOf<F>, prior: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  delete(prior: ModelOf<F>, ctx: OpContext<C>): Promise<void>;
  /**
   * Rules across arguments that the schema's validators cannot express. The engine runs them on the
   * configuration at validate time (unknown values are `undefined`: skip what cannot be judged yet),
   * again at plan time and before each create or update, when more or all of it is known; only
   * errors count then. Report problems with their attribute paths.
   */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  /** Rules across its top-level arguments (`rules.conflicting`, `exactlyOneOf`, `atLeastOneOf`, `requiredWith`). */
  readonly argumentRules?: readonly ArgumentRule[];
  /**
   * Rules that depend on how the provider is configured (its mode, its defaults), which validation
   * cannot see: Terraform validates before it configures the provider. The engine runs them at plan
   * time once the provider is configured with known values, and before each create or update; as in
   * `validate`, values not known yet are `undefined`.
   */
  validateWithProvider?(config: ConfigModelOf<F>, client: C, diags: Diagnostics): void;
  /** Rules the platform's catalogue decides, judged at plan against its listings (engine/catalogue/). */
  checkAgainstCatalogue?(config: ConfigModelOf<F>, ctx: CatalogueContext<C>): Promise<void>;
  /** Its own say in each plan but a destroy's, held to Terraform's rules (engine/resources/plan-modification.ts). */
  modifyPlan?(ctx: PlanContext<F, C>): void;
  /** Migrates raw state JSON written by an older schema version to the current one. */
  upgrade?(version: number, state: Record<string, unknown>): Record<string, unknown>;
  /** The types whose state `moved` blocks may move to this one (Terraform 1.8+; move.ts). */
  readonly moveFrom?: readonly StateMover<F>[];
  /**
   * What names the object for its whole life (Terraform 1.12 and later): Terraform stores it beside
   * the state, `import` blocks may give it instead of an id, and list results carry it. Optional: this
   * repository's providers declare one for every resource (a test of theirs requires it), families once
   * for their members.
   */
  readonly identity?: IdentityDef<F, C>;
  /** Finds existing objects of this type for `terraform query` (Terraform 1.14 and later). */
  readonly list?: ListDef<F, any, C>;
  /**
   * GenerateResourceConfig writes the configuration of an object from its state by the schema's rules
   * (packages/framework/src/engine/resources/generate-config.ts); this gives the arguments they cannot know, to write
   * instead: a
   * deprecated argument whose replacement takes its value only in some cases. Given the state.
   */
  generatedConfig?(state: ModelOf<F>): Partial2<ModelOf<F>>;
}

/** One page of a listing: its objects, and how many the whole listing holds where the API says it. */
export interface ListingPage<M> {
  readonly objects: readonly M[];
  readonly total?: number;
}

/**
 * A type's listing, read in pages, for the walks that read many of its objects: each item as the API
 * lists it (`L`), turned into what `read` returns by the same mapping. Only listing calls: it changes
 * nothing. An object the listing does not hold is read on its own (gone or not, `read` says).
 */
export interface ReadListing<F extends Fields, C, L> {
  /**
   * Which listing holds the object a state names (an account, a parent), where the API lists by scope;
   * reads of one scope share its listing. Absent: one listing holds every object of the type.
   */
  scope?(prior: ModelOf<F>, ctx: OpContext<C>): string;
  /** The pages of the listing that holds `prior`'s object, in order. */
  pages(ctx: OpContext<C>, prior: ModelOf<F>): AsyncIterable<ListingPage<L>>;
  /** The id a listed item is known by: the one `findCreated.importId` gives for a state. */
  idOf(item: L): string;
  /**
   * What `read` returns for the object, from its listed item and its state: the read's own mapping; where
   * the listing leaves fields out (a secret, a detail), keep the state's or read them on their own.
   */
  read(
    item: L,
    prior: ModelOf<F>,
    ctx: OpContext<C>,
  ): Partial2<ModelOf<F>> | null | Promise<Partial2<ModelOf<F>> | null>;
}

/** A listing its client reads whole (in one call, or every page), as one page. */
export function listedInOneCall<M, C, P>(
  list: (ctx: OpContext<C>, prior: P) => Promise<readonly M[]>,
): (ctx: OpContext<C>, prior: P) => AsyncIterable<ListingPage<M>> {
  return async function* (ctx, prior) {
    yield { objects: await list(ctx, prior) };
  };
}

/**
 * What the engine needs to find the object a create made when its answer was lost, Terraform stopped
 * it, or a killed run left it (engine/creates/create-recovery.ts, create-records.ts): how to list the
 * objects and recognise the plan's natural key in them. The rule of evidence is the engine's.
 */
export interface CreateLookup<F extends Fields, C> {
  /** What identifies the object, for the docs: e.g. "its type and name". */
  readonly key: string;
  /**
   * Whether the platform refuses a second object with the same key (HTTP 409, "already exists"), for
   * every plan or for some (e.g. a policy with an id suffix). The docs say so, and the ownership test
   * checks it against the emulator.
   */
  readonly uniqueKey: boolean | ((plan: ModelOf<F>) => boolean);
  /**
   * The object as a person would look for it on the platform, for messages: e.g.
   * 'the alert channel of type EmailUser named "ops"'. Never a secret. Creates with the same
   * description run one at a time in a process, so two of them never take each other's object.
   */
  describe(plan: ModelOf<F>): string;
  /**
   * The existing objects a create of this plan could make or collide with, in model form as `create`
   * returns them: at least every object that holds the plan's key (more is fine: the engine keeps
   * those `holdsKey` accepts). It only looks; it changes nothing.
   */
  list(plan: ModelOf<F>, ctx: OpContext<C>): Promise<readonly Partial2<ModelOf<F>>[]>;
  /**
   * Plans of the same scope get the same listing, so one listing before the creates serves them all
   * (packages/framework/src/engine/creates/create-recovery.ts, "census"). Absent: every plan of the type. A listing
   * narrowed by
   * the plan's own key (a search by name) returns that key.
   */
  scope?(plan: ModelOf<F>): string;
  /** Whether a listed object holds the plan's natural key. */
  holdsKey(plan: ModelOf<F>, object: Partial2<ModelOf<F>>): boolean;
  /** The id `terraform import` takes for a listed (or created) object. */
  importId(object: Partial2<ModelOf<F>>): string;
  /**
   * Attributes the create request does not set but a later step does (`settle`): an object found
   * after a lost answer may differ from the plan in them and still be this create's.
   */
  readonly setAfterCreate?: readonly (keyof F & string)[];
  /**
   * When the platform says a listed object was made, or last changed where it says only that (epoch
   * ms): a killed run's record adopts only an object made while its request could have made it.
   */
  madeAt?(object: Partial2<ModelOf<F>>): number | undefined;
}

/** Returns the definition as it is, typed, so that a module needs no annotations. */
export const resource = <F extends Fields, C>(def: ResourceDef<F, C>): ResourceDef<F, C> => def;
