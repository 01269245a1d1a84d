/**
 * The platform's two searches, every page (docs/api/sec.md, "Pagination and searches"): the first
 * page answers the POST, each next one GET on the `nextPage` URL the page before gave, until it is
 * null. A census that missed a page would take an object for new, so no page is skipped. The URL must
 * be on the API's own origin and path (one elsewhere would carry the bearer token away), may not come
 * back, and there are at most MAX_SEARCH_PAGES of them: a hostile answer ends in an error, not a loop.
 */
import { z } from 'zod';
import { ApiError } from '@keel/provider-framework/client';
import type { ApiEndpoint } from './base-url.js';
import type { ApiCall, CallOptions, SecHttp } from './http.js';

/** Far beyond any account (5,000 rows a page), and a bound on what a looping answer costs. */
export const MAX_SEARCH_PAGES = 1_000;

const paging = z
  .object({ urls: z.object({ nextPage: z.string().nullable().optional() }).optional() })
  .optional()
  .nullable();

export async function searchAll<R extends z.ZodType>(
  http: SecHttp,
  endpoint: ApiEndpoint,
  search: ApiCall,
  row: R,
  options: CallOptions = {},
): Promise<z.output<R>[]> {
  const page = z.object({ data: z.array(row), paging });
  const rows: z.output<R>[] = [];
  const seen = new Set<string>();
  let call: ApiCall = search;
  for (let pages = 1; ; pages++) {
    const answer = await http.json(call, page, options);
    rows.push(...answer.data);
    const next = answer.paging?.urls?.nextPage;
    if (next === null || next === undefined || next === '') return rows;
    if (pages >= MAX_SEARCH_PAGES || seen.has(next))
      throw malformed(
        search,
        pages >= MAX_SEARCH_PAGES ? `it went on past ${MAX_SEARCH_PAGES} pages` : 'a page repeated',
      );
    seen.add(next);
    const path = pathOfNextPage(endpoint, next);
    if (path === undefined) throw malformed(search, 'its next page is not on the API it was asked');
    call = { method: 'GET', path, operation: `GET ${search.operation.replace(/^POST /, '')}/{page}` };
  }
}

/** The path (below the prefix) a `nextPage` URL names, when it is the API's own; undefined otherwise. */
export function pathOfNextPage(endpoint: ApiEndpoint, next: string): string | undefined {
  let url: URL;
  try {
    url = new URL(next, `${endpoint.origin}/`);
  } catch {
    return undefined;
  }
  const prefix = `${endpoint.pathPrefix}/api/v2/`;
  if (url.origin !== endpoint.origin || !url.pathname.startsWith(prefix) || url.username || url.password)
    return undefined;
  return `${url.pathname.slice(endpoint.pathPrefix.length)}${url.search}`;
}

function malformed(search: ApiCall, why: string): ApiError {
  return new ApiError(`the search answered pages that cannot be followed: ${why}`, {
    code: 'malformed_response',
    operation: search.operation,
  });
}
