import { type ContractBodies, field, invalid, NON_BLANK_PATTERN } from './language.js';

const text = field.string({ pattern: NON_BLANK_PATTERN, patternRule: 'text that is not only white space' });
const readOnly = { optional: true, allowEmpty: true } as const;

/**
 * One value of a constraint: a text (an account id), or a key with the values it may have (a resource tag),
 * which the older form gives as one text. Which of them a constraint takes is the policy's (its exception
 * configuration's data type): the emulator checks that in code, and the resource at plan, against the policy.
 */
const CONSTRAINT_VALUE = field.union(
  [
    text,
    field.object({
      key: text,
      value: field.union([field.array(field.string(), { minItems: 1 }), field.string()], {
        rule: 'a string or a non-empty array of strings',
      }),
    }),
  ],
  { rule: 'a non-empty string or an object {key, value}' },
);

/** A rule across the resource's arguments (plain values or key/value pairs), which send this one field. */
function checkSomeValue(constraint: Record<string, unknown>, path: string): void {
  if (Array.isArray(constraint.fieldValues) && constraint.fieldValues.length === 0)
    throw invalid(`${path}.fieldValues must contain at least 1 item`);
}

/** The request body of a policy exception, a create or a whole replacement alike. */
export const POLICY_EXCEPTION = field.object({
  exceptionId: field.string(readOnly),
  description: text,
  constraints: field.array(
    field.object(
      { fieldKey: text, fieldValues: field.array(CONSTRAINT_VALUE) },
      { check: checkSomeValue, checkRule: 'a constraint has at least one value' },
    ),
    { minItems: 1 },
  ),
  lastUpdateTime: field.string(readOnly),
  lastUpdateUser: field.string(readOnly),
});

export const POLICY_EXCEPTION_BODIES: ContractBodies = { Exceptions: POLICY_EXCEPTION };
