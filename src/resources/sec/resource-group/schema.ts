/**
 * The resource group schema. A query is a tree of groups: the one top-level `group` and up to three
 * levels of nested `group` blocks below it, each combining its `filter`s and sub-groups with AND or
 * OR (docs/api/sec.md, "Resource groups"). The depth limit is the schema itself: the deepest level
 * has no `group` block. Groups and filters are LIST blocks, so a diagnostic can name one, e.g.
 * `group[0].group[1]`.
 */
import {
  KEYED_FILTER_FIELDS,
  RESOURCE_GROUP_FIELDS,
  RESOURCE_GROUP_MAX_DEPTH,
  RESOURCE_GROUP_OPERATIONS,
  RESOURCE_GROUP_OPERATORS,
  RESOURCE_GROUP_TYPES,
} from '../../../wire/sec-contract/resource-groups.js';
import { checkedBy, secRules } from '../rules.js';
import { attr, block, type ModelOf, resourceSchema, validators } from '@keel/provider-framework';
import { wireFields } from '../wired-fields.js';

export { RESOURCE_GROUP_TYPES };
/** The fields a filter may test, per resource type (the platform refuses any other). */
export const FILTER_FIELDS = RESOURCE_GROUP_FIELDS;
/** Fields that test a tag or label: a filter on one names the key. */
export const KEYED_FIELDS = KEYED_FILTER_FIELDS;
export const FILTER_OPERATIONS = RESOURCE_GROUP_OPERATIONS;
/** Nested `group` levels below the top-level group. */
export const NESTED_LEVELS = RESOURCE_GROUP_MAX_DEPTH - 1;

// A filter's values are a required, non-empty list (the attribute's nonEmpty).
const FILTER_VALUES_CHECKS = [validators.nonEmpty<string[]>()];
checkedBy('ResourceGroups:filter.values', 'minItems', { checks: FILTER_VALUES_CHECKS });

const filter = block.list(
  {
    filter_name: attr.string({
      required: true,
      validate: [validators.nonEmpty()],
      description: 'A name for the filter, unique within the resource group.',
    }),
    field: attr.string({
      required: true,
      validate: secRules('ResourceGroups:filter.field'),
      description:
        'The field the filter tests; which fields exist depends on `type`, e.g. `Account`, `Region`, ' +
        '`Resource Tag` (`CLOUD_A`), `Project ID` (`CLOUD_B`), `Subscription ID` (`CLOUD_C`), ' +
        '`Image Tag` (`CONTAINER`), `Hostname` (`MACHINE`), `Cluster Name` or `Namespace` (`KUBERNETES`).',
    }),
    operation: attr.string({
      required: true,
      validate: secRules('ResourceGroups:filter.operation'),
      description: 'How the field is compared with the values.',
    }),
    value: attr.stringList({
      required: true,
      validate: FILTER_VALUES_CHECKS,
      unordered: true,
      description: 'The values the field is compared with.',
    }),
    key: attr.string({
      optional: true,
      description: 'The tag or label key, for fields that test a tag or label (such as `Resource Tag`).',
    }),
  },
  { description: 'A filter: a predicate on one field of the resources.' },
);

const operator = attr.string({
  required: true,
  validate: [validators.oneOf(...RESOURCE_GROUP_OPERATORS)],
  description: 'How the filters and nested groups of this group combine: `AND` or `OR`.',
});
const nestedDescription = 'A nested group. Each group needs at least one `filter` or nested `group`.';

const level4 = { operator, filter };
const level3 = {
  operator,
  filter,
  group: block.list(level4, { description: `${nestedDescription} This is the deepest level.` }),
};
const level2 = { operator, filter, group: block.list(level3, { description: nestedDescription }) };
const top = { operator, filter, group: block.list(level2, { description: nestedDescription }) };

/**
 * Attributes that are one field of the body as it is, by the field's path (../wired-fields.ts): the
 * contract's checks, the sending and the reading back come with the path. The others are mapped in
 * index.ts.
 */
export const wired = wireFields(
  'ResourceGroups',
  {
    id: attr.computedId('The resource group GUID.'),
    name: attr.string({
      required: true,
      validate: secRules('ResourceGroups.name', { name: true }),
      description: 'The resource group name.',
    }),
    type: attr.string({
      required: true,
      replace: true,
      validate: secRules('ResourceGroups.resourceType'),
      description:
        'The kind of resources the group selects. The platform cannot change it, so a change creates a new group.',
    }),
    description: attr.string({ optional: true, description: 'What the resource group is for.' }),
    enabled: attr.bool({
      optional: true,
      default: true,
      description: 'Whether the resource group is in use. Default `true`.',
    }),
    group: block.one(top, {
      required: true,
      description:
        `The query: a group of filters and nested groups, which may nest ${NESTED_LEVELS} ` +
        `levels deep. Each group needs at least one \`filter\` or nested \`group\`.`,
    }),
    last_updated: attr.string({
      computed: true,
      volatile: true,
      description: 'When the group was last changed (RFC 3339).',
    }),
    updated_by: attr.string({ computed: true, volatile: true, description: 'Who last changed the group.' }),
    is_default: attr.bool({ computed: true, description: 'Whether this is a built-in group of the platform.' }),
  },
  {},
);

export const schema = resourceSchema(wired.fields, {
  description:
    'A resource group: a named query over cloud, container, machine or Kubernetes resources that other ' +
    'objects (such as report rules) can refer to.',
});

export type Model = ModelOf<typeof schema.fields>;

/** One group at any level (the deepest has no `group`). */
export interface GroupModel {
  operator: string | null;
  filter: FilterModel[];
  group?: GroupModel[];
}
export interface FilterModel {
  filter_name: string | null;
  field: string | null;
  operation: string | null;
  value: string[] | null;
  key: string | null;
}

/** A group as validation sees it: what is not known yet (a `dynamic` block's `for_each`, a value) is `undefined`. */
export interface GroupConfig {
  operator?: string | null | undefined;
  filter?:
    | { filter_name?: string | null | undefined; field?: string | null | undefined; key?: string | null | undefined }[]
    | undefined;
  group?: GroupConfig[] | undefined;
}
