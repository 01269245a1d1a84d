/**
 * The clusters' own endpoints: the database each healthy cluster serves, as far as a user's smoke
 * test reaches it with a database API key. The platform gives each cluster a URL on its own host;
 * here every cluster is a path of one loopback server, `http://127.0.0.1:PORT/clusters/<id>`, which
 * the management API hands out as the cluster's URL, so that what a configuration does with that URL
 * and a key (the ephemeral key example curls it) works against the emulator as against the platform.
 *
 * - `GET <url>/` answers the database's greeting; `GET <url>/collections` its collections (none:
 *   the emulator keeps no data).
 * - Every call needs `api-key: <secret>` of a database API key of that cluster that has not expired,
 *   or of a legacy key attached to it: 401 without one, 403 with another's.
 * - A cluster that is not healthy (provisioning, suspended) answers 503; an unknown one 404.
 *
 * The server is the emulators' shared HTTP core (src/emulators/core/http-server.ts), with its limits.
 */
import {
  FaultInjector,
  HttpError,
  json,
  RequestLog,
  Router,
  startHttpServer,
  type RunningHttpServer,
} from '../core/index.js';
import type { VdbContext } from './context.js';
import { AUTH_KEYS, DATABASE_API_KEYS } from './keys.js';
import type { AuthKey, Cluster, DatabaseApiKey } from './records.js';
import { refreshCluster } from './clusters.js';

/** The header a database API key travels in. */
export const DATABASE_KEY_HEADER = 'api-key';

/** Starts the endpoints' server; the cluster URLs point at it from then on (`ctx.databaseEndpoints`). */
export async function startDatabaseEndpoints(ctx: VdbContext): Promise<RunningHttpServer & { log: RequestLog }> {
  const router = new Router();
  const cluster = (id: string): Cluster => {
    const found = refreshCluster(ctx, id);
    if (!found) throw new HttpError(404, `no cluster ${id}`);
    if (found.state?.phase !== 'CLUSTER_PHASE_HEALTHY')
      throw new HttpError(503, `cluster ${id} is not serving (${found.state?.phase ?? 'no phase'})`);
    return found;
  };
  const authorized = (clusterId: string, headers: Record<string, string | string[] | undefined>): void => {
    const secret = headers[DATABASE_KEY_HEADER];
    if (typeof secret !== 'string' || secret === '') throw new HttpError(401, `missing ${DATABASE_KEY_HEADER} header`);
    const now = ctx.clock.now();
    const v2 = ctx.store
      .list<DatabaseApiKey>(DATABASE_API_KEYS.name)
      .find((k) => k.key === secret && (!k.expiresAt || Date.parse(k.expiresAt) > now));
    const v1 = ctx.store.list<AuthKey>(AUTH_KEYS.name).find((k) => k.key === secret);
    if (!v2 && !v1) throw new HttpError(401, 'unknown or expired API key');
    if (v2?.clusterId !== clusterId && !v1?.clusterIds.includes(clusterId))
      throw new HttpError(403, `the API key has no access to cluster ${clusterId}`);
  };
  router.add('GET', '/clusters/:clusterId', (request) => {
    const { id } = cluster(request.params.clusterId!);
    authorized(id, request.headers);
    return json(200, { title: 'vdb emulator database', version: 'emulated' });
  });
  router.add('GET', '/clusters/:clusterId/collections', (request) => {
    const { id } = cluster(request.params.clusterId!);
    authorized(id, request.headers);
    return json(200, { result: { collections: [] }, status: 'ok', time: 0 });
  });
  const log = new RequestLog(new Set([DATABASE_KEY_HEADER]));
  const server = await startHttpServer({ router, log, faults: new FaultInjector() });
  ctx.databaseEndpoints = server.url;
  return { ...server, log };
}
