/**
 * GetFunctions and CallFunction: the provider's functions (function-contracts.ts), declared once and
 * called with the arguments the server decoded against each parameter's type. Every failure is a
 * function error (its text, and the argument at fault where there is one), never a thrown error:
 * Terraform shows it at the call ("Invalid function argument" when an argument is named). A function
 * is pure: no client, no configuration, nothing sent.
 *
 * What Terraform does before it calls (docs/protocol.md, "Provider functions"): a null argument of a
 * parameter that does not allow null is refused, and an unknown one of a parameter that does not
 * allow unknowns makes the result unknown, without a call. The same is done here for a client that
 * does not, so that a function meets only what its declaration allows.
 */
import type { CtyType } from '../../schema/cty-type.js';
import { plainToValue, valueToPlain } from '../../schema/model.js';
import { UNKNOWN, Unknown, type Value } from '../../schema/value.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import {
  FunctionArgumentError,
  FunctionFailure,
  type FunctionDef,
  type FunctionParameter,
} from './function-contracts.js';

/** What a call came to: its result, or the error Terraform shows. */
export type FunctionOutcome =
  | { readonly result: Value; readonly error?: undefined }
  | { readonly result?: undefined; readonly error: { readonly text: string; readonly argument?: number } };

/** Long enough for any real function name; a hostile one is cut so the message stays small. */
const SHOWN_NAME_CHARACTERS = 100;

export class Functions {
  private readonly byName: ReadonlyMap<string, FunctionDef>;

  constructor(
    private readonly provider: string,
    defs: readonly FunctionDef[],
  ) {
    this.byName = new Map(defs.map((d) => [d.name, d]));
  }

  declarations(): readonly FunctionDef[] {
    return [...this.byName.values()];
  }

  get(name: string): FunctionDef | undefined {
    return this.byName.get(name);
  }

  /** The parameter argument `index` of a call of `name` binds to, or undefined when there is none. */
  parameterAt(name: string, index: number): FunctionParameter | undefined {
    const def = this.byName.get(name);
    return def && (def.parameters[index] ?? def.variadic);
  }

  /** CallFunction, with arguments decoded against `parameterAt`'s types. */
  call(name: string, args: readonly Value[]): FunctionOutcome {
    const def = this.byName.get(name);
    if (!def) {
      const shown = name.length > SHOWN_NAME_CHARACTERS ? `${name.slice(0, SHOWN_NAME_CHARACTERS)}…` : name;
      return failed(`the provider ${this.provider} has no function ${JSON.stringify(shown)}`);
    }
    const arity = checkArity(def, args.length);
    if (arity) return failed(arity);
    const plain: unknown[] = [];
    const variadic: unknown[] = [];
    for (const [i, arg] of args.entries()) {
      const p = (def.parameters[i] ?? def.variadic)!;
      if (arg === null && !p.allowNull) return failed(`argument must not be null`, i);
      if (!isWhollyKnown(p.type, arg)) {
        if (!p.allowUnknown) return { result: UNKNOWN };
        (i < def.parameters.length ? plain : variadic).push(arg);
        continue;
      }
      (i < def.parameters.length ? plain : variadic).push(valueToPlain(arg));
    }
    if (def.variadic) plain.push(variadic);
    let result: unknown;
    try {
      result = def.call(plain);
    } catch (err) {
      if (err instanceof FunctionArgumentError && err.argument >= 0 && err.argument < Math.max(args.length, 1))
        return failed(withoutFullStop(err.message), err.argument);
      if (err instanceof FunctionFailure) return failed(withoutFullStop(err.message));
      // A provider bug: said as one, never a crash.
      return failed(
        `the function ${name} failed: ${withoutFullStop(err instanceof Error ? err.message : String(err))}`,
      );
    }
    if (result instanceof Unknown) return { result };
    try {
      return { result: plainToValue(def.returns, result) };
    } catch (err) {
      return failed(`the function ${name} returned a value that is not its ${typeName(def.returns)}: ${String(err)}`);
    }
  }
}

function checkArity(def: FunctionDef, given: number): string | undefined {
  const least = def.parameters.length;
  if (given >= least && (def.variadic || given === least)) return undefined;
  const wanted = def.variadic ? `at least ${least}` : `${least}`;
  return `${def.name} takes ${wanted} argument${least === 1 && !def.variadic ? '' : 's'}, not ${given}`;
}

function failed(text: string, argument?: number): FunctionOutcome {
  return { error: { text, ...(argument === undefined ? {} : { argument }) } };
}

/** Terraform ends the text with its own full stop. */
function withoutFullStop(text: string): string {
  return text.replace(/\.+$/, '');
}

function typeName(type: CtyType): string {
  return type.kind === 'object' ? 'object' : type.kind;
}
