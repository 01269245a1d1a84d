/**
 * Mistakes in declared fields that TypeScript lets through, found when the provider starts
 * (provider.ts, declarationProblems) rather than at a user's first plan: a validator of another kind
 * of value than its attribute's (`lengthBetween` on a number), and a default that the attribute's own
 * type or validators refuse (`attr.int({ default: 2.5 })`).
 */
import { type CtyType, friendlyTypeName, isCollection } from '../../schema/cty-type.js';
import { type AttrDef, type Fields, judged, type Validator } from '../../schema/define.js';
import { plainToValue, valueToExactPlain } from '../../schema/model.js';

/** The problems of `fields` (blocks' and nested attributes' too), each opening with `what` and the field's path. */
export function fieldProblems(what: string, fields: Fields, at: readonly string[] = []): string[] {
  const problems: string[] = [];
  for (const [name, def] of Object.entries(fields)) {
    const path = [...at, name];
    if (def.kind === 'block') problems.push(...fieldProblems(what, def.fields, path));
    else {
      problems.push(...attributeProblems(`${what}: \`${path.join('.')}\``, def));
      if (def.nested) problems.push(...fieldProblems(what, def.nested.fields, path));
    }
  }
  return problems;
}

function attributeProblems(where: string, def: AttrDef<unknown>): string[] {
  const type = def.type.cty;
  const problems: string[] = [];
  const fitting: Validator<unknown>[] = [];
  for (const validator of def.options.validate ?? []) {
    const mismatch = kindMismatch(validator as Validator<unknown>, type);
    if (mismatch) problems.push(`${where} ${mismatch}`);
    else fitting.push(validator as Validator<unknown>);
  }
  const fallback = def.options.default;
  if (fallback === undefined) return problems;
  let exact: unknown;
  try {
    exact = valueToExactPlain(plainToValue(type, fallback, 'default'));
  } catch {
    return [...problems, `${where} is a ${friendlyTypeName(type)}, but its default ${JSON.stringify(fallback)} is not`];
  }
  for (const validator of fitting) {
    const problem = judged(validator, exact);
    if (problem)
      problems.push(`${where}: its default ${JSON.stringify(fallback)} is refused by its own validator: it ${problem}`);
  }
  return problems;
}

/** Why `validator` cannot judge values of `type`, if it cannot (it says what it judges: `accepts`). */
function kindMismatch(validator: Validator<unknown>, type: CtyType): string | undefined {
  if (validator.accepts && !validator.accepts.includes(type.kind))
    return (
      `is a ${friendlyTypeName(type)}, but has a validator of ${validator.accepts.join(' or ')} values ` +
      `(${validator.description})`
    );
  if (validator.elements && isCollection(type)) {
    const inner = kindMismatch(validator.elements, type.element);
    return inner ? `has elements that ${inner.replace(/^is /, 'are ')}` : undefined;
  }
  return undefined;
}
