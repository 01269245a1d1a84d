// Apart from the client's zod schemas (./resource-groups.ts) so that resource definitions can use it
// without loading them at start-up.
import type { ResourceGroupNode } from './resource-groups.js';

export function isFilterNode(node: ResourceGroupNode): node is { readonly filterName: string } {
  return 'filterName' in node;
}
