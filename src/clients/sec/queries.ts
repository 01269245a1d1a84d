import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, partialUpdate, placeDeclared, readingDeclared } from './declared.js';
import { envelope, optionalText } from './wire.js';

/** A query in the platform's query language, and how the platform evaluates it. */
export interface Query {
  readonly queryId: string;
  readonly queryText: string;
  /** The evaluator the platform runs the query with; "" when its data sources need none. */
  readonly evaluatorId: string;
  readonly owner: string;
  readonly lastUpdateTime: string;
  readonly lastUpdateUser: string;
  /** JSON text describing the columns of a result row. */
  readonly resultSchema: string;
}

export interface QueryInput extends Declaring {
  readonly queryId: string;
  readonly queryText: string;
  /** Omitted when empty: the platform then picks the evaluator the data sources need. */
  readonly evaluatorId?: string | undefined;
}

export interface QueryUpdate extends Declaring {
  readonly queryText: string;
}

export interface QueriesApi {
  /** ApiError 'invalid' for malformed query text (the platform's compiler message); 'conflict' when the id is taken. */
  create(input: QueryInput, options?: CallOptions): Promise<Query>;
  /**
   * Compiles a query without keeping it (`POST /Queries/validate`): ApiError 'invalid' with the
   * compiler's message where a create of it would be refused for its text or evaluator.
   */
  validate(input: QueryInput, options?: CallOptions): Promise<void>;
  /** ApiError 'not_found' when it does not exist. */
  get(queryId: string, options?: CallOptions): Promise<Query>;
  list(options?: CallOptions): Promise<Query[]>;
  /** Only the text (and what `Queries:update` declares) can change; the id and the evaluator cannot. */
  update(queryId: string, input: QueryUpdate, options?: CallOptions): Promise<Query>;
  /** ApiError 'invalid' while a policy uses the query. */
  delete(queryId: string, options?: CallOptions): Promise<void>;
}

const BASE = '/api/v2/Queries';

export { BUILT_IN_QUERY_PREFIX } from './policy-values.js';

const querySchema = readingDeclared(
  z.object({
    queryId: z.string().min(1),
    queryText: z.string(),
    evaluatorId: optionalText,
    owner: optionalText,
    lastUpdateTime: optionalText,
    lastUpdateUser: optionalText,
    resultSchema: z
      .union([z.string(), z.array(z.unknown())])
      .nullish()
      .transform((v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v))),
  }),
  'Queries',
);

const one = envelope(querySchema);
const validated = envelope(z.object({ resultSchema: z.unknown() }).loose());
const many = envelope(z.array(querySchema));

/** A create's body, and a check's: the evaluator only when one is asked for. */
const queryBody = (input: QueryInput) =>
  placeDeclared(
    {
      queryId: input.queryId,
      queryText: input.queryText,
      ...(input.evaluatorId ? { evaluatorId: input.evaluatorId } : {}),
    },
    input.declared,
  );

export function queriesApi(http: SecHttp): QueriesApi {
  const item = (method: 'GET' | 'PATCH' | 'DELETE', id: string) =>
    ({ method, path: `${BASE}/${segment(id)}`, operation: `${method} ${BASE}/{queryId}` }) as const;
  return {
    async create(input, options) {
      const body = queryBody(input);
      return (await http.json({ method: 'POST', path: BASE, operation: `POST ${BASE}`, body }, one, options)).data;
    },
    async validate(input, options) {
      const body = queryBody(input);
      const path = `${BASE}/validate`;
      await http.json({ method: 'POST', path, operation: `POST ${path}`, body }, validated, options);
    },
    async get(queryId, options) {
      return (await http.json(item('GET', queryId), one, options)).data;
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
    async update(queryId, input, options) {
      const body = placeDeclared({ queryText: input.queryText }, input.declared, partialUpdate('Queries:update'));
      return (await http.json({ ...item('PATCH', queryId), body }, one, options)).data;
    },
    async delete(queryId, options) {
      await http.empty(item('DELETE', queryId), options);
    },
  };
}
