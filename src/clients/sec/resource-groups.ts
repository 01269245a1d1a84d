import type { SecHttp } from './http.js';

/** Placeholder: the methods of this API area are added with its resources (issue 3). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ResourceGroupsApi {}

export function resourceGroupsApi(_http: SecHttp): ResourceGroupsApi {
  return {};
}
