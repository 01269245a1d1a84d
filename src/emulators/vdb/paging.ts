/** How the list methods page (ListClusters, ListBackups, ListBackupSchedules): an offset in an opaque-looking token. */
import type { VdbContext } from './context.js';
import { invalidArgument, quoted } from './errors.js';
import type { WireObject } from './wire-codec.js';

/**
 * page_size (1–250, the API's rule, held before the handler) and an offset token; no page size means
 * the emulator's default (all by default).
 */
export function paginate(ctx: VdbContext, items: readonly unknown[], request: WireObject): WireObject {
  const pageSize =
    (request.pageSize as number | undefined) ?? (ctx.defaultPageSize > 0 ? ctx.defaultPageSize : undefined);
  const token = request.pageToken as string | undefined;
  let offset = 0;
  if (token !== undefined && token !== '') {
    offset = /^offset:\d+$/.test(token) ? Number(token.slice('offset:'.length)) : NaN;
    if (!Number.isInteger(offset) || offset > items.length)
      throw invalidArgument(`invalid page_token ${quoted(token)}`);
  }
  const end = pageSize === undefined ? items.length : Math.min(items.length, offset + pageSize);
  return {
    items: items.slice(offset, end),
    totalSize: items.length,
    ...(end < items.length ? { nextPageToken: `offset:${end}` } : {}),
  };
}
