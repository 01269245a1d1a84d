/**
 * What a resource declares of its identity (Terraform 1.12 and later); the engine's rules over it are
 * engine/resources/identity.ts.
 */
import type { Fields, ModelOf } from '../../schema/define.js';
import type { OpContext, Partial2 } from './operation.js';

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
