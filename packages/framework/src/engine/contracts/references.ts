/**
 * What a provider declares of the objects arguments name (`refersTo`): per kind of object, how the
 * platform lists what it holds (ProviderDef `references`), which the engine's reference checks read.
 */

/** How the platform lists the objects of one kind an argument may name. */
export interface ReferenceKind<C> {
  /** The objects in a message: "alert channels". */
  readonly what: string;
  /**
   * Where the platform keeps them, from the top-level configuration or the provider's (an account id),
   * or undefined when that is not known yet; without it, one listing serves every configuration.
   */
  readonly scope?: (config: Readonly<Record<string, unknown>>, client: C) => string | undefined;
  /** What the scope is, in a message: "account". */
  readonly scopeLabel?: string;
  /** The ids (or names, as the argument takes them) of the objects the platform holds. */
  list(client: C, scope: string, signal: AbortSignal): Promise<readonly string[]>;
  /**
   * The resource types that make objects of this kind under an id the configuration gives (type →
   * the attribute holding it): a reference to one such object planned in the same run is known at
   * plan (`query_id = sec_query.q.query_id`) though the platform will hold it only once it is made.
   */
  readonly madeBy?: Readonly<Record<string, string>>;
}

/** By the `refersTo` text of the arguments that name them. */
export type ReferenceKinds<C> = Readonly<Record<string, ReferenceKind<C>>>;
