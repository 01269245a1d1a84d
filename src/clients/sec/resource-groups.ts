import { z } from 'zod';
import { segment, type CallOptions, type SecHttp } from './http.js';
import { type Declaring, modelledWithDeclared, placeDeclared, readingDeclared } from './declared.js';
import { modelledBy, replaceKeeping } from './replace.js';
import { envelope, flag, keyedRecord, leavesUnread, optionalText, toFlag } from './wire.js';
import { setEntry } from '@keel/provider-framework/client';
import { isFilterNode, type ResourceGroupExpression, type ResourceGroupNode } from './resource-group-nodes.js';

/** One named predicate of a resource group query. */
export interface ResourceGroupFilter {
  readonly field: string;
  readonly operation: string;
  readonly values: string[];
  /** Tag or label key, for fields that take one. */
  readonly key?: string | undefined;
}

/** Filters by name, combined by the expression tree. */
export interface ResourceGroupQuery {
  readonly filters: Record<string, ResourceGroupFilter>;
  readonly expression: ResourceGroupExpression;
}

export interface ResourceGroup {
  readonly resourceGroupGuid: string;
  readonly name: string;
  readonly resourceType: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly query: ResourceGroupQuery;
  /** RFC 3339. */
  readonly updatedTime: string;
  readonly updatedBy: string;
  /** A built-in group of the platform. */
  readonly isDefaultBoolean: boolean;
}

/** What create and update send; an update replaces the whole group. */
export interface ResourceGroupInput extends Declaring {
  readonly name: string;
  readonly resourceType: string;
  readonly description: string;
  readonly enabled: boolean;
  readonly query: ResourceGroupQuery;
}

export interface ResourceGroupsApi {
  create(input: ResourceGroupInput, options?: CallOptions): Promise<ResourceGroup>;
  /** ApiError 'not_found' when it does not exist. */
  get(guid: string, options?: CallOptions): Promise<ResourceGroup>;
  update(guid: string, input: ResourceGroupInput, options?: CallOptions): Promise<ResourceGroup>;
  delete(guid: string, options?: CallOptions): Promise<void>;
  list(options?: CallOptions): Promise<ResourceGroup[]>;
}

const BASE = '/api/v2/ResourceGroups';

const filterSchema = z.object({
  field: z.string(),
  operation: z.string(),
  values: z.array(z.string()),
  key: z
    .string()
    .nullish()
    .transform((v) => (v ? v : undefined)),
});

const nodeSchema: z.ZodType<ResourceGroupNode> = z.lazy(() =>
  z.union([z.object({ filterName: z.string() }), expressionSchema]),
);
const expressionSchema: z.ZodType<ResourceGroupExpression> = z.lazy(() =>
  z.object({
    operator: z.string(),
    children: z.array(nodeSchema),
  }),
);

const groupSchema = readingDeclared(
  leavesUnread(
    z.object({
      resourceGroupGuid: z.string().min(1),
      name: z.string(),
      resourceType: z.string(),
      description: optionalText,
      enabled: flag,
      // Groups of the older, field-based form have no query; this client manages only the newer form.
      query: z.object({ filters: keyedRecord(filterSchema), expression: expressionSchema }),
      updatedTime: optionalText,
      updatedBy: optionalText,
      isDefaultBoolean: z
        .boolean()
        .nullish()
        .transform((v) => v ?? false),
    }),
    {
      createdBy: 'who made the group is no setting of it; the resource shows who changed it last (updated_by)',
      createdTime: 'when the group was made is no setting of it; the resource shows who changed it last (updated_by)',
    },
  ),
  'ResourceGroups',
).transform((group) => ({ ...group, query: withExpressionNames(group.query) }));

/**
 * The platform may re-case the keys of the filter map; the expression's spelling is the one the
 * configuration uses, so filters are re-keyed by it (docs/api/sec.md, "Filter names").
 */
function withExpressionNames(query: ResourceGroupQuery): ResourceGroupQuery {
  const filters: Record<string, ResourceGroupFilter> = {};
  const visit = (expression: ResourceGroupExpression): void => {
    for (const child of expression.children) {
      if (!isFilterNode(child)) {
        visit(child);
        continue;
      }
      const exact = Object.hasOwn(query.filters, child.filterName) ? query.filters[child.filterName] : undefined;
      const wanted = child.filterName.toLowerCase();
      const found = exact ?? Object.entries(query.filters).find(([name]) => name.toLowerCase() === wanted)?.[1];
      if (found) setEntry(filters, child.filterName, found);
    }
  };
  visit(query.expression);
  return { filters, expression: query.expression };
}

const one = envelope(groupSchema);
const many = envelope(z.array(groupSchema));

function groupBody(input: ResourceGroupInput): Record<string, unknown> {
  const filters = Object.fromEntries(
    Object.entries(input.query.filters).map(([name, f]) => [
      name,
      { field: f.field, operation: f.operation, values: [...f.values], ...(f.key ? { key: f.key } : {}) },
    ]),
  );
  return placeDeclared(
    {
      name: input.name,
      resourceType: input.resourceType,
      description: input.description,
      enabled: toFlag(input.enabled),
      query: { filters, expression: input.query.expression },
    },
    input.declared,
  );
}

export function resourceGroupsApi(http: SecHttp): ResourceGroupsApi {
  const path = (guid: string) => `${BASE}/${segment(guid)}`;
  return {
    async create(input, options) {
      return (
        await http.json({ method: 'POST', path: BASE, operation: `POST ${BASE}`, body: groupBody(input) }, one, options)
      ).data;
    },
    async get(guid, options) {
      return (
        await http.json({ method: 'GET', path: path(guid), operation: `GET ${BASE}/{resourceGroupGuid}` }, one, options)
      ).data;
    },
    async update(guid, input, options) {
      const call = {
        method: 'PATCH',
        path: path(guid),
        operation: `PATCH ${BASE}/{resourceGroupGuid}`,
        body: groupBody(input),
      } as const;
      return (
        await replaceKeeping(http, call, modelledWithDeclared(modelledBy(groupSchema), input.declared), one, options)
      ).data;
    },
    async delete(guid, options) {
      await http.empty(
        { method: 'DELETE', path: path(guid), operation: `DELETE ${BASE}/{resourceGroupGuid}` },
        options,
      );
    },
    async list(options) {
      return (await http.json({ method: 'GET', path: BASE, operation: `GET ${BASE}` }, many, options)).data;
    },
  };
}
