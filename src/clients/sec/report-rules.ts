import type { SecHttp } from './http.js';

/** Placeholder: the methods of this API area are added with its resources (issue 3). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ReportRulesApi {}

export function reportRulesApi(_http: SecHttp): ReportRulesApi {
  return {};
}
