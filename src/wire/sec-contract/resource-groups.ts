import { field, type ContractBodies } from './language.js';

export const RESOURCE_GROUP_TYPES = [
  'CLOUD_A',
  'CLOUD_B',
  'CLOUD_C',
  'CLOUD_D',
  'CONTAINER',
  'MACHINE',
  'KUBERNETES',
] as const;
export type ResourceGroupType = (typeof RESOURCE_GROUP_TYPES)[number];

/** Fields a filter may test, per resource type (neutral names, docs/api/sec.md, "Filter fields"). */
export const RESOURCE_GROUP_FIELDS: Readonly<Record<ResourceGroupType, readonly string[]>> = {
  CLOUD_A: ['Account', 'Organization ID', 'Region', 'Resource Tag'],
  CLOUD_B: ['Organization ID', 'Organization Name', 'Folder', 'Project ID', 'Project Name', 'Region', 'Resource Label'],
  CLOUD_C: ['Tenant ID', 'Tenant Name', 'Subscription ID', 'Subscription Name', 'Region', 'Resource Tag'],
  CLOUD_D: ['Compartment ID', 'Compartment Name', 'Region', 'Resource Tag'],
  CONTAINER: ['Image Registry', 'Image Repo', 'Image Tag', 'Container Label'],
  MACHINE: ['Hostname', 'External IP', 'Internal IP', 'Machine Tag'],
  KUBERNETES: ['Cloud A Account', 'Cloud A Region', 'Cluster Name', 'Namespace'],
};
/** Fields that test a tag or label, so a filter on them names its key. */
export const KEYED_FILTER_FIELDS: readonly string[] = [
  'Resource Tag',
  'Resource Label',
  'Container Label',
  'Machine Tag',
];
export const RESOURCE_GROUP_OPERATIONS = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
  'INCLUDES',
  'NOT_INCLUDES',
] as const;
/** How a group of the query's expression combines its filters and nested groups. */
export const RESOURCE_GROUP_OPERATORS = ['AND', 'OR'] as const;
/** The top-level group plus three nested levels. */
export const RESOURCE_GROUP_MAX_DEPTH = 4;

const readOnly = { optional: true, allowEmpty: true } as const;

/**
 * The request body of a resource group, a create or a whole replacement alike, and one filter of its
 * query (`query.filters` maps free names to filters; `query.expression` is a tree, checked in the
 * emulator's code as the language cannot say a recursive shape).
 */
export const RESOURCE_GROUP_BODIES: ContractBodies = {
  ResourceGroups: field.object({
    name: field.string(),
    resourceType: field.string({ oneOf: RESOURCE_GROUP_TYPES }),
    description: field.string({ optional: true, allowEmpty: true }),
    enabled: field.flag(),
    // Read-only fields a client may send back; ignored.
    resourceGroupGuid: field.string(readOnly),
    createdTime: field.string(readOnly),
    createdBy: field.string(readOnly),
    updatedTime: field.string(readOnly),
    updatedBy: field.string(readOnly),
    isDefaultBoolean: field.boolean({ optional: true }),
  }),
  'ResourceGroups:filter': field.object({
    // Which of these a filter may test depends on the group's type (RESOURCE_GROUP_FIELDS).
    field: field.string({ oneOf: [...new Set(Object.values(RESOURCE_GROUP_FIELDS).flat())] }),
    operation: field.string({ oneOf: RESOURCE_GROUP_OPERATIONS }),
    values: field.array(field.string(), { minItems: 1 }),
    key: field.string({ optional: true, allowEmpty: true }),
  }),
};
