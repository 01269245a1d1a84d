/**
 * What resource, data-source and provider modules declare. The engine owns the lifecycle; modules
 * supply a schema, the mapping to the API and one-line operations.
 */
import type { Fields, ModelOf, ResourceSchema } from '../schema/define.js';
import type { Diagnostics } from './diagnostics.js';

/** Structured logging; implementations never write stdout. Never pass secret values. */
export interface Logger {
  trace(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

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
   * Finds the object an earlier attempt of this create may already have made, by its natural key.
   * Every type whose create makes an object that a repeated request would duplicate has one.
   */
  findCreated?: CreateLookup<F, C>;
  /** Returns the object as the API has it, or null when it is gone. */
  read(prior: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>> | null>;
  update?(plan: ModelOf<F>, prior: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  delete(prior: ModelOf<F>, ctx: OpContext<C>): Promise<void>;
  /** Extra static validation of a (possibly partly unknown) configuration; unknown values are null here. */
  validate?(config: ModelOf<F>, diags: Diagnostics): void;
  /** Migrates raw state JSON written by an older schema version to the current one. */
  upgrade?(version: number, state: Record<string, unknown>): Record<string, unknown>;
}

/**
 * How the object a create makes is found again when the create's answer was lost (ApiError
 * 'outcome_unknown': the request went out, the answer never came, so the object may or may not
 * exist) or Terraform stopped the provider while it was out.
 */
export interface CreateLookup<F extends Fields, C> {
  /**
   * The object as a person would look for it on the platform, for messages: e.g.
   * 'the alert channel of type EmailUser named "ops"'. Never a secret.
   */
  describe(plan: ModelOf<F>): string;
  /**
   * The object in model form, as `create` would return it, or null when there is none. It only
   * looks; it changes nothing. `since` (this machine's clock when the first create request went
   * out) tells an object made by this apply from older ones where the key alone cannot. When several
   * objects match it throws via {@link onlyCandidate}; the engine then adopts none and creates
   * nothing more.
   */
  find(plan: ModelOf<F>, ctx: OpContext<C>, since: Date): Promise<Partial2<ModelOf<F>> | null>;
}

export interface DataSourceDef<F extends Fields, C> {
  readonly typeName: string;
  readonly schema: ResourceSchema<F>;
  read(config: ModelOf<F>, ctx: OpContext<C>): Promise<Partial2<ModelOf<F>>>;
  validate?(config: ModelOf<F>, diags: Diagnostics): void;
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
  validate?(config: ModelOf<F>, diags: Diagnostics): void;
  readonly resources: readonly ResourceDef<any, C>[];
  readonly dataSources: readonly DataSourceDef<any, C>[];
  /** Pulumi mapping overrides (DECISIONS). */
  readonly pulumi?: { autoNameOff?: string[]; autoNameOn?: string[]; typeNameOverrides?: Record<string, string>; requiredConfig?: string[] };
}

/** Thrown by {@link ResourceDef.findCreated} when several existing objects match: none may be adopted. */
export class SeveralCandidatesError extends Error {
  override readonly name = 'SeveralCandidatesError';
  constructor(readonly ids: readonly string[]) {
    super(`${ids.length} existing objects match: ${ids.join(', ')}`);
  }
}

/** For `findCreated`: the one matching object, null for none; several → SeveralCandidatesError with their ids. */
export function onlyCandidate<T>(candidates: readonly T[], idOf: (candidate: T) => string): T | null {
  if (candidates.length > 1) throw new SeveralCandidatesError(candidates.map(idOf));
  return candidates[0] ?? null;
}

/** Identity helpers for definitions, so modules get type inference without annotations. */
export const resource = <F extends Fields, C>(def: ResourceDef<F, C>): ResourceDef<F, C> => def;
export const dataSource = <F extends Fields, C>(def: DataSourceDef<F, C>): DataSourceDef<F, C> => def;
export const provider = <F extends Fields, C>(def: ProviderDef<F, C>): ProviderDef<F, C> => def;
