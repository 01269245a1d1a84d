/**
 * A query in the platform's query language: what custom policies (`sec_policy`,
 * `sec_policy_compliance`) evaluate. The platform compiles the text on every create and update and
 * refuses malformed text with its compiler's message (line and column).
 */
import {
  attr,
  attrStep,
  type Diagnostics,
  isApiError,
  type ModelOf,
  resource,
  type ResourceDef,
  resourceSchema,
  type Validator,
  validators,
  listedInOneCall,
} from '@keel/provider-framework';
import type { SecClient } from '../../clients/sec/index.js';
import { BUILT_IN_QUERY_PREFIX } from '../../clients/sec/policy-values.js';
import type { Query } from '../../clients/sec/queries.js';
import { idIdentity } from '../shared/identity.js';
import { checkedBy, secMaxCharacters, secRules } from './rules.js';
import { wireFields } from './wired-fields.js';

// The text's bound is the create's (`query` below); a check and an update send the same text.
for (const body of ['Queries:validate', 'Queries:update'])
  checkedBy(`${body}.queryText`, 'maxLength', { sameAs: 'Queries.queryText' });
checkedBy('Queries:validate.evaluatorId', 'oneOf', { sameAs: 'Queries.evaluatorId' });

export { QUERY_EVALUATORS } from '../../wire/sec-contract/queries.js';

