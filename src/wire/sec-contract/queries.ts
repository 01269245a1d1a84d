import { field, type ContractBodies } from './language.js';

/** The longest query text the platform takes (64 KiB). */
export const QUERY_TEXT_MAX_CHARACTERS = 64 * 1024;
/** The evaluators the platform has: trail events are evaluated by `CloudATrail`; configuration data needs none. */
export const QUERY_EVALUATORS = ['CloudATrail'] as const;
const queryText = field.string({ maxLength: QUERY_TEXT_MAX_CHARACTERS });

const create = field.object({
  queryId: field.string({
    pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$',
    patternRule: 'letters, digits and "_", starting with a letter or "_", at most 64 characters',
  }),
  queryText,
  // "" or left out: the platform picks the evaluator the query's sources need.
  evaluatorId: field.string({ optional: true, allowEmpty: true, oneOf: QUERY_EVALUATORS }),
});

/** The request bodies of queries: a create, a check of a query (`/validate`), and an update of the text. */
export const QUERY_BODIES: ContractBodies = {
  Queries: create,
  // A query checked without an id may name itself anything.
  'Queries:validate': field.object({ ...create.fields, queryId: field.string({ optional: true }) }),
  'Queries:update': field.object({ queryText }),
};
