import type { ResourceDef } from '../../engine/contracts.js';
import type { SecClient } from '../../clients/sec/index.js';

/** Placeholder: the resources of this family are added in issue 3. */
export const teamMemberResources: ResourceDef<any, SecClient>[] = [];
