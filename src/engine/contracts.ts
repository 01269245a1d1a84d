/**
 * What resource, data-source, action and provider modules declare. The engine owns the lifecycle;
 * modules supply a schema, the mapping to the API and one-line operations.
 */
import type { FunctionDef } from './function-contracts.js';
import type { StateMover } from './move-contracts.js';
import type { ConfigModelOf, Fields, ModelOf, PlatformLimits, ResourceSchema } from '../schema/define.js';
import type { Diagnostics } from './diagnostics.js';
import type { CreateSettings } from './create-settings.js';
export type { Logger } from './logger.js';
export type { CatalogueContext } from './catalogue-context.js';
import type { Logger } from './logger.js';
import type { CatalogueContext } from './catalogue-context.js';
import type { ReferenceKinds } from './reference-checks.js';

export interface OpContext<C> {
  /** The configured API client. */
  readonly client: C;
  /** Aborted when Terraform calls StopProvider. */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Warnings to show the user (errors are thrown). */
  readonly diags: Diagnostics;
  /** Private state kept by Terraform between plan, apply and read. */
  readonly private: Record<string, unknown>;
  /**
   * Reports that the object exists in this form although the operation may yet fail, so the engine
   * keeps it in state (Terraform marks a created one tainted) instead of orphaning it; undefined
   * reports that it is gone again (e.g. removed after a failed test).
   */
  partial(model: object | undefined): void;
}

export type Partial2<T> = { [K in keyof T]?: T[K] };

