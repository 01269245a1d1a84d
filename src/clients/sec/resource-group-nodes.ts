// The expression tree of a resource group's query, apart from the client's zod schemas
// (./resource-groups.ts) so that resource definitions can use it without loading them at start-up.

/** A node of the query's expression tree: a reference to a named filter, or a group of nodes. */
export type ResourceGroupNode = { readonly filterName: string } | ResourceGroupExpression;

export interface ResourceGroupExpression {
  readonly operator: string;
  readonly children: ResourceGroupNode[];
}

export function isFilterNode(node: ResourceGroupNode): node is { readonly filterName: string } {
  return 'filterName' in node;
}
