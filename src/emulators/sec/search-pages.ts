/**
 * The searches' pages (docs/api/sec.md, "Pagination and searches"): a search answers its first
 * `pageSize` matches with a `nextPage` URL on the emulator's own origin, and GET on that URL answers
 * the next page, until `nextPage` is null. The matches are taken when the search is made, so that
 * pages never skip or repeat an object a change in between moved. The cursors kept are bounded: the
 * newest MAX_CURSORS, so memory follows what is stored, not how often a client searches.
 */
import { HttpError, json, randomHex, type EmulatorRequest, type EmulatorResponse, type Router } from '../core/index.js';

/** A search answers this many matches at once unless the emulator is told otherwise. */
export const DEFAULT_SEARCH_PAGE_SIZE = 5_000;
/** Searches whose later pages can still be read. */
const MAX_CURSORS = 256;

export class SearchPages {
  private readonly cursors = new Map<string, { readonly rows: readonly unknown[]; readonly base: string }>();

  constructor(readonly pageSize: number = DEFAULT_SEARCH_PAGE_SIZE) {
    if (!Number.isSafeInteger(pageSize) || pageSize < 1)
      throw new RangeError('the search page size must be at least 1');
  }

  /** The answer to a search of `base` (its collection's path) that matched `rows`. */
  first(request: EmulatorRequest, base: string, rows: readonly unknown[]): EmulatorResponse {
    return this.page(request, base, rows, 0);
  }

  /** GET `<base>/search/pages/:cursor`: the page a `nextPage` URL names. */
  register(router: Router, base: string): void {
    router.add('GET', `${base}/search/pages/:cursor`, (request) => {
      const [id, offset] = (request.params.cursor ?? '').split('.');
      const held = this.cursors.get(id ?? '');
      const at = Number(offset);
      if (!held || held.base !== base || !Number.isSafeInteger(at) || at <= 0 || at >= held.rows.length)
        throw new HttpError(404, 'no such page of search results (it may have expired: search again)');
      return this.page(request, base, held.rows, at, id);
    });
  }

  private page(
    request: EmulatorRequest,
    base: string,
    rows: readonly unknown[],
    at: number,
    cursor?: string,
  ): EmulatorResponse {
    const end = at + this.pageSize;
    let nextPage: string | null = null;
    if (end < rows.length) {
      const id = cursor ?? randomHex(16);
      if (!this.cursors.has(id)) {
        this.cursors.set(id, { rows, base });
        if (this.cursors.size > MAX_CURSORS) this.cursors.delete(this.cursors.keys().next().value!);
      }
      nextPage = `http://${hostOf(request)}${base}/search/pages/${id}.${end}`;
    }
    const data = rows.slice(at, end);
    return json(200, { data, paging: { rows: data.length, totalRows: rows.length, urls: { nextPage } } });
  }
}

function hostOf(request: EmulatorRequest): string {
  const host = request.headers.host;
  return typeof host === 'string' && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? host : '127.0.0.1';
}