/** A check of a configuration whose unknown values are `undefined` (see ConfigModelOf). */
export type ConfigCheck<F extends Fields> = (config: ConfigModelOf<F>, diags: Diagnostics) => void;

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
   * that the engine can keep the object in the state before they run (src/engine/create-recovery.ts).
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
   * not make (src/engine/create-recovery.ts). Every type whose create makes an object that a repeated
   * request would duplicate has one.
   */
  findCreated?: CreateLookup<F, C>;
  /**
   * For a type without `findCreated`: why repeating its create can duplicate nothing (e.g. it only
   * changes existing objects). Shown in the docs; every type has one or the other.
   */
  readonly repeatableCreate?: string;
  /** Returns the object as the API has it, or null when it is gone. */
  read(prior: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>> | null>;
  update?(plan: ModelOf<F>, prior: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  delete(prior: ModelOf<F>, ctx: OpContext<C>): Promise<void>;
  /**
   * Rules across arguments that the schema's validators cannot express. The engine runs them on the
   * configuration at validate time (unknown values are `undefined`: skip what cannot be judged yet),
   * again at plan time and before each create or update, when more or all of it is known; only
   * errors count then. Report problems with their attribute paths.
   */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  /**
   * Rules that depend on how the provider is configured (its mode, its defaults), which validation
   * cannot see: Terraform validates before it configures the provider. The engine runs them at plan
   * time once the provider is configured with known values, and before each create or update; as in
   * `validate`, values not known yet are `undefined`.
   */
  validateWithProvider?(config: ConfigModelOf<F>, client: C, diags: Diagnostics): void;
  /** Rules the platform's catalogue decides, judged at plan against its listings (catalogue-checks.ts). */
  checkAgainstCatalogue?(config: ConfigModelOf<F>, ctx: CatalogueContext<C>): Promise<void>;
  /** Migrates raw state JSON written by an older schema version to the current one. */
  upgrade?(version: number, state: Record<string, unknown>): Record<string, unknown>;
  /** The types whose state `moved` blocks may move to this one (Terraform 1.8+; move-contracts.ts). */
  readonly moveFrom?: readonly StateMover<F>[];
  /**
   * What names the object for its whole life (Terraform 1.12 and later): Terraform stores it beside
   * the state, `import` blocks may give it instead of an id, and list results carry it. Every
   * resource declares one (an invariant test requires it); families declare it once for their members.
   */
  readonly identity?: IdentityDef<F, C>;
  /** Finds existing objects of this type for `terraform query` (Terraform 1.14 and later). */
  readonly list?: ListDef<F, any, C>;
  /**
   * GenerateResourceConfig writes the configuration of an object from its state by the schema's rules
   * (src/engine/generate-config.ts); this gives the arguments they cannot know, to write instead: a
   * deprecated argument whose replacement takes its value only in some cases. Given the state.
   */
  generatedConfig?(state: ModelOf<F>): Partial2<ModelOf<F>>;
}

/** An identity value as resource code sees it: each identity attribute's text, null when absent. */
export type IdentityModel = Record<string, string | null>;
/**
 * A resource's identity: string attributes, each taken from a top-level string attribute of the
 * state (by default the one of the same name), so the engine can compute it from any state, check
 * that it never changes, and turn an identity back into a starting state for an import.
 */
export interface IdentityDef<F extends Fields, C> {
  readonly attributes: { readonly [name: string]: IdentityAttributeDef<C> };
  /**
   * Import by identity: the attributes the following read needs, as `importState` returns them for an
   * id. Without it, each identity attribute is copied into the state attribute it comes from (which
   * needs attributes without `derive`).
   */
  importState?(identity: IdentityModel, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
}

export interface IdentityAttributeDef<C = any> {
  /** Markdown, for the identity schema and the docs. */
  readonly description: string;
  /** The state attribute it is taken from; the identity attribute's own name when absent. */
  readonly from?: string;
  /**
   * Turns the state attribute's value into the identity's (e.g. a fingerprint that names a secret
   * without revealing it).
   */
  readonly derive?: (value: string) => string;
  /**
   * Whether an `import` block's identity must give it (`required`), or may leave it to the provider
   * (`optional`, e.g. the account, which defaults to the provider's).
   */
  readonly forImport: 'required' | 'optional';
  /**
   * The value an empty source stands for, from the configured provider (e.g. an account left empty
   * is the provider's account): the identity names the object the platform holds, not the spelling
   * the configuration chose.
   */
  readonly providerDefault?: (client: C) => string | null;
}

/**
 * The list resource of a resource type (the same type name): the filters of a `list` block's
 * `config` and how to find the objects they select.
 */
export interface ListDef<F extends Fields, L extends Fields, C> {
  /** The filters, as arguments of the `config` block. */
  readonly schema: ResourceSchema<L>;
  /**
   * The objects the filters select, each in the model form `read` returns for it, so that a result's
   * state is the one an import of it would reach.
   */
  list(filters: ModelOf<L>, ctx: OpContext<C>): Promise<readonly Partial2<ModelOf<F>>[]>;
  /** What Terraform shows for a result: the name a person knows the object by. */
  displayName(object: ModelOf<F>): string;
  /** Rules across filters, as for resources. */
  validate?(config: ConfigModelOf<L>, diags: Diagnostics): void;
}

/**
 * What the engine needs to find the object a create made when its answer was lost, Terraform stopped
 * it, or a killed run left it (create-recovery.ts, create-records.ts): how to list the objects and
 * recognise the plan's natural key in them. The rule of evidence is the engine's.
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
   * (src/engine/create-recovery.ts, "census"). Absent: every plan of the type. A listing narrowed by
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

export interface DataSourceDef<F extends Fields, C> {
  readonly typeName: string;
  readonly schema: ResourceSchema<F>;
  read(config: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  /** As for resources: cross-argument rules, at validate time and again before the read. */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
}

/**
 * An ephemeral resource (Terraform 1.10+): a value that exists only during a run and is never
 * stored in plan or state. Terraform opens it when a run needs it, may renew it at `renewAt`, and
 * closes it when done.
 */
export interface EphemeralDef<F extends Fields, C> {
  readonly typeName: string;
  readonly schema: ResourceSchema<F>;
  /** Makes or fetches the value. `private` is what renew and close need (never a secret the result does not hold). */
  open(config: ModelOf<F>, ctx: OpContext<C>): Promise<EphemeralOpened<F>>;
  /** Keeps the value alive past `renewAt`, when the platform allows; returns the next renewal. */
  renew?(
    priv: Record<string, unknown>,
    ctx: OpContext<C>,
  ): Promise<{ renewAt?: Date; private?: Record<string, unknown> }>;
  /** Releases what `open` made. A failure is a warning that names what was left behind. */
  close?(priv: Record<string, unknown>, ctx: OpContext<C>): Promise<void>;
  /**
   * What an opened value is, from its `private`, for the warning when Terraform never closed it and
   * the provider closes it as it shuts down: e.g. "database API key <id> of cluster <id>, expiring at
   * <time>". Never a secret.
   */
  describeOpened?(priv: Record<string, unknown>): string;
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
}

export interface EphemeralOpened<F extends Fields> {
  readonly result: Partial2<ModelOf<F>>;
  /** When Terraform should call renew, if the run still uses the value then. */
  readonly renewAt?: Date;
  readonly private?: Record<string, unknown>;
}

/**
 * An action (Terraform 1.14 and later): a one-shot operation a configuration declares in an
 * `action` block and runs on its own (`terraform apply -invoke=action.<type>.<name>`) or when a
 * resource changes (`action_trigger` in its `lifecycle`). It has a configuration and no state.
 * Terraform validates the configuration (ValidateActionConfig), plans it (PlanAction: nothing is
 * sent then) and invokes it (InvokeAction), showing each progress line as it comes; the engine
 * owns those steps (src/engine/actions.ts), the module says what the action does.
 */
export interface ActionDef<F extends Fields, C> {
  readonly typeName: string;
  /** The arguments of the `config` block: required or optional, never computed (an action keeps no state). */
  readonly schema: ResourceSchema<F>;
  /**
   * Rules across arguments, as for resources: at validation (values not known yet are `undefined`),
   * again at plan time and before the action runs, when more or all of it is known.
   */
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  /** Rules that need the configured provider (its defaults), at plan time and before the action runs. */
  validateWithProvider?(config: ConfigModelOf<F>, client: C, diags: Diagnostics): void;
  /** Rules the platform's catalogue decides, judged at plan against its listings (catalogue-checks.ts). */
  checkAgainstCatalogue?(config: ConfigModelOf<F>, ctx: CatalogueContext<C>): Promise<void>;
  /**
   * Runs the action on a wholly known configuration. Progress goes to `ctx.progress`, warnings to
   * `ctx.diags`; a failure is thrown (an ApiError, or a DiagnosticError that says what to do). When
   * `ctx.signal` aborts (Terraform's StopProvider, the call's deadline) it sends nothing more, ends
   * its waits at once, and throws; what it set going on the platform before, it has named with
   * `ctx.started`, so that the engine's message says what keeps running.
   */
  invoke(config: ModelOf<F>, ctx: ActionContext<C>): Promise<void>;
  /** For the docs: what an interrupted or failed run leaves on the platform, and what running it again does. */
  readonly interruption: string;
}

/** What an action's run is given. */
export interface ActionContext<C> {
  /** The configured API client. */
  readonly client: C;
  /** Aborted when Terraform calls StopProvider, or the call ends (its deadline, Terraform gone). */
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Warnings to show the user with the result (errors are thrown). */
  readonly diags: Diagnostics;
  /** A line Terraform shows while the action runs (an InvokeAction progress event). */
  progress(message: string): void;
  /**
   * Records what the action has set going on the platform (e.g. 'backup 1234 of cluster 5678'), which
   * is neither undone nor requested again if the run is cut short: the engine's message names it then.
   */
  started(what: string): void;
}

export interface ConfigureContext {
  readonly terraformVersion: string;
  readonly diags: Diagnostics;
  readonly log: Logger;
  readonly env: NodeJS.ProcessEnv;
}

export interface ProviderDef<F extends Fields, C> {
  readonly name: string;
  readonly version: string;
  readonly schema: ResourceSchema<F>;
  configure(config: ModelOf<F>, ctx: ConfigureContext): Promise<C>;
  validate?(config: ConfigModelOf<F>, diags: Diagnostics): void;
  readonly resources: readonly ResourceDef<any, C>[];
  readonly dataSources: readonly DataSourceDef<any, C>[];
  readonly ephemeralResources?: readonly EphemeralDef<any, C>[];
  /** Actions (Terraform 1.14 and later). */
  readonly actions?: readonly ActionDef<any, C>[];
  /** Functions, `provider::<name>::<function>(…)` (Terraform 1.8 and later); function-contracts.ts. */
  readonly functions?: readonly FunctionDef[];
  /** What the platform takes in one request, checked for every value at plan time. */
  readonly limits?: PlatformLimits;
  /** How the platform lists the objects arguments name (`refersTo`), checked at plan: reference-checks.ts. */
  readonly references?: ReferenceKinds<C>;
  /**
   * Where the configured client's requests go (host, account; never a credential): records of creates are
   * kept per address (create-journal.ts). The create settings (create-settings.ts), their variables' prefix.
   */
  apiAddress?(client: C): string;
  createSettings?(config: ModelOf<F>, env: NodeJS.ProcessEnv): CreateSettings;
  readonly environmentPrefix?: string;
}

/** Identity helpers for definitions, so modules get type inference without annotations. */
export const resource = <F extends Fields, C>(def: ResourceDef<F, C>): ResourceDef<F, C> => def;
export const dataSource = <F extends Fields, C>(def: DataSourceDef<F, C>): DataSourceDef<F, C> => def;
export const ephemeralResource = <F extends Fields, C>(def: EphemeralDef<F, C>): EphemeralDef<F, C> => def;
export const action = <F extends Fields, C>(def: ActionDef<F, C>): ActionDef<F, C> => def;
export const listResource = <F extends Fields, L extends Fields, C>(def: ListDef<F, L, C>): ListDef<F, L, C> => def;
export const provider = <F extends Fields, C>(def: ProviderDef<F, C>): ProviderDef<F, C> => def;
