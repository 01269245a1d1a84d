import {
  DEFAULT_BODY_LIMITS,
  HttpError,
  checkItemCount,
  checkLength,
  holds,
  invalid,
  json,
  noContent,
  prefixedId,
  quote,
  quoteKey,
  validate,
  type Router,
} from '../core/index.js';
import {
  KEYED_FILTER_FIELDS,
  RESOURCE_GROUP_BODIES,
  RESOURCE_GROUP_FIELDS,
  RESOURCE_GROUP_MAX_DEPTH,
  RESOURCE_GROUP_OPERATORS,
} from '../../wire/sec-contract/resource-groups.js';
import { ownEntry } from '../../../packages/framework/src/wire/own-entry.js';
import { API_PREFIX, type SecContext } from './context.js';

export const RESOURCE_GROUPS_COLLECTION = 'ResourceGroups';
const BASE = `${API_PREFIX}/${RESOURCE_GROUPS_COLLECTION}`;

interface FilterRecord {
  field: string;
  operation: string;
  values: string[];
  key?: string;
}
type NodeRecord = { filterName: string } | ExpressionRecord;
interface ExpressionRecord {
  operator: string;
  children: NodeRecord[];
}

export interface ResourceGroupRecord {
  resourceGroupGuid: string;
  name: string;
  resourceType: string;
  description: string;
  enabled: 0 | 1;
  query: { filters: Record<string, FilterRecord>; expression: ExpressionRecord };
  createdTime: string;
  createdBy: string;
  updatedTime: string;
  updatedBy: string;
  isDefaultBoolean: boolean;
}

const bodySpec = RESOURCE_GROUP_BODIES.ResourceGroups!;
const filterSpec = RESOURCE_GROUP_BODIES['ResourceGroups:filter']!;
const KEYED_FIELDS = new Set(KEYED_FILTER_FIELDS);

type GroupBody = Pick<ResourceGroupRecord, 'name' | 'resourceType' | 'description' | 'enabled' | 'query'>;

export function registerResourceGroupRoutes(router: Router, ctx: SecContext): void {
  router.document('POST', BASE, { body: bodySpec });
  router.document('PATCH', `${BASE}/:guid`, { body: bodySpec });
  const parse = (body: unknown, existing?: ResourceGroupRecord): GroupBody => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body must be an object');
    const { query, ...rest } = body as Record<string, unknown>;
    validate(bodySpec, rest, 'body', existing);
    const group = rest as Omit<GroupBody, 'query'>;
    // The filter fields depend on the type, so a type change is refused before the query is checked.
    if (existing && group.resourceType !== existing.resourceType) {
      throw invalid(`body.resourceType cannot be changed (the resource group is of type ${existing.resourceType})`);
    }
    return {
      ...group,
      description: group.description ?? '',
      query: checkQuery(query, group.resourceType, existing?.query),
    };
  };

  router.add('POST', BASE, (request) => {
    const input = parse(request.body);
    const now = ctx.clock.nowIso();
    const record: ResourceGroupRecord = {
      resourceGroupGuid: prefixedId(ctx.account.toUpperCase()),
      ...input,
      createdTime: now,
      createdBy: ctx.username,
      updatedTime: now,
      updatedBy: ctx.username,
      isDefaultBoolean: false,
    };
    return json(201, { data: ctx.store.put(RESOURCE_GROUPS_COLLECTION, record.resourceGroupGuid, record) });
  });
  router.add('GET', BASE, () => json(200, { data: ctx.store.list(RESOURCE_GROUPS_COLLECTION) }));
  router.add('GET', `${BASE}/:guid`, (request) => json(200, { data: find(ctx, request.params.guid!) }));
  router.add('PATCH', `${BASE}/:guid`, (request) => {
    const existing = find(ctx, request.params.guid!);
    const input = parse(request.body, existing);
    // An update replaces the group: a field it does not send is gone; the platform's own fields stay.
    const { resourceGroupGuid, createdTime, createdBy, isDefaultBoolean } = existing;
    const updated: ResourceGroupRecord = {
      resourceGroupGuid,
      ...input,
      createdTime,
      createdBy,
      updatedTime: ctx.clock.nowIso(),
      updatedBy: ctx.username,
      isDefaultBoolean,
    };
    return json(200, { data: ctx.store.put(RESOURCE_GROUPS_COLLECTION, existing.resourceGroupGuid, updated) });
  });
  router.add('DELETE', `${BASE}/:guid`, (request) => {
    const existing = find(ctx, request.params.guid!);
    if (existing.isDefaultBoolean) throw invalid('built-in resource groups cannot be deleted');
    ctx.store.remove(RESOURCE_GROUPS_COLLECTION, existing.resourceGroupGuid);
    return noContent();
  });
}

