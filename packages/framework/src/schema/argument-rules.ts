/**
 * Rules across the top-level arguments of a type, declared beside its schema (`argumentRules`), as the
 * plugin framework's ConflictsWith, ExactlyOneOf, AtLeastOneOf and AlsoRequires: the engine checks them
 * at validate, plan and apply time (engine/plan/validate.ts), each problem at an argument's path. An
 * argument is set when it says something (not null, not empty: null ≡ empty); one not known yet may be
 * either, so a rule it could decide waits for the plan that knows it.
 */
export type ArgumentRule =
  | { readonly kind: 'conflicting'; readonly names: readonly string[] }
  | { readonly kind: 'exactlyOneOf'; readonly names: readonly string[] }
  | { readonly kind: 'atLeastOneOf'; readonly names: readonly string[] }
  | { readonly kind: 'requiredWith'; readonly names: readonly [string, ...string[]] };

export const rules = {
  /** At most one of `names` is set. */
  conflicting: (...names: string[]): ArgumentRule => ({ kind: 'conflicting', names }),
  /** Exactly one of `names` is set. */
  exactlyOneOf: (...names: string[]): ArgumentRule => ({ kind: 'exactlyOneOf', names }),
  /** At least one of `names` is set. */
  atLeastOneOf: (...names: string[]): ArgumentRule => ({ kind: 'atLeastOneOf', names }),
  /** When `name` is set, each of `required` is set too. */
  requiredWith: (name: string, ...required: string[]): ArgumentRule => ({
    kind: 'requiredWith',
    names: [name, ...required],
  }),
};
