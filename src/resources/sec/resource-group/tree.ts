/**
 * The group tree of the configuration ↔ the API's query (a filter map plus an expression tree), and
 * the rules the schema cannot express: each group needs a filter or a sub-group, filter names are
 * unique (they key the filter map), a filter tests a field of the group's resource type, and one on a
 * tag or label names its key.
 */
import {
  type AttributePath,
  attrStep,
  type Diagnostic,
  DiagnosticError,
  indexStep,
  ownEntry,
  setEntry,
} from '@keel/provider-framework';
import { isFilterNode, type ResourceGroupExpression } from '../../../clients/sec/resource-group-nodes.js';
import type { ResourceGroupFilter, ResourceGroupQuery } from '../../../clients/sec/resource-groups.js';
import {
  FILTER_FIELDS,
  KEYED_FIELDS,
  NESTED_LEVELS,
  type FilterModel,
  type GroupConfig,
  type GroupModel,
} from './schema.js';

/**
 * Every violation of the tree rules, each at the path of the offending group or filter; what is not
 * known yet is not judged.
 */
export function treeProblems(top: GroupConfig | undefined, type: string | undefined): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const fields: readonly string[] | undefined = type === undefined ? undefined : ownEntry(FILTER_FIELDS, type);
  const names = new Map<string, AttributePath>();
  const visit = (g: GroupConfig, path: AttributePath, deepest: boolean): void => {
    // A group is empty only when both its collections are known (and the deepest level has no groups).
    const groupsKnown = deepest || g.group !== undefined;
    if (g.filter !== undefined && groupsKnown && g.filter.length === 0 && (g.group ?? []).length === 0) {
      problems.push({
        severity: 'error',
        summary: 'Empty resource group',
        detail: 'Each group needs at least one `filter` or nested `group` block.',
        path,
      });
    }
    (g.filter ?? []).forEach((f, i) => {
      const at = (name: string) => [...path, attrStep('filter'), indexStep(i), attrStep(name)];
      if (fields && f.field != null && !fields.includes(f.field)) {
        const detail =
          `${JSON.stringify(f.field)} is not a field of ${type} resource groups; use one of ` +
          `${fields.map((x) => JSON.stringify(x)).join(', ')}.`;
        problems.push({ severity: 'error', summary: 'Invalid filter field', detail, path: at('field') });
      }
      if (f.field != null && KEYED_FIELDS.includes(f.field) && (f.key === null || f.key?.trim() === '')) {
        problems.push({
          severity: 'error',
          summary: 'Missing filter key',
          detail: `A filter on ${JSON.stringify(f.field)} names the tag or label key it tests: set \`key\`.`,
          path: at('key'),
        });
      }
      if (f.filter_name == null) return;
      const here = [...path, attrStep('filter'), indexStep(i), attrStep('filter_name')];
      const first = names.get(f.filter_name);
      if (first) {
        problems.push({
          severity: 'error',
          summary: 'Duplicate filter name',
          detail:
            `The filter name ${JSON.stringify(f.filter_name)} is already used by another filter of ` +
            `this resource group; filter names must be unique.`,
          path: here,
        });
      } else names.set(f.filter_name, here);
    });
    (g.group ?? []).forEach((child, i) =>
      visit(child, [...path, attrStep('group'), indexStep(i)], !('group' in child)),
    );
  };
  if (top) visit(top, [attrStep('group'), indexStep(0)], false);
  return problems;
}

export function toQuery(top: GroupModel): ResourceGroupQuery {
  const filters: Record<string, ResourceGroupFilter> = {};
  const visit = (g: GroupModel): ResourceGroupExpression => ({
    operator: g.operator ?? '',
    children: [
      ...g.filter.map((f) => {
        const name = f.filter_name ?? '';
        setEntry(filters, name, {
          field: f.field ?? '',
          operation: f.operation ?? '',
          values: f.value ?? [],
          ...(f.key ? { key: f.key } : {}),
        });
        return { filterName: name };
      }),
      ...(g.group ?? []).map(visit),
    ],
  });
  return { filters, expression: visit(top) };
}

/** The API's query as the group tree: filters first, then sub-groups, each in the API's order. */
export function fromQuery(query: ResourceGroupQuery): GroupModel {
  const visit = (e: ResourceGroupExpression, levelsBelow: number, path: string): GroupModel => {
    const filter: FilterModel[] = [];
    const group: GroupModel[] = [];
    for (const child of e.children) {
      if (isFilterNode(child)) {
        const f = Object.hasOwn(query.filters, child.filterName) ? query.filters[child.filterName] : undefined;
        if (!f)
          throw new Error(
            `the platform's resource group query names an undefined filter ${JSON.stringify(child.filterName)}`,
          );
        filter.push({
          filter_name: child.filterName,
          field: f.field,
          operation: f.operation,
          value: f.values,
          key: f.key ?? null,
        });
      } else {
        if (levelsBelow === 0) {
          throw new DiagnosticError(
            'Resource group nested too deeply',
            `The platform's query nests groups below ${path}, deeper than the ${NESTED_LEVELS} nested ` +
              `levels this provider supports.`,
          );
        }
        group.push(visit(child, levelsBelow - 1, `${path}.group[${group.length}]`));
      }
    }
    return levelsBelow === 0 ? { operator: e.operator, filter } : { operator: e.operator, filter, group };
  };
  return visit(query.expression, NESTED_LEVELS, 'group[0]');
}