function find(ctx: SecContext, guid: string): ResourceGroupRecord {
  const record = ctx.store.get<ResourceGroupRecord>(RESOURCE_GROUPS_COLLECTION, guid);
  if (!record) throw new HttpError(404, `resource group ${quote(guid)} not found`);
  return record;
}

/**
 * The query as the platform checks it: known fields, bounded depth, no empty group, no dangling names.
 * On an update, fields the group `held` (set in the console) may come back as they are.
 */
function checkQuery(
  query: unknown,
  resourceType: string,
  held?: ResourceGroupRecord['query'],
): ResourceGroupRecord['query'] {
  if (typeof query !== 'object' || query === null || Array.isArray(query))
    throw invalid('body.query is required and must be an object');
  const { filters, expression, ...extra } = query as Record<string, unknown>;
  for (const [key, value] of Object.entries(extra))
    if (!holds(held, key, value)) throw invalid(`body.query.${quoteKey(key)} is not a recognised field`);
  if (typeof filters !== 'object' || filters === null || Array.isArray(filters))
    throw invalid('body.query.filters must be an object of named filters');
  const allowedFields: readonly string[] = ownEntry(RESOURCE_GROUP_FIELDS, resourceType) ?? [];
  checkItemCount(Object.keys(filters), DEFAULT_BODY_LIMITS.items, 'body.query.filters', 'filters');
  for (const [name, filter] of Object.entries(filters as Record<string, unknown>)) {
    checkLength(name, DEFAULT_BODY_LIMITS.characters, `body.query.filters[${quote(name)}] (the name)`);
    const path = `body.query.filters[${quote(name)}]`;
    validate(filterSpec, filter, path, held?.filters[name]);
    const f = filter as FilterRecord;
    if (!allowedFields.includes(f.field)) {
      throw invalid(
        `${path}.field ${quote(f.field)} is not a field of ${resourceType} resource groups; use one ` +
          `of ${allowedFields.map((x) => JSON.stringify(x)).join(', ')}`,
      );
    }
    if (KEYED_FIELDS.has(f.field) && !f.key) throw invalid(`${path}.key is required for the field ${quote(f.field)}`);
  }
  const used = new Set<string>();
  checkExpression(
    expression,
    'body.query.expression',
    1,
    filters as Record<string, FilterRecord>,
    used,
    held?.expression,
  );
  for (const name of Object.keys(filters as object)) {
    if (!used.has(name)) throw invalid(`body.query.filters[${quote(name)}] is not used in the expression`);
  }
  return { ...extra, filters: filters as Record<string, FilterRecord>, expression: expression as ExpressionRecord };
}

function checkExpression(
  node: unknown,
  path: string,
  depth: number,
  filters: Record<string, FilterRecord>,
  used: Set<string>,
  held?: unknown,
): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) throw invalid(`${path} must be an object`);
  const { operator, children, ...extra } = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(extra))
    if (!holds(held, key, value)) throw invalid(`${path}.${quoteKey(key)} is not a recognised field`);
  if (!(RESOURCE_GROUP_OPERATORS as readonly unknown[]).includes(operator)) {
    const allowed = RESOURCE_GROUP_OPERATORS.map((o) => JSON.stringify(o)).join(', ');
    throw invalid(`${path}.operator must be one of ${allowed} (got ${quote(operator)})`);
  }
  if (depth > RESOURCE_GROUP_MAX_DEPTH)
    throw invalid(
      `${path}: groups can be nested at most ${RESOURCE_GROUP_MAX_DEPTH - 1} levels below the top-level group`,
    );
  if (!Array.isArray(children) || children.length === 0)
    throw invalid(`${path}.children: each group needs at least one filter or nested group`);
  checkItemCount(children, DEFAULT_BODY_LIMITS.items, `${path}.children`);
  children.forEach((child, index) => {
    const here = `${path}.children[${index}]`;
    if (typeof child === 'object' && child !== null && 'filterName' in child) {
      const { filterName, ...rest } = child as Record<string, unknown>;
      for (const key of Object.keys(rest)) throw invalid(`${here}.${quoteKey(key)} is not a recognised field`);
      if (typeof filterName !== 'string' || !Object.hasOwn(filters, filterName))
        throw invalid(`${here}.filterName ${quote(filterName)} names no filter in body.query.filters`);
      used.add(filterName);
    } else {
      checkExpression(child, here, depth + 1, filters, used);
    }
  });
}