/** Where each section starts: its keyword and opening brace. */
const SOURCE = /\bsource\s*\{/i;
const FILTER = /\bfilter\s*\{/i;
const RETURN = /\breturn(\s+distinct)?\s*\{/i;
const FORM = 'a query is `{ source { ... } [filter { ... }] return { ... } }`';

/**
 * The shape of a query at plan time: braces balanced (outside quoted text), and a `source` section,
 * then an optional `filter` section, then a `return` section. The platform's compiler judges the
 * rest (data sources, fields, conditions) when the query is created or changed.
 */
const queryShape: Validator<string> = {
  description:
    'query text with a `source` section, an optional `filter` section and a `return` section, in that order, ' +
    'with balanced braces',
  samples: [
    '{ source { CloudATrailRawEvents } filter { ERROR_CODE is null } return { INSERT_ID, EVENT } }',
    "{\n  source { CloudATrailRawEvents }\n  filter { EVENT_NAME = 'ConsoleLogin' }\n" +
      '  return distinct { EVENT_TIME, EVENT }\n}\n',
    '{ source { CloudATrailRawEvents } return { INSERT_ID } }',
  ],
  check(text) {
    let depth = 0;
    let quote: string | null = null;
    let outside = '';
    for (const c of text) {
      if (quote) {
        if (c === quote) quote = null;
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      else if (c === '{') depth++;
      else if (c === '}' && --depth < 0) return 'has a "}" that closes nothing';
      outside += c;
    }
    if (quote) return `has unterminated quoted text (${quote})`;
    if (depth !== 0) return `has ${depth} "{" not closed`;
    const source = SOURCE.exec(outside);
    if (!source) return `has no source section; ${FORM}`;
    const rest = outside.slice(source.index + source[0].length);
    const returned = RETURN.exec(rest);
    if (!returned) return `has no return section after the source section; ${FORM}`;
    const filter = FILTER.exec(rest);
    if (filter && filter.index > returned.index) return `has its filter section after the return section; ${FORM}`;
    return undefined;
  },
};

/** The id the older syntax writes before the query's first "{" (`My_Query { source { … } … }`), if any. */
const NAMED_IN_TEXT = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\{/;

/** A query text that names a query must name this one: the platform would refuse the mismatch. */
function namedQueryProblems(
  config: { query_id?: string | null | undefined; query?: string | null | undefined },
  diags: Diagnostics,
): void {
  if (typeof config.query !== 'string' || typeof config.query_id !== 'string') return;
  const named = NAMED_IN_TEXT.exec(config.query)?.[1];
  if (named === undefined || named === config.query_id) return;
  diags.error(
    'Query id mismatch',
    `The query text names the query \`${named}\` before its first "{" (the older syntax), but ` +
      `\`query_id\` is \`${config.query_id}\`. Remove the name from the text, or make it ` +
      `\`${config.query_id}\`.`,
    [attrStep('query')],
  );
}

/**
 * Attributes that are one field of the body as it is, by the field's path (wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped below.
 */
const wired = wireFields(
  'Queries',
  {
    id: attr.computedId('The query id (the same as `query_id`).'),
    query_id: attr.string({
      required: true,
      replace: true,
      validate: secRules('Queries.queryId', { samples: ['TF_Query', 'Custom_Buckets_Public'] }),
      description:
        'The id of the query, unique in the account. The id of a query cannot change, so a change creates a new ' +
        'query. The platform refuses ' +
        'to delete a query that a policy evaluates, and a replacement deletes the old object before it ' +
        'creates the new one unless told otherwise: give a query that policies use ' +
        '`lifecycle { create_before_destroy = true }`, ' +
        'so that a new id makes the new query, moves the policies to it, and only then deletes the old one.',
    }),
    query: attr.string({
      required: true,
      maxCharacters: secMaxCharacters('Queries.queryText'),
      validate: [validators.nonEmpty(), queryShape],
      description:
        'The query text: `{ source { <data source> } [filter { <condition> }] ' +
        'return [distinct] { <column>, ... } }`, ' +
        'optionally preceded by the query id; the filter may be left out, and a column is a field or an expression ' +
        "named with `as` (`'text' as REASON`). The platform compiles it on every create and update and refuses " +
        "malformed text (an unknown data source or field, a missing section) with its compiler's message.",
    }),
    evaluator_id: attr.string({
      optional: true,
      computed: true,
      replace: true,
      validate: secRules('Queries.evaluatorId'),
      description:
        'The evaluator that runs the query: `CloudATrail` for queries of trail events; none for configuration ' +
        'data. When not set the platform picks the one the data sources need. The evaluator of a query cannot ' +
        'change, so a change creates a new query; for a query that policies use, change `query_id` with it ' +
        '(see `query_id`: the new query is made while the old one, with its id, still exists).',
    }),
    owner: attr.string({ computed: true, description: 'The user who owns the query.' }),
    updated_time: attr.string({ computed: true, volatile: true, description: 'When the query was last changed.' }),
    updated_by: attr.string({ computed: true, volatile: true, description: 'Who last changed the query.' }),
    result_schema: attr.string({
      computed: true,
      changesWith: ['query'],
      description: 'The columns of a result row, as JSON: `[{"name": ..., "dataType": ...}]`.',
    }),
  },
  {},
  { update: 'Queries:update' },
);

const schema = resourceSchema(wired.fields, {
  description:
    "A query in the platform's query language, which custom policies evaluate (`sec_policy.query_id`, " +
    '`sec_policy_compliance.query_id`).',
});
type Model = ModelOf<typeof schema.fields>;

const fromApi = (q: Query): Partial<Model> => ({
  id: q.queryId,
  query_id: q.queryId,
  query: q.queryText,
  evaluator_id: q.evaluatorId === '' ? null : q.evaluatorId,
  owner: q.owner,
  updated_time: q.lastUpdateTime,
  updated_by: q.lastUpdateUser,
  result_schema: q.resultSchema,
  ...(wired.read(q) as Partial<Model>),
});

const idOf = (m: Model) => m.id ?? m.query_id;

const query = resource<typeof schema.fields, SecClient>({
  typeName: 'sec_query',
  schema,
  importIdDescription: 'the query id',
  importState: async (id) => ({ id, query_id: id }),
  identity: idIdentity('The query id.'),
  list: {
    schema: resourceSchema(
      {},
      {
        description:
          `Lists the account's own queries (the platform's, whose ids start ` +
          `\`${BUILT_IN_QUERY_PREFIX}\`, cannot be managed); the API offers no filter.`,
      },
    ),
    list: async (_filters, ctx) =>
      (await ctx.client.queries.list({ signal: ctx.signal }))
        .filter((q) => !q.queryId.startsWith(BUILT_IN_QUERY_PREFIX))
        .map(fromApi),
    displayName: (m) => m.query_id,
  },
  validate: namedQueryProblems,
  // The query language is the platform's: its compiler judges the text at plan, as a create would.
  async checkAgainstCatalogue(config, ctx) {
    const [queryId, queryText] = [config.query_id, config.query];
    if (queryId === undefined || queryText === undefined || config.evaluator_id === undefined) return;
    try {
      const input = {
        queryId,
        queryText,
        evaluatorId: config.evaluator_id ?? undefined,
        declared: wired.declared(config as Record<string, unknown>),
      };
      await ctx.client.queries.validate(input, { signal: ctx.signal });
    } catch (err) {
      if (!isApiError(err, 'invalid')) throw err;
      const at = err.detail.startsWith('body.evaluatorId') ? 'evaluator_id' : 'query';
      ctx.diags.error('Invalid query', `The platform refuses the query: ${err.detail}`, [attrStep(at)]);
    }
  },
  create: async (plan, ctx) =>
    fromApi(
      await ctx.client.queries.create(
        {
          queryId: plan.query_id,
          queryText: plan.query,
          evaluatorId: plan.evaluator_id ?? undefined,
          declared: wired.declared(plan),
        },
        { signal: ctx.signal },
      ),
    ),
  // A query is known by its id, which the configuration names and the platform keeps unique.
  findCreated: {
    key: 'its query id',
    uniqueKey: true,
    describe: (plan) => `the query ${JSON.stringify(plan.query_id)}`,
    list: async (_plan, ctx) => (await ctx.client.queries.list({ signal: ctx.signal })).map(fromApi),
    holdsKey: (plan, found) => found.query_id === plan.query_id,
    importId: (found) => found.query_id ?? '',
  },
  read: async (prior, ctx) => fromApi(await ctx.client.queries.get(idOf(prior), { signal: ctx.signal })),
  readsByListing: {
    pages: listedInOneCall((ctx) => ctx.client.queries.list({ signal: ctx.signal })),
    idOf: (query) => query.queryId,
    read: fromApi,
  },
  update: async (plan, prior, ctx) =>
    fromApi(
      await ctx.client.queries.update(
        idOf(prior),
        { queryText: plan.query, declared: wired.declared(plan) },
        { signal: ctx.signal },
      ),
    ),
  delete: async (prior, ctx) => ctx.client.queries.delete(idOf(prior), { signal: ctx.signal }),
});

export const queryResources: ResourceDef<any, SecClient>[] = [query];
