/**
 * What a provider-defined function declares (Terraform 1.8 and later, OpenTofu 1.7 and later:
 * `provider::<provider>::<name>(…)` in any expression), once: the one declaration serves GetMetadata,
 * GetFunctions, GetProviderSchema, the prebuilt schema answers and the generated docs (functions.ts
 * serves it). A function has no client: Terraform calls functions on a provider it never configures.
 *
 * How arguments reach `call` (docs/protocol.md, "Provider functions"): each parameter's value as plain
 * data (valueToPlain: strings, numbers, booleans, arrays, objects; a dynamic parameter's value as its
 * own plain form), the variadic ones as a list after them. Null reaches a parameter only when it
 * allows null (`allowNull`); an unknown value only when it allows unknowns (`allowUnknown`), and then
 * as the `Unknown` marker, for the function to say what its result is. A problem with an argument is a
 * `FunctionArgumentError` naming it; its text is a phrase, without a full stop (Terraform adds one).
 */
import type { CtyType } from '../../schema/cty-type.js';

export interface FunctionParameter {
  /** As it appears in the signature and in Terraform's messages ("Invalid value for "url" parameter"). */
  readonly name: string;
  readonly type: CtyType;
  readonly description: string;
  /** Null may be passed; otherwise Terraform refuses it before calling, and the provider too. */
  readonly allowNull?: boolean;
  /** Unknown values reach the function; otherwise Terraform's result is unknown without a call. */
  readonly allowUnknown?: boolean;
}

export interface FunctionDef {
  /** snake_case, unique in the provider: `provider::vdb::<name>(…)`. */
  readonly name: string;
  /** One line, shown by editors and at the top of the function's page. */
  readonly summary: string;
  readonly description: string;
  readonly parameters: readonly FunctionParameter[];
  /** Zero or more trailing arguments of one type, given to `call` as a list after the others. */
  readonly variadic?: FunctionParameter;
  readonly returns: CtyType;
  /** Why to stop using it, when it is deprecated. */
  readonly deprecated?: string;
  /**
   * Calls and what they give: the docs show them, and the tests make each call through the engine
   * and under every client (Terraform, OpenTofu), good ones and bad ones alike.
   */
  readonly examples: readonly FunctionExample[];
  /** The result as plain data of the `returns` type; throws FunctionArgumentError or FunctionFailure. */
  call(args: readonly unknown[]): unknown;
}

/** A call of a function with its arguments as plain data, and its result or its error. */
export type FunctionExample =
  | { readonly args: readonly unknown[]; readonly result: unknown }
  | { readonly args: readonly unknown[]; readonly error: string; readonly argument?: number };

/** An argument the function cannot take: Terraform shows it at that argument of the call. */
export class FunctionArgumentError extends Error {
  override readonly name = 'FunctionArgumentError';
  /** The argument's place among all the call's arguments (variadic ones counted on from the last). */
  readonly argument: number;

  constructor(argument: number, text: string) {
    super(text);
    this.argument = argument;
  }
}

/** A failure that is no one argument's: Terraform shows it at the call. */
export class FunctionFailure extends Error {
  override readonly name = 'FunctionFailure';
}

/** Identity helper for definitions, as `resource` and the others are. */
export const providerFunction = (def: FunctionDef): FunctionDef => def;
