/**
 * The rules across a type's top-level arguments (packages/framework/src/schema/argument-rules.ts), checked with the
 * rest of
 * its configuration (validate.ts), each problem at an argument's path.
 */
import type { ArgumentRule } from '../../schema/argument-rules.js';
import type { Fields } from '../../schema/define.js';
import { saysNothing } from '../../schema/empty-string.js';
import { fieldType } from '../../schema/fields.js';
import { attrStep } from '../../schema/path.js';
import { Unknown, type ObjectValue } from '../../schema/value.js';
import { isWhollyKnown } from '../../schema/value-ops.js';
import type { Diagnostics } from '../diagnostics/index.js';

/** Whether a top-level argument says something: null and empty do not; undefined when not known yet. */
function argumentSet(fields: Fields, config: ObjectValue, name: string): boolean | undefined {
  const def = fields[name];
  const v = config[name] ?? null;
  if (def === undefined || v === null) return false;
  if (v instanceof Unknown) return undefined;
  // A collection with unknown elements in it is set; whether it is empty is known.
  if (!isWhollyKnown(fieldType(def), v)) return true;
  return !saysNothing(def, v);
}

const named = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

/** The problems of one rule across arguments, each at an argument's path. */
export function checkRule(rule: ArgumentRule, fields: Fields, config: ObjectValue, diags: Diagnostics): void {
  const state = rule.names.map((name) => argumentSet(fields, config, name));
  const set = rule.names.filter((_, i) => state[i] === true);
  const undecided = state.some((s) => s === undefined);
  const error = (name: string | undefined, summary: string, detail: string) =>
    diags.error(summary, detail, name === undefined ? [] : [attrStep(name)]);
  switch (rule.kind) {
    case 'conflicting':
    case 'exactlyOneOf':
      // Each set beyond the first is the one to take out.
      for (const name of set.slice(1))
        error(name, 'Conflicting arguments', `Only one of ${named(rule.names)} may be set; ${named(set)} are.`);
      if (rule.kind === 'exactlyOneOf' && set.length === 0 && !undecided)
        error(undefined, 'Missing argument', `Exactly one of ${named(rule.names)} must be set; none is.`);
      return;
    case 'atLeastOneOf':
      if (set.length === 0 && !undecided)
        error(undefined, 'Missing argument', `At least one of ${named(rule.names)} must be set; none is.`);
      return;
    case 'requiredWith': {
      const [name, ...required] = rule.names;
      if (state[0] !== true) return;
      const missing = required.filter((_, i) => state[i + 1] === false);
      if (missing.length > 0)
        error(name, 'Missing argument', `\`${name}\` is set, so ${named(missing)} must be set too.`);
      return;
    }
  }
}
