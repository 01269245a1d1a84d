/** How the list methods page (ListClusters, ListBackups, ListBackupSchedules): an offset in an opaque-looking token. */
import type { VdbContext } from './context.js';
import { Violations, invalidArgument, quoted } from './errors.js';
import { LIMITS } from './limits.js';
import * as rule from './rules.js';
import type { WireObject } from './wire-codec.js';

/** page_size 1–250 and an offset token; no page size means the emulator's default (all by default). */
export function paginate(ctx: VdbContext, items: readonly unknown[], request: WireObject): WireObject {
  const pageSize =
    (request.pageSize as number | undefined) ?? (ctx.defaultPageSize > 0 ? ctx.defaultPageSize : undefined);
  if (request.pageSize !== undefined) {
    const v = new Violations();
    rule.range(v, 'page_size', request.pageSize as number, 1, LIMITS.pageSize, 'int32');
    v.throwIfAny();
  }
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
